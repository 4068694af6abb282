#include "CrawlController.h"

#include "CrawlRepository.h"
#include "CrawlService.h"
#include "FirecrawlController.h"
#include "FirecrawlErrors.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Settings.h"
#include "http/Exchange.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>

namespace ph::firecrawl {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

constexpr int kMaxPageCount = 1000;

QString pathOf(bool batch)
{
    return batch ? QStringLiteral("batch/scrape") : QStringLiteral("crawl");
}

int queryInt(const Exchange &ex, const QString &name, int fallback, int min, int max)
{
    const QString raw = ex.request().queryValue(name);
    if (raw.isEmpty())
        return fallback;
    bool ok = false;
    const int value = raw.toInt(&ok);
    if (!ok || value < min || value > max)
        throw DomainError::invalidField(
            name, QStringLiteral("must be a whole number from %1 to %2").arg(min).arg(max));
    return value;
}

} // namespace

CrawlController::CrawlController(Settings &settings, NetworkPolicy &policy, CrawlService &crawls,
                                 QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_policy(policy)
    , m_crawls(crawls)
{}

QList<Route> CrawlController::routes()
{
    const QString base = QString::fromLatin1(FirecrawlController::kBase);
    QList<Route> table;
    const auto add = [&](const char *method, const QString &path, http::Handler handler) {
        table.append(Route{QByteArray(method), base + path, AuthPolicy::ApiKey, std::move(handler),
                           &errorEnvelope, QStringLiteral("cloudScrape")});
    };
    for (const ApiVersion v : {ApiVersion::V2, ApiVersion::V1}) {
        const QString p = v == ApiVersion::V2 ? QStringLiteral("/v2/") : QStringLiteral("/v1/");
        for (const Kind k : {Kind::Crawl, Kind::Batch}) {
            const QString root = p + pathOf(k == Kind::Batch);
            add("POST", root, [this, k, v](Exchange &ex) { start(ex, k, v); });
            // Before {id}: the first pattern that matches answers.
            if (k == Kind::Crawl)
                add("GET", root + QStringLiteral("/active"), [this](Exchange &ex) { active(ex); });
            add("GET", root + QStringLiteral("/{id}"),
                [this, k, v](Exchange &ex) { status(ex, k, v); });
            add("DELETE", root + QStringLiteral("/{id}"),
                [this, k](Exchange &ex) { cancel(ex, k); });
            add("GET", root + QStringLiteral("/{id}/errors"),
                [this, k](Exchange &ex) { errors(ex, k); });
        }
    }
    add("GET", QStringLiteral("/v2/webhook/secret"), [this](Exchange &ex) { secret(ex); });
    return table;
}

void CrawlController::start(Exchange &ex, Kind kind, ApiVersion version)
{
    const QJsonObject body = ex.request().jsonObject();
    const QString keyId = ex.request().principal.keyId;
    const EgressGrant grant = m_policy.grantFor(keyId);
    const CrawlRequest request = kind == Kind::Crawl ? readCrawlRequest(body, version, grant)
                                                     : readBatchRequest(body, version, grant);
    // A crawl's pages may run the caller's scripts only as a scrape's may.
    requireScriptGrant(ex.request().principal, request.scrape, m_scriptGrant);
    const QString id = m_crawls.start(request, keyId, ex.request().path, body);
    QJsonObject answer{{QStringLiteral("success"), true},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("url"), statusUrl(ex, kind, version, id)}};
    if (kind == Kind::Batch && body.value(QStringLiteral("ignoreInvalidURLs")).toBool())
        answer.insert(QStringLiteral("invalidURLs"),
                      QJsonArray::fromStringList(request.invalidUrls));
    ex.respondJson(200, answer);
}

CrawlRecord CrawlController::visible(const Exchange &ex, Kind kind) const
{
    const auto &principal = ex.request().principal;
    const std::optional<CrawlRecord> r = m_crawls.repository().find(ex.request().param("id"));
    const QString wanted = kind == Kind::Crawl ? QStringLiteral("crawl") : QStringLiteral("batch");
    if (!r || r->kind != wanted || (r->keyId != principal.keyId && !principal.owner))
        throw DomainError::notFound(QStringLiteral("Job not found"));
    return *r;
}

QString CrawlController::statusUrl(const Exchange &ex, Kind kind, ApiVersion version,
                                   const QString &id) const
{
    QString b = m_settings.stringValue(SettingKeys::publicBaseUrl);
    if (b.isEmpty())
        b = ex.request().origin();
    while (b.endsWith(u'/'))
        b.chop(1);
    return b + QString::fromLatin1(FirecrawlController::kBase) +
           (version == ApiVersion::V2 ? QStringLiteral("/v2/") : QStringLiteral("/v1/")) +
           pathOf(kind == Kind::Batch) + QLatin1Char('/') + id;
}

void CrawlController::status(Exchange &ex, Kind kind, ApiVersion version)
{
    const CrawlRecord r = visible(ex, kind);
    const int skip = queryInt(ex, QStringLiteral("skip"), 0, 0, 1'000'000'000);
    const bool limited = !ex.request().queryValue(QStringLiteral("limit")).isEmpty();
    const int count = queryInt(ex, QStringLiteral("limit"), kPageCount, 1, kMaxPageCount);
    CrawlRepository &repo = m_crawls.repository();
    const DocumentPage page = repo.documents(
        r.id, skip, count, m_settings.int64Value(SettingKeys::firecrawlStatusPageBytes));
    QJsonArray data;
    for (const QJsonObject &doc : page.documents)
        data.append(doc);
    const int done = repo.countInState(r.id, QStringLiteral("done"));
    const int failed = repo.countInState(r.id, QStringLiteral("failed"));
    QJsonObject answer{{QStringLiteral("success"), true},
                       {QStringLiteral("status"), r.status},
                       {QStringLiteral("completed"), done + failed},
                       {QStringLiteral("total"), repo.pageCount(r.id)},
                       {QStringLiteral("creditsUsed"), r.credits},
                       {QStringLiteral("expiresAt"), Clock::isoUtc(r.expiresAt)},
                       {QStringLiteral("data"), data}};
    if (page.more) {
        QString next = statusUrl(ex, kind, version, r.id) +
                       QStringLiteral("?skip=%1").arg(skip + int(page.documents.size()));
        if (limited)
            next += QStringLiteral("&limit=%1").arg(count);
        answer.insert(QStringLiteral("next"), next);
    }
    if (!r.error.isEmpty())
        answer.insert(QStringLiteral("error"), r.error);
    ex.respondJson(200, answer);
}

void CrawlController::cancel(Exchange &ex, Kind kind)
{
    const CrawlRecord r = visible(ex, kind);
    m_crawls.cancel(r.id);
    const QString now = m_crawls.repository().find(r.id).value_or(r).status;
    ex.respondJson(200, {{QStringLiteral("success"), true}, {QStringLiteral("status"), now}});
}

void CrawlController::errors(Exchange &ex, Kind kind)
{
    const CrawlRecord r = visible(ex, kind);
    CrawlRepository &repo = m_crawls.repository();
    QJsonArray errors;
    for (const CrawlPage &p : repo.pagesInState(r.id, QStringLiteral("failed")))
        errors.append(QJsonObject{{QStringLiteral("id"), p.scrapeId},
                                  {QStringLiteral("timestamp"), Clock::isoUtcOrNull(p.finishedAt)},
                                  {QStringLiteral("url"), p.url},
                                  {QStringLiteral("error"), p.error}});
    QJsonArray blocked;
    for (const CrawlPage &p : repo.pagesInState(r.id, QStringLiteral("blocked")))
        blocked.append(p.url);
    ex.respondJson(200, {{QStringLiteral("success"), true},
                         {QStringLiteral("errors"), errors},
                         {QStringLiteral("robotsBlocked"), blocked}});
}

void CrawlController::active(Exchange &ex)
{
    const auto &principal = ex.request().principal;
    QJsonArray crawls;
    for (const CrawlRecord &r : m_crawls.repository().withStatus(
             QStringLiteral("scraping"), principal.owner ? QString() : principal.keyId)) {
        if (r.kind != QLatin1String("crawl"))
            continue;
        QJsonObject options = r.options;
        options.remove(QStringLiteral("url"));
        crawls.append(QJsonObject{{QStringLiteral("id"), r.id},
                                  {QStringLiteral("teamId"), r.keyId},
                                  {QStringLiteral("url"), r.url},
                                  {QStringLiteral("created_at"), Clock::isoUtc(r.createdAt)},
                                  {QStringLiteral("options"), options}});
    }
    ex.respondJson(200, {{QStringLiteral("success"), true}, {QStringLiteral("crawls"), crawls}});
}

void CrawlController::secret(Exchange &ex)
{
    ex.respondJson(
        200,
        {{QStringLiteral("success"), true},
         {QStringLiteral("secret"), m_crawls.webhookSecret(ex.request().principal.keyId)},
         {QStringLiteral("header"), QStringLiteral("X-Firecrawl-Signature")},
         {QStringLiteral("scheme"), QStringLiteral("sha256=<hex HMAC-SHA256 of the raw body>")}});
}

} // namespace ph::firecrawl
