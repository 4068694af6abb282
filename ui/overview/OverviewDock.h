#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QList>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QThreadPool;
class QTimer;
template <typename T> class QFutureWatcher;

namespace ph {
class ActivityStats;
struct ActivityBuckets;
} // namespace ph

namespace ph::ui {

class OverviewChart;

// The first panel: where the API is and how to call it, the last hour in charts (runs by
// status, the browser pool, latency, webhook deliveries, credits, A2W and runtime runs)
// and the requests as they happen. The charts follow the store's and the services'
// change signals, redrawn at most twice a second (kMinRefreshMs) and only while the panel
// is on screen. Each refresh reads the hour (a few indexed queries, server/system/ActivityStats)
// on a worker thread through a read-only connection of its own, one read at a time (a
// change during a read asks for one more after it); the UI thread only applies the
// result to the charts (both timed by bench/console). Clicking a chart asks for its panel.
class OverviewDock : public QDockWidget
{
    Q_OBJECT
public:
    enum class Chart { Runs, Pool, Latency, Deliveries, Credits, Activity };
    static constexpr int kMinRefreshMs = 500; // at most 2 Hz
    static constexpr int kMinutes = 60;

    explicit OverviewDock(const ConsoleServices &services, QWidget *parent = nullptr);
    ~OverviewDock() override;
    QPlainTextEdit *activity() const { return m_activity; }
    OverviewChart *chart(Chart which) const { return m_charts.at(int(which)); }

    // Starts reading the hour now (the throttle calls it; so may tests and bench/console);
    // the charts follow when the read is back (refreshed()). While a read runs, one more
    // is made after it instead. Timings of the latest refresh, in ms: the worker's
    // queries; the UI thread's part (the charts' update); from the read's start to the
    // charts updated.
    void refreshNow();
    bool isRefreshing() const { return m_reading || m_again; }
    // Nothing scheduled and no read running: no refresh comes without a new change.
    bool isIdle() const;
    // A change came while out of sight: the panel refreshes once it is shown.
    bool isBehind() const { return m_dirty; }
    int refreshCount() const { return m_refreshes; }
    double lastQueryMs() const { return m_lastQueryMs; }
    double lastRefreshMs() const { return m_lastRefreshMs; }
    double lastLatencyMs() const { return m_lastLatencyMs; }

Q_SIGNALS:
    // A chart was clicked: the panel to raise and its filter ("" for none).
    void runsRequested(const QString &status);
    void deliveriesRequested(const QString &status);
    void browserViewsRequested();
    void keysRequested();
    void a2wRunsRequested();
    void refreshed();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    struct PoolSample
    {
        qint64 at = 0; // the start of its 10-second slot
        int busy = 0;
        int queued = 0;
        int size = 0;
    };
    struct Read; // one read's input and result, shared with its worker
    void retranslateUi();
    void connectChanges();
    QWidget *makeChartsPage(QWidget *split);
    void onReadFinished();
    void apply(const ActivityBuckets &b, qint64 now);
    void onRequestChanged(const QString &requestId);
    void scheduleRefresh();
    void samplePool();
    bool onScreen() const;

    ConsoleServices m_services;
    ActivityStats &m_stats;
    QLabel *m_title;
    QLabel *m_intro;
    QPlainTextEdit *m_example;
    QLabel *m_chartsTitle;
    QList<OverviewChart *> m_charts;
    QLabel *m_activityTitle;
    QPlainTextEdit *m_activity;
    QTimer *m_throttle;
    QTimer *m_tick;
    QElapsedTimer m_sinceRefresh;           // since the latest read started
    std::unique_ptr<QThreadPool> m_workers; // one thread: one read at a time
    QFutureWatcher<void> *m_watcher;
    std::shared_ptr<Read> m_read; // the read in flight
    bool m_reading = false;
    bool m_again = false;       // a change came during the read: one more after it
    bool m_readOnStore = false; // no file to open beside the store: read on its connection
    bool m_dirty = true;
    bool m_tabShown = true;
    int m_refreshes = 0;
    double m_lastQueryMs = 0;
    double m_lastRefreshMs = 0;
    double m_lastLatencyMs = 0;
    QList<PoolSample> m_pool;
};

} // namespace ph::ui
