#include "ActivityStats.h"

#include "core/Store.h"

#include <QAtomicInteger>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>

namespace ph {

namespace {
constexpr qint64 kMinuteMs = 60000;
// Requests finished in the window that started up to this long before it still count.
constexpr qint64 kLongestRequestMs = 3600000;

// A prepared statement on `db`; failures throw StoreError, as Sql's do.
class Query
{
public:
    Query(const QSqlDatabase &db, const QString &statement)
        : m_query(db)
        , m_statement(statement)
    {
        if (!m_query.prepare(statement))
            fail("prepare failed: ");
        m_query.setForwardOnly(true);
    }
    Query &bind(const QString &placeholder, const QVariant &value)
    {
        m_query.bindValue(placeholder, value);
        return *this;
    }
    Query &exec()
    {
        if (!m_query.exec())
            fail("statement failed: ");
        return *this;
    }
    bool next() { return m_query.next(); }
    QVariant value(int column) const { return m_query.value(column); }

private:
    [[noreturn]] void fail(const char *what) const
    {
        throw StoreError(what + m_query.lastError().text().toStdString() +
                         " in: " + m_statement.left(200).toStdString());
    }
    QSqlQuery m_query;
    QString m_statement;
};

ActivityBuckets readBuckets(const QSqlDatabase &db, qint64 nowMs, int minutes,
                            const std::atomic_bool *cancelled);
} // namespace

ActivityStats::ActivityStats(Store &store)
    : m_store(store)
{}

double ActivityStats::percentile(QList<qint64> &values, double p)
{
    if (values.isEmpty())
        return -1;
    std::sort(values.begin(), values.end());
    const qsizetype rank = qBound<qsizetype>(0, qsizetype(std::ceil(p * double(values.size()))) - 1,
                                             values.size() - 1);
    return double(values.at(rank));
}

ActivityBuckets ActivityStats::lastMinutes(qint64 nowMs, int minutes) const
{
    return readBuckets(m_store.database(), nowMs, minutes, nullptr);
}

bool ActivityStats::readFile(const QString &path, qint64 nowMs, int minutes, ActivityBuckets *out,
                             QString *error, const std::atomic_bool *cancelled)
{
    static QAtomicInteger<quint64> serial;
    const QString name = QStringLiteral("activity-%1").arg(serial.fetchAndAddRelaxed(1));
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open()) {
            if (error)
                *error = QStringLiteral("cannot open %1: %2").arg(path, db.lastError().text());
        } else {
            try {
                *out = readBuckets(db, nowMs, minutes, cancelled);
                ok = true;
            } catch (const StoreError &e) {
                if (error)
                    *error = QString::fromUtf8(e.what());
            }
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

namespace {

ActivityBuckets readBuckets(const QSqlDatabase &db, qint64 nowMs, int minutes,
                            const std::atomic_bool *cancelled)
{
    auto stop = [cancelled] { return cancelled && cancelled->load(std::memory_order_relaxed); };
    ActivityBuckets b;
    b.minutes = qMax(1, minutes);
    const qint64 to = (nowMs / kMinuteMs + 1) * kMinuteMs;
    b.from = to - qint64(b.minutes) * kMinuteMs;
    const QList<int> zeros(b.minutes, 0);
    const QList<double> none(b.minutes, -1.);
    b.runP50 = b.runP95 = b.scrapeP50 = b.scrapeP95 = none;
    b.credits = QList<double>(b.minutes, 0.);
    b.a2wRuns = b.runtimeRuns = zeros;
    for (const char *s : {"executing", "requires_input", "success", "error", "cancelled"})
        b.runs.insert(QLatin1String(s), zeros);
    for (const char *s : {"pending", "delivered", "failed"})
        b.deliveries.insert(QLatin1String(s), zeros);
    auto slot = [&](const QVariant &v) {
        const qint64 i = v.toLongLong();
        return i >= 0 && i < b.minutes ? int(i) : -1;
    };
    // Runs `statement` over the window (:from, :to) and hands each row whose first column
    // is a minute of it to `row`, with that minute's index.
    auto perMinute = [&](const QString &statement, const auto &row) {
        if (stop())
            return;
        Query q(db, statement);
        q.bind(QStringLiteral(":from"), b.from).bind(QStringLiteral(":to"), to).exec();
        while (q.next()) {
            const int i = slot(q.value(0));
            if (i >= 0)
                row(i, q);
        }
    };
    auto counts = [&](const QString &statement, QHash<QString, QList<int>> &into) {
        perMinute(statement, [&](int i, const Query &q) {
            auto it = into.find(q.value(1).toString());
            if (it == into.end())
                it = into.insert(q.value(1).toString(), zeros);
            (*it)[i] += q.value(2).toInt();
        });
    };
    // trajectories_by_time_status (updated_at, status): the index alone.
    counts(QStringLiteral("SELECT (updated_at - :from) / 60000, status, COUNT(*) FROM trajectories"
                          " WHERE updated_at >= :from AND updated_at < :to GROUP BY 1, 2"),
           b.runs);
    // webhook_deliveries_by_time_status (created_at, status): the index alone.
    counts(QStringLiteral("SELECT (created_at - :from) / 60000, status, COUNT(*)"
                          " FROM webhook_deliveries WHERE created_at >= :from AND created_at < :to"
                          " GROUP BY 1, 2"),
           b.deliveries);
    if (!stop()) {
        // api_requests_by_time (started_at); the durations are ranked here.
        Query q(db, QStringLiteral("SELECT (finished_at - :from) / 60000, endpoint,"
                                   " finished_at - started_at FROM api_requests"
                                   " WHERE started_at >= :early AND started_at < :to"
                                   " AND finished_at >= :from AND finished_at < :to"));
        q.bind(QStringLiteral(":from"), b.from)
            .bind(QStringLiteral(":to"), to)
            .bind(QStringLiteral(":early"), b.from - kLongestRequestMs)
            .exec();
        QList<QList<qint64>> runs(b.minutes), scrapes(b.minutes);
        while (q.next()) {
            const int i = slot(q.value(0));
            if (i < 0)
                continue;
            const bool scrape = q.value(1).toString() == QLatin1String("/scrape");
            (scrape ? scrapes : runs)[i].append(qMax<qint64>(0, q.value(2).toLongLong()));
        }
        for (int i = 0; i < b.minutes; ++i) {
            b.runP50[i] = ActivityStats::percentile(runs[i], 0.5);
            b.runP95[i] = ActivityStats::percentile(runs[i], 0.95);
            b.scrapeP50[i] = ActivityStats::percentile(scrapes[i], 0.5);
            b.scrapeP95[i] = ActivityStats::percentile(scrapes[i], 0.95);
        }
    }
    // credit_ledger_by_time (at, endpoint, credits_milli): the index alone.
    perMinute(
        QStringLiteral("SELECT (at - :from) / 60000, SUM(credits_milli)"
                       " FROM credit_ledger WHERE at >= :from AND at < :to"
                       " AND endpoint <> 'balance' GROUP BY 1"),
        [&](int i, const Query &q) { b.credits[i] = double(q.value(1).toLongLong()) / 1000.; });
    auto started = [&](const QString &statement, QList<int> &into) {
        perMinute(statement, [&](int i, const Query &q) { into[i] = q.value(1).toInt(); });
    };
    // a2w_runs_by_time, runtime_runs_by_time (created_at).
    started(QStringLiteral("SELECT (created_at - :from) / 60000, COUNT(*) FROM a2w_runs"
                           " WHERE created_at >= :from AND created_at < :to GROUP BY 1"),
            b.a2wRuns);
    started(QStringLiteral("SELECT (created_at - :from) / 60000, COUNT(*) FROM runtime_runs"
                           " WHERE created_at >= :from AND created_at < :to GROUP BY 1"),
            b.runtimeRuns);
    return b;
}

} // namespace

} // namespace ph
