#pragma once

#include "core/DomainError.h"
#include "http/Route.h"

#include <QObject>

#include <functional>
#include <optional>

namespace ph {
class BrowserPool;
class NetworkPolicy;
class Settings;
class Store;
namespace engine {
class AgentRun;
class RunManager;
struct ExecuteRequest;
struct Settlement;
} // namespace engine
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::cloud {

// The planner API (docs/api/agent.md):
//   POST   /agent, /execute        run a task (ExecuteRequest → ApiExecuteResponse)
//   GET    /agent/{trajectoryId}   the latest state (Prefer: wait=N long-polls)
//   DELETE /agent/{trajectoryId}   cancel
//   POST   /storage                upload a file → storageRef (for dataInputs)
//   GET    /storage/{id}           download by signed URL (or the owning key)
class AgentController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    AgentController(Store &store, Settings &settings, NetworkPolicy &policy, BrowserPool &pool,
                    engine::RunManager &runs, webhooks::WebhookQueue &webhooks,
                    QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // Starts (or continues) a run for `keyId` as request `requestId` of `endpoint`, with
    // the callbacks it subscribes: credits and pool checks, the request log, the
    // subscriptions. Throws DomainError when it cannot start.
    engine::AgentRun *submit(const engine::ExecuteRequest &request, const QString &keyId,
                             const QString &requestId, const QString &endpoint);
    // Calls `then` once: when the run settles, or after `windowMs` with the run still
    // going (or gone). `context` ends the wait when it is destroyed.
    // The typed 400 of a run that ended on an input it could not use.
    static std::optional<DomainError> inputError(const engine::AgentRun &run);
    static void awaitRun(engine::AgentRun *run, int windowMs, QObject *context,
                         std::function<void()> then);

private:
    void run(http::Exchange &exchange);
    void get(http::Exchange &exchange);
    void cancel(http::Exchange &exchange);
    void upload(http::Exchange &exchange);
    void download(http::Exchange &exchange);
    // Queues the callbacks of a phase that ended or paused (the settle hook: inside the
    // transaction that stores it) and finishes its request in the log.
    void announce(const engine::Settlement &settlement);

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    BrowserPool &m_pool;
    engine::RunManager &m_runs;
    webhooks::WebhookQueue &m_webhooks;
};

} // namespace ph::cloud
