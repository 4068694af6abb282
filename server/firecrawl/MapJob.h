#pragma once

#include "SitemapReader.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace ph::firecrawl {

// What a map asks (POST /v2/map), read and checked (docs/api/firecrawl.md#map).
struct MapRequest
{
    enum class Sitemaps { Include, Skip, Only };

    QUrl url;
    QString search;
    bool includeSubdomains = true;
    bool ignoreQueryParameters = true;
    int limit = 5000;
    Sitemaps sitemap = Sitemaps::Include;
    int timeoutMs = 0; // 0: no overall limit beyond each fetch's
};

// Reads a map body (unknown keys ignored); throws DomainError naming the field.
MapRequest readMapRequest(const QJsonObject &body);

// One link a map found, with the text it was found under (a page link's text).
struct MapLink
{
    QString url;
    QString title;
};

// The links a map answers, from `candidates` (the page's links, then the sitemaps'):
// absolute http(s) URLs on the start's host (or its subdomains with includeSubdomains,
// "www." counting as the site itself), fragments dropped, queries too with
// ignoreQueryParameters, what `robots` disallows left out, every search term in the
// URL or its title, each once, the start first, at most `limit`.
QList<MapLink> selectLinks(const MapRequest &request, const QList<MapLink> &candidates,
                           const RobotsTxt *robots);

// Reads a site's robots.txt and sitemaps through `fetcher` (the caller's egress: the
// network policy judges every hop), following sitemap indexes on the site's own hosts,
// at most kMaxFiles documents of at most kMaxBytes each.
class SitemapFetch : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaxFiles = 20;
    static constexpr qint64 kMaxBytes = 10 * 1024 * 1024;
    static constexpr int kFetchTimeoutMs = 15000;

    // `fetcher` is owned by the caller and outlives this object. With `sitemaps` false,
    // only robots.txt is read (for its rules).
    SitemapFetch(QNetworkAccessManager &fetcher, QUrl start, bool sitemaps, QString agent,
                 QObject *parent = nullptr);

    void start();
    void cancel();

    const RobotsTxt &robots() const { return m_robots; }
    const QStringList &pages() const { return m_pages; }
    int filesRead() const { return m_filesRead; }

Q_SIGNALS:
    void finished();

private:
    void get(const QUrl &url, std::function<void(int status, const QByteArray &body)> done);
    void next();
    bool sameSite(const QUrl &url) const;

    QNetworkAccessManager &m_fetcher;
    QUrl m_start;
    bool m_sitemaps;
    QString m_agent;
    RobotsTxt m_robots;
    QStringList m_queue;
    QHash<QString, bool> m_seen;
    QStringList m_pages;
    QNetworkReply *m_reply = nullptr;
    int m_filesRead = 0;
    bool m_done = false;
};

} // namespace ph::firecrawl
