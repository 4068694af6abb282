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

// Every enabled site's own MCP server (streamable HTTP) at /v2/a2w/sites/{siteId}/mcp
// (docs/api/a2w.md, "Capabilities"): tools/list is the site's capabilities document's
// tools; tools/call creates an A2W run through the canonical contract and answers with
// its result, or with its run link when it outlives the call.
class SiteMcpController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    SiteMcpController(A2wService &service, Settings &settings, const Clock &clock,
                      QObject *parent = nullptr);
    ~SiteMcpController() override;
    QList<http::Route> routes() override;

private:
    void post(http::Exchange &ex);
    void remove(http::Exchange &ex);
    void get(http::Exchange &ex);
    void checkSite(const http::Exchange &ex) const;

    A2wService &m_service;
    Settings &m_settings;
    std::unique_ptr<mcp::McpServer> m_server;
};

} // namespace ph::a2w
