#pragma once

#include "PageSteps.h"
#include "SessionLookup.h"

#include "core/RequestLog.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <functional>

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

// Who asks for a scrape and how it is recorded: the key that pays, the request's id in
// the request log, the endpoint and tool the log and the callbacks name, where the
// fields sit in the caller's body (`fieldPrefix`, e.g. "params"), the callbacks owed and
// the `params` they carry as the original request.
struct ScrapeCall
{
    QString keyId;
    QString requestId;
    QString endpoint;
    QString tool = QStringLiteral("scrape");
    QString fieldPrefix;
    QList<WebhookSubscription> subscriptions;
    QJsonObject params;
    // A CSS selector narrowing text and markdown to what it matches (the bridge's
    // `scope`; docs/api/mcp.md "Bounded snapshots").
    QString contentScope;

    // What each page does before it is read (the Firecrawl API's actions and tag filters).
    PageWork page;
};

// The scrape of /scrape (docs/api/scrape.md) as a domain service: reads the request,
// checks credits, the per-key limit and the pool, loads the pages (ScrapeJob), bills and
// records the request, and queues its callbacks. /scrape, the browser bridge's scrape
// tool and the Firecrawl-compatible API all go through it.
class ScrapeService : public QObject
{
    Q_OBJECT
public:
    ScrapeService(Store &store, Settings &settings, BrowserPool &pool, NetworkPolicy &policy,
                  webhooks::WebhookQueue &webhooks, QObject *parent = nullptr);

    static const QStringList &knownFormats();
    static const QStringList &defaultFormats();

    // Scrapes the URLs `request` names (the /scrape body) for `call`, and calls `answer`
    // with the /scrape answer once done. The work is cancelled (and what it used billed)
    // when `context` is destroyed first (the HTTP exchange: the client went). Throws
    // DomainError for bad input, no credits, a busy key or pool; nothing started then.
    void start(const QJsonObject &request, const ScrapeCall &call, QObject *context,
               std::function<void(const QJsonObject &)> answer);
    // Requests a process that ended abruptly left unfinished (scrapes: runs are
    // RunManager::recoverOrphans()'s): each is stored cancelled and its subscribers get
    // workflow.failed (CANCELLED), in one commit. Call once at start, after the run
    // recovery. Returns how many.
    int recoverUnfinished();
    // How `browserSession` is found (Service: sessions::SessionService::browserOf).
    void setSessionLookup(SessionLookup lookup) { m_sessions = std::move(lookup); }

private:
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
