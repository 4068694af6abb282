#include "MapJob.h"

#include "FirecrawlScrape.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSet>

namespace ph::firecrawl {

namespace {

// The site a host belongs to for a map: its name without a leading "www.".
QString siteOf(const QString &host)
{
    return host.startsWith(QLatin1String("www.")) ? host.mid(4) : host;
}

bool onSite(const QString &host, const QString &site, bool subdomains)
{
    if (siteOf(host) == site)
        return true;
    return subdomains && host.endsWith(QLatin1Char('.') + site);
}

} // namespace

MapRequest readMapRequest(const QJsonObject &object)
{
    const JsonFields body(object);
    MapRequest r;
    r.url = readUrl(body.requiredString(QStringLiteral("url")), QStringLiteral("url"));
    r.search = body.optionalString(QStringLiteral("search")).value_or(QString());
    r.includeSubdomains = body.optionalBool(QStringLiteral("includeSubdomains")).value_or(true);
    r.ignoreQueryParameters =
        body.optionalBool(QStringLiteral("ignoreQueryParameters")).value_or(true);
    r.limit = int(body.optionalInt(QStringLiteral("limit"), 1, 30000).value_or(5000));
    const QString sitemap = body.optionalEnum(QStringLiteral("sitemap"),
                                              {QStringLiteral("include"), QStringLiteral("skip"),
                                               QStringLiteral("only")})
                                .value_or(QStringLiteral("include"));
    r.sitemap = sitemap == QLatin1String("skip")   ? MapRequest::Sitemaps::Skip
                : sitemap == QLatin1String("only") ? MapRequest::Sitemaps::Only
                                                   : MapRequest::Sitemaps::Include;
    // v1's ignoreSitemap:true is sitemap "skip".
    if (body.optionalBool(QStringLiteral("ignoreSitemap")).value_or(false))
        r.sitemap = MapRequest::Sitemaps::Skip;
    if (const auto t = body.optionalNumber(QStringLiteral("timeout"), 1, 24.0 * 3600 * 1000))
        r.timeoutMs = int(*t);
    return r;
}

QList<MapLink> selectLinks(const MapRequest &request, const QList<MapLink> &candidates,
                           const RobotsTxt *robots)
{
    const QString site = siteOf(request.url.host().toLower());
    const QStringList terms = request.search.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QList<MapLink> out;
    QSet<QString> seen;
    QList<MapLink> all;
    all.append(MapLink{request.url.toString(), QString()});
    all += candidates;
    for (const MapLink &candidate : std::as_const(all)) {
        if (out.size() >= request.limit)
            break;
        QUrl url(candidate.url.trimmed(), QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        if (!url.isValid() || url.host().isEmpty() ||
            (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
            continue;
        if (!onSite(url.host().toLower(), site, request.includeSubdomains))
            continue;
        url.setFragment(QString());
        if (request.ignoreQueryParameters)
            url.setQuery(QString());
        if (robots) {
            const QString path = url.path(QUrl::FullyEncoded).isEmpty()
                                     ? QStringLiteral("/")
                                     : url.path(QUrl::FullyEncoded);
            const QString query = url.query(QUrl::FullyEncoded);
            if (!robots->allows(query.isEmpty() ? path : path + QLatin1Char('?') + query))
                continue;
        }
        const QString text = url.toString(QUrl::FullyEncoded);
        bool found = true;
        for (const QString &term : terms)
            found = found &&
                    (text.toLower().contains(term) || candidate.title.toLower().contains(term));
        if (!found || seen.contains(text))
            continue;
        seen.insert(text);
        out.append({text, candidate.title.simplified()});
    }
    return out;
}

SitemapFetch::SitemapFetch(QNetworkAccessManager &fetcher, QUrl start, bool sitemaps, QString agent,
                           QObject *parent)
    : QObject(parent)
    , m_fetcher(fetcher)
    , m_start(std::move(start))
    , m_sitemaps(sitemaps)
    , m_agent(std::move(agent))
{}

bool SitemapFetch::sameSite(const QUrl &url) const
{
    return onSite(url.host().toLower(), siteOf(m_start.host().toLower()), true);
}

void SitemapFetch::start()
{
    QUrl robots = m_start.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
    robots.setPath(QStringLiteral("/robots.txt"));
    get(robots, [this](int status, const QByteArray &body) {
        if (status >= 200 && status < 300)
            m_robots = RobotsTxt::parse(body, m_agent);
        if (!m_sitemaps) {
            m_done = true;
            Q_EMIT finished();
            return;
        }
        QUrl fallback =
            m_start.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
        fallback.setPath(QStringLiteral("/sitemap.xml"));
        QStringList first = m_robots.sitemaps();
        first << fallback.toString();
        for (const QString &s : std::as_const(first)) {
            if (!m_seen.contains(s) && sameSite(QUrl(s))) {
                m_seen.insert(s, true);
                m_queue << s;
            }
        }
        next();
    });
}

void SitemapFetch::next()
{
    if (m_done)
        return;
    if (m_queue.isEmpty() || m_filesRead >= kMaxFiles) {
        m_done = true;
        Q_EMIT finished();
        return;
    }
    const QUrl url(m_queue.takeFirst());
    get(url, [this](int status, const QByteArray &body) {
        ++m_filesRead;
        if (status >= 200 && status < 300) {
            const Sitemap map = Sitemap::read(body);
            for (const QString &page : map.pages) {
                if (m_pages.size() >= Sitemap::kMaxEntries)
                    break;
                m_pages << page;
            }
            for (const QString &s : map.sitemaps) {
                if (!m_seen.contains(s) && sameSite(QUrl(s))) {
                    m_seen.insert(s, true);
                    m_queue << s;
                }
            }
        }
        next();
    });
}

void SitemapFetch::get(const QUrl &url, std::function<void(int, const QByteArray &)> done)
{
    QNetworkRequest request(url);
    request.setTransferTimeout(kFetchTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(5);
    QNetworkReply *reply = m_fetcher.get(request);
    m_reply = reply;
    auto body = std::make_shared<QByteArray>();
    connect(reply, &QNetworkReply::readyRead, this, [reply, body] {
        body->append(reply->read(kMaxBytes + 1 - body->size()));
        if (body->size() > kMaxBytes)
            reply->abort(); // too large to be a sitemap worth reading
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, body, done] {
        reply->deleteLater();
        if (m_reply == reply)
            m_reply = nullptr;
        if (m_done)
            return;
        body->append(reply->readAll());
        const int status = reply->error() == QNetworkReply::NoError
                               ? reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt()
                               : 0;
        done(body->size() > kMaxBytes ? 0 : status, *body);
    });
}

void SitemapFetch::cancel()
{
    if (m_done)
        return;
    m_done = true;
    if (m_reply)
        m_reply->abort();
}

} // namespace ph::firecrawl
