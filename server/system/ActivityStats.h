#pragma once

#include <QHash>
#include <QList>
#include <QString>

#include <atomic>

class QSqlDatabase;

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
//
// Two ways in: lastMinutes() on the store's own connection (the store's thread), and
// readFile() on any thread through a read-only connection of its own to the same
// database file (WAL lets it read beside the store's writes). The console's Overview
// uses readFile() on a worker so the queries never hold up the UI thread.
class ActivityStats
{
public:
    explicit ActivityStats(Store &store);

    // On the store's connection: only on the thread that opened the store.
    ActivityBuckets lastMinutes(qint64 nowMs, int minutes = 60) const;

    // On the calling thread, through a read-only connection made for this call (named
    // for it, so threads never share one) to the SQLite file at `path`, closed before
    // returning. `cancelled` (may be null) is checked between the queries: once set, the
    // rest are skipped and what was read so far returned. False with `error` when the
    // file cannot be opened or a query fails; throws nothing.
    static bool readFile(const QString &path, qint64 nowMs, int minutes, ActivityBuckets *out,
                         QString *error, const std::atomic_bool *cancelled = nullptr);

    // The nearest-rank percentile (0 < p <= 1) of `values`, sorted in place; -1 if empty.
    static double percentile(QList<qint64> &values, double p);

private:
    Store &m_store;
};

} // namespace ph
