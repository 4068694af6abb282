#pragma once

#include "CrawlRepository.h"
#include "CrawlRequest.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <memory>

class QTimer;

namespace ph {
class NetworkPolicy;
class Settings;
class Store;
namespace cloud {
class ScrapeService;
}
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::firecrawl {

class RobotsTxt;

// Crawls and batch scrapes of the Firecrawl-compatible API (docs/api/firecrawl.md#crawl)
// as a domain service. Every page loads through cloud::ScrapeService (credits, the per-key
// limit, the pool, the caller's network policy on every hop, the request log); robots.txt
// and sitemaps through the caller's egress (SitemapFetch). The frontier and the documents
// live in the Store (CrawlRepository), so a crawl survives a restart: resume() picks up
// every crawl still scraping, its pages that were loading queued again. Webhooks go
// through the durable WebhookQueue, signed as Firecrawl signs them with the key's
// webhook secret (webhookSecret()).
class CrawlService : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDefaultConcurrency = 2;
    static constexpr qint64 kTtlMs = 24LL * 3600 * 1000; // Firecrawl's: results kept a day
    static constexpr int kRetryMs = 250;                 // after a busy pool or key

    CrawlService(Store &store, Settings &settings, NetworkPolicy &policy,
                 cloud::ScrapeService &scrape, webhooks::WebhookQueue &webhooks,
                 QObject *parent = nullptr);
    ~CrawlService() override;

    // Stores and starts a crawl for `keyId` (`body` is the request as read into
    // `request`); returns its id. Throws DomainError when the key has no credits.
    QString start(const CrawlRequest &request, const QString &keyId, const QString &endpoint,
                  const QJsonObject &body);
    // Cancels a crawl that is scraping (the pages in flight are cancelled and billed for
    // what they used). False when it had ended already.
    bool cancel(const QString &id);
    // At service start: crawls a process left scraping continue from their frontier;
    // expired crawls are deleted.
    void resume();
    // Stops every crawl in this process without ending it (they resume at the next start).
    void shutdown();

    // The secret the key's crawl webhooks are signed with (X-Firecrawl-Signature), derived
    // from the service's secrets.key and the key's id: stable across restarts, never stored.
    QString webhookSecret(const QString &keyId) const;

    CrawlRepository &repository() { return m_repo; }

Q_SIGNALS:
    // A crawl's status or counts changed.
    void crawlChanged(const QString &id);

private:
    struct Running;

    void run(const CrawlRecord &record, bool fresh);
    void seeded(const QString &id, const QStringList &sitemapPages);
    void pump(const QString &id);
    void load(Running &crawl, const CrawlPage &page);
    void loaded(const QString &id, const CrawlPage &page, const QString &scrapeId,
                const QJsonObject &answer);
    void discover(Running &crawl, const CrawlPage &page, const QJsonObject &result);
    void offer(Running &crawl, const QUrl &url, int depth);
    void end(const QString &id, const QString &status, const QString &error);
    void announce(const Running &crawl, const QString &event, bool success, const QJsonArray &data,
                  const QString &error);

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    cloud::ScrapeService &m_scrape;
    webhooks::WebhookQueue &m_webhooks;
    CrawlRepository m_repo;
    QHash<QString, std::shared_ptr<Running>> m_running;
};

} // namespace ph::firecrawl
