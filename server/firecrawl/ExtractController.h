#pragma once

#include "ExtractRequest.h"
#include "http/Route.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

namespace ph {
class NetworkPolicy;
class Settings;
class Store;
namespace cloud {
class RunService;
}
} // namespace ph

namespace ph::firecrawl {

// Firecrawl's asynchronous extraction under /firecrawl (docs/api/firecrawl.md#extract):
// POST /v2/extract (and v1) reads each listed page with an agent run of its own, one
// after the other, as the json format does; GET /v2/extract/{id} answers the job's state
// and the pages' data merged. POST /v2/agent is one agent run (POST /agent), its id the
// run's trajectory, so GET /v2/agent/{id} answers from the stored trajectory and
// survives a restart; extract jobs live in this object's memory for 24 hours and do not
// (a later GET answers 404 saying so). Runs are billed, limited and logged as /agent's.
class ExtractController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    ExtractController(Store &store, Settings &settings, NetworkPolicy &policy,
                      cloud::RunService &runs, QObject *parent = nullptr);
    ~ExtractController() override;
    QList<http::Route> routes() override;

private:
    struct Job
    {
        QString keyId;
        QString endpoint;
        ExtractRequest request;
        int next = 0; // the next URL to run
        bool done = false;
        QJsonValue data;
        QStringList errors;
        int succeeded = 0;
        double credits = 0;
        qint64 createdAtMs = 0;
    };

    void startExtract(http::Exchange &ex);
    void extractStatus(http::Exchange &ex);
    void startAgent(http::Exchange &ex);
    void agentStatus(http::Exchange &ex);
    void cancelAgent(http::Exchange &ex);

    // Starts the job's next URL's run; the first one's refusal (402, 429 …) is thrown to
    // the POST, a later one's is that URL's error.
    void runNext(const QString &jobId, bool first);
    void settled(const QString &jobId, const QString &url, const QJsonObject &response);
    // Drops jobs older than 24 hours.
    void expire();

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    cloud::RunService &m_runs;
    QHash<QString, Job> m_jobs;
};

} // namespace ph::firecrawl
