// cloud/PageSteps (the Firecrawl scrape's actions and tag filters on a loaded page) on a
// page of the test's own: which page agent calls each step makes, in order, what a step
// that fails says, and what the steps give back.
#include "FakePageEngine.h"

#include "browser/BrowserLease.h"
#include "cloud/PageSteps.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QtTest>

using namespace ph;
using namespace ph::cloud;
using namespace ph::test;

namespace {

// Answers each script with the next scripted answer (JSON text, as the page agent's
// functions give it) and keeps the scripts.
class ScriptedPage : public FakePageEngine
{
public:
    QStringList answers;
    QStringList scripts;
    QByteArray pdf; // what a print gives
    int prints = 0;

    void printToPdf(const QPageLayout &, std::function<void(const QByteArray &)> done) override
    {
        ++prints;
        done(pdf);
    }

    void evaluate(const QString &script, int,
                  std::function<void(bool, const QVariant &)> done) override
    {
        scripts << script;
        if (answers.isEmpty()) {
            done(false, QVariant());
            return;
        }
        done(true, answers.takeFirst());
    }
};

PageStep step(PageStep::Kind kind, const QString &field, const QString &selector = {},
              const QString &text = {})
{
    PageStep s;
    s.kind = kind;
    s.field = field;
    s.selector = selector;
    s.text = text;
    return s;
}

// A PDF of `pages` empty pages of 1280 × 800 px (960 × 600 pt), as a print of a page
// on viewport-sized paper gives.
QByteArray blankPdf(int pages)
{
    QList<QByteArray> objects{"<< /Type /Catalog /Pages 2 0 R >>"};
    QByteArray kids;
    for (int i = 0; i < pages; ++i)
        kids += QByteArray::number(3 + i) + " 0 R ";
    objects << "<< /Type /Pages /Kids [" + kids + "] /Count " + QByteArray::number(pages) + " >>";
    for (int i = 0; i < pages; ++i)
        objects << "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 960 600] >>";
    QByteArray pdf = "%PDF-1.4\n";
    QList<qsizetype> offsets;
    for (qsizetype i = 0; i < objects.size(); ++i) {
        offsets << pdf.size();
        pdf += QByteArray::number(i + 1) + " 0 obj\n" + objects.at(i) + "\nendobj\n";
    }
    const qsizetype xref = pdf.size();
    pdf += "xref\n0 " + QByteArray::number(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (qsizetype o : offsets)
        pdf += QByteArray::number(o).rightJustified(10, '0') + " 00000 n \n";
    pdf += "trailer\n<< /Size " + QByteArray::number(objects.size() + 1) +
           " /Root 1 0 R >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    return pdf;
}

} // namespace

class tst_PageSteps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void doesTheWorkInOrder_data();
    void doesTheWorkInOrder();
    void takesPicturesAndReadsTheSchemaAfterTheSteps_data();
    void takesPicturesAndReadsTheSchemaAfterTheSteps();
};

void tst_PageSteps::doesTheWorkInOrder_data()
{
    using K = PageStep::Kind;
    QTest::addColumn<QList<PageStep>>("steps");
    QTest::addColumn<QStringList>("excludeTags");
    QTest::addColumn<QStringList>("answers");
    QTest::addColumn<QStringList>("scriptParts"); // one per script the page must get
    QTest::addColumn<QString>("errorField");      // empty: all went well
    QTest::addColumn<QString>("errorCode");
    QTest::addColumn<QByteArray>("outputs");

    QTest::newRow("clicks by selector, then writes into the focused field")
        << QList<PageStep>{step(K::Click, "actions[0]", "#go"),
                           step(K::Write, "actions[1]", {}, "Ada")}
        << QStringList() << QStringList{R"({"ok":true})", R"({"ok":true})"}
        << QStringList{R"("action":"click")", R"("selector":"#go")", R"("action":"write")"}
        << QString() << QString() << QByteArray(R"({"javascriptReturns":[],"scrapes":[]})");
    QTest::newRow("fails naming the action whose selector matches nothing, and stops there")
        << QList<PageStep>{step(K::Click, "actions[0]", "#nope"),
                           step(K::Press, "actions[1]", {}, "Enter")}
        << QStringList()
        << QStringList{R"({"ok":false,"error":"no element matches the selector \"#nope\""})"}
        << QStringList{R"("selector":"#nope")"} << "actions[0]"
        << "ACTION_FAILED" << QByteArray(R"({"javascriptReturns":[],"scrapes":[]})");
    QTest::newRow("gives back a script's value with its type")
        << QList<PageStep>{step(K::Script, "actions[0]", {}, "6 * 7")} << QStringList()
        << QStringList{R"({"ok":true,"type":"number","value":42})"} << QStringList{"eval", "6 * 7"}
        << QString() << QString()
        << QByteArray(R"({"javascriptReturns":[{"type":"number","value":42}],"scrapes":[]})");
    QTest::newRow("fails naming the action whose script threw")
        << QList<PageStep>{step(K::Script, "actions[3]", {}, "nope()")} << QStringList()
        << QStringList{R"({"ok":false,"error":"nope is not defined"})"} << QStringList{"eval"}
        << "actions[3]"
        << "ACTION_FAILED" << QByteArray(R"({"javascriptReturns":[],"scrapes":[]})");
    QTest::newRow("filters the tags after the steps")
        << QList<PageStep>{step(K::Press, "actions[0]", {}, "Enter")} << QStringList{"nav"}
        << QStringList{R"({"ok":true})", R"({"ok":true})"}
        << QStringList{R"("action":"press")", R"(filterTags({"exclude":["nav"])"} << QString()
        << QString() << QByteArray(R"({"javascriptReturns":[],"scrapes":[]})");
    QTest::newRow("refuses a tag selector the page cannot parse, naming its list")
        << QList<PageStep>() << QStringList{"[["}
        << QStringList{R"({"ok":false,"selector":"[[","error":"\"[[\" is not a valid CSS selector"})"}
        << QStringList{"filterTags"} << "excludeTags"
        << "INVALID_SELECTOR" << QByteArray(R"({"javascriptReturns":[],"scrapes":[]})");
}

void tst_PageSteps::doesTheWorkInOrder()
{
    QFETCH(QList<PageStep>, steps);
    QFETCH(QStringList, excludeTags);
    QFETCH(QStringList, answers);
    QFETCH(QStringList, scriptParts);
    QFETCH(QString, errorField);
    QFETCH(QString, errorCode);
    QFETCH(QByteArray, outputs);

    auto *page = new ScriptedPage;
    page->answers = answers;
    auto lease = BrowserLease::adopt(page, QStringLiteral("test"));
    PageWork work;
    work.steps = steps;
    work.excludeTags = excludeTags;
    PageSteps run(*lease, work, 2000);
    QSignalSpy finished(&run, &PageSteps::finished);
    run.start();
    // A step the page refuses at once ends the work within start().
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);

    const QString asked = page->scripts.join(QLatin1Char('\n'));
    for (const QString &part : scriptParts)
        QVERIFY2(asked.contains(part), qPrintable(asked));
    QCOMPARE(page->scripts.size(), answers.size()); // nothing after a failing step
    QCOMPARE(run.ok(), errorField.isEmpty());
    QCOMPARE(run.error().value(QStringLiteral("field")).toString(), errorField);
    QCOMPARE(run.error().value(QStringLiteral("code")).toString(), errorCode);
    QJsonObject got = run.outputs();
    got.remove(QStringLiteral("screenshots"));
    got.remove(QStringLiteral("pdfs"));
    QCOMPARE(got, QJsonDocument::fromJson(outputs).object());
}

void tst_PageSteps::takesPicturesAndReadsTheSchemaAfterTheSteps_data()
{
    QTest::addColumn<bool>("kept");          // whether keepImage stores the pictures
    QTest::addColumn<QString>("errorField"); // empty: all went well
    QTest::newRow("keeps a picture per screenshot step and the format's, then reads the json")
        << true << QString();
    QTest::newRow("fails naming the step whose picture could not be kept") << false << "actions[0]";
}

// Screenshot steps and the format, and the schema's extraction: pictures of the print
// (the viewport a page, the full page every page stacked), taken in order and kept by
// keepImage; the schema read after them.
void tst_PageSteps::takesPicturesAndReadsTheSchemaAfterTheSteps()
{
    QFETCH(bool, kept);
    QFETCH(QString, errorField);
    auto *page = new ScriptedPage;
    page->pdf = blankPdf(3);
    page->answers = {R"({"data":[{"name":"Rope"}],"missing":["$[].price"],"warnings":[]})"};
    auto lease = BrowserLease::adopt(page, QStringLiteral("test"));
    PageWork work;
    PageStep viewport = step(PageStep::Kind::Screenshot, "actions[0]");
    PageStep full = step(PageStep::Kind::Screenshot, "actions[1]");
    full.all = true;
    work.steps = {viewport, full};
    work.screenshot = PageWork::Shot::Viewport;
    work.extractSchema = {{QStringLiteral("type"), QStringLiteral("array")}};
    QList<QImage> pictures;
    work.keepImage = [&pictures, kept](const QByteArray &png) {
        if (!kept)
            return QString();
        pictures << QImage::fromData(png, "PNG");
        return QStringLiteral("http://ph.example/storage/obj_%1").arg(pictures.size());
    };
    PageSteps run(*lease, work, 2000);
    QSignalSpy finished(&run, &PageSteps::finished);
    run.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(run.ok(), errorField.isEmpty());
    QCOMPARE(run.error().value(QStringLiteral("field")).toString(), errorField);
    if (!kept) {
        QCOMPARE(page->prints, 1); // nothing after the failing step
        QVERIFY(page->scripts.isEmpty());
        return;
    }
    QCOMPARE(page->prints, 3);
    QCOMPARE(pictures.size(), 3);
    QCOMPARE(pictures.at(0).size(), QSize(1280, 800));  // the viewport: the first page
    QCOMPARE(pictures.at(1).size(), QSize(1280, 2400)); // the full page: every page
    QCOMPARE(pictures.at(2).size(), QSize(1280, 800));  // the format's, after the steps
    QCOMPARE(run.outputs().value(QStringLiteral("screenshots")).toArray(),
             (QJsonArray{"http://ph.example/storage/obj_1", "http://ph.example/storage/obj_2"}));
    QCOMPARE(run.screenshot(), QStringLiteral("http://ph.example/storage/obj_3"));
    // The schema is read once, after the pictures.
    QCOMPARE(page->scripts.size(), 1);
    QVERIFY2(page->scripts.first().contains(u"extract"), qPrintable(page->scripts.first()));
    QCOMPARE(run.extracted()[QStringLiteral("data")][0][QStringLiteral("name")].toString(),
             QStringLiteral("Rope"));
    QCOMPARE(run.extracted()[QStringLiteral("missing")][0].toString(), QStringLiteral("$[].price"));
}

QTEST_GUILESS_MAIN(tst_PageSteps)
#include "tst_pagesteps.moc"
