#pragma once

#include "SessionLookup.h"

#include <QList>

#include <memory>

class QNetworkAccessManager;

namespace ph {
class BrowserPool;
class NetworkPolicy;
class Settings;
class Store;
namespace engine {
class LiveViews;
class PlannerFactory;
class RunManager;
class ToolRegistry;
class TrajectoryRepository;
struct EngineServices;
} // namespace engine
namespace http {
class Authenticator;
class Controller;
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

class AgentController;
class BridgeController;
class LibraryController;
class LibraryRepository;
class LiveViewController;
class RunService;
class ScrapeController;
class ScrapeService;
class ToolLibrary;

// The run core and the cloud area over it, as one piece for Service: the engine (tools,
// trajectories, runs, live views), /scrape, /agent, the browser bridge (/mcp, trigger
// URLs) and its library of saved tools, recordings and triggers. Members are declared
// in construction order, so they are destroyed users first.
class CloudArea
{
public:
    CloudArea(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
              QNetworkAccessManager &network, http::Authenticator &auth,
              webhooks::WebhookQueue &webhooks, std::unique_ptr<engine::ToolRegistry> tools,
              std::unique_ptr<engine::PlannerFactory> planners);
    ~CloudArea();

    engine::RunManager &runs() { return *m_runs; }
    engine::TrajectoryRepository &trajectories() { return *m_trajectories; }
    engine::LiveViews &liveViews() { return *m_liveViews; }
    LibraryRepository &library() { return *m_library; }
    ToolLibrary &toolLibrary() { return *m_toolLibrary; }
    RunService &runService() { return *m_runService; }
    // /scrape's work (credits, limits, the pool), which other APIs' scrapes go through.
    ScrapeService &scrapeService() { return *m_scrapeService; }
    // The bridge's MCP server (its session limits are settings).
    mcp::McpServer &bridgeMcp();
    QList<http::Controller *> controllers();

    // How /scrape and the runs (/agent, /execute, the bridge) find a request's
    // `browserSession` (docs/api/sessions.md, "Work inside a session"); unset: never.
    void setSessionLookup(const SessionLookup &lookup);
    // The caller's own browsers (server/devices), for the bridge; null: none.
    void setDeviceLink(DeviceLink *link);

    // After an abrupt end: what the last process left executing is stored cancelled.
    void recoverRuns();
    void recoverScrapes();
    // Live views let go of the pages they show, then the runs stop.
    void shutdown();

private:
    std::unique_ptr<engine::ToolRegistry> m_tools;
    std::unique_ptr<engine::TrajectoryRepository> m_trajectories;
    std::unique_ptr<engine::EngineServices> m_engine;
    std::unique_ptr<engine::RunManager> m_runs;
    std::unique_ptr<ScrapeService> m_scrapeService;
    std::unique_ptr<ScrapeController> m_scrape;
    std::unique_ptr<LibraryRepository> m_library;
    std::unique_ptr<ToolLibrary> m_toolLibrary;
    std::unique_ptr<RunService> m_runService;
    std::unique_ptr<engine::LiveViews> m_liveViews;
    std::unique_ptr<LiveViewController> m_liveViewController;
    std::unique_ptr<AgentController> m_agent;
    std::unique_ptr<LibraryController> m_libraryController;
    std::unique_ptr<BridgeController> m_bridge;
};

} // namespace ph::cloud
