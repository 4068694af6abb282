// a2w/BrowserHandoff: a run the visitor's browser runs, from the offer through its
// claim, steps and end to the visitor's review of its result; in a real store (no HTTP).
#include "A2wWorld.h"

#include "a2w/BrowserHandoff.h"
#include "core/DomainError.h"

using namespace ph;
using namespace ph::a2w;

class tst_A2wBrowserHandoff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aReceiptIsClaimedOnlyOnItsSiteWhileTheRunWaits_data();
    void aReceiptIsClaimedOnlyOnItsSiteWhileTheRunWaits();
    void theVisitorDecidesWhatTheCallerGets_data();
    void theVisitorDecidesWhatTheCallerGets();
    void aDeclinedRunEndsCancelled();
};

void tst_A2wBrowserHandoff::aReceiptIsClaimedOnlyOnItsSiteWhileTheRunWaits_data()
{
    QTest::addColumn<QString>("receipt"); // empty: the run's own
    QTest::addColumn<QString>("siteId");  // empty: the run's site
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("code"); // empty: claimed
    QTest::newRow("the run's receipt on its site claims a waiting run")
        << QString() << QString() << Status::waitingBrowser << QString();
    QTest::newRow("an unknown receipt names no run")
        << QStringLiteral("rcpt_nothing") << QString() << Status::waitingBrowser
        << QStringLiteral("RUN_NOT_FOUND");
    QTest::newRow("a page of another site may not claim the run")
        << QString() << QStringLiteral("site_other") << Status::waitingBrowser
        << QStringLiteral("SITE_MISMATCH");
    QTest::newRow("a run no longer waiting for a browser is not claimed again")
        << QString() << QString() << Status::running << QStringLiteral("NOT_WAITING_FOR_BROWSER");
}

void tst_A2wBrowserHandoff::aReceiptIsClaimedOnlyOnItsSiteWhileTheRunWaits()
{
    QFETCH(QString, receipt);
    QFETCH(QString, siteId);
    QFETCH(QString, status);
    QFETCH(QString, code);
    A2wWorld world;
    QVERIFY(world.open());
    BrowserHandoff handoff(*world.store, *world.settings, *world.repo, *world.sites,
                           *world.recorder);
    // The receipt is derived from the run's id; the store keeps only its hash.
    const auto receiptOf = [&](const QString &id) { return handoff.receiptFor(id); };
    Run run = world.addRun(status, QStringLiteral("browser"), receiptOf);
    run.pendingTask = QStringLiteral("find a kettle");
    world.repo->update(run);
    const QString own = handoff.receiptFor(run.id);
    QCOMPARE(handoff.findByReceipt(own)->id, run.id);
    try {
        const Claimed c = handoff.claim(receipt.isEmpty() ? own : receipt,
                                        siteId.isEmpty() ? world.siteId : siteId);
        QVERIFY2(code.isEmpty(), "claimed");
        QCOMPARE(c.runId, run.id);
        QCOMPARE(c.task, QStringLiteral("find a kettle"));
        QCOMPARE(c.host, QStringLiteral("shop.test"));
        QCOMPARE(c.trust, Trust::anonymous);
        const Run claimed = *world.repo->find(run.id);
        QCOMPARE(claimed.status, Status::running);
        QVERIFY(claimed.pendingTask.isEmpty());
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
        QCOMPARE(world.repo->find(run.id)->status, status);
    }
}

void tst_A2wBrowserHandoff::theVisitorDecidesWhatTheCallerGets_data()
{
    QTest::addColumn<bool>("ok");
    QTest::addColumn<int>("share"); // -1: no review, 0: withheld, 1: shared
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("text");
    QTest::newRow("a failed browser run ends failed with nothing from the page")
        << false << -1 << Status::failed << QString();
    QTest::newRow("a finished run waits for the visitor's review")
        << true << -1 << Status::inputRequired << QString();
    QTest::newRow("a result the visitor shares is the run's result")
        << true << 1 << Status::completed << QStringLiteral("Kettle A");
    QTest::newRow("a result the visitor withholds completes the run without it")
        << true << 0 << Status::completed << QString();
}

void tst_A2wBrowserHandoff::theVisitorDecidesWhatTheCallerGets()
{
    QFETCH(bool, ok);
    QFETCH(int, share);
    QFETCH(QString, status);
    QFETCH(QString, text);
    A2wWorld world;
    QVERIFY(world.open());
    BrowserHandoff handoff(*world.store, *world.settings, *world.repo, *world.sites,
                           *world.recorder);
    const Run run = world.addRun(Status::running, QStringLiteral("browser"));
    handoff.step(run.id, {{QStringLiteral("tool"), QStringLiteral("open_page")},
                          {QStringLiteral("status"), QStringLiteral("success")},
                          {QStringLiteral("summary"), QStringLiteral("private page text")}});
    QCOMPARE(world.events.last().type, QStringLiteral("step"));
    QVERIFY(!world.events.last().data.contains(QStringLiteral("summary")));
    handoff.finish(run.id, ok, {{QStringLiteral("text"), QStringLiteral("Kettle A")}},
                   QStringLiteral("private error"));
    // Once: a second end report changes nothing.
    handoff.finish(run.id, !ok, {}, {});
    if (share >= 0)
        handoff.share(run.id, share == 1, {{QStringLiteral("text"), QStringLiteral("Kettle A")}});
    const Run after = *world.repo->find(run.id);
    QCOMPARE(after.status, status);
    QCOMPARE(after.result.value(QStringLiteral("text")).toString(), text);
    QVERIFY(!after.error.contains(QStringLiteral("private")));
    if (status == Status::inputRequired)
        QCOMPARE(after.input.value(QStringLiteral("reason")).toString(), kVisitorReview);
    if (share == 0)
        QVERIFY(after.result.value(QStringLiteral("withheld")).toBool());
}

void tst_A2wBrowserHandoff::aDeclinedRunEndsCancelled()
{
    A2wWorld world;
    QVERIFY(world.open());
    BrowserHandoff handoff(*world.store, *world.settings, *world.repo, *world.sites,
                           *world.recorder);
    const Run run = world.addRun(Status::waitingBrowser, QStringLiteral("browser"),
                                 [](const QString &) { return QStringLiteral("rcpt_x"); });
    try {
        handoff.share(run.id, true, {});
        QFAIL("shared before it ran");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("NOT_WAITING_FOR_REVIEW"));
    }
    handoff.decline(QStringLiteral("rcpt_x"), world.siteId);
    const Run after = *world.repo->find(run.id);
    QCOMPARE(after.status, Status::cancelled);
    QCOMPARE(after.error, QStringLiteral("declined by the visitor"));
}

QTEST_GUILESS_MAIN(tst_A2wBrowserHandoff)
#include "tst_a2wbrowserhandoff.moc"
