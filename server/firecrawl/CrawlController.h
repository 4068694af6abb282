#pragma once

#include "FirecrawlScrape.h"
#include "http/Route.h"

#include <QJsonObject>
#include <QObject>

#include <functional>

namespace ph {
class NetworkPolicy;
class Settings;
} // namespace ph

namespace ph::firecrawl {

class CrawlService;
struct CrawlRecord;

// Firecrawl's crawl and batch scrape routes under /firecrawl (docs/api/firecrawl.md#crawl),
// v2 and their v1 aliases: start, status with paging through an absolute `next`, cancel,
// errors, the active crawls, and the key's webhook secret. Thin: CrawlService does the
// work; a crawl is seen only by the key that started it and the owner (404 for others).
class CrawlController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    CrawlController(Settings &settings, NetworkPolicy &policy, CrawlService &crawls,
                    QObject *parent = nullptr);
    QList<http::Route> routes() override;
    // Whether a key may run its own scripts in a page (FirecrawlArea::setScriptGrant).
    void setScriptGrant(std::function<bool(const QString &keyId)> grant)
    {
        m_scriptGrant = std::move(grant);
    }

    // A status page holds at most this many documents unless `limit` asks for fewer.
    static constexpr int kPageCount = 100;

private:
    enum class Kind { Crawl, Batch };

    void start(http::Exchange &ex, Kind kind, ApiVersion version);
    void status(http::Exchange &ex, Kind kind, ApiVersion version);
    void cancel(http::Exchange &ex, Kind kind);
    void errors(http::Exchange &ex, Kind kind);
    void active(http::Exchange &ex);
    void secret(http::Exchange &ex);
    // The caller's crawl of `kind` named in the path; 404 for another key's (unless the
    // owner asks) and for none.
    CrawlRecord visible(const http::Exchange &ex, Kind kind) const;
    // Where the client reaches this crawl's status: absolute, as Firecrawl answers it.
    QString statusUrl(const http::Exchange &ex, Kind kind, ApiVersion version,
                      const QString &id) const;

    Settings &m_settings;
    NetworkPolicy &m_policy;
    CrawlService &m_crawls;
    std::function<bool(const QString &)> m_scriptGrant;
};

} // namespace ph::firecrawl
