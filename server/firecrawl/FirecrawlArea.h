#pragma once

#include <QList>
#include <QString>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace ph {
class NetworkPolicy;
class Settings;
class Store;
namespace cloud {
class CloudArea;
}
namespace http {
class Controller;
}
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::firecrawl {

class CrawlController;
class CrawlService;
class ExtractController;
class FirecrawlController;

// The Firecrawl-compatible API (/firecrawl/v1, /firecrawl/v2) as one piece for Service,
// over the cloud area's scrape: scrape, map and search (FirecrawlController), crawl and
// batch scrape (CrawlController over CrawlService), on the same errors, request readers
// and cloud::ScrapeService.
class FirecrawlArea
{
public:
    FirecrawlArea(Store &store, Settings &settings, NetworkPolicy &policy, cloud::CloudArea &cloud,
                  QNetworkAccessManager &network, webhooks::WebhookQueue &webhooks);
    ~FirecrawlArea();

    QList<http::Controller *> controllers();
    // Whether a key may run its own scripts in a page (executeJavascript, in a scrape's or
    // a crawl's scrapeOptions): Service wires the key's pageScripts capability
    // (sites::SitesArea::scriptGrant).
    void setScriptGrant(std::function<bool(const QString &keyId)> grant);
    CrawlService &crawls() { return *m_crawls; }
    // At start, after the cloud area's recovery: crawls a process left scraping continue.
    void resume();
    // At shutdown, before the pool goes: crawls stop where they are (resumed next start).
    void shutdown();

private:
    std::unique_ptr<FirecrawlController> m_controller;
    std::unique_ptr<ExtractController> m_extract;
    std::unique_ptr<CrawlService> m_crawls;
    std::unique_ptr<CrawlController> m_crawlController;
};

} // namespace ph::firecrawl
