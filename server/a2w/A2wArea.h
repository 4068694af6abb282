#pragma once

#include <QList>

#include <memory>

namespace ph {
class ApiKeyService;
class NetworkPolicy;
class Settings;
class Store;
namespace cloud {
class CloudArea;
}
namespace http {
class Authenticator;
class Controller;
} // namespace http
namespace mcp {
class McpServer;
}
namespace sites {
class SitesArea;
}
} // namespace ph

namespace ph::a2w {

class A2wController;
class A2wService;
class SiteMcpController;
class TaskController;
class WebBotAuth;

// The A2W area as one piece for Service: runs of visiting agents on the cloud's run core,
// Web Bot Auth trust tiers, and the three ways in (the A2W API, the v1 task contract,
// every site's MCP server).
class A2wArea
{
public:
    A2wArea(Store &store, Settings &settings, NetworkPolicy &policy, ApiKeyService &keys,
            http::Authenticator &auth, sites::SitesArea &sites, cloud::CloudArea &cloud);
    ~A2wArea();

    A2wService &service() { return *m_service; }
    WebBotAuth &webBotAuth() { return *m_webBotAuth; }
    // The sites' MCP servers (their session limits are settings).
    mcp::McpServer &siteMcp();
    QList<http::Controller *> controllers();
    // Once at start, after the engine recovered its runs (A2wService::recover).
    void recover();

private:
    std::unique_ptr<A2wService> m_service;
    std::unique_ptr<WebBotAuth> m_webBotAuth;
    std::unique_ptr<A2wController> m_a2wController;
    std::unique_ptr<TaskController> m_taskController;
    std::unique_ptr<SiteMcpController> m_siteMcp;
};

} // namespace ph::a2w
