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
} // namespace ph

namespace ph::firecrawl {

class ExtractController;
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
    // Whether a key may run its own scripts in a page (executeJavascript): Service wires
    // the key's pageScripts capability (sites::SitesArea::scriptGrant).
    void setScriptGrant(std::function<bool(const QString &keyId)> grant);

private:
    std::unique_ptr<FirecrawlController> m_controller;
    std::unique_ptr<ExtractController> m_extract;
};

} // namespace ph::firecrawl
