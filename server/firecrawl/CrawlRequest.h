#pragma once

#include "FirecrawlScrape.h"

#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace ph {
struct EgressGrant;
}

namespace ph::firecrawl {

// The webhook a crawl or batch scrape names: Firecrawl's `webhook` (a URL, or
// {url, headers, metadata, events}). `events` holds Firecrawl's short names (started,
// page, completed, failed); all four when the request names none.
struct CrawlWebhook
{
    QString url;
    QJsonObject headers;
    QJsonObject metadata;
    QStringList events;

    bool isSet() const { return !url.isEmpty(); }
};

// What a crawl (POST /v2/crawl) or a batch scrape (POST /v2/batch/scrape) asks, read and
// checked (docs/api/firecrawl.md#crawl). A batch is a crawl with a fixed frontier: its
// `urls`, no discovery.
struct CrawlRequest
{
    enum class Kind { Crawl, Batch };
    enum class Sitemaps { Include, Skip, Only };
    static constexpr int kMaxLimit = 10000;
    static constexpr int kMaxConcurrency = 20;

    Kind kind = Kind::Crawl;
    ApiVersion version = ApiVersion::V2;
    QUrl url;                // the crawl's start; a batch's first URL
    QList<QUrl> urls;        // a batch's URLs
    QStringList invalidUrls; // a batch's URLs left out (ignoreInvalidURLs)
    QStringList includePaths;
    QStringList excludePaths;
    bool regexOnFullUrl = false;
    int maxDepth = -1; // maxDiscoveryDepth (v1 maxDepth); -1: no bound
    int limit = kMaxLimit;
    Sitemaps sitemap = Sitemaps::Include;
    bool allowSubdomains = false;
    bool allowExternalLinks = false;
    bool crawlEntireDomain = false;
    bool ignoreQueryParameters = false;
    double delaySeconds = 0;
    int maxConcurrency = 0; // 0: the service's default
    ScrapeRequest scrape;   // scrapeOptions (a batch: the body's own fields)
    CrawlWebhook webhook;

    // The events this request's webhook gets, by their full names (crawl.page …,
    // batch_scrape.page …).
    QStringList webhookEvents() const;
    QString eventPrefix() const
    {
        return kind == Kind::Crawl ? QStringLiteral("crawl") : QStringLiteral("batch_scrape");
    }
};

// Reads a crawl body (unknown keys ignored, as elsewhere on /firecrawl); throws
// DomainError naming the field. `grant` judges the webhook's URL, as the network policy
// judges every callback target.
CrawlRequest readCrawlRequest(const QJsonObject &body, ApiVersion version,
                              const EgressGrant &grant);
// Reads a batch scrape body: `urls`, the scrape fields at the top level, ignoreInvalidURLs,
// webhook, maxConcurrency.
CrawlRequest readBatchRequest(const QJsonObject &body, ApiVersion version,
                              const EgressGrant &grant);

// Which discovered URLs a crawl follows, as Firecrawl's crawler decides: the start's
// host ("www." counting as the same site), its subdomains with allowSubdomains, any host
// with allowExternalLinks; only paths under the start's path unless crawlEntireDomain;
// includePaths (one must match) and excludePaths (none may match) as regular expressions
// on the URL's path (or the whole URL with regexOnFullURL); depth at most maxDepth.
class CrawlScope
{
public:
    explicit CrawlScope(const CrawlRequest &request);

    // The URL a link stands for in the crawl: absolute, http(s), without its fragment
    // (and query with ignoreQueryParameters); empty when it is none.
    QUrl normalized(const QString &href, const QUrl &base) const;
    // Why `url` (normalized) at `depth` is not followed; empty when it is.
    QString refusal(const QUrl &url, int depth) const;

private:
    QString m_site; // the start's host without "www."
    QString m_prefix;
    QList<QRegularExpression> m_include;
    QList<QRegularExpression> m_exclude;
    bool m_fullUrl;
    int m_maxDepth;
    bool m_subdomains;
    bool m_external;
    bool m_entireDomain;
    bool m_dropQuery;
};

// How many documents one status page holds, as Firecrawl pages them: in order, until
// their JSON passes `maxBytes` (the one that passes it left for the next page, unless it
// is the first), at most `maxCount`; always at least one when there is one.
int documentsInPage(const QList<qint64> &sizes, qint64 maxBytes, int maxCount);

} // namespace ph::firecrawl
