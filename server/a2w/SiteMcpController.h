#pragma once

#include "http/Route.h"

#include <QObject>

#include <memory>

namespace ph {
class Clock;
class Settings;
namespace mcp {
class McpServer;
}
} // namespace ph

namespace ph::a2w {

class A2wService;
class WebBotAuth;

// Every enabled site's own MCP server (streamable HTTP) at /v2/a2w/sites/{siteId}/mcp
// (docs/api/a2w.md, "Capabilities"): tools/list is the site's capabilities document's
// tools; tools/call creates an A2W run through the canonical contract and answers with
// its result, or with its run link when it outlives the call. Each caller is its own
// credential for the MCP session limits (docs/security.md, "Site MCP sessions"): a
// verified agent by its key directory, anyone else by client address and client id;
// the limits are the mcp.* settings (Service applies them as they change).
class SiteMcpController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    SiteMcpController(A2wService &service, WebBotAuth &trust, Settings &settings,
                      const Clock &clock, QObject *parent = nullptr);
    ~SiteMcpController() override;
    QList<http::Route> routes() override;
    // The MCP server behind every site's path (its limits, its session count).
    mcp::McpServer &mcp() { return *m_server; }

private:
    void post(http::Exchange &ex);
    void remove(http::Exchange &ex);
    void get(http::Exchange &ex);
    void checkSite(const http::Exchange &ex) const;

    A2wService &m_service;
    WebBotAuth &m_trust;
    Settings &m_settings;
    std::unique_ptr<mcp::McpServer> m_server;
};

} // namespace ph::a2w
