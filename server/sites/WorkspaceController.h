#pragma once

#include "http/Route.h"

#include <QJsonObject>
#include <QObject>

namespace ph {
class Store;
}

namespace ph::sites {

class AnalyticsRepository;
class ChangeRepository;
class ConfigApi;
class ConnectKeyRepository;
class SiteRepository;
struct Site;
struct SiteKey;

// Owner-only workspace calls (AuthPolicy::Workspace: the owner's API key or an
// accepted ID token; a Connect AI key gets 403). docs/api/sites.md lists each body.
//   POST /generateSiteKey  /listSiteKeys  /updateSiteKeyPolicy  /rotateSiteKey
//   POST /deleteSite  /getSiteConfig  /upsertSiteConfig  /updateApiKeyCapabilities
//   POST /getSitePrivateHosts  /updateSitePrivateHosts
//   POST /createConnectKey  /listConnectKeys  /revokeConnectKey  /rotateConnectKey
//   POST /applyConfigChange  /discardConfigChange      GET /review/changes/{changeId}
//   POST /listAnalytics  /getAnalyticsInteractionDetail
//   POST /getAnalyticsNotificationSettings  /upsertAnalyticsNotificationSettings
//   POST /upsertAnalyticsQuestions
class WorkspaceController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    WorkspaceController(Store &store, SiteRepository &sites, ConnectKeyRepository &connectKeys,
                        ChangeRepository &changes, AnalyticsRepository &analytics, ConfigApi &api,
                        QObject *parent = nullptr);
    QList<http::Route> routes() override;

private:
    void generateSiteKey(http::Exchange &ex);
    void listSiteKeys(http::Exchange &ex);
    void updateSiteKeyPolicy(http::Exchange &ex);
    void rotateSiteKey(http::Exchange &ex);
    void generateSiteSecret(http::Exchange &ex);
    void deleteSite(http::Exchange &ex);
    void getSiteConfig(http::Exchange &ex);
    void upsertSiteConfig(http::Exchange &ex);
    void updateApiKeyCapabilities(http::Exchange &ex);
    void getSitePrivateHosts(http::Exchange &ex);
    void updateSitePrivateHosts(http::Exchange &ex);
    void createConnectKey(http::Exchange &ex);
    void listConnectKeys(http::Exchange &ex);
    void revokeConnectKey(http::Exchange &ex);
    void rotateConnectKey(http::Exchange &ex);
    void applyConfigChange(http::Exchange &ex);
    void discardConfigChange(http::Exchange &ex);
    void reviewChange(http::Exchange &ex);
    void listAnalytics(http::Exchange &ex);
    void getAnalyticsInteractionDetail(http::Exchange &ex);
    void getAnalyticsNotificationSettings(http::Exchange &ex);
    void upsertAnalyticsNotificationSettings(http::Exchange &ex);
    void upsertAnalyticsQuestions(http::Exchange &ex);

    Site ownedSite(const QString &siteId) const;
    SiteKey keyFor(const QString &keyId, const QString &siteId) const;
    QJsonObject configJson(const SiteKey &key) const;
    QJsonObject notificationJson(const QString &siteId) const;

    Store &m_store;
    SiteRepository &m_sites;
    ConnectKeyRepository &m_connectKeys;
    ChangeRepository &m_changes;
    AnalyticsRepository &m_analytics;
    ConfigApi &m_api;
};

} // namespace ph::sites
