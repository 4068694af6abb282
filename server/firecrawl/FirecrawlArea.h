#pragma once

#include <QList>

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
} // namespace ph

namespace ph::firecrawl {

class FirecrawlController;

// The Firecrawl-compatible API (/firecrawl/v1, /firecrawl/v2) as one piece for Service,
// over the cloud area's scrape. The next parts (crawl, batch scrape, extract) add their
// controllers here, on the same errors, request readers and cloud::ScrapeService.
class FirecrawlArea
{
public:
    FirecrawlArea(Store &store, Settings &settings, NetworkPolicy &policy, cloud::CloudArea &cloud,
                  QNetworkAccessManager &network);
    ~FirecrawlArea();

    QList<http::Controller *> controllers();

private:
    std::unique_ptr<FirecrawlController> m_controller;
};

} // namespace ph::firecrawl
