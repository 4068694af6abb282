#include "FirecrawlController.h"

#include "FirecrawlErrors.h"
#include "MapJob.h"
#include "ScrapeCache.h"
#include "ScreenshotLinks.h"
#include "Searxng.h"

#include "cloud/AgentRequest.h"
#include "cloud/RunService.h"
#include "cloud/ScrapeService.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/EngineTypes.h"
#include "http/Exchange.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

namespace ph::firecrawl {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

constexpr int kSearchTimeoutMs = 20000;
constexpr qint64 kMaxSearchAnswerBytes = 5 * 1024 * 1024;

QString endpointOf(const Exchange &ex)
{
    return ex.request().path;
}

// Where links to this server start: the public base URL, or the request's origin.
QString linkBase(const Settings &settings, const Exchange &ex)
{
    const QString base = settings.stringValue(SettingKeys::publicBaseUrl);
    return base.isEmpty() ? ex.request().origin() : base;
}

double creditsOf(const QJsonObject &scrapeAnswer)
{
    return scrapeAnswer.value(QStringLiteral("usage"))
        .toObject()
        .value(QStringLiteral("creditsUsed"))
        .toDouble();
}

} // namespace

FirecrawlController::FirecrawlController(Store &store, Settings &settings, NetworkPolicy &policy,
                                         cloud::ScrapeService &scrape, cloud::RunService &runs,
                                         QNetworkAccessManager &network, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_scrape(scrape)
    , m_runs(runs)
    , m_network(network)
    , m_cache(std::make_unique<ScrapeCache>(store.clock(),
                                            settings.intValue(SettingKeys::firecrawlCacheEntries)))
{
    connect(&settings, &Settings::changed, this, [this] {
        m_cache->setCapacity(m_settings.intValue(SettingKeys::firecrawlCacheEntries));
    });
}

FirecrawlController::~FirecrawlController() = default;

QList<Route> FirecrawlController::routes()
{
    using C = FirecrawlController;
    const QString base = QString::fromLatin1(kBase);
    QList<Route> table = {
        Route::to("POST", base + QStringLiteral("/v2/scrape"), AuthPolicy::ApiKey, this,
                  &C::scrapeV2),
        Route::to("POST", base + QStringLiteral("/v1/scrape"), AuthPolicy::ApiKey, this,
                  &C::scrapeV1),
        Route::to("POST", base + QStringLiteral("/v2/map"), AuthPolicy::ApiKey, this, &C::mapV2),
        Route::to("POST", base + QStringLiteral("/v1/map"), AuthPolicy::ApiKey, this, &C::mapV1),
        Route::to("POST", base + QStringLiteral("/v2/search"), AuthPolicy::ApiKey, this,
                  &C::searchV2),
        Route::to("POST", base + QStringLiteral("/v1/search"), AuthPolicy::ApiKey, this,
                  &C::searchV1),
    };
    // The same capability as /scrape: a key that may not scrape may not do it here.
    for (Route &route : table) {
        route.capability = QStringLiteral("cloudScrape");
        route.envelope = &errorEnvelope;
    }
    return table;
}

void FirecrawlController::requireScriptGrant(const Exchange &ex, const ScrapeRequest &request) const
{
    firecrawl::requireScriptGrant(ex.request().principal, request, m_scriptGrant);
}

void FirecrawlController::requireCredits(const Exchange &ex) const
{
    if (!m_store.credits().canSpend(ex.request().principal.keyId))
        throw DomainError::creditsExhausted();
}

void FirecrawlController::load(Exchange &ex, const ScrapeRequest &request, const QList<QUrl> &urls,
                               std::function<void(const QJsonArray &, double)> done)
{
    QPointer<Exchange> pending(&ex);
    cloud::ScrapeCall call;
    call.keyId = ex.request().principal.keyId;
    call.requestId = ex.request().id;
    call.endpoint = endpointOf(ex);
    call.params = ex.request().jsonObject();
    call.page = request.page;
    m_scrape.start(
        request.cloudRequest(urls), call, &ex, [pending, done](const QJsonObject &answer) {
            if (!pending)
                return;
            const QJsonArray results = answer.value(QStringLiteral("results")).toArray();
            if (results.isEmpty()) { // the end could not be stored
                pending->fail(
                    DomainError::internal(answer.value(QStringLiteral("error")).toString()));
                return;
            }
            done(results, creditsOf(answer));
        });
}

void FirecrawlController::scrape(Exchange &ex, ApiVersion version)
{
    const QJsonObject body = ex.request().jsonObject();
    ScrapeRequest request =
        readScrapeRequest(body, version, QString(), true, {QStringLiteral("markdown")});
    const QString keyId = ex.request().principal.keyId;
    request.page.keepImage = screenshotKeeper(m_store, keyId, linkBase(m_settings, ex));
    NetworkPolicy::requireReachable(request.url, QStringLiteral("url"), m_policy.grantFor(keyId));
    requireScriptGrant(ex, request);

    if (const auto hit = m_cache->find(keyId, request.cacheKey(), request.maxAgeMs)) {
        QJsonObject doc = hit->document;
        QJsonObject meta = doc.value(QStringLiteral("metadata")).toObject();
        meta.insert(QStringLiteral("cacheState"), QStringLiteral("hit"));
        meta.insert(QStringLiteral("cachedAt"), Clock::isoUtc(hit->storedAtMs));
        meta.insert(QStringLiteral("creditsUsed"), 0);
        doc.insert(QStringLiteral("metadata"), meta);
        ex.respondJson(200, {{QStringLiteral("success"), true}, {QStringLiteral("data"), doc}});
        return;
    }
    const QString scrapeId = ex.request().id;
    QPointer<Exchange> pending(&ex);
    load(ex, request, {request.url},
         [this, pending, request, keyId, scrapeId](const QJsonArray &results, double credits) {
             const QJsonObject result = results.first().toObject();
             if (!hasPage(result)) {
                 pending->fail(pageError(result));
                 return;
             }
             QJsonObject doc = documentFor(result, request, scrapeId);
             QJsonObject meta = doc.value(QStringLiteral("metadata")).toObject();
             meta.insert(QStringLiteral("creditsUsed"), credits);
             if (request.maxAgeMs > 0)
                 meta.insert(QStringLiteral("cacheState"), QStringLiteral("miss"));
             doc.insert(QStringLiteral("metadata"), meta);
             auto finish = [this, pending, request, keyId](const QJsonObject &answer) {
                 if (!pending)
                     return;
                 // A picture's link lives a day; a cached document could outlive it.
                 if (request.storeInCache && m_cache->capacity() > 0 && !request.takesPictures())
                     m_cache->store(keyId, request.cacheKey(), answer);
                 pending->respondJson(
                     200, {{QStringLiteral("success"), true}, {QStringLiteral("data"), answer}});
             };
             // json read in the page after the actions is in the document already.
             if (!request.json || !request.page.extractSchema.isEmpty()) {
                 finish(doc);
                 return;
             }
             extract(*pending, request,
                     [finish, doc](const QJsonValue &json, const QString &problem) mutable {
                         doc.insert(QStringLiteral("json"), json);
                         if (!problem.isEmpty()) {
                             const QString before = doc.value(QStringLiteral("warning")).toString();
                             doc.insert(QStringLiteral("warning"),
                                        before.isEmpty() ? problem
                                                         : before + QStringLiteral("; ") + problem);
                         }
                         finish(doc);
                     });
         });
}

void FirecrawlController::extract(Exchange &ex, const ScrapeRequest &request,
                                  std::function<void(const QJsonValue &, const QString &)> done)
{
    const QString keyId = ex.request().principal.keyId;
    const engine::ExecuteRequest run =
        cloud::readExecuteRequest(request.agentRequest(), m_policy.grantFor(keyId), m_settings);
    // Its own entry in the request log (the page's scrape holds the exchange's id), under
    // the same endpoint, billed as any agent run.
    engine::AgentRun *agent =
        m_runs.start(run, keyId, Ids::make(QStringLiteral("req"), 20), endpointOf(ex));
    QPointer<engine::AgentRun> guard(agent);
    const int windowMs =
        request.timeoutMs > 0 ? request.timeoutMs : m_settings.intValue(SettingKeys::agentMaxRunMs);
    cloud::RunService::awaitRun(agent, windowMs, &ex, [guard, done] {
        if (!guard) {
            done(QJsonValue(), QStringLiteral("json: the extraction run is gone"));
            return;
        }
        const QJsonObject response = guard->response();
        if (guard->status() == engine::RunStatus::Executing) {
            guard->cancel(QStringLiteral("timeout"));
            done(QJsonValue(), QStringLiteral("json: the extraction did not finish in time"));
            return;
        }
        if (guard->status() != engine::RunStatus::Success) {
            done(
                QJsonValue(),
                QStringLiteral("json: %1").arg(response.value(QStringLiteral("error")).toString()));
            return;
        }
        // An agent's result is {json, text}: the schema-shaped data is Firecrawl's json.
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        done(result.contains(QStringLiteral("json")) ? result.value(QStringLiteral("json"))
                                                     : QJsonValue(result),
             QString());
    });
}

void FirecrawlController::map(Exchange &ex, ApiVersion version)
{
    const MapRequest request = readMapRequest(ex.request().jsonObject());
    NetworkPolicy::requireReachable(request.url, QStringLiteral("url"),
                                    m_policy.grantFor(ex.request().principal.keyId));
    requireCredits(ex);
    QPointer<Exchange> pending(&ex);
    if (request.timeoutMs > 0) {
        QTimer::singleShot(request.timeoutMs, &ex, [pending] {
            if (pending && !pending->isAnswered())
                pending->fail(DomainError(DomainError::Kind::Timeout,
                                          QStringLiteral("SCRAPE_TIMEOUT"),
                                          QStringLiteral("the map did not finish in time")));
        });
    }
    if (request.sitemap == MapRequest::Sitemaps::Only) {
        readSitemaps(ex, request, version, {}, {});
        return;
    }
    ScrapeRequest links;
    links.url = request.url;
    links.formats = {QStringLiteral("links")};
    load(ex, links, {request.url},
         [this, pending, request, version](const QJsonArray &results, double) {
             const QJsonObject result = results.first().toObject();
             QList<MapLink> found;
             for (const QJsonValue &l : result.value(QStringLiteral("links")).toArray())
                 found.append(
                     {l[QStringLiteral("href")].toString(), l[QStringLiteral("text")].toString()});
             readSitemaps(*pending, request, version, found,
                          hasPage(result) ? QJsonObject() : result);
         });
}

void FirecrawlController::readSitemaps(Exchange &ex, const MapRequest &request, ApiVersion version,
                                       const QList<MapLink> &pageLinks,
                                       const QJsonObject &pageResult)
{
    const bool robots = m_settings.boolValue(SettingKeys::firecrawlRespectRobots);
    const bool sitemaps = request.sitemap != MapRequest::Sitemaps::Skip;
    QPointer<Exchange> pending(&ex);
    auto answer = [pending, request, version, pageLinks, pageResult](const QStringList &pages,
                                                                     const RobotsTxt *rules) {
        if (!pending || pending->isAnswered())
            return;
        QList<MapLink> candidates = pageLinks;
        for (const QString &page : pages)
            candidates.append({page, QString()});
        const QList<MapLink> links = selectLinks(request, candidates, rules);
        // Nothing found and the page failed: the page's error, not an empty success.
        if (links.size() <= 1 && !pageResult.isEmpty() && pages.isEmpty()) {
            pending->fail(pageError(pageResult));
            return;
        }
        QJsonArray out;
        for (const MapLink &l : links) {
            if (version == ApiVersion::V1)
                out.append(l.url);
            else if (l.title.isEmpty())
                out.append(QJsonObject{{QStringLiteral("url"), l.url}});
            else
                out.append(QJsonObject{{QStringLiteral("url"), l.url},
                                       {QStringLiteral("title"), l.title}});
        }
        pending->respondJson(200,
                             {{QStringLiteral("success"), true}, {QStringLiteral("links"), out}});
    };
    if (!robots && !sitemaps) {
        answer({}, nullptr);
        return;
    }
    // Every robots.txt and sitemap fetch leaves through the caller's egress: the network
    // policy judges each hop. The fetcher goes with the fetch, which goes with the exchange.
    QNetworkAccessManager *fetcher =
        m_policy.createFetcher(m_policy.grantFor(ex.request().principal.keyId), &ex);
    auto *fetch =
        new SitemapFetch(*fetcher, request.url, sitemaps, QStringLiteral("pilothouse"), &ex);
    fetcher->setParent(fetch);
    connect(fetch, &SitemapFetch::finished, &ex, [fetch, answer, robots] {
        answer(fetch->pages(), robots ? &fetch->robots() : nullptr);
    });
    fetch->start();
}

void FirecrawlController::search(Exchange &ex, ApiVersion version)
{
    SearchRequest request = readSearchRequest(ex.request().jsonObject(), version);
    request.scrape.page.keepImage =
        screenshotKeeper(m_store, ex.request().principal.keyId, linkBase(m_settings, ex));
    // The results' pages run the scrapeOptions' actions: the same grant as a scrape's.
    requireScriptGrant(ex, request.scrape);
    const QString base = m_settings.stringValue(SettingKeys::searchSearxngUrl).trimmed();
    if (base.isEmpty())
        throw DomainError(
            DomainError::Kind::Unavailable, QStringLiteral("SEARCH_NOT_CONFIGURED"),
            QStringLiteral("search needs a SearXNG instance: set the setting search.searxngUrl to "
                           "its base URL (PATCH /settings {\"search.searxngUrl\": "
                           "\"http://127.0.0.1:8888\"}, or start with --set "
                           "search.searxngUrl=…), with the json format enabled in its "
                           "settings.yml"),
            QString(), QJsonObject{{QStringLiteral("setting"), SettingKeys::searchSearxngUrl}});
    requireCredits(ex);
    // The operator's own instance, reached directly (it may be on loopback); the result
    // URLs a search scrapes go through the caller's policy like any other.
    QNetworkRequest get(searxngQuery(QUrl(base), request.query, request.language));
    get.setTransferTimeout(kSearchTimeoutMs);
    get.setRawHeader("Accept", "application/json");
    QNetworkReply *reply = m_network.get(get);
    QPointer<Exchange> pending(&ex);
    connect(&ex, &QObject::destroyed, reply, &QNetworkReply::abort);
    connect(reply, &QNetworkReply::finished, this, [this, reply, pending, request, version] {
        reply->deleteLater();
        if (!pending || pending->isAnswered())
            return;
        if (reply->error() != QNetworkReply::NoError) {
            pending->fail(
                DomainError(DomainError::Kind::Unavailable, QStringLiteral("SEARCH_FAILED"),
                            QStringLiteral("the SearXNG instance (search.searxngUrl) answered: %1")
                                .arg(reply->errorString())));
            return;
        }
        searched(*pending, request, version, reply->read(kMaxSearchAnswerBytes));
    });
}

void FirecrawlController::searched(Exchange &ex, const SearchRequest &request, ApiVersion version,
                                   const QByteArray &answer)
{
    QString problem;
    const QList<SearchHit> hits = readSearxng(answer, request.limit, &problem);
    if (!problem.isEmpty()) {
        ex.fail(
            DomainError(DomainError::Kind::Unavailable, QStringLiteral("SEARCH_FAILED"), problem));
        return;
    }
    QPointer<Exchange> pending(&ex);
    auto respond = [pending, version, request, hits](const QList<QJsonObject> &docs) {
        if (!pending)
            return;
        QJsonArray web;
        for (qsizetype i = 0; i < hits.size(); ++i) {
            QJsonObject item = docs.value(i);
            item.insert(QStringLiteral("url"), hits.at(i).url);
            item.insert(QStringLiteral("title"), hits.at(i).title);
            item.insert(QStringLiteral("description"), hits.at(i).description);
            web.append(item);
        }
        QJsonObject body{{QStringLiteral("success"), true}};
        body.insert(QStringLiteral("data"),
                    version == ApiVersion::V1
                        ? QJsonValue(web)
                        : QJsonValue(QJsonObject{{QStringLiteral("web"), web}}));
        if (!request.warnings.isEmpty())
            body.insert(QStringLiteral("warning"), request.warnings.join(QStringLiteral("; ")));
        pending->respondJson(200, body);
    };
    if (request.scrape.formats.isEmpty() || hits.isEmpty()) {
        respond({});
        return;
    }
    // Results the caller's policy refuses by their literal host are answered with that
    // error and never loaded; the rest load as one /scrape.
    const EgressGrant grant = m_policy.grantFor(ex.request().principal.keyId);
    QList<QUrl> urls;
    QList<qsizetype> loaded; // index in hits of each URL loaded
    QList<QJsonObject> docs(hits.size());
    for (qsizetype i = 0; i < hits.size(); ++i) {
        const QUrl url(hits.at(i).url);
        if (const QString why = NetworkPolicy::refusal(url, grant); !why.isEmpty()) {
            docs[i] = {
                {QStringLiteral("metadata"),
                 QJsonObject{{QStringLiteral("sourceURL"), hits.at(i).url},
                             {QStringLiteral("error"), QStringLiteral("the URL %1").arg(why)},
                             {QStringLiteral("statusCode"), 0}}}};
            continue;
        }
        urls << url;
        loaded << i;
    }
    if (urls.isEmpty()) {
        respond(docs);
        return;
    }
    const QString scrapeId = ex.request().id;
    load(ex, request.scrape, urls,
         [respond, docs, loaded, request, scrapeId](const QJsonArray &results, double) mutable {
             for (qsizetype j = 0; j < results.size() && j < loaded.size(); ++j) {
                 const QJsonObject r = results.at(j).toObject();
                 if (hasPage(r)) {
                     docs[loaded.at(j)] = documentFor(r, request.scrape, scrapeId);
                 } else {
                     const QJsonObject e = r.value(QStringLiteral("error")).toObject();
                     docs[loaded.at(j)] = {
                         {QStringLiteral("metadata"),
                          QJsonObject{{QStringLiteral("sourceURL"), r[QStringLiteral("url")]},
                                      {QStringLiteral("error"), e[QStringLiteral("message")]},
                                      {QStringLiteral("statusCode"),
                                       r[QStringLiteral("httpStatus")].toInt(0)}}}};
                 }
             }
             respond(docs);
         });
}

} // namespace ph::firecrawl
