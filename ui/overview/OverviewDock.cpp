#include "OverviewDock.h"

#include "OverviewChart.h"

#include "a2w/A2wService.h"
#include "browser/BrowserPool.h"
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/RequestLog.h"
#include "engine/TrajectoryRepository.h"
#include "runtime/RuntimeService.h"
#include "system/ActivityStats.h"
#include "webhooks/WebhookQueue.h"

#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

namespace ph::ui {

namespace {
constexpr qint64 kMinuteMs = 60000;
constexpr qint64 kPoolSlotMs = 10000; // the pool's load is kept per 10 s (its peak)
constexpr int kTickMs = 10000;        // the hour moves on even when nothing changes

const QColor kGreen(0x2e, 0x7d, 0x32);
const QColor kRed(0xc6, 0x28, 0x28);
const QColor kGrey(0x75, 0x75, 0x75);
const QColor kAmber(0xf9, 0xa8, 0x25);
const QColor kBlue(0x15, 0x65, 0xc0);
const QColor kOrange(0xef, 0x6c, 0x00);
const QColor kPurple(0x6a, 0x1b, 0x9a);
const QColor kTeal(0x00, 0x83, 0x8f);

qreal maxOf(const QList<qreal> &values, qreal floor = 0)
{
    qreal m = floor;
    for (qreal v : values)
        m = qMax(m, v);
    return m;
}

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

QList<qreal> toReals(const QList<int> &values)
{
    QList<qreal> out;
    out.reserve(values.size());
    for (int v : values)
        out << qreal(v);
    return out;
}
} // namespace

// Handed to the worker by value (a shared pointer): it outlives the dock if it must, and
// the worker touches nothing else (no Service, no Store, no widget).
struct OverviewDock::Read
{
    QString path;
    qint64 now = 0;
    int minutes = 0;
    std::atomic_bool cancelled{false};
    QElapsedTimer started;
    // Written by the worker, read on the UI thread after the future finished.
    ActivityBuckets buckets;
    bool ok = false;
    QString error;
    double queryMs = 0;
};

OverviewDock::OverviewDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
    , m_stats(services.activityStats)
    , m_workers(std::make_unique<QThreadPool>())
{
    m_workers->setObjectName(QStringLiteral("overviewReader"));
    m_workers->setMaxThreadCount(1);
    m_watcher = new QFutureWatcher<void>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &OverviewDock::onReadFinished);
    // An in-memory store has no file a second connection could open.
    const QString path = services.databasePath;
    m_readOnStore = path.isEmpty() || path == QLatin1String(":memory:") ||
                    path.startsWith(QLatin1String("file:"));
    setObjectName(QStringLiteral("overviewDock"));
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    m_title = new QLabel(page);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    m_title->setFont(f);
    m_intro = new QLabel(page);
    m_intro->setWordWrap(true);
    m_intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_example = new QPlainTextEdit(page);
    m_example->setObjectName(QStringLiteral("overviewExample"));
    m_example->setReadOnly(true);
    m_example->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_example->setMaximumHeight(70);
    m_example->setTabChangesFocus(true);
    layout->addWidget(m_title);
    layout->addWidget(m_intro);
    layout->addWidget(m_example);

    // The charts above, the request log below; the operator moves the line between them.
    auto *split = new QSplitter(Qt::Vertical, page);
    split->setObjectName(QStringLiteral("overviewSplit"));
    split->setChildrenCollapsible(false);
    QWidget *chartsPage = makeChartsPage(split);
    auto *logPage = new QWidget(split);
    auto *logLayout = new QVBoxLayout(logPage);
    logLayout->setContentsMargins(0, 0, 0, 0);
    m_activityTitle = new QLabel(logPage);
    m_activity = new QPlainTextEdit(logPage);
    m_activity->setObjectName(QStringLiteral("overviewRequests"));
    m_activity->setReadOnly(true);
    m_activity->setMaximumBlockCount(500);
    m_activity->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_activity->setTabChangesFocus(true);
    m_activityTitle->setBuddy(m_activity);
    logLayout->addWidget(m_activityTitle);
    logLayout->addWidget(m_activity, 1);
    split->addWidget(chartsPage);
    split->addWidget(logPage);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    setWidget(page);

    connectChanges();
    samplePool();
    retranslateUi();
}

void OverviewDock::connectChanges()
{
    m_throttle = new QTimer(this);
    m_throttle->setSingleShot(true);
    m_throttle->setTimerType(Qt::PreciseTimer);
    connect(m_throttle, &QTimer::timeout, this, &OverviewDock::refreshNow);
    m_tick = new QTimer(this);
    m_tick->setInterval(kTickMs);
    connect(m_tick, &QTimer::timeout, this, [this] {
        samplePool();
        scheduleRefresh();
    });
    m_tick->start();

    // The charts move with runs, requests, credits and visitors' runs, whoever made them.
    connect(&m_services.requestLog, &RequestLog::requestChanged, this,
            &OverviewDock::onRequestChanged);
    connect(&m_services.trajectories, &engine::TrajectoryRepository::trajectoryChanged, this,
            &OverviewDock::scheduleRefresh);
    connect(&m_services.keyService, &ApiKeyService::creditsChanged, this,
            &OverviewDock::scheduleRefresh);
    connect(&m_services.runtime, &runtime::RuntimeService::visitorRunChanged, this,
            &OverviewDock::scheduleRefresh);
    connect(&m_services.webhooks, &webhooks::WebhookQueue::deliveryChanged, this,
            &OverviewDock::scheduleRefresh);
    connect(&m_services.a2w, &a2w::A2wService::runChanged, this, &OverviewDock::scheduleRefresh);
    connect(&m_services.pool, &BrowserPool::statsChanged, this, [this] {
        samplePool();
        scheduleRefresh();
    });
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        m_tabShown = shown;
        if (shown && m_dirty)
            scheduleRefresh();
    });
}

QWidget *OverviewDock::makeChartsPage(QWidget *split)
{
    auto *chartsPage = new QWidget(split);
    auto *chartsLayout = new QVBoxLayout(chartsPage);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    m_chartsTitle = new QLabel(chartsPage);
    chartsLayout->addWidget(m_chartsTitle);
    auto *grid = new QGridLayout;
    grid->setSpacing(6);
    const struct
    {
        Chart which;
        OverviewChart::Kind kind;
        const char *name;
    } specs[] = {
        {Chart::Runs, OverviewChart::Kind::Bars, "overviewRunsChart"},
        {Chart::Pool, OverviewChart::Kind::Lines, "overviewPoolChart"},
        {Chart::Latency, OverviewChart::Kind::Lines, "overviewLatencyChart"},
        {Chart::Deliveries, OverviewChart::Kind::Bars, "overviewDeliveriesChart"},
        {Chart::Credits, OverviewChart::Kind::Bars, "overviewCreditsChart"},
        {Chart::Activity, OverviewChart::Kind::Lines, "overviewActivityChart"},
    };
    for (const auto &s : specs) {
        auto *c = new OverviewChart(s.kind, chartsPage);
        c->setObjectName(QLatin1String(s.name));
        const int i = int(m_charts.size());
        grid->addWidget(c, i / 3, i % 3);
        m_charts << c;
    }
    chartsLayout->addLayout(grid, 1);
    auto *runs = chart(Chart::Runs);
    runs->addSeries(QStringLiteral("success"), kGreen);
    runs->addSeries(QStringLiteral("error"), kRed);
    runs->addSeries(QStringLiteral("cancelled"), kGrey);
    runs->addSeries(QStringLiteral("requires_input"), kAmber);
    runs->addSeries(QStringLiteral("executing"), kBlue);
    auto *pool = chart(Chart::Pool);
    pool->addSeries(QStringLiteral("busy"), kBlue);
    pool->addSeries(QStringLiteral("queued"), kOrange);
    pool->addSeries(QStringLiteral("size"), kGrey, true);
    auto *latency = chart(Chart::Latency);
    // Latency has points only in minutes with finished requests: marked.
    latency->addSeries(QStringLiteral("runP50"), kBlue, false, true);
    latency->addSeries(QStringLiteral("runP95"), kBlue, true, true);
    latency->addSeries(QStringLiteral("scrapeP50"), kGreen, false, true);
    latency->addSeries(QStringLiteral("scrapeP95"), kGreen, true, true);
    auto *deliveries = chart(Chart::Deliveries);
    deliveries->addSeries(QStringLiteral("delivered"), kGreen);
    deliveries->addSeries(QStringLiteral("failed"), kRed);
    deliveries->addSeries(QStringLiteral("pending"), kBlue);
    chart(Chart::Credits)->addSeries(QStringLiteral("credits"), kPurple);
    auto *activityChart = chart(Chart::Activity);
    activityChart->addSeries(QStringLiteral("a2w"), kTeal);
    activityChart->addSeries(QStringLiteral("runtime"), kOrange);

    // Each chart opens its panel: runs (by the status clicked), the browser views,
    // deliveries (by the outcome clicked), the keys and their credits, the A2W runs.
    connect(runs, &OverviewChart::activated, this, &OverviewDock::runsRequested);
    connect(pool, &OverviewChart::activated, this, &OverviewDock::browserViewsRequested);
    connect(latency, &OverviewChart::activated, this,
            [this](const QString &) { Q_EMIT runsRequested(QString()); });
    connect(deliveries, &OverviewChart::activated, this, &OverviewDock::deliveriesRequested);
    connect(chart(Chart::Credits), &OverviewChart::activated, this, &OverviewDock::keysRequested);
    connect(activityChart, &OverviewChart::activated, this, &OverviewDock::a2wRunsRequested);
    return chartsPage;
}

// A read in flight is told to stop after its current query and waited for (a few ms),
// so its connection is closed before the store, or the Service, can go; its result is
// dropped with the watcher.
OverviewDock::~OverviewDock()
{
    disconnect(m_watcher, nullptr, this, nullptr);
    if (m_read)
        m_read->cancelled = true;
    m_workers->waitForDone();
}

void OverviewDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void OverviewDock::showEvent(QShowEvent *event)
{
    QDockWidget::showEvent(event);
    if (m_dirty)
        scheduleRefresh();
}

// A dock behind another tab stays "visible", moved out of sight; visibilityChanged says
// when its tab is chosen or left.
bool OverviewDock::isIdle() const
{
    return !m_throttle->isActive() && !isRefreshing();
}

bool OverviewDock::onScreen() const
{
    return isVisible() && m_tabShown;
}

void OverviewDock::retranslateUi()
{
    setWindowTitle(tr("Overview"));
    m_title->setText(tr("Pilothouse is running"));
    m_intro->setText(tr("The API listens at %1. Send your API key as "
                        "\"Authorization: Bearer <key>\". For example:")
                         .arg(m_services.apiAddress()));
    m_example->setPlainText(
        QStringLiteral("curl -s -H \"Authorization: Bearer $KEY\" \\\n  -d "
                       "'{\"urls\":[\"https://example.org/\"]}' \\\n  %1/scrape")
            .arg(m_services.apiAddress()));
    m_example->setAccessibleName(tr("Example request"));
    m_chartsTitle->setText(tr("The last hour, per minute (click a chart to open its panel)"));
    m_activityTitle->setText(tr("Requests"));
    m_activity->setAccessibleName(tr("Requests"));

    auto *runs = chart(Chart::Runs);
    runs->setTitle(tr("Runs per minute"));
    runs->setAccessibleDescription(
        tr("Runs by status, per minute of their latest change. Click a status to list "
           "those runs."));
    runs->setSeriesName(QStringLiteral("success"), tr("success"));
    runs->setSeriesName(QStringLiteral("error"), tr("error"));
    runs->setSeriesName(QStringLiteral("cancelled"), tr("cancelled"));
    runs->setSeriesName(QStringLiteral("requires_input"), tr("waiting for input"));
    runs->setSeriesName(QStringLiteral("executing"), tr("running"));
    auto *pool = chart(Chart::Pool);
    pool->setTitle(tr("Browser pool"));
    pool->setAccessibleDescription(
        tr("Pages in use and requests waiting for one, beside the pool's size. Click to "
           "open the live browser views."));
    pool->setSeriesName(QStringLiteral("busy"), tr("in use"));
    pool->setSeriesName(QStringLiteral("queued"), tr("queued"));
    pool->setSeriesName(QStringLiteral("size"), tr("size"));
    auto *latency = chart(Chart::Latency);
    latency->setTitle(tr("Latency (s)"));
    latency->setAccessibleDescription(
        tr("The median and 95th percentile time of agent runs and scrapes finished each "
           "minute, in seconds. Click to open the runs."));
    latency->setSeriesName(QStringLiteral("runP50"), tr("run p50"));
    latency->setSeriesName(QStringLiteral("runP95"), tr("run p95"));
    latency->setSeriesName(QStringLiteral("scrapeP50"), tr("scrape p50"));
    latency->setSeriesName(QStringLiteral("scrapeP95"), tr("scrape p95"));
    auto *deliveries = chart(Chart::Deliveries);
    deliveries->setTitle(tr("Webhook deliveries"));
    deliveries->setAccessibleDescription(
        tr("Callbacks by outcome, per minute made. Click an outcome to list those "
           "deliveries."));
    deliveries->setSeriesName(QStringLiteral("delivered"), tr("delivered"));
    deliveries->setSeriesName(QStringLiteral("failed"), tr("failed"));
    deliveries->setSeriesName(QStringLiteral("pending"), tr("pending"));
    auto *credits = chart(Chart::Credits);
    credits->setTitle(tr("Credits used"));
    credits->setAccessibleDescription(
        tr("Credits charged per minute. Click to open the API keys and their balances."));
    credits->setSeriesName(QStringLiteral("credits"), tr("credits"));
    auto *activityChart = chart(Chart::Activity);
    activityChart->setTitle(tr("A2W and runtime runs"));
    activityChart->setAccessibleDescription(
        tr("Runs started per minute by visiting agents (A2W) and by site visitors (browser "
           "runtime). Click to open the A2W runs."));
    activityChart->setSeriesName(QStringLiteral("a2w"), tr("A2W runs"));
    activityChart->setSeriesName(QStringLiteral("runtime"), tr("runtime runs"));
}

void OverviewDock::onRequestChanged(const QString &id)
{
    scheduleRefresh();
    const auto record = m_services.requestLog.find(id);
    if (!record)
        return;
    const QString time =
        QDateTime::fromMSecsSinceEpoch(record->finishedAt.value_or(record->startedAt))
            .toLocalTime()
            .toString(QStringLiteral("HH:mm:ss"));
    m_activity->appendPlainText(
        QStringLiteral("%1  %2  %3  %4").arg(time, record->endpoint, record->status, record->id));
}

// At most one refresh per kMinRefreshMs, the first change after a quiet spell at once;
// none while the panel is out of sight (it catches up when shown).
void OverviewDock::scheduleRefresh()
{
    if (!onScreen()) {
        m_dirty = true;
        return;
    }
    if (m_throttle->isActive())
        return;
    const qint64 wait =
        m_sinceRefresh.isValid() ? qMax<qint64>(0, kMinRefreshMs - m_sinceRefresh.elapsed()) : 0;
    m_throttle->start(int(wait));
}

void OverviewDock::samplePool()
{
    const BrowserPool::Stats s = m_services.pool.stats();
    const qint64 slot = m_services.clock.nowMs() / kPoolSlotMs * kPoolSlotMs;
    if (!m_pool.isEmpty() && m_pool.last().at == slot) {
        PoolSample &last = m_pool.last();
        last.busy = qMax(last.busy, s.busy);
        last.queued = qMax(last.queued, s.queued);
        last.size = s.size;
    } else {
        m_pool.append({slot, s.busy, s.queued, s.size});
    }
    const qint64 oldest = slot - qint64(kMinutes) * kMinuteMs;
    while (!m_pool.isEmpty() && m_pool.first().at < oldest)
        m_pool.removeFirst();
}

// One read at a time: asked during one, it runs once more after it (onReadFinished).
void OverviewDock::refreshNow()
{
    m_throttle->stop();
    if (m_reading) {
        m_again = true;
        return;
    }
    m_sinceRefresh.start();
    m_dirty = false;
    m_again = false;
    const qint64 now = m_services.clock.nowMs();
    if (m_readOnStore) {
        // On the store's connection, so on this thread: all of it is UI-thread time.
        QElapsedTimer t;
        t.start();
        const ActivityBuckets b = m_stats.lastMinutes(now, kMinutes);
        m_lastQueryMs = msSince(t);
        apply(b, now);
        m_lastRefreshMs = m_lastLatencyMs = msSince(t);
        ++m_refreshes;
        Q_EMIT refreshed();
        return;
    }
    auto read = std::make_shared<Read>();
    read->path = m_services.databasePath;
    read->now = now;
    read->minutes = kMinutes;
    read->started.start();
    m_read = read;
    m_reading = true;
    m_watcher->setFuture(QtConcurrent::run(m_workers.get(), [read] {
        QElapsedTimer t;
        t.start();
        read->ok = ActivityStats::readFile(read->path, read->now, read->minutes, &read->buckets,
                                           &read->error, &read->cancelled);
        read->queryMs = msSince(t);
    }));
}

// Back on the UI thread: only the charts' update happens here.
void OverviewDock::onReadFinished()
{
    const std::shared_ptr<Read> read = std::move(m_read);
    m_reading = false;
    if (!read)
        return;
    if (!read->ok) {
        qWarning().noquote() << QStringLiteral("Overview: the worker could not read the store "
                                               "(%1); reading on the store's connection")
                                    .arg(read->error);
        m_readOnStore = true;
        refreshNow();
        return;
    }
    QElapsedTimer t;
    t.start();
    apply(read->buckets, read->now);
    m_lastQueryMs = read->queryMs;
    m_lastRefreshMs = msSince(t);
    m_lastLatencyMs = msSince(read->started);
    ++m_refreshes;
    Q_EMIT refreshed();
    if (m_again) {
        m_again = false;
        scheduleRefresh();
    }
}

void OverviewDock::apply(const ActivityBuckets &b, qint64 now)
{

    auto centre = [&](int i) { return qreal(b.from + i * kMinuteMs + kMinuteMs / 2); };
    {
        auto *c = chart(Chart::Runs);
        QList<qreal> total(b.minutes, 0);
        for (const QString &key : c->keys()) {
            const QList<qreal> v = toReals(b.runs.value(key, QList<int>(b.minutes, 0)));
            for (int i = 0; i < b.minutes; ++i)
                total[i] += v.at(i);
            c->setBars(key, v);
        }
        c->setWindow(b.from, b.minutes, maxOf(total));
    }
    {
        auto *c = chart(Chart::Deliveries);
        QList<qreal> total(b.minutes, 0);
        for (const QString &key : c->keys()) {
            const QList<qreal> v = toReals(b.deliveries.value(key, QList<int>(b.minutes, 0)));
            for (int i = 0; i < b.minutes; ++i)
                total[i] += v.at(i);
            c->setBars(key, v);
        }
        c->setWindow(b.from, b.minutes, maxOf(total));
    }
    {
        auto *c = chart(Chart::Credits);
        c->setBars(QStringLiteral("credits"), b.credits);
        c->setWindow(b.from, b.minutes, maxOf(b.credits));
    }
    {
        auto *c = chart(Chart::Latency);
        qreal top = 0;
        auto line = [&](const QString &key, const QList<double> &ms) {
            QList<QPointF> points;
            for (int i = 0; i < b.minutes; ++i) {
                if (ms.at(i) >= 0) {
                    points << QPointF(centre(i), ms.at(i) / 1000.);
                    top = qMax(top, ms.at(i) / 1000.);
                }
            }
            c->setPoints(key, points);
        };
        line(QStringLiteral("runP50"), b.runP50);
        line(QStringLiteral("runP95"), b.runP95);
        line(QStringLiteral("scrapeP50"), b.scrapeP50);
        line(QStringLiteral("scrapeP95"), b.scrapeP95);
        c->setWindow(b.from, b.minutes, top);
    }
    {
        auto *c = chart(Chart::Activity);
        qreal top = 0;
        auto line = [&](const QString &key, const QList<int> &counts) {
            QList<QPointF> points;
            points.reserve(b.minutes);
            for (int i = 0; i < b.minutes; ++i) {
                points << QPointF(centre(i), counts.at(i));
                top = qMax(top, qreal(counts.at(i)));
            }
            c->setPoints(key, points);
        };
        line(QStringLiteral("a2w"), b.a2wRuns);
        line(QStringLiteral("runtime"), b.runtimeRuns);
        c->setWindow(b.from, b.minutes, top);
    }
    {
        // The pool's peaks per 10 s, then where it stands now.
        samplePool();
        auto *c = chart(Chart::Pool);
        QList<QPointF> busy, queued, size;
        qreal top = 0;
        for (const PoolSample &s : std::as_const(m_pool)) {
            if (s.at < b.from)
                continue;
            busy << QPointF(qreal(s.at), s.busy);
            queued << QPointF(qreal(s.at), s.queued);
            size << QPointF(qreal(s.at), s.size);
            top = qMax(top, qreal(qMax(s.size, qMax(s.busy, s.queued))));
        }
        const BrowserPool::Stats now_ = m_services.pool.stats();
        busy << QPointF(qreal(now), now_.busy);
        queued << QPointF(qreal(now), now_.queued);
        size << QPointF(qreal(now), now_.size);
        c->setPoints(QStringLiteral("busy"), busy);
        c->setPoints(QStringLiteral("queued"), queued);
        c->setPoints(QStringLiteral("size"), size);
        c->setWindow(b.from, b.minutes, qMax(top, qreal(now_.size)));
    }
}

} // namespace ph::ui
