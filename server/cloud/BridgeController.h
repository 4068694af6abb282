#pragma once

#include "core/RequestLog.h"
#include "http/Route.h"

#include <QJsonObject>
#include <QObject>

#include <functional>
#include <memory>

namespace ph {
class DomainError;
class Clock;
class NetworkPolicy;
class Settings;
class Store;
namespace engine {
struct ExecuteRequest;
}
namespace http {

class Authenticator;
class Exchange;
} // namespace http
namespace mcp {
class McpServer;
}
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::cloud {

class DeviceLink;
class RunService;
class ScrapeService;
class ToolLibrary;

// The browser bridge (docs/api/bridge.md) on one address, told apart by the body:
//   POST   /mcp   plain JSON {tool, params, deviceId?, target?, webhookUrl?, …}, or
//                 MCP streamable HTTP (JSON-RPC 2.0: an object with "jsonrpc", or a batch)
//   GET    /mcp, DELETE /mcp   the MCP transport (405 / end a session)
//   POST   /mcp/v1/webhooks/trigger/{id}, /v1/webhooks/trigger/{id}   fire a trigger
// Tools: agent, scrape, planner, extract, act, crawl, replay_workflow, the caller's saved
// tools as user_<name>, and the device-only get_browser_tabs and execute_javascript
// (on the caller's device, server/devices; 503 DEVICE_UNAVAILABLE without one).
class BridgeController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    BridgeController(Store &store, Settings &settings, NetworkPolicy &policy,
                     http::Authenticator &auth, RunService &runs, ScrapeService &scrape,
                     ToolLibrary &library, webhooks::WebhookQueue &webhooks,
                     QObject *parent = nullptr);
    ~BridgeController() override;

    QList<http::Route> routes() override;
    // The MCP face of /mcp (its session limits are settings).
    mcp::McpServer &mcp() { return *m_mcp; }
    void setDeviceLink(DeviceLink *link) { m_devices = link; }

    // One bridge call, from either face or a trigger.
    struct Call
    {
        QString tool;
        QJsonObject params;
        QString target; // "", cloud, device
        QString deviceId;
        QList<WebhookSubscription> webhooks;
        QString triggerId; // set when a trigger fired it
    };
    // How a call answers: a status and body, or an error.
    using Reply = std::function<void(int status, const QJsonObject &body, const DomainError *)>;

    // Runs `call` for the exchange's key; `reply` is called once. Throws DomainError
    // for what is wrong before any work starts.
    void invoke(const Call &call, http::Exchange &exchange, Reply reply);
    // The tool's work once checked; `scope` narrows what scrape and act read.
    void dispatch(const Call &call, http::Exchange &exchange, Reply reply, const QString &scope);

private:
    void post(http::Exchange &ex);
    void fireTrigger(http::Exchange &ex);
    void registerMcpTools();

    void runAgent(const engine::ExecuteRequest &request, const Call &call, http::Exchange &ex,
                  Reply reply);
    engine::ExecuteRequest agentRequest(const Call &call, const QString &keyId) const;
    // A run of `script` for the call (ToolLibrary::scriptRequest with its callbacks).
    static engine::ExecuteRequest scriptRequest(const Call &call, const QJsonArray &script,
                                                const QString &task);
    [[noreturn]] void deviceUnavailable(const Call &call, http::Exchange &ex, const QString &why);
    // DEVICE_UNAVAILABLE for `call`, announced as workflow.failed to its callbacks.
    DomainError deviceFailure(const Call &call, const QString &requestId, const QString &keyId,
                              const QString &message);
    // A call for a device (deviceId, target device, a device-only tool) goes there, or
    // fails with DEVICE_UNAVAILABLE; false: the call is the cloud's.
    bool routeToDevice(const Call &call, http::Exchange &ex, const Reply &reply);
    // get_browser_tabs and execute_javascript on the device `deviceId`.
    void runOnDevice(const QString &deviceId, const Call &call, http::Exchange &ex, Reply reply);

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    http::Authenticator &m_auth;
    RunService &m_runs;
    ScrapeService &m_scrape;
    ToolLibrary &m_library;
    webhooks::WebhookQueue &m_webhooks;
    std::unique_ptr<mcp::McpServer> m_mcp;
    DeviceLink *m_devices = nullptr;
};

} // namespace ph::cloud
