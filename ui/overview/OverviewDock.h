#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QList>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QTimer;

namespace ph {
class ActivityStats;
class Service;
} // namespace ph

namespace ph::ui {

class OverviewChart;

// The first panel: where the API is and how to call it, the last hour in charts (runs by
// status, the browser pool, latency, webhook deliveries, credits, A2W and runtime runs)
// and the requests as they happen. The charts follow the store's and the services'
// change signals, redrawn at most twice a second (kMinRefreshMs) and only while the panel
// is on screen; each refresh is a few indexed queries bounded by the hour
// (server/ActivityStats, timed by bench/console). Clicking a chart asks for its panel.
class OverviewDock : public QDockWidget
{
    Q_OBJECT
public:
    enum class Chart { Runs, Pool, Latency, Deliveries, Credits, Activity };
    static constexpr int kMinRefreshMs = 500; // at most 2 Hz
    static constexpr int kMinutes = 60;

    explicit OverviewDock(Service &service, QWidget *parent = nullptr);
    ~OverviewDock() override;
    QPlainTextEdit *activity() const { return m_activity; }
    OverviewChart *chart(Chart which) const { return m_charts.at(int(which)); }

    // Reads the hour and redraws every chart now (the throttle calls it; so may tests
    // and bench/console). Timings of the latest one, in ms: the store's queries, and
    // the queries plus the charts' update.
    void refreshNow();
    int refreshCount() const { return m_refreshes; }
    double lastQueryMs() const { return m_lastQueryMs; }
    double lastRefreshMs() const { return m_lastRefreshMs; }

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
    void retranslateUi();
    void onStoreChanged(const QString &table, const QString &id);
    void scheduleRefresh();
    void samplePool();
    bool onScreen() const;

    Service &m_service;
    std::unique_ptr<ActivityStats> m_stats;
    QLabel *m_title;
    QLabel *m_intro;
    QPlainTextEdit *m_example;
    QLabel *m_chartsTitle;
    QList<OverviewChart *> m_charts;
    QLabel *m_activityTitle;
    QPlainTextEdit *m_activity;
    QTimer *m_throttle;
    QTimer *m_tick;
    QElapsedTimer m_sinceRefresh;
    bool m_dirty = true;
    bool m_tabShown = true;
    int m_refreshes = 0;
    double m_lastQueryMs = 0;
    double m_lastRefreshMs = 0;
    QList<PoolSample> m_pool;
};

} // namespace ph::ui
