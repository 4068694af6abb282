#include "SitesArea.h"

#include "AllowedDomains.h"
#include "AnalyticsNotifications.h"
#include "AnalyticsRepository.h"
#include "ChangeDecisions.h"
#include "ChangeRepository.h"
#include "ConfigApi.h"
#include "ConfigController.h"
#include "ConnectKeyRepository.h"
#include "SiteRepository.h"
#include "WorkspaceActions.h"
#include "WorkspaceController.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/Store.h"
#include "http/Authenticator.h"
#include "mcp/McpServer.h"
#include "net/NetworkPolicy.h"

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

void SitesArea::installReach(NetworkPolicy &policy)
{
    policy.setPrivateGrantLookup([store = &m_store, repo = m_sites.get()](const QString &keyId) {
        const std::optional<ApiKey> key = store->apiKeys().find(keyId);
        if (!key || !key->isActive())
            return false;
        if (key->isOwner())
            return true;
        const std::optional<QJsonObject> caps = repo->apiKeyCapabilities(keyId);
        return caps && caps->value(QStringLiteral("privateTargets")).toBool();
    });
    // Work a visitor started (anonymous and visiting agents' A2W runs, v1 tasks, runtime
    // runs, context/external) acts for the site's A2W account key: it reaches the site's
    // own hosts (its usable site keys' allowed domains) and the owner's allowlist only.
    policy.setVisitorReachLookup([repo = m_sites.get(), clock = &m_clock](
                                     const QString &keyId) -> std::shared_ptr<const PrivateReach> {
        const std::optional<QString> siteId = repo->siteOfVisitorAccount(keyId);
        if (!siteId)
            return nullptr;
        auto reach = std::make_shared<PrivateReach>();
        reach->allowlist = repo->privateHosts(*siteId);
        QList<QPair<QStringList, DomainScope>> domains;
        const qint64 now = clock->nowMs();
        for (const SiteKey &k : repo->listKeys(*siteId)) {
            if (k.isUsable(now))
                domains.append({k.allowedDomains, k.domainScope()});
        }
        reach->siteHost = [domains](const QString &host) {
            const QString url =
                QStringLiteral("http://%1/")
                    .arg(host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host);
            for (const auto &[entries, scope] : domains) {
                if (AllowedDomains::allows(entries, scope, url))
                    return true;
            }
            return false;
        };
        return reach;
    });
}

std::function<bool(const QString &)> SitesArea::scriptGrant() const
{
    return [store = &m_store, repo = m_sites.get()](const QString &keyId) {
        const std::optional<ApiKey> key = store->apiKeys().find(keyId);
        if (!key || !key->isActive())
            return false;
        if (key->isOwner())
            return true;
        const std::optional<QJsonObject> caps = repo->apiKeyCapabilities(keyId);
        return caps && caps->value(QStringLiteral("pageScripts")).toBool();
    };
}

void SitesArea::installOn(http::ApiKeyAuthenticator &auth)
{
    auth.addVerifier(m_connectKeys.get());
    // A key with no capabilities set keeps the defaults (cloud on).
    auth.setCapabilityLookup(
        [repo = m_sites.get()](const QString &keyId, const QString &capability) {
            const std::optional<QJsonObject> caps = repo->apiKeyCapabilities(keyId);
            if (!caps || !caps->contains(capability))
                return std::optional<bool>();
            return std::optional<bool>(caps->value(capability).toBool());
        });
}

void SitesArea::startNotifications(webhooks::WebhookQueue &queue)
{
    // The deliveries are made for the workspace owner's key: its network grant applies.
    m_notifications = std::make_unique<AnalyticsNotifications>(
        m_store, *m_sites, *m_analytics, queue, [store = &m_store] {
            for (const ApiKey &k : store->apiKeys().list())
                if (k.isOwner() && k.isActive())
                    return k.id;
            return QString();
        });
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
