#include "CrawlRequest.h"

#include "cloud/WebhookOptions.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QJsonArray>

#include <algorithm>

namespace ph::firecrawl {

namespace {

const QStringList kShortEvents = {QStringLiteral("started"), QStringLiteral("page"),
                                  QStringLiteral("completed"), QStringLiteral("failed")};

QStringList readPatterns(const JsonFields &body, const QString &key)
{
    const QStringList patterns = body.stringArray(key, false).value_or(QStringList());
    for (qsizetype i = 0; i < patterns.size(); ++i) {
        const QRegularExpression re(patterns.at(i));
        if (!re.isValid())
            throw DomainError::invalidField(
                QStringLiteral("%1[%2]").arg(body.path(key)).arg(i),
                QStringLiteral("is not a valid regular expression: %1").arg(re.errorString()));
    }
    return patterns;
}

CrawlWebhook readWebhook(const JsonFields &body, const EgressGrant &grant)
{
    CrawlWebhook w;
    const QString key = QStringLiteral("webhook");
    if (!body.has(key))
        return w;
    const QJsonValue raw = body.object().value(key);
    if (raw.isString()) {
        w.url = cloud::readCallbackTarget(body.path(key), raw.toString(), grant);
        w.events = kShortEvents;
        return w;
    }
    if (!raw.isObject())
        throw DomainError::invalidField(body.path(key),
                                        QStringLiteral("must be a URL or {url, headers, "
                                                       "metadata, events}"));
    const JsonFields hook = *body.optionalObject(key);
    w.url = cloud::readCallbackTarget(hook.path(QStringLiteral("url")),
                                      hook.requiredString(QStringLiteral("url")), grant);
    if (const auto headers = hook.optionalObject(QStringLiteral("headers")))
        w.headers = cloud::readCallbackHeaders(*headers);
    if (const auto metadata = hook.optionalObject(QStringLiteral("metadata")))
        w.metadata = metadata->object();
    w.events = kShortEvents;
    if (const auto events = hook.stringArray(QStringLiteral("events"), false)) {
        for (qsizetype i = 0; i < events->size(); ++i) {
            if (!kShortEvents.contains(events->at(i)))
                throw DomainError::invalidField(
                    QStringLiteral("%1[%2]").arg(hook.path(QStringLiteral("events"))).arg(i),
                    QStringLiteral("must be one of %1")
                        .arg(kShortEvents.join(QStringLiteral(", "))));
        }
        w.events = *events;
    }
    return w;
}

// The json format of a crawl's or a batch's pages: read in each page, with its schema, by
// the page agent's extract (PageWork::extractSchema). A prompt without a schema needs a
// model run per page, which a crawl does not start.
void refuseJson(ScrapeRequest &scrape, const QString &field)
{
    if (!scrape.json)
        return;
    if (scrape.jsonSchema.isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNSUPPORTED_FORMAT"),
                          QStringLiteral("the json format of crawls and batch scrapes needs a "
                                         "schema (a prompt alone needs a model run per page); "
                                         "scrape the pages one by one with it"),
                          field);
    scrape.page.extractSchema = scrape.jsonSchema;
}

void readCommon(const JsonFields &body, CrawlRequest &r, const EgressGrant &grant)
{
    if (const auto c =
            body.optionalInt(QStringLiteral("maxConcurrency"), 1, CrawlRequest::kMaxConcurrency))
        r.maxConcurrency = int(*c);
    r.webhook = readWebhook(body, grant);
}

} // namespace

QStringList CrawlRequest::webhookEvents() const
{
    QStringList out;
    for (const QString &e : webhook.events)
        out << eventPrefix() + QLatin1Char('.') + e;
    return out;
}

CrawlRequest readCrawlRequest(const QJsonObject &object, ApiVersion version,
                              const EgressGrant &grant)
{
    const JsonFields body(object);
    CrawlRequest r;
    r.kind = CrawlRequest::Kind::Crawl;
    r.version = version;
    r.url = readUrl(body.requiredString(QStringLiteral("url")), QStringLiteral("url"));
    r.includePaths = readPatterns(body, QStringLiteral("includePaths"));
    r.excludePaths = readPatterns(body, QStringLiteral("excludePaths"));
    r.regexOnFullUrl = body.optionalBool(QStringLiteral("regexOnFullURL")).value_or(false);
    const QString depthKey = version == ApiVersion::V1 ? QStringLiteral("maxDepth")
                                                       : QStringLiteral("maxDiscoveryDepth");
    if (const auto d = body.optionalInt(depthKey, 0, 1000))
        r.maxDepth = int(*d);
    if (const auto l = body.optionalInt(QStringLiteral("limit"), 1, CrawlRequest::kMaxLimit))
        r.limit = int(*l);
    if (const auto s = body.optionalEnum(
            QStringLiteral("sitemap"),
            {QStringLiteral("include"), QStringLiteral("skip"), QStringLiteral("only")}))
        r.sitemap = *s == QLatin1String("skip")   ? CrawlRequest::Sitemaps::Skip
                    : *s == QLatin1String("only") ? CrawlRequest::Sitemaps::Only
                                                  : CrawlRequest::Sitemaps::Include;
    if (body.optionalBool(QStringLiteral("ignoreSitemap")).value_or(false))
        r.sitemap = CrawlRequest::Sitemaps::Skip;
    r.allowSubdomains = body.optionalBool(QStringLiteral("allowSubdomains")).value_or(false);
    r.allowExternalLinks = body.optionalBool(QStringLiteral("allowExternalLinks")).value_or(false);
    r.crawlEntireDomain =
        body.optionalBool(QStringLiteral("crawlEntireDomain"))
            .value_or(body.optionalBool(QStringLiteral("allowBackwardLinks")).value_or(false));
    r.ignoreQueryParameters =
        body.optionalBool(QStringLiteral("ignoreQueryParameters")).value_or(false);
    r.delaySeconds = body.optionalNumber(QStringLiteral("delay"), 0, 3600).value_or(0);
    const QJsonObject options = body.optionalObject(QStringLiteral("scrapeOptions"))
                                    .value_or(JsonFields(QJsonObject()))
                                    .object();
    r.scrape = readScrapeRequest(options, version, QStringLiteral("scrapeOptions"), false,
                                 {QStringLiteral("markdown")});
    refuseJson(r.scrape, QStringLiteral("scrapeOptions.formats"));
    readCommon(body, r, grant);
    return r;
}

CrawlRequest readBatchRequest(const QJsonObject &object, ApiVersion version,
                              const EgressGrant &grant)
{
    const JsonFields body(object);
    CrawlRequest r;
    r.kind = CrawlRequest::Kind::Batch;
    r.version = version;
    const QStringList raw = *body.stringArray(QStringLiteral("urls"), true);
    if (raw.isEmpty())
        throw DomainError::invalidField(QStringLiteral("urls"),
                                        QStringLiteral("must hold at least one URL"));
    if (raw.size() > CrawlRequest::kMaxLimit)
        throw DomainError::invalidField(QStringLiteral("urls"),
                                        QStringLiteral("holds %1 URLs; the limit is %2")
                                            .arg(raw.size())
                                            .arg(CrawlRequest::kMaxLimit));
    const bool lenient = body.optionalBool(QStringLiteral("ignoreInvalidURLs")).value_or(false);
    for (qsizetype i = 0; i < raw.size(); ++i) {
        try {
            const QUrl url = readUrl(raw.at(i), QStringLiteral("urls[%1]").arg(i));
            if (!r.urls.contains(url))
                r.urls << url;
        } catch (const DomainError &) {
            if (!lenient)
                throw;
            r.invalidUrls << raw.at(i);
        }
    }
    if (r.urls.isEmpty())
        throw DomainError::invalidField(QStringLiteral("urls"),
                                        QStringLiteral("holds no valid URL"));
    r.url = r.urls.first();
    r.limit = int(r.urls.size());
    r.sitemap = CrawlRequest::Sitemaps::Skip;
    r.scrape = readScrapeRequest(object, version, QString(), false, {QStringLiteral("markdown")});
    refuseJson(r.scrape, QStringLiteral("formats"));
    readCommon(body, r, grant);
    return r;
}

namespace {

QString siteOf(const QString &host)
{
    return host.startsWith(QLatin1String("www.")) ? host.mid(4) : host;
}

} // namespace

CrawlScope::CrawlScope(const CrawlRequest &request)
    : m_site(siteOf(request.url.host().toLower()))
    , m_fullUrl(request.regexOnFullUrl)
    , m_maxDepth(request.maxDepth)
    , m_subdomains(request.allowSubdomains)
    , m_external(request.allowExternalLinks)
    , m_entireDomain(request.crawlEntireDomain)
    , m_dropQuery(request.ignoreQueryParameters)
{
    // A start of /docs/intro follows /docs/…: the start's "folder".
    const QString path = request.url.path();
    m_prefix = path.left(path.lastIndexOf(QLatin1Char('/')) + 1);
    if (m_prefix.isEmpty())
        m_prefix = QStringLiteral("/");
    for (const QString &p : request.includePaths)
        m_include << QRegularExpression(p);
    for (const QString &p : request.excludePaths)
        m_exclude << QRegularExpression(p);
}

QUrl CrawlScope::normalized(const QString &href, const QUrl &base) const
{
    QUrl url = base.resolved(QUrl(href.trimmed()));
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() ||
        (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return {};
    url.setFragment(QString());
    if (m_dropQuery)
        url.setQuery(QString());
    if (url.path().isEmpty())
        url.setPath(QStringLiteral("/"));
    return url;
}

QString CrawlScope::refusal(const QUrl &url, int depth) const
{
    if (m_maxDepth >= 0 && depth > m_maxDepth)
        return QStringLiteral("deeper than maxDiscoveryDepth");
    const QString host = url.host().toLower();
    const bool sameSite = siteOf(host) == m_site;
    const bool subdomain = host.endsWith(QLatin1Char('.') + m_site);
    if (!sameSite && !(m_subdomains && subdomain) && !m_external)
        return QStringLiteral("on another host");
    if (sameSite && !m_entireDomain && !url.path().startsWith(m_prefix))
        return QStringLiteral("outside the start's path (crawlEntireDomain)");
    const QString subject = m_fullUrl ? url.toString() : url.path();
    if (!m_include.isEmpty() &&
        std::none_of(m_include.cbegin(), m_include.cend(),
                     [&](const QRegularExpression &re) { return re.match(subject).hasMatch(); }))
        return QStringLiteral("not in includePaths");
    for (const QRegularExpression &re : m_exclude) {
        if (re.match(subject).hasMatch())
            return QStringLiteral("in excludePaths");
    }
    return {};
}

int documentsInPage(const QList<qint64> &sizes, qint64 maxBytes, int maxCount)
{
    int n = 0;
    qint64 bytes = 0;
    for (const qint64 size : sizes) {
        if (n >= maxCount)
            break;
        if (n > 0 && bytes + size > maxBytes)
            break;
        bytes += size;
        ++n;
        if (bytes > maxBytes)
            break;
    }
    return n;
}

} // namespace ph::firecrawl
