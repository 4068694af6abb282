#pragma once

#include "FirecrawlScrape.h"
#include "http/Route.h"

#include <QJsonArray>
#include <QObject>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace ph {
class NetworkPolicy;
class Settings;
class Store;
namespace cloud {
class RunService;
class ScrapeService;
} // namespace cloud
} // namespace ph

namespace ph::firecrawl {

class ScrapeCache;
struct MapLink;
struct MapRequest;
struct SearchRequest;

// Firecrawl's API under /firecrawl (docs/api/firecrawl.md): v2 scrape, map and search,
// and their v1 aliases, for Firecrawl's SDKs, its MCP server and the tools built on
// them. Thin: every page loads through /scrape's ScrapeService (credits, per-key
// limits, the pool, the caller's network policy), sitemaps and robots.txt through the
// caller's egress; errors answer in Firecrawl's shape (FirecrawlErrors).
class FirecrawlController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    // `network` reaches the operator's own services (the SearXNG instance), never a URL
    // a caller named.
    FirecrawlController(Store &store, Settings &settings, NetworkPolicy &policy,
                        cloud::ScrapeService &scrape, cloud::RunService &runs,
                        QNetworkAccessManager &network, QObject *parent = nullptr);
    ~FirecrawlController() override;
    QList<http::Route> routes() override;
    // Whether a key (not the owner: it always may) may run its own scripts in a page
    // (executeJavascript): its pageScripts capability. Unset: no key may.
    void setScriptGrant(std::function<bool(const QString &keyId)> grant)
    {
        m_scriptGrant = std::move(grant);
    }

    static constexpr auto kBase = "/firecrawl";

private:
    void scrapeV1(http::Exchange &ex) { scrape(ex, ApiVersion::V1); }
    void scrapeV2(http::Exchange &ex) { scrape(ex, ApiVersion::V2); }
    void mapV1(http::Exchange &ex) { map(ex, ApiVersion::V1); }
    void mapV2(http::Exchange &ex) { map(ex, ApiVersion::V2); }
    void searchV1(http::Exchange &ex) { search(ex, ApiVersion::V1); }
    void searchV2(http::Exchange &ex) { search(ex, ApiVersion::V2); }

    void scrape(http::Exchange &ex, ApiVersion version);
    void map(http::Exchange &ex, ApiVersion version);
    void search(http::Exchange &ex, ApiVersion version);

    // Loads `urls` through /scrape as `request` asks and calls `done` with its results
    // (one per URL, in order) and the credits used.
    void load(http::Exchange &ex, const ScrapeRequest &request, const QList<QUrl> &urls,
              std::function<void(const QJsonArray &results, double credits)> done);
    // The map's second half: robots.txt and sitemaps through the caller's egress.
    void readSitemaps(http::Exchange &ex, const MapRequest &request, ApiVersion version,
                      const QList<MapLink> &pageLinks, const QJsonObject &pageResult);
    void searched(http::Exchange &ex, const SearchRequest &request, ApiVersion version,
                  const QByteArray &answer);
    void requireCredits(const http::Exchange &ex) const;
    // 403 SCRIPTS_NOT_ALLOWED naming actions[i] when the request runs a script the key
    // may not run.
    void requireScriptGrant(const http::Exchange &ex, const ScrapeRequest &request) const;
    // The json format: an agent run on the page (RunService, as POST /agent), then `done`
    // with its result, or with null and why there is none.
    void extract(http::Exchange &ex, const ScrapeRequest &request,
                 std::function<void(const QJsonValue &json, const QString &problem)> done);

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    cloud::ScrapeService &m_scrape;
    cloud::RunService &m_runs;
    QNetworkAccessManager &m_network;
    std::unique_ptr<ScrapeCache> m_cache;
    std::function<bool(const QString &)> m_scriptGrant;
};

} // namespace ph::firecrawl
