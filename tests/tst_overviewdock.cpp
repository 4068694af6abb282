// The console's Overview: its charts of the last hour follow writes made through the real
// store and services (a real SQLite file), redraw at most twice a second however many
// changes arrive, wait while hidden, and a click on a chart raises its panel, filtered.
#include "FixtureServer.h"
#include "TestMain.h"
#include "TestService.h"

#include "MainWindow.h"
#include "deliveries/DeliveriesDock.h"
#include "overview/OverviewChart.h"
#include "overview/OverviewDock.h"
#include "trajectories/TrajectoriesDock.h"

#include "browser/BrowserPool.h"
#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/Ids.h"
#include "core/RequestLog.h"
#include "core/Store.h"
#include "engine/TrajectoryRepository.h"
#include "system/ActivityStats.h"
#include "webhooks/WebhookQueue.h"

#include <QAccessible>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTabBar>
#include <QtConcurrent/QtConcurrentRun>

using namespace ph;
using namespace ph::test;
using Chart = ui::OverviewDock::Chart;

Q_DECLARE_METATYPE(ui::OverviewDock::Chart)

namespace {
// 20 s into a minute: writes made during a test row all land in the current minute (the
// clock only moves when a test moves it).
qint64 startOfTest()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    return now / 60000 * 60000 + 20000;
}
} // namespace

class tst_OverviewDock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void chartsFollowTheStore_data();
    void chartsFollowTheStore();
    void latencyShowsTheMedianAndThe95thPercentile();
    void poolChartShowsThePoolsSize();
    void refreshesAtMostTwiceASecond_data();
    void refreshesAtMostTwiceASecond();
    void waitsWhileHiddenAndCatchesUpWhenShown_data();
    void waitsWhileHiddenAndCatchesUpWhenShown();
    void chartsHaveAccessibleNames();
    void theWorkersReadMatchesTheStoresOwn();
    void aDockClosedDuringAReadWaitsForIt();
    void aClickOpensTheMatchingPanelFiltered_data();
    void aClickOpensTheMatchingPanelFiltered();

private:
    // The current minute's value of `key` in `chart`, after the dock caught up.
    qreal current(Chart chart, const QString &key);
    // Refreshes `dock` and waits for the charts: the hour is read on a worker, so the
    // charts follow asynchronously. Any read in flight ends first (it may predate the
    // latest writes).
    void refreshAndWait(ui::OverviewDock *dock);
    void makeRun(const QString &status);

    FixtureServer m_receiver;
    ManualClock m_clock{startOfTest()};
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::OverviewDock> m_dock;
    QString m_owner;
};

void tst_OverviewDock::initTestCase()
{
    QVERIFY(m_receiver.start());
    m_receiver.respond("/ok", 200, "thanks");
    m_receiver.respond("/broken", 500, "down");
    m_ph = std::make_unique<TestService>(QStringList{}, QString(), &m_clock);
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_owner = m_ph->service().store().apiKeys().activeOwnerId();
    m_dock = std::make_unique<ui::OverviewDock>(ui::ConsoleServices::of(m_ph->service()));
    m_dock->resize(1200, 700);
    m_dock->show();
    QTRY_VERIFY(m_dock->refreshCount() > 0);
}

void tst_OverviewDock::cleanupTestCase()
{
    m_dock.reset();
    m_ph.reset();
}

qreal tst_OverviewDock::current(Chart chart, const QString &key)
{
    const QList<qreal> v = m_dock->chart(chart)->values(key);
    return v.isEmpty() ? -1 : v.last();
}

void tst_OverviewDock::refreshAndWait(ui::OverviewDock *dock)
{
    QTRY_VERIFY(!dock->isRefreshing());
    const int before = dock->refreshCount();
    dock->refreshNow();
    QTRY_VERIFY(dock->refreshCount() > before);
}

void tst_OverviewDock::makeRun(const QString &status)
{
    auto &runs = m_ph->service().trajectories();
    const QString id = Ids::make(QStringLiteral("traj"), 20);
    runs.create(id, m_owner, QStringLiteral("Find the price of the sextant"),
                QStringLiteral("rule"));
    if (status != QLatin1String("executing"))
        runs.update(id, status, 1, QStringLiteral("rule"), 0, {});
}

void tst_OverviewDock::chartsFollowTheStore_data()
{
    QTest::addColumn<QString>("write");
    QTest::addColumn<QString>("what");
    QTest::addColumn<Chart>("chart");
    QTest::addColumn<QString>("series");
    QTest::addColumn<qreal>("added");
    QTest::newRow("a run that succeeded counts as success in the runs chart")
        << "run"
        << "success" << Chart::Runs << "success" << qreal(1);
    QTest::newRow("a run that failed counts as error")
        << "run"
        << "error" << Chart::Runs << "error" << qreal(1);
    QTest::newRow("a run waiting for an answer counts as waiting for input")
        << "run"
        << "requires_input" << Chart::Runs << "requires_input" << qreal(1);
    QTest::newRow("a run just started counts as running")
        << "run"
        << "executing" << Chart::Runs << "executing" << qreal(1);
    QTest::newRow("a callback the receiver took counts as delivered")
        << "delivery"
        << "/ok" << Chart::Deliveries << "delivered" << qreal(1);
    QTest::newRow("a callback the receiver refused stays pending for its retry")
        << "delivery"
        << "/broken" << Chart::Deliveries << "pending" << qreal(1);
    QTest::newRow("a charge of one page adds its credits to the credits chart")
        << "charge"
        << "/scrape" << Chart::Credits << "credits" << qreal(1);
}

void tst_OverviewDock::chartsFollowTheStore()
{
    QFETCH(QString, write);
    QFETCH(QString, what);
    QFETCH(Chart, chart);
    QFETCH(QString, series);
    QFETCH(qreal, added);
    refreshAndWait(m_dock.get());
    const qreal before = current(chart, series);
    QVERIFY(before >= 0);
    QCOMPARE(m_dock->chart(chart)->values(series).size(), ui::OverviewDock::kMinutes);
    if (write == QLatin1String("run")) {
        makeRun(what);
    } else if (write == QLatin1String("delivery")) {
        WebhookSubscription sub;
        sub.url = m_receiver.url(what);
        sub.secret = QStringLiteral("whsec_overview");
        const int hits = m_receiver.hits(what.toUtf8());
        m_ph->service().webhooks().enqueue(
            Ids::make(QStringLiteral("req"), 20), m_owner, {sub},
            {{QStringLiteral("workflow.completed"),
              QJsonObject{{QStringLiteral("event"), QStringLiteral("workflow.completed")}}}});
        // The attempt's outcome is what the chart shows.
        QTRY_COMPARE(m_receiver.hits(what.toUtf8()), hits + 1);
        QTRY_COMPARE(m_ph->service().webhooks().inFlight(), 0);
    } else {
        Usage usage;
        usage.pages = 1;
        const qint64 milli = Prices::costMilli(usage);
        QVERIFY(milli > 0);
        added = qreal(milli) / 1000.;
        m_ph->service().store().credits().charge(m_owner, Ids::make(QStringLiteral("req"), 20),
                                                 what, usage);
    }
    // Through the change signals and the throttle, with no call from the test.
    QTRY_COMPARE(current(chart, series), before + added);
}

void tst_OverviewDock::latencyShowsTheMedianAndThe95thPercentile()
{
    // Ten agent requests taking 1..10 s and two scrapes taking 2 and 4 s, all finished in
    // this minute: p50 is 5 s and p95 10 s for runs, 2 s and 4 s for scrapes.
    RequestLog &log = m_ph->service().store().requests();
    QStringList agent, scrape;
    for (int i = 0; i < 10; ++i) {
        agent << Ids::make(QStringLiteral("req"), 20);
        log.begin(agent.last(), m_owner, QStringLiteral("/agent"));
    }
    for (int i = 0; i < 2; ++i) {
        scrape << Ids::make(QStringLiteral("req"), 20);
        log.begin(scrape.last(), m_owner, QStringLiteral("/scrape"));
    }
    for (int s = 1; s <= 10; ++s) {
        m_clock.advance(1000);
        log.finish(agent.at(s - 1), QStringLiteral("success"), {});
        if (s == 2 || s == 4)
            log.finish(scrape.at(s / 2 - 1), QStringLiteral("success"), {});
    }
    QTRY_COMPARE(current(Chart::Latency, QStringLiteral("runP50")), qreal(5));
    QCOMPARE(current(Chart::Latency, QStringLiteral("runP95")), qreal(10));
    QCOMPARE(current(Chart::Latency, QStringLiteral("scrapeP50")), qreal(2));
    QCOMPARE(current(Chart::Latency, QStringLiteral("scrapeP95")), qreal(4));
}

void tst_OverviewDock::poolChartShowsThePoolsSize()
{
    refreshAndWait(m_dock.get());
    const BrowserPool::Stats s = m_ph->service().pool().stats();
    QCOMPARE(current(Chart::Pool, QStringLiteral("size")), qreal(s.size));
    QCOMPARE(current(Chart::Pool, QStringLiteral("busy")), qreal(s.busy));
    QCOMPARE(current(Chart::Pool, QStringLiteral("queued")), qreal(s.queued));
}

void tst_OverviewDock::refreshesAtMostTwiceASecond_data()
{
    QTest::addColumn<int>("changes");
    QTest::addColumn<int>("spreadMs");
    QTest::newRow("two hundred run changes within a second") << 200 << 1000;
    QTest::newRow("a run change every 50 ms for two seconds") << 40 << 2000;
}

void tst_OverviewDock::refreshesAtMostTwiceASecond()
{
    QFETCH(int, changes);
    QFETCH(int, spreadMs);
    // Nothing pending from before: every refresh counted below is the burst's.
    QTRY_VERIFY(m_dock->isIdle());
    const qreal before = current(Chart::Runs, QStringLiteral("success"));
    QList<qint64> at;
    QElapsedTimer clock;
    clock.start();
    auto c = connect(m_dock.get(), &ui::OverviewDock::refreshed, this,
                     [&] { at << clock.elapsed() - qint64(m_dock->lastLatencyMs()); });
    for (int i = 0; i < changes; ++i) {
        makeRun(QStringLiteral("success"));
        const qint64 due = qint64(spreadMs) * (i + 1) / changes;
        while (clock.elapsed() < due)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    // The last change is drawn within one interval after the burst.
    QTRY_COMPARE_WITH_TIMEOUT(current(Chart::Runs, QStringLiteral("success")), before + changes,
                              ui::OverviewDock::kMinRefreshMs * 3);
    // Nothing scheduled, nothing reading: the burst's last refresh has been counted.
    QTRY_VERIFY(m_dock->isIdle());
    disconnect(c);
    QVERIFY(!at.isEmpty());
    // At most one refresh per 500 ms: in the burst's span (plus the catch-up) no more
    // than two a second, and never two closer than the interval (the timer's grain aside).
    const qint64 span = clock.elapsed();
    QVERIFY2(at.size() <= span / ui::OverviewDock::kMinRefreshMs + 1,
             qPrintable(QStringLiteral("%1 refreshes in %2 ms").arg(at.size()).arg(span)));
    for (int i = 1; i < at.size(); ++i)
        QVERIFY2(at.at(i) - at.at(i - 1) >= ui::OverviewDock::kMinRefreshMs - 5,
                 qPrintable(QStringLiteral("refreshes %1 ms apart").arg(at.at(i) - at.at(i - 1))));
}

void tst_OverviewDock::waitsWhileHiddenAndCatchesUpWhenShown_data()
{
    QTest::addColumn<bool>("tabbed");
    QTest::newRow("an Overview closed waits and catches up when opened again") << false;
    QTest::newRow("an Overview behind another panel's tab waits and catches up when chosen")
        << true;
}

void tst_OverviewDock::waitsWhileHiddenAndCatchesUpWhenShown()
{
    QFETCH(bool, tabbed);
    std::unique_ptr<ui::MainWindow> window;
    ui::OverviewDock *overview = m_dock.get();
    if (tabbed) {
        window = std::make_unique<ui::MainWindow>(m_ph->service());
        window->resize(1280, 800);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        overview = window->findChild<ui::OverviewDock *>();
        QTRY_VERIFY(overview->refreshCount() > 0);
    }
    QTRY_VERIFY(overview->isIdle());
    const qreal before = overview->chart(Chart::Runs)->values(QStringLiteral("error")).last();
    QDockWidget *other =
        tabbed ? window->findChild<QDockWidget *>(QStringLiteral("keysDock")) : nullptr;
    if (tabbed) {
        other->raise();
        QTRY_VERIFY(overview->visibleRegion().isEmpty());
    } else {
        overview->hide();
    }
    const int refreshes = overview->refreshCount();
    for (int i = 0; i < 5; ++i)
        makeRun(QStringLiteral("error"));
    // The changes reached it (it is behind) and it scheduled nothing: out of sight, it waits.
    QTRY_VERIFY(overview->isBehind());
    QVERIFY(overview->isIdle());
    QCOMPARE(overview->refreshCount(), refreshes);
    if (tabbed)
        overview->raise();
    else
        overview->show();
    QTRY_COMPARE(overview->chart(Chart::Runs)->values(QStringLiteral("error")).last(), before + 5);
    QCOMPARE(overview->refreshCount(), refreshes + 1);
}

void tst_OverviewDock::chartsHaveAccessibleNames()
{
    for (Chart c : {Chart::Runs, Chart::Pool, Chart::Latency, Chart::Deliveries, Chart::Credits,
                    Chart::Activity}) {
        ui::OverviewChart *view = m_dock->chart(c);
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(view);
        QVERIFY(iface);
        QVERIFY2(!iface->text(QAccessible::Name).isEmpty(), qPrintable(view->objectName()));
        QVERIFY(!iface->text(QAccessible::Description).isEmpty());
        QCOMPARE(view->focusPolicy(), Qt::StrongFocus);
    }
}

void tst_OverviewDock::theWorkersReadMatchesTheStoresOwn()
{
    // The Overview reads on a worker through a read-only connection of its own; it never
    // fell back to the store's connection (which would warn).
    QTest::failOnWarning(QRegularExpression(QStringLiteral("could not read the store")));
    makeRun(QStringLiteral("success"));
    refreshAndWait(m_dock.get());
    QVERIFY(m_dock->lastLatencyMs() >= m_dock->lastRefreshMs());
    // Another thread's read of the file gives what the store's connection gives.
    Store &store = m_ph->service().store();
    const qint64 now = m_clock.nowMs();
    const ActivityBuckets own = ActivityStats(store).lastMinutes(now);
    QString error;
    ActivityBuckets worker;
    const bool ok = QtConcurrent::run([&] {
                        return ActivityStats::readFile(store.path(), now, 60, &worker, &error);
                    }).result();
    QVERIFY2(ok, qPrintable(error));
    QCOMPARE(worker.from, own.from);
    QCOMPARE(worker.runs, own.runs);
    QCOMPARE(worker.deliveries, own.deliveries);
    QCOMPARE(worker.credits, own.credits);
    QCOMPARE(worker.runP95, own.runP95);
    QVERIFY(worker.runs.value(QStringLiteral("success")).last() > 0);
}

void tst_OverviewDock::aDockClosedDuringAReadWaitsForIt()
{
    // Its connection closed before it goes; nothing reaches the dock afterwards.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("still in use|could not read")));
    for (int i = 0; i < 5; ++i) {
        auto dock = std::make_unique<ui::OverviewDock>(ui::ConsoleServices::of(m_ph->service()));
        dock->show();
        dock->refreshNow();
        dock->refreshNow(); // during the read: one more after it
        QVERIFY(dock->isRefreshing());
        dock.reset();
        QTest::qWait(20);
    }
    refreshAndWait(m_dock.get());
}

void tst_OverviewDock::aClickOpensTheMatchingPanelFiltered_data()
{
    QTest::addColumn<Chart>("chart");
    QTest::addColumn<QString>("series"); // the bar set clicked; "" for the empty plot
    QTest::addColumn<QString>("panel");
    QTest::addColumn<QString>("filter");
    QTest::newRow("clicking the error bars lists the runs that failed") << Chart::Runs << "error"
                                                                        << "trajectoriesDock"
                                                                        << "error";
    QTest::newRow("clicking the success bars lists the runs that succeeded")
        << Chart::Runs << "success"
        << "trajectoriesDock"
        << "success";
    QTest::newRow("clicking the runs chart off its bars lists every run") << Chart::Runs << ""
                                                                          << "trajectoriesDock"
                                                                          << "";
    QTest::newRow("clicking the delivered bars lists the delivered callbacks")
        << Chart::Deliveries << "delivered"
        << "deliveriesDock"
        << "delivered";
    QTest::newRow("clicking the pool chart opens the live browser views") << Chart::Pool << ""
                                                                          << "browserViewsDock"
                                                                          << "";
    QTest::newRow("clicking the credits chart opens the API keys") << Chart::Credits << ""
                                                                   << "keysDock"
                                                                   << "";
    QTest::newRow("clicking the A2W and runtime chart opens the A2W runs") << Chart::Activity << ""
                                                                           << "a2wRunsDock"
                                                                           << "";
}

void tst_OverviewDock::aClickOpensTheMatchingPanelFiltered()
{
    QFETCH(Chart, chart);
    QFETCH(QString, series);
    QFETCH(QString, panel);
    QFETCH(QString, filter);
    // The whole console on the same service; the Overview in front.
    ui::MainWindow window(m_ph->service());
    window.setLanguage(QStringLiteral("en"));
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *overview = window.findChild<ui::OverviewDock *>();
    QVERIFY(overview);
    overview->raise();
    QTRY_VERIFY(overview->isVisible());
    refreshAndWait(overview);
    QTest::qWait(50);
    ui::OverviewChart *view = overview->chart(chart);
    // Something to click in this minute: runs of the status, a delivery with the outcome.
    if (chart == Chart::Runs && !series.isEmpty()) {
        for (int i = 0; i < 3; ++i)
            makeRun(series);
    } else if (chart == Chart::Deliveries) {
        WebhookSubscription sub;
        sub.url = m_receiver.url(QStringLiteral("/ok"));
        sub.secret = QStringLiteral("whsec_overview");
        m_ph->service().webhooks().enqueue(
            Ids::make(QStringLiteral("req"), 20), m_owner, {sub},
            {{QStringLiteral("workflow.completed"),
              QJsonObject{{QStringLiteral("event"), QStringLiteral("workflow.completed")}}}});
        QTRY_COMPARE(m_ph->service().webhooks().inFlight(), 0);
    }
    refreshAndWait(overview);
    QTest::qWait(50);
    QPoint at;
    if (series.isEmpty()) {
        // The plot's top left corner: above every bar and off every line.
        at = view->mapFromScene(view->chart()->plotArea().topLeft() + QPointF(4, 4));
    } else {
        // The middle of the set's segment in the current minute's stacked bar.
        auto *bars = qobject_cast<QStackedBarSeries *>(view->chart()->series().value(0));
        QVERIFY(bars);
        qreal below = 0, value = 0;
        const int last = ui::OverviewDock::kMinutes - 1;
        for (QBarSet *set : bars->barSets()) {
            if (set->objectName() == series) {
                value = set->at(last);
                break;
            }
            below += set->at(last);
        }
        QVERIFY2(value > 0, "earlier rows put this status in the current minute");
        at = view->mapFromScene(
            view->chart()->mapToPosition(QPointF(last, below + value / 2), bars));
    }
    QSignalSpy activated(view, &ui::OverviewChart::activated);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.at(0).at(0).toString(), series);
    auto *dock = window.findChild<QDockWidget *>(panel);
    QVERIFY(dock);
    QTRY_VERIFY(dock->isVisible());
    // Raised in the Overview's place (the same tab bar moves the Overview out of sight).
    QTRY_VERIFY(overview->visibleRegion().isEmpty());
    QVERIFY(!dock->visibleRegion().isEmpty());
    if (auto *runs = qobject_cast<ui::TrajectoriesDock *>(dock))
        QCOMPARE(runs->statusFilter(), filter);
    if (auto *deliveries = qobject_cast<ui::DeliveriesDock *>(dock))
        QCOMPARE(deliveries->statusFilter()->currentData().toString(), filter);
}

PH_WIDGETS_TEST_MAIN(tst_OverviewDock)
#include "tst_overviewdock.moc"
