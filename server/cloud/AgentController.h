#pragma once

#include "http/Route.h"

#include <QJsonObject>
#include <QObject>

namespace ph {
class NetworkPolicy;
class Settings;
class Store;
namespace engine {
class AgentRun;
class LiveViews;
} // namespace engine
} // namespace ph

namespace ph::cloud {

class RunService;

// The planner API (docs/api/agent.md):
//   POST   /agent, /execute        run a task (ExecuteRequest → ApiExecuteResponse)
//   GET    /agent/{trajectoryId}   the latest state (Prefer: wait=N long-polls)
//   DELETE /agent/{trajectoryId}   cancel
//   POST   /storage                upload a file → storageRef (for dataInputs)
//   GET    /storage/{id}           download by signed URL (or the owning key)
//   GET    /storage/sites/{siteId}/{token}/{path}   a generated site's file (generate_websites)
class AgentController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    // A thin adapter: runs start, answer and cancel in RunService.
    AgentController(Store &store, Settings &settings, NetworkPolicy &policy, RunService &runs,
                    engine::LiveViews &liveViews, QObject *parent = nullptr);
    QList<http::Route> routes() override;

private:
    void run(http::Exchange &exchange);
    void get(http::Exchange &exchange);
    // GET /agent/{id} with Accept: text/event-stream or application/x-ndjson.
    void stream(http::Exchange &exchange, const QString &id, const QString &keyId, int framing);
    void cancel(http::Exchange &exchange);
    void upload(http::Exchange &exchange);
    void download(http::Exchange &exchange);
    // The response with its live view link (options.liveView) while `run` lives.
    QJsonObject withLiveView(QJsonObject response, const engine::AgentRun *run, bool asked);
    // A generated site's root (index.html; without its trailing slash, a redirect to it,
    // so relative links resolve under the token) and its other files.
    void siteRoot(http::Exchange &exchange);
    void siteFile(http::Exchange &exchange);
    void serveSiteFile(http::Exchange &exchange, const QString &path);

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    RunService &m_runs;
    engine::LiveViews &m_liveViews;
};

} // namespace ph::cloud
