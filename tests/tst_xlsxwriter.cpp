// writeXlsx (libxlsxwriter): what a workbook holds, read back by our reader and by
// looking at its XML parts.
#include "SheetText.h"
#include "ZipBuilder.h"
#include "data/Reader.h"
#include "data/XlsxWriter.h"

#include <QtTest>

using namespace ph::data;
using ph::test::columnsText;
using ph::test::compactJson;
using ph::test::rowsText;
using ph::test::zipPart;

namespace {

Sheet sample()
{
    Sheet s;
    s.title = QStringLiteral("Products");
    s.columns = {{QStringLiteral("name"), ColumnType::String},
                 {QStringLiteral("qty"), ColumnType::Integer},
                 {QStringLiteral("price"), ColumnType::Number},
                 {QStringLiteral("inStock"), ColumnType::Boolean},
                 {QStringLiteral("added"), ColumnType::Date},
                 {QStringLiteral("seen"), ColumnType::DateTime},
                 {QStringLiteral("meta"), ColumnType::Json}};
    s.rows = {
        QJsonArray{QStringLiteral("Rope, 10 m"), 3, 12.5, true, QStringLiteral("2024-03-01"),
                   QStringLiteral("2024-03-01T09:30:00"), QJsonObject{{QStringLiteral("a"), 1}}},
        QJsonArray{QStringLiteral("Fender 東京 🚢"), QJsonValue(), -0.25, false,
                   QStringLiteral("1999-12-31"), QStringLiteral("2000-01-01T23:59:59.5Z"),
                   QJsonArray{1, QStringLiteral("x")}},
        QJsonArray{QJsonValue(), 1000000, 1e-7, QJsonValue(), QJsonValue(), QJsonValue(),
                   QJsonValue()},
    };
    return s;
}

} // namespace

class tst_XlsxWriter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripsThroughTheReader();
    void writesOneWorksheetPerSheet();
    void writesStylesDatesAndWidths();
    void sanitisesSheetNames_data();
    void sanitisesSheetNames();
    void cutsStringsAtExcelsLimit();
    void writesAnEmptyWorkbook();
    void refusesMoreColumnsThanExcelHolds();
};

void tst_XlsxWriter::roundTripsThroughTheReader()
{
    const auto bytes = writeXlsx({sample()});
    QVERIFY2(bytes.ok(), qPrintable(bytes.ok() ? QString() : bytes.error().message));
    QVERIFY(bytes->startsWith("PK\x03\x04"));
    const auto sheet = Reader().parse(*bytes, Format::Xlsx, QString());
    QVERIFY2(sheet.ok(), qPrintable(sheet.ok() ? QString() : sheet.error().message));
    QCOMPARE(sheet->title, QStringLiteral("Products"));
    // Dates come back as dates (Excel keeps no time zone); JSON as its text.
    QCOMPARE(columnsText(*sheet), QStringLiteral("name:string,qty:integer,price:number,"
                                                 "inStock:boolean,added:date,seen:datetime,"
                                                 "meta:string"));
    QCOMPARE(rowsText(*sheet), compactJson(R"([
        ["Rope, 10 m",3,12.5,true,"2024-03-01","2024-03-01T09:30:00","{\"a\":1}"],
        ["Fender 東京 🚢",null,-0.25,false,"1999-12-31","2000-01-01T23:59:59.500","[1,\"x\"]"],
        [null,1000000,1e-7,null,null,null,null]])"));
}

void tst_XlsxWriter::writesOneWorksheetPerSheet()
{
    Sheet a = sample();
    Sheet b;
    b.title = QStringLiteral("Products"); // the same title: made unique
    b.columns = {{QStringLiteral("k"), ColumnType::String}};
    b.rows = {QJsonArray{QStringLiteral("v")}};
    const auto bytes = writeXlsx({a, b});
    QVERIFY(bytes.ok());
    const auto sheets = Reader().parseAll(*bytes, Format::Xlsx, QString());
    QVERIFY(sheets.ok());
    QCOMPARE(sheets->size(), 2);
    QCOMPARE(sheets->at(0).title, QStringLiteral("Products"));
    QCOMPARE(sheets->at(1).title, QStringLiteral("Products (2)"));
    QCOMPARE(rowsText(sheets->at(1)), compactJson(R"([["v"]])"));
}

void tst_XlsxWriter::writesStylesDatesAndWidths()
{
    const auto bytes = writeXlsx({sample()});
    QVERIFY(bytes.ok());
    const QByteArray styles = zipPart(*bytes, QStringLiteral("xl/styles.xml"));
    QVERIFY2(styles.contains("<b/>"), styles.constData()); // the bold header font
    QVERIFY(styles.contains("formatCode=\"yyyy-mm-dd\""));
    QVERIFY(styles.contains("formatCode=\"yyyy-mm-dd hh:mm:ss\""));
    const QByteArray sheet = zipPart(*bytes, QStringLiteral("xl/worksheets/sheet1.xml"));
    QVERIFY2(sheet.contains("ySplit=\"1\""), sheet.constData()); // frozen header row
    QVERIFY(sheet.contains("t=\"b\""));                          // booleans as booleans
    QVERIFY(sheet.contains("<c r=\"B2\"><v>3</v></c>"));         // a number, not a string
    QVERIFY(sheet.contains("<c r=\"A2\" t=\"s\">"));             // a (shared) string
    QVERIFY(sheet.contains("<v>45352</v>"));                     // 2024-03-01 as an Excel serial
    QVERIFY(sheet.contains("<v>45352.395833333"));               // …T09:30:00
    // Column widths from content: the name column is wider than the default.
    QRegularExpression width(QStringLiteral("<col min=\"1\" max=\"1\" width=\"([0-9.]+)\""));
    const auto match = width.match(QString::fromUtf8(sheet));
    QVERIFY2(match.hasMatch(), sheet.constData());
    QVERIFY(match.captured(1).toDouble() >= 12);
}

void tst_XlsxWriter::sanitisesSheetNames_data()
{
    QTest::addColumn<QStringList>("titles");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("replaces the characters Excel forbids")
        << QStringList{QStringLiteral("a[b]:c*d?e/f\\g")}
        << QStringList{QStringLiteral("a_b__c_d_e_f_g")};
    QTest::newRow("cuts names at 31 characters")
        << QStringList{QString(40, u'x')} << QStringList{QString(31, u'x')};
    QTest::newRow("makes duplicates unique, case-insensitively")
        << QStringList{QStringLiteral("Data"), QStringLiteral("data"), QStringLiteral("DATA")}
        << QStringList{QStringLiteral("Data"), QStringLiteral("data (2)"),
                       QStringLiteral("DATA (3)")};
    QTest::newRow("keeps the suffix within 31 characters")
        << QStringList{QString(31, u'y'), QString(31, u'y')}
        << QStringList{QString(31, u'y'), QString(27, u'y') + QStringLiteral(" (2)")};
    QTest::newRow("names empty titles SheetN")
        << QStringList{QString(), QStringLiteral("  ")}
        << QStringList{QStringLiteral("Sheet1"), QStringLiteral("Sheet2")};
    QTest::newRow("drops apostrophes at either end")
        << QStringList{QStringLiteral("'quoted'")} << QStringList{QStringLiteral("quoted")};
    QTest::newRow("avoids the reserved name History")
        << QStringList{QStringLiteral("History")} << QStringList{QStringLiteral("Sheet1")};
}

void tst_XlsxWriter::sanitisesSheetNames()
{
    QFETCH(QStringList, titles);
    QFETCH(QStringList, names);
    QCOMPARE(excelSheetNames(titles), names);
    // And libxlsxwriter accepts them.
    QList<Sheet> sheets;
    for (const QString &t : titles)
        sheets.append(Sheet{t, {}, {}});
    const auto bytes = writeXlsx(sheets);
    QVERIFY2(bytes.ok(), qPrintable(bytes.ok() ? QString() : bytes.error().message));
    const auto read = Reader().parseAll(*bytes, Format::Xlsx, QString());
    QVERIFY(read.ok());
    for (qsizetype i = 0; i < names.size(); ++i)
        QCOMPARE(read->at(i).title, names[i]);
}

void tst_XlsxWriter::cutsStringsAtExcelsLimit()
{
    Sheet s;
    s.columns = {{QStringLiteral("long"), ColumnType::String}};
    s.rows = {QJsonArray{QString(40000, u'z')}};
    const auto bytes = writeXlsx({s});
    QVERIFY2(bytes.ok(), qPrintable(bytes.ok() ? QString() : bytes.error().message));
    const auto read = Reader().parse(*bytes, Format::Xlsx, QString());
    QVERIFY(read.ok());
    QCOMPARE(read->value(0, 0).toString().size(), 32767);
}

void tst_XlsxWriter::writesAnEmptyWorkbook()
{
    const auto bytes = writeXlsx({});
    QVERIFY(bytes.ok());
    const auto read = Reader().parseAll(*bytes, Format::Xlsx, QString());
    QVERIFY(read.ok());
    QCOMPARE(read->size(), 1);
    QCOMPARE(read->first().title, QStringLiteral("Sheet1"));
    QCOMPARE(read->first().columnCount(), 0);
}

void tst_XlsxWriter::refusesMoreColumnsThanExcelHolds()
{
    Sheet s;
    s.title = QStringLiteral("wide");
    for (int i = 0; i < 16385; ++i)
        s.columns.append(Column{QStringLiteral("c%1").arg(i), ColumnType::Empty});
    const auto bytes = writeXlsx({s});
    QVERIFY(!bytes.ok());
    QCOMPARE(bytes.error().kind, DataError::Kind::TooLarge);
    QCOMPARE(
        bytes.error().message,
        QStringLiteral("sheet 'wide' has 16385 columns; an xlsx worksheet holds at most 16384"));
}

QTEST_GUILESS_MAIN(tst_XlsxWriter)
#include "tst_xlsxwriter.moc"
