// bench/store: how many commits per second the store's write paths make with SQLite's
// `synchronous` at NORMAL and at FULL (WAL mode), through the real code:
//   ledger   CreditLedger::charge, one transaction per charge (a request's bill)
//   queue    WebhookQueue::enqueue of one delivery, one transaction (a callback)
//   run end  a phase stored as ended, its bill and its two callbacks in one transaction
//            (what AgentRun::settle commits; phases and trajectories rows as the engine
//            writes them)
// Each path commits BENCH_COMMITS times per round; BENCH_ROUNDS rounds, the median is
// printed. The directory given on the command line holds the stores (run.sh picks one
// on the data directory's disk).
#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/RequestLog.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"
#include "webhooks/WebhookQueue.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace ph;

namespace {

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

struct Figures
{
    double ledger = 0;
    double queue = 0;
    double runEnd = 0;
};

// Commits per second of `commit` called `n` times.
double rate(int n, const std::function<void(int)> &commit)
{
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; ++i)
        commit(i);
    return n / (double(t.nsecsElapsed()) / 1e9);
}

Figures round(const QString &parent, const char *mode, int n)
{
    QTemporaryDir dir(parent + QStringLiteral("/round-XXXXXX"));
    SystemClock clock;
    Store store(dir.filePath(QStringLiteral("pilothouse.db")), clock);
    QString error;
    if (!store.open(&error)) {
        std::fprintf(stderr, "cannot open a store: %s\n", qPrintable(error));
        std::exit(1);
    }
    Sql(store, QStringLiteral("PRAGMA synchronous=") + QLatin1String(mode)).exec();
    const QString key =
        store.apiKeys().mint(QStringLiteral("bench"), QStringLiteral("user"), 1'000'000'000).key.id;
    NetworkPolicy policy(true);
    QNetworkAccessManager network;
    webhooks::WebhookQueue queue(store, clock, policy, network); // not started: rows only
    WebhookSubscription subscription;
    subscription.url = QStringLiteral("https://hooks.example/bench");
    subscription.secret = QStringLiteral("whsec_bench");
    subscription.headers = QJsonObject{{QStringLiteral("X-Env"), QStringLiteral("bench")}};
    const QJsonObject payload{
        {QStringLiteral("event"), QStringLiteral("workflow.completed")},
        {QStringLiteral("requestId"), QStringLiteral("req_bench")},
        {QStringLiteral("data"),
         QJsonObject{{QStringLiteral("output"), QString(600, QLatin1Char('x'))}}}};
    const Usage usage{1, 1200, 0};

    Figures f;
    f.ledger = rate(n, [&](int) {
        store.credits().charge(key, QStringLiteral("req_bench"), QStringLiteral("/scrape"), usage);
    });
    f.queue = rate(n, [&](int) {
        queue.enqueue(QStringLiteral("req_bench"), key, {subscription},
                      {{QStringLiteral("workflow.completed"), payload}});
    });
    Sql(store,
        QStringLiteral("INSERT INTO trajectories (id, key_id, created_at, updated_at, status,"
                       " phase, task, planner) VALUES ('traj_bench', :k, 0, 0, 'executing',"
                       " 1, 'bench', 'rule')"))
        .bind(QStringLiteral(":k"), key)
        .exec();
    f.runEnd = rate(n, [&](int i) {
        store.transaction([&] {
            Sql(store,
                QStringLiteral("INSERT INTO phases (trajectory_id, phase, request_id, status,"
                               " request, started_at) VALUES ('traj_bench', :p, 'req', "
                               "'executing', '{}', 0)"))
                .bind(QStringLiteral(":p"), i + 1)
                .exec();
            store.credits().charge(key, QStringLiteral("req_bench"), QStringLiteral("/agent"),
                                   usage);
            Sql(store, QStringLiteral("UPDATE phases SET status = 'success', response = :r,"
                                      " finished_at = 1 WHERE trajectory_id = 'traj_bench' AND"
                                      " phase = :p"))
                .bind(QStringLiteral(":r"), QString(800, QLatin1Char('r')))
                .bind(QStringLiteral(":p"), i + 1)
                .exec();
            Sql(store, QStringLiteral("UPDATE trajectories SET status = 'success', updated_at = 1"
                                      " WHERE id = 'traj_bench'"))
                .exec();
            queue.enqueue(QStringLiteral("req_bench"), key, {subscription},
                          {{QStringLiteral("workflow.completed"), payload},
                           {QStringLiteral("svc.execution.succeeded"), payload}});
        });
    });
    return f;
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.at(v.size() / 2);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString parent = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath();
    const int n = envInt("BENCH_COMMITS", 2000);
    const int rounds = envInt("BENCH_ROUNDS", 3);
    std::printf("commits per second, median of %d rounds of %d commits (WAL mode)\n", rounds, n);
    std::printf("%-10s %12s %12s %12s\n", "synchronous", "ledger", "queue", "run end");
    for (const char *mode : {"NORMAL", "FULL"}) {
        QList<double> ledger, queue, runEnd;
        for (int r = 0; r < rounds; ++r) {
            const Figures f = round(parent, mode, n);
            ledger << f.ledger;
            queue << f.queue;
            runEnd << f.runEnd;
        }
        std::printf("%-10s %12.0f %12.0f %12.0f\n", mode, median(ledger), median(queue),
                    median(runEnd));
        std::fflush(stdout);
    }
    return 0;
}
