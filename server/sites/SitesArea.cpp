#include "SitesArea.h"

#include "AnalyticsRepository.h"
#include "ChangeDecisions.h"
#include "ChangeRepository.h"
#include "ConfigApi.h"
#include "ConfigController.h"
#include "ConnectKeyRepository.h"
#include "SiteRepository.h"
#include "WorkspaceActions.h"
#include "WorkspaceController.h"

#include "mcp/McpServer.h"

namespace ph::sites {

SitesArea::SitesArea(Store &store, const Clock &clock)
    : m_store(store)
    , m_clock(clock)
    , m_sites(std::make_unique<SiteRepository>(store))
    , m_connectKeys(std::make_unique<ConnectKeyRepository>(store))
    , m_changes(std::make_unique<ChangeRepository>(store))
    , m_analytics(std::make_unique<AnalyticsRepository>(store, *m_sites))
    , m_api(std::make_unique<ConfigApi>(*m_sites, *m_changes, *m_analytics))
{
    mcp::McpServer::Info info;
    info.name = QStringLiteral("pilothouse-config");
    info.title = QStringLiteral("Pilothouse site configuration");
    info.version = QStringLiteral(PILOTHOUSE_VERSION);
    info.instructions = QStringLiteral(
        "Read a site's redacted configuration, journeys and aggregate analytics, and propose "
        "changes. Proposals stay pending until the site owner applies or discards them in the "
        "Pilothouse console; you cannot apply them. Reuse a clientRequestId when retrying.");
    m_mcp = std::make_unique<mcp::McpServer>(QStringLiteral("/config/mcp"),
                                             http::AuthPolicy::SiteAgent, info, clock);
    m_workspace = std::make_unique<WorkspaceController>(store, *m_sites, *m_connectKeys, *m_changes,
                                                        *m_analytics, *m_api);
    m_config = std::make_unique<ConfigController>(*m_api, *m_mcp);
}

SitesArea::~SitesArea() = default;

CredentialVerifier &SitesArea::connectKeyVerifier()
{
    return *m_connectKeys;
}

QList<http::Controller *> SitesArea::controllers()
{
    return {m_workspace.get(), m_config.get(), m_mcp.get()};
}

GeneratedSiteKey SitesArea::generateSiteKey(const QJsonObject &body)
{
    return sites::generateSiteKey(m_store, *m_sites, body);
}

SiteKey SitesArea::rotateSiteKey(const QJsonObject &body)
{
    return sites::rotateSiteKey(m_store, *m_sites, body);
}

SiteConfigRecord SitesArea::upsertSiteConfig(const QString &siteId, const QJsonObject &patch,
                                             const QString &actor)
{
    return sites::upsertSiteConfig(m_store, *m_sites, siteId, patch, actor);
}

ConfigChange SitesArea::applyChange(const QString &changeId, const QString &actor,
                                    const QString &note)
{
    return sites::applyChange(m_store, *m_sites, *m_changes, changeId, actor, note);
}

} // namespace ph::sites
