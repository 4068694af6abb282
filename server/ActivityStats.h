#pragma once

#include <QHash>
#include <QList>
#include <QString>

namespace ph {

class Store;

// The last hour, minute by minute, as the console's Overview charts it. Index `i` of each
// list is the minute starting at `from + i * 60 s`; the last one holds `now`.
struct ActivityBuckets
{
    qint64 from = 0; // the first minute's start (ms since the epoch, a whole minute)
    int minutes = 0;
    // Runs (trajectories) by status, counted in the minute of their latest change.
    QHash<QString, QList<int>> runs;
    // Latency (ms) of the agent and scrape requests finished in the minute; -1: none.
    QList<double> runP50, runP95, scrapeP50, scrapeP95;
    // Webhook deliveries by status (pending, delivered, failed), by the minute made.
    QHash<QString, QList<int>> deliveries;
    // Credits charged (balance adjustments left out).
    QList<double> credits;
    // A2W runs and browser-runtime runs started.
    QList<int> a2wRuns, runtimeRuns;
};

// Reads ActivityBuckets from the store: one indexed range query per kind of activity,
// grouped per minute in SQL where a count or sum will do (migrations 0004 and 0052 hold
// the time indexes). Bounded by the window, not by the size of the tables:
// bench/console times it with 100,000 runs.
class ActivityStats
{
public:
    explicit ActivityStats(Store &store);

    ActivityBuckets lastMinutes(qint64 nowMs, int minutes = 60) const;

    // The nearest-rank percentile (0 < p <= 1) of `values`, sorted in place; -1 if empty.
    static double percentile(QList<qint64> &values, double p);

private:
    Store &m_store;
};

} // namespace ph
