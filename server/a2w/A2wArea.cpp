#include "A2wArea.h"

#include "A2wController.h"
#include "A2wService.h"
#include "SiteMcpController.h"
#include "TaskController.h"
#include "WebBotAuth.h"

#include "cloud/CloudArea.h"
#include "core/Store.h"
#include "sites/SitesArea.h"

namespace ph::a2w {

A2wArea::A2wArea(Store &store, Settings &settings, NetworkPolicy &policy, ApiKeyService &keys,
                 http::Authenticator &auth, sites::SitesArea &sites, cloud::CloudArea &cloud)
    // A2W runs of visiting agents, on the same run core.
    : m_service(std::make_unique<A2wService>(store, settings, policy, sites.sites(),
                                             sites.analytics(), keys, cloud.runService(),
                                             cloud.runs()))
    // Web Bot Auth trust tiers; the v1 task contract and every site's MCP server on the
    // same runs.
    , m_webBotAuth(std::make_unique<WebBotAuth>(store, policy, settings))
    , m_a2wController(std::make_unique<A2wController>(*m_service, *m_webBotAuth, settings))
    , m_taskController(std::make_unique<TaskController>(*m_service, *m_webBotAuth, settings))
    , m_siteMcp(
          std::make_unique<SiteMcpController>(*m_service, *m_webBotAuth, settings, store.clock()))
{
    m_a2wController->setAuthenticator(&auth);
}

A2wArea::~A2wArea() = default;

mcp::McpServer &A2wArea::siteMcp()
{
    return m_siteMcp->mcp();
}

QList<http::Controller *> A2wArea::controllers()
{
    return {m_a2wController.get(), m_taskController.get(), m_siteMcp.get()};
}

void A2wArea::recover()
{
    m_service->recover();
}

} // namespace ph::a2w
