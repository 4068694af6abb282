#include "CloudArea.h"

#include "AgentController.h"
#include "BridgeController.h"
#include "LibraryController.h"
#include "LibraryRepository.h"
#include "LiveViewController.h"
#include "RunService.h"
#include "ScrapeController.h"
#include "ScrapeService.h"
#include "ToolLibrary.h"

#include "engine/RunContext.h"
#include "engine/RunManager.h"
#include "engine/Tool.h"
#include "engine/TrajectoryRepository.h"
#include "engine/liveview/LiveViews.h"

namespace ph::cloud {

CloudArea::CloudArea(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
                     QNetworkAccessManager &network, http::Authenticator &auth,
                     webhooks::WebhookQueue &webhooks, std::unique_ptr<engine::ToolRegistry> tools,
                     std::unique_ptr<engine::PlannerFactory> planners)
    : m_tools(std::move(tools))
    , m_trajectories(std::make_unique<engine::TrajectoryRepository>(store))
    , m_engine(std::make_unique<engine::EngineServices>(engine::EngineServices{
          store, settings, pool, policy, network, *m_tools, *m_trajectories}))
    , m_runs(std::make_unique<engine::RunManager>(*m_engine, std::move(planners)))
    , m_scrapeService(std::make_unique<ScrapeService>(store, settings, pool, policy, webhooks))
    , m_scrape(std::make_unique<ScrapeController>(*m_scrapeService, policy))
    // The browser bridge's library (saved tools, recordings, triggers) and agent runs.
    , m_library(std::make_unique<LibraryRepository>(store))
    , m_toolLibrary(std::make_unique<ToolLibrary>(*m_library, *m_runs, *m_trajectories))
    , m_runService(
          std::make_unique<RunService>(store, settings, pool, *m_runs, webhooks, *m_toolLibrary))
    , m_liveViews(
          std::make_unique<engine::LiveViews>(store, settings, pool, *m_runs, *m_trajectories))
    , m_liveViewController(std::make_unique<LiveViewController>(*m_liveViews))
    , m_agent(
          std::make_unique<AgentController>(store, settings, policy, *m_runService, *m_liveViews))
    , m_libraryController(std::make_unique<LibraryController>(settings, *m_toolLibrary))
    , m_bridge(std::make_unique<BridgeController>(store, settings, policy, auth, *m_runService,
                                                  *m_scrapeService, *m_toolLibrary, webhooks))
{}

CloudArea::~CloudArea() = default;

mcp::McpServer &CloudArea::bridgeMcp()
{
    return m_bridge->mcp();
}

QList<http::Controller *> CloudArea::controllers()
{
    return {m_scrape.get(), m_agent.get(), m_liveViewController.get(), m_libraryController.get(),
            m_bridge.get()};
}

void CloudArea::recoverRuns()
{
    m_runs->recoverOrphans();
}

void CloudArea::recoverScrapes()
{
    m_scrapeService->recoverUnfinished();
}

void CloudArea::shutdown()
{
    m_liveViews->shutdown();
    m_runs->shutdown();
}

void CloudArea::setSessionLookup(const SessionLookup &lookup)
{
    m_scrapeService->setSessionLookup(lookup);
    m_runService->setSessionLookup(lookup);
}

void CloudArea::setDeviceLink(DeviceLink *link)
{
    m_bridge->setDeviceLink(link);
}

} // namespace ph::cloud
