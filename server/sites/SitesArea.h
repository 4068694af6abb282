#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace ph {
class Clock;
class CredentialVerifier;
class NetworkPolicy;
class Store;
namespace http {
class ApiKeyAuthenticator;
class Controller;
} // namespace http
namespace webhooks {
class WebhookQueue;
}
namespace mcp {
class McpServer;
}
} // namespace ph

namespace ph::sites {

class AnalyticsNotifications;
class AnalyticsRepository;
class ChangeRepository;
class ConfigApi;
class ConfigController;
class ConnectKeyRepository;
class SiteRepository;
class WorkspaceController;
struct ConfigChange;
struct GeneratedSiteKey;
struct SiteConfigRecord;
struct SiteKey;

// The sites area as one piece for Service: repositories, the owner's-AI API, the
// workspace and configuration controllers and the configuration MCP server.
class SitesArea
{
public:
    SitesArea(Store &store, const Clock &clock);
    ~SitesArea();

    SiteRepository &sites() { return *m_sites; }
    ConnectKeyRepository &connectKeys() { return *m_connectKeys; }
    ChangeRepository &changes() { return *m_changes; }
    // The ingestion path for later surfaces (runtime, embed SDK, agent runs).
    AnalyticsRepository &analytics() { return *m_analytics; }
    // Connect AI keys, for the authenticator.
    CredentialVerifier &connectKeyVerifier();
    QList<http::Controller *> controllers();
    // The configuration MCP server (its session limits are settings).
    mcp::McpServer &mcp() { return *m_mcp; }

    // What the sites decide for the network policy: who may reach private targets (owner
    // keys, user keys granted privateTargets) and what a visitor's work may reach (its
    // site's own hosts and the owner's allowlist).
    void installReach(NetworkPolicy &policy);
    // Whether a key may run its own scripts in the pages it scrapes (the Firecrawl API's
    // executeJavascript): the owner's key, or a key whose pageScripts capability is on
    // (off by default).
    std::function<bool(const QString &keyId)> scriptGrant() const;
    // Connect AI keys as credentials, and the capabilities the owner set on a user API
    // key (PATCH /api-keys/{id}) gating the cloud routes.
    void installOn(http::ApiKeyAuthenticator &auth);
    // The owner's analytics notification webhooks, on the webhook queue.
    void startNotifications(webhooks::WebhookQueue &queue);
    AnalyticsNotifications &notifications() { return *m_notifications; }

    // The owner's actions the console takes, as the workspace API takes them
    // (sites/WorkspaceActions.h, sites/ChangeDecisions.h); DomainErrors as there.
    GeneratedSiteKey generateSiteKey(const QJsonObject &body);
    SiteKey rotateSiteKey(const QJsonObject &body);
    SiteConfigRecord upsertSiteConfig(const QString &siteId, const QJsonObject &patch,
                                      const QString &actor);
    ConfigChange applyChange(const QString &changeId, const QString &actor, const QString &note);
    // The time the area's keys are judged against (usable, expired).
    const Clock &clock() const { return m_clock; }

private:
    Store &m_store;
    const Clock &m_clock;
    std::unique_ptr<SiteRepository> m_sites;
    std::unique_ptr<ConnectKeyRepository> m_connectKeys;
    std::unique_ptr<ChangeRepository> m_changes;
    std::unique_ptr<AnalyticsRepository> m_analytics;
    std::unique_ptr<ConfigApi> m_api;
    std::unique_ptr<mcp::McpServer> m_mcp;
    std::unique_ptr<WorkspaceController> m_workspace;
    std::unique_ptr<ConfigController> m_config;
    std::unique_ptr<AnalyticsNotifications> m_notifications;
};

} // namespace ph::sites
