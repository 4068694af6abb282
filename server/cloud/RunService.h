#pragma once

#include "SessionLookup.h"

#include "core/DomainError.h"

#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

class QObject;

namespace ph {
class BrowserPool;
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

class ToolLibrary;

// Agent runs as the API starts them (docs/decisions.md, "Domain services"): credits,
// the per-key limit and room in the browser pool are checked, the request goes into the
// request log with its callbacks, and every end of a phase is announced to them.
// AgentController (/agent, /execute), BridgeController (/mcp, trigger URLs) and the
// console's tools panel start, poll and cancel runs here. Failures are DomainErrors.
class RunService
{
public:
    RunService(Store &store, Settings &settings, BrowserPool &pool, engine::RunManager &runs,
               webhooks::WebhookQueue &webhooks, ToolLibrary &library);

    // How a run's `browserSession` is found (Service: sessions::SessionService::browserOf);
    // unset: none is (404).
    void setSessionLookup(SessionLookup lookup) { m_sessions = std::move(lookup); }

    // Starts (or continues) a run for `keyId` as request `requestId` of `endpoint`, with
    // the callbacks it subscribes. 402 CREDITS_EXHAUSTED, 429 BUSY (the key's limit, a
    // full pool), or the engine's refusal; nothing is started then.
    engine::AgentRun *start(const engine::ExecuteRequest &request, const QString &keyId,
                            const QString &requestId, const QString &endpoint);
    // Runs the key's saved tool `name` with `params` as the bridge's user_<name> does,
    // logged under `endpoint` (the console: "console"). 404 TOOL_NOT_FOUND, 400 under
    // params, and start()'s refusals.
    engine::AgentRun *runSavedTool(const QString &keyId, const QString &name,
                                   const QJsonObject &params, const QString &endpoint);
    // The run still in memory, or null.
    engine::AgentRun *live(const QString &trajectoryId) const;
    // The latest ApiExecuteResponse of a trajectory the key owns; 404 otherwise.
    QJsonObject latest(const QString &trajectoryId, const QString &keyId) const;
    // Cancels the key's run and returns its latest state; 404, 409 when it has ended.
    QJsonObject cancel(const QString &trajectoryId, const QString &keyId);

    // The typed 400 of a run that ended on an input it could not use.
    static std::optional<DomainError> inputError(const engine::AgentRun &run);
    // Calls `then` once: when the run settles, or after `windowMs` with the run still
    // going (or gone). `context` ends the wait when it is destroyed.
    static void awaitRun(engine::AgentRun *run, int windowMs, QObject *context,
                         std::function<void()> then);

private:
    // Queues the callbacks of a phase that ended or paused (the settle hook: inside the
    // transaction that stores it) and finishes its request in the log.
    void announce(const engine::Settlement &settlement);

    Store &m_store;
    Settings &m_settings;
    BrowserPool &m_pool;
    engine::RunManager &m_runs;
    webhooks::WebhookQueue &m_webhooks;
    ToolLibrary &m_library;
    SessionLookup m_sessions;
};

} // namespace ph::cloud
