// cloud/PageSteps (the Firecrawl scrape's actions and tag filters on a loaded page) on a
// page of the test's own: which page agent calls each step makes, in order, what a step
// that fails says, and what the steps give back.
#include "FakePageEngine.h"

#include "browser/BrowserLease.h"
#include "cloud/PageSteps.h"

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

} // namespace

class tst_PageSteps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void doesTheWorkInOrder_data();
    void doesTheWorkInOrder();
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

QTEST_GUILESS_MAIN(tst_PageSteps)
#include "tst_pagesteps.moc"
