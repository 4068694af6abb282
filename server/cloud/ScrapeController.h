#pragma once

#include "SessionLookup.h"

#include "core/RequestLog.h"

#include <QJsonObject>
#include <functional>

#include "http/Route.h"

#include <QHash>
#include <QObject>

namespace ph {
class BrowserPool;
class NetworkPolicy;
class Settings;
class Store;
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::cloud {

struct ScrapeOptions;

// POST /scrape: loads pages on the pool and returns text, accessibility tree, the
// element/link record and usage (docs/api/scrape.md).
class ScrapeController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    ScrapeController(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
                     webhooks::WebhookQueue &webhooks, QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // How `browserSession` is found (Service: sessions::SessionService::browserOf).
    void setSessionLookup(SessionLookup lookup) { m_sessions = std::move(lookup); }

    static const QStringList &knownFormats();
    static const QStringList &defaultFormats();

    // Scrapes the URLs `request` names (the /scrape body; fields are reported under
    // `fieldPrefix`, e.g. "params"), on behalf of the exchange's key, as `tool` of
    // `endpoint`, and calls `answer` with the body once done. The callbacks of
    // `subscriptions` carry `params` as the original request. The work is cancelled
    // when the exchange ends first. Throws DomainError for bad input.
    void start(const QJsonObject &request, const QString &fieldPrefix,
               const QList<WebhookSubscription> &subscriptions, const QString &endpoint,
               const QString &tool, const QJsonObject &params, http::Exchange &exchange,
               std::function<void(const QJsonObject &)> answer);
    // Requests a process that ended abruptly left unfinished (scrapes: runs are
    // RunManager::recoverOrphans()'s): each is stored cancelled and its subscribers get
    // workflow.failed (CANCELLED), in one commit. Call once at start, after the run
    // recovery. Returns how many.
    int recoverUnfinished();

private:
    void scrape(http::Exchange &exchange);

    Store &m_store;
    Settings &m_settings;
    BrowserPool &m_pool;
    NetworkPolicy &m_policy;
    webhooks::WebhookQueue &m_webhooks;
    // Scrapes in flight per API key (scrape.maxConcurrentRequestsPerKey).
    QHash<QString, int> m_inFlight;
    SessionLookup m_sessions;
};

} // namespace ph::cloud
