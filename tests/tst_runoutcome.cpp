// RunOutcome: whether a finished run did what its task asked, judged from its steps.
// Each row is a task as a person writes it, the steps a run took, and the verdict: ""
// when the finish stands, else a word the reason must contain.
#include "engine/RunOutcome.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace ph::engine;

namespace {

// A step in a compact notation: "tool action {output json}" ("act_on_tab navigate
// {"httpStatus":404}"), an action's arguments as "key=value" before the output.
struct Step
{
    QString tool;
    QJsonObject args;
    QJsonObject output;
    bool ok = true;
};

Step step(const QString &tool, const QString &action, const char *output = "{}",
          QJsonObject extra = {}, bool ok = true)
{
    Step s{tool, std::move(extra), QJsonDocument::fromJson(output).object(), ok};
    if (!action.isEmpty())
        s.args.insert(QStringLiteral("action"), action);
    return s;
}

} // namespace

Q_DECLARE_METATYPE(QList<Step>)

class tst_RunOutcome : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void judgesTheRunByWhatItDid_data();
    void judgesTheRunByWhatItDid();
    void readsTheActionATaskAsksFor_data();
    void readsTheActionATaskAsksFor();
};

void tst_RunOutcome::judgesTheRunByWhatItDid_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QList<Step>>("steps");
    QTest::addColumn<QString>("reason"); // empty: success stands

    const Step open200 = step(QStringLiteral("act_on_tab"), QStringLiteral("navigate"),
                              R"({"url":"http://s/basket","httpStatus":200})");
    const Step open404 = step(QStringLiteral("act_on_tab"), QStringLiteral("navigate"),
                              R"({"url":"http://s/gone","httpStatus":404})");
    const Step read = step(QStringLiteral("crawl_and_extract_from_tab"), {}, R"({"pages":[]})");
    const Step click = step(QStringLiteral("act_on_tab"), QStringLiteral("click"),
                            R"({"ok":true,"element":{"name":"Place order"}})",
                            {{QStringLiteral("target"), QStringLiteral("Place order")}});
    const Step signIn = step(QStringLiteral("act_on_tab"), QStringLiteral("click"),
                             R"({"ok":true,"element":{"name":"Sign in"}})",
                             {{QStringLiteral("target"), QStringLiteral("e4")}});

    QTest::newRow("placing the order after only reading the basket is no success")
        << QStringLiteral("Place the order") << QList<Step>{open200, read}
        << QStringLiteral("place the order");
    QTest::newRow("placing the order by clicking its button stands")
        << QStringLiteral("Place the order") << QList<Step>{open200, click} << QString();
    QTest::newRow("a German order read back without a click is no success")
        << QStringLiteral("Bitte bestelle den Kompass") << QList<Step>{open200, read}
        << QStringLiteral("bestelle");
    QTest::newRow("a booking whose only click signed in is no success")
        << QStringLiteral("Sign in and book a table for two") << QList<Step>{open200, signIn, read}
        << QStringLiteral("book a table");
    QTest::newRow("listing every product on a page that answered 404 is no success")
        << QStringLiteral("List every product") << QList<Step>{open404, read}
        << QStringLiteral("HTTP 404");
    QTest::newRow("a crawl that opened a 500 page itself is no success")
        << QStringLiteral("List every product")
        << QList<Step>{step(QStringLiteral("crawl_and_extract_from_tab"), {},
                            R"({"url":"http://s/x","httpStatus":500})",
                            {{QStringLiteral("url"), QStringLiteral("http://s/x")}})}
        << QStringLiteral("HTTP 500");
    QTest::newRow("a 404 left behind for a page that answered is no error")
        << QStringLiteral("List every product") << QList<Step>{open404, open200, read} << QString();
    QTest::newRow("listing products on a page that answered is success")
        << QStringLiteral("List every product") << QList<Step>{open200, read} << QString();
    QTest::newRow("ordering a list by price is sorting, not an order to place")
        << QStringLiteral("List the products and order them by price") << QList<Step>{open200, read}
        << QString();
    QTest::newRow("a step that failed did not act")
        << QStringLiteral("Submit the application")
        << QList<Step>{open200,
                       step(QStringLiteral("act_on_tab"), QStringLiteral("click"), "{}", {}, false)}
        << QStringLiteral("submit the application");
    QTest::newRow("a tool that writes is an action")
        << QStringLiteral("Send the report")
        << QList<Step>{open200, step(QStringLiteral("run_page_script"), {}, "{}")} << QString();
}

void tst_RunOutcome::judgesTheRunByWhatItDid()
{
    QFETCH(QString, task);
    QFETCH(QList<Step>, steps);
    QFETCH(QString, reason);
    RunOutcome outcome;
    for (const Step &s : std::as_const(steps))
        outcome.observe(s.tool, s.args, s.ok, s.output);
    const QString verdict = outcome.verdict(task);
    if (reason.isEmpty())
        QVERIFY2(verdict.isEmpty(), qPrintable(verdict));
    else
        QVERIFY2(verdict.contains(reason, Qt::CaseInsensitive), qPrintable(verdict));
}

void tst_RunOutcome::readsTheActionATaskAsksFor_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("action");
    QTest::newRow("place the order")
        << QStringLiteral("Place the order") << QStringLiteral("place the order");
    QTest::newRow("an action after a reading clause")
        << QStringLiteral("Find the cheapest rope and buy it") << QStringLiteral("buy it");
    QTest::newRow("adding to the cart") << QStringLiteral("Add the compass to my basket")
                                        << QStringLiteral("add the compass to my basket");
    QTest::newRow("French reservation") << QStringLiteral("Réserve une table pour deux")
                                        << QStringLiteral("réserve une table pour");
    QTest::newRow("listing asks for no action") << QStringLiteral("List the products") << QString();
    QTest::newRow("a search asks for no action")
        << QStringLiteral("Search for compasses, then list the results") << QString();
    QTest::newRow("signing in to read asks for no action")
        << QStringLiteral("Sign in and list my orders") << QString();
    QTest::newRow("the word order as a noun asks for no action")
        << QStringLiteral("List the order dates") << QString();
}

void tst_RunOutcome::readsTheActionATaskAsksFor()
{
    QFETCH(QString, task);
    QFETCH(QString, action);
    QCOMPARE(RunOutcome::requestedAction(task), action);
}

QTEST_GUILESS_MAIN(tst_RunOutcome)
#include "tst_runoutcome.moc"
