#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {
class Store;
}

namespace ph::firecrawl {

// One crawl or batch scrape as stored (migration 0070).
struct CrawlRecord
{
    QString id;
    QString keyId;
    QString kind;     // crawl, batch
    QString endpoint; // the route it was started on (/firecrawl/v2/crawl …)
    QString url;
    QJsonObject options; // the request body as read again at a restart, without `webhook`
    QString webhook;     // the subscription, sealed (WebhookSubscription::toSealedJson + url,
                         // events); empty: none
    QString status;      // scraping, completed, failed, cancelled
    bool seeded = false; // the start URL (and the sitemaps' pages) are in the frontier
    QString error;
    double credits = 0;
    qint64 createdAt = 0;
    std::optional<qint64> finishedAt;
    qint64 expiresAt = 0;
};

// One URL of a crawl: queued, loading, done (with its document), failed, blocked.
struct CrawlPage
{
    int seq = 0;
    QString url;
    int depth = 0;
    QString state;
    QString scrapeId;
    QString error;
    std::optional<qint64> finishedAt;
};

// A page of a crawl's documents for its status answer.
struct DocumentPage
{
    QList<QJsonObject> documents;
    bool more = false; // documents stored beyond this page
};

// The crawls of the Firecrawl-compatible API and their frontiers, in the Store.
class CrawlRepository
{
public:
    explicit CrawlRepository(Store &store);

    void insert(const CrawlRecord &crawl);
    std::optional<CrawlRecord> find(const QString &id) const;
    // Crawls in `status`, of `keyId` (empty: of every key), oldest first.
    QList<CrawlRecord> withStatus(const QString &status, const QString &keyId) const;
    void finish(const QString &id, const QString &status, const QString &error);
    void setSeeded(const QString &id);
    void addCredits(const QString &id, double credits);

    // Adds `url` to the frontier (queued) or to the blocked list; false when the crawl
    // has it already.
    bool addPage(const QString &crawlId, const QString &url, int depth, const QString &state);
    // URLs of the crawl that count against its limit (all but the blocked ones).
    int pageCount(const QString &crawlId) const;
    int countInState(const QString &crawlId, const QString &state) const;
    std::optional<CrawlPage> nextQueued(const QString &crawlId) const;
    void markLoading(const QString &crawlId, int seq, const QString &scrapeId);
    // A page whose scrape could not start (a busy pool or key) waits in the queue again.
    void markQueued(const QString &crawlId, int seq);
    void markDone(const QString &crawlId, int seq, const QJsonObject &document);
    void markFailed(const QString &crawlId, int seq, const QString &error);
    // What a process that ended left loading goes back to the queue.
    void requeueLoading(const QString &crawlId);
    // Done documents from `skip`, in the order they were done: at most `maxCount`, cut
    // by `maxBytes` (documentsInPage).
    DocumentPage documents(const QString &crawlId, int skip, int maxCount, qint64 maxBytes) const;
    QList<CrawlPage> pagesInState(const QString &crawlId, const QString &state) const;
    // Crawls past their expiry that no longer run, with their pages; returns how many.
    int purgeExpired(qint64 nowMs);

private:
    Store &m_store;
};

} // namespace ph::firecrawl
