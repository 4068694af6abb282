// PDF text (poppler-qt6) from a pdfkit fixture, a PDF written by hand here, and
// encrypted or damaged files.
#include "data/Reader.h"

#include "DataFixtures.h"

#include <QFile>
#include <QtTest>

using namespace ph::data;
using ph::test::fixture;

namespace {

// A minimal one-page PDF with the xref offsets computed.
QByteArray handWrittenPdf(const QByteArray &text)
{
    const QByteArray stream = "BT /F1 18 Tf 20 100 Td (" + text + ") Tj ET";
    const QList<QByteArray> objects{
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        "<< /Length " + QByteArray::number(stream.size()) + " >>\nstream\n" + stream +
            "\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    };
    QByteArray pdf = "%PDF-1.4\n";
    QList<qsizetype> offsets;
    for (qsizetype i = 0; i < objects.size(); ++i) {
        offsets << pdf.size();
        pdf += QByteArray::number(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
    }
    const qsizetype xref = pdf.size();
    pdf += "xref\n0 " + QByteArray::number(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (const qsizetype o : offsets)
        pdf += QByteArray::number(o).rightJustified(10, '0') + " 00000 n \n";
    pdf += "trailer\n<< /Size " + QByteArray::number(objects.size() + 1) +
           " /Root 1 0 R >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    return pdf;
}

} // namespace

class tst_PdfText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsEveryPageSeparatedByFormFeeds();
    void readsAHandWrittenPdf();
    void rejectsBadPdfs_data();
    void rejectsBadPdfs();
    void refusesPdfsOverTheByteLimit();
};

void tst_PdfText::readsEveryPageSeparatedByFormFeeds()
{
    const auto text = Reader().pdfText(fixture("two_pages.pdf"));
    QVERIFY2(text.ok(), qPrintable(text.ok() ? QString() : text.error().message));
    const QStringList pages = text->split(QLatin1Char('\f'));
    QCOMPARE(pages.size(), 2);
    QVERIFY2(pages[0].contains(QLatin1String("Harbour Supplies")), qPrintable(pages[0]));
    QVERIFY2(pages[0].contains(QLatin1String("Rope, 10 m: 12.50")), qPrintable(pages[0]));
    QVERIFY(!pages[0].contains(QLatin1String("Fender")));
    QVERIFY2(pages[1].contains(QLatin1String("Second page")), qPrintable(pages[1]));
    QVERIFY2(pages[1].contains(QLatin1String("Fender: 24.00")), qPrintable(pages[1]));
}

void tst_PdfText::readsAHandWrittenPdf()
{
    const auto text = Reader().pdfText(handWrittenPdf("Hello from a hand-written PDF"));
    QVERIFY2(text.ok(), qPrintable(text.ok() ? QString() : text.error().message));
    QCOMPARE(text->trimmed(), QStringLiteral("Hello from a hand-written PDF"));
}

void tst_PdfText::rejectsBadPdfs_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("refuses a password-protected PDF")
        << fixture("encrypted.pdf") << int(DataError::Kind::Encrypted)
        << "the PDF is password-protected, which is not supported";
    QTest::newRow("refuses what is not a PDF")
        << QByteArray("<html>not a pdf</html>") << int(DataError::Kind::Malformed)
        << "not a PDF: it does not start with %PDF-";
    QTest::newRow("refuses an empty file") << QByteArray() << int(DataError::Kind::Malformed)
                                           << "not a PDF: it does not start with %PDF-";
    QTest::newRow("refuses a damaged PDF")
        << QByteArray("%PDF-1.4\n\x01\x02garbage that is no PDF structure at all\n")
        << int(DataError::Kind::Malformed) << "the PDF is damaged and cannot be read";
}

void tst_PdfText::rejectsBadPdfs()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, kind);
    QFETCH(QString, message);
    const auto text = Reader().pdfText(bytes);
    QVERIFY2(!text.ok(), qPrintable(text.ok() ? *text : QString()));
    QCOMPARE(int(text.error().kind), kind);
    QCOMPARE(text.error().message, message);
}

void tst_PdfText::refusesPdfsOverTheByteLimit()
{
    Limits limits;
    limits.maxBytes = 100;
    const auto text = Reader(limits).pdfText(fixture("two_pages.pdf"));
    QVERIFY(!text.ok());
    QCOMPARE(text.error().kind, DataError::Kind::TooLarge);
}

QTEST_GUILESS_MAIN(tst_PdfText)
#include "tst_pdftext.moc"
