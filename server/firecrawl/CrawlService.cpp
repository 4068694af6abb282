#include "CrawlService.h"

#include "MapJob.h"
#include "ScreenshotLinks.h"

#include "cloud/ScrapeService.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonText.h"
#include "core/RequestLog.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"
#include "webhooks/WebhookQueue.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QTimer>
#include <QUuid>

#include <optional>
#include <utility>

namespace ph::firecrawl {

namespace {

const QString kScraping = QStringLiteral("scraping");

double creditsOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("usage"))
        .toObject()
        .value(QStringLiteral("creditsUsed"))
        .toDouble();
}

ApiVersion versionOf(const QString &endpoint)
{
    return endpoint.contains(QLatin1String("/v1/")) ? ApiVersion::V1 : ApiVersion::V2;
}

} // namespace

struct CrawlService::Running
{
    CrawlRecord record;
    CrawlRequest request;
    std::unique_ptr<CrawlScope> scope;
    std::optional<RobotsTxt> robots;
    std::optional<WebhookSubscription> webhook;
    bool ready = false; // the frontier is seeded and robots.txt read
    bool stopping = false;
    QHash<int, QObject *> inFlight; // page seq -> the scrape's context
    QTimer *timer = nullptr;        // the next try: after a delay, a busy pool or key
    QPointer<SitemapFetch> fetch;
    qint64 nextStartAt = 0;

    int concurrency() const
    {
        if (request.delaySeconds > 0)
            return 1;
        return request.maxConcurrency > 0 ? request.maxConcurrency : kDefaultConcurrency;
    }
};

CrawlService::CrawlService(Store &store, Settings &settings, NetworkPolicy &policy,
                           cloud::ScrapeService &scrape, webhooks::WebhookQueue &webhooks,
                           QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_scrape(scrape)
    , m_webhooks(webhooks)
    , m_repo(store)
{}

CrawlService::~CrawlService()
{
    shutdown();
}

QString CrawlService::webhookSecret(const QString &keyId) const
{
    return QString::fromLatin1(
        m_store.secrets().derive("firecrawl.webhook:" + keyId.toUtf8()).toHex());
}

QString CrawlService::start(const CrawlRequest &request, const QString &keyId,
                            const QString &endpoint, const QJsonObject &body)
{
    if (!m_store.credits().canSpend(keyId))
        throw DomainError::creditsExhausted();
    const EgressGrant grant = m_policy.grantFor(keyId);
    if (request.kind == CrawlRequest::Kind::Crawl) {
        NetworkPolicy::requireReachable(request.url, QStringLiteral("url"), grant);
    } else {
        for (qsizetype i = 0; i < request.urls.size(); ++i)
            NetworkPolicy::requireReachable(request.urls.at(i), QStringLiteral("urls[%1]").arg(i),
                                            grant);
    }
    CrawlRecord r;
    r.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    r.keyId = keyId;
    r.kind = request.kind == CrawlRequest::Kind::Crawl ? QStringLiteral("crawl")
                                                       : QStringLiteral("batch");
    r.endpoint = endpoint;
    r.url = request.url.toString(QUrl::FullyEncoded);
    r.options = body;
    r.options.remove(QStringLiteral("webhook"));
    if (request.kind == CrawlRequest::Kind::Batch) // the URLs as read, invalid ones left out
        r.options.insert(QStringLiteral("urls"), [&] {
            QJsonArray urls;
            for (const QUrl &u : request.urls)
                urls.append(u.toString(QUrl::FullyEncoded));
            return urls;
        }());
    if (request.webhook.isSet()) {
        WebhookSubscription s;
        s.url = request.webhook.url;
        s.events = request.webhookEvents();
        s.headers = request.webhook.headers;
        s.metadata = request.webhook.metadata;
        s.secret = webhookSecret(keyId);
        s.signature = WebhookSubscription::Signature::Firecrawl;
        r.webhook = JsonText::from(
            QJsonObject{{QStringLiteral("url"), s.url},
                        {QStringLiteral("events"), QJsonArray::fromStringList(s.events)},
                        {QStringLiteral("config"), s.toSealedJson(m_store.secrets())}});
    }
    r.status = kScraping;
    r.createdAt = m_store.clock().nowMs();
    r.expiresAt = r.createdAt + kTtlMs;
    m_repo.insert(r);
    run(r, true);
    return r.id;
}

void CrawlService::run(const CrawlRecord &record, bool fresh)
{
    auto c = std::make_shared<Running>();
    c->record = record;
    const EgressGrant none;
    c->request = record.kind == QLatin1String("batch")
                     ? readBatchRequest(record.options, versionOf(record.endpoint), none)
                     : readCrawlRequest(record.options, versionOf(record.endpoint), none);
    c->scope = std::make_unique<CrawlScope>(c->request);
    if (!record.webhook.isEmpty()) {
        const QJsonObject w = JsonText::object(record.webhook);
        QStringList events;
        for (const QJsonValue &e : w.value(QStringLiteral("events")).toArray())
            events << e.toString();
        c->webhook = WebhookSubscription::fromSealedJson(
            w.value(QStringLiteral("url")).toString(), events,
            w.value(QStringLiteral("config")).toObject(), m_store.secrets());
    }
    const QString id = record.id;
    c->timer = new QTimer(this);
    c->timer->setSingleShot(true);
    connect(c->timer, &QTimer::timeout, this, [this, id] { pump(id); });
    m_running.insert(id, c);
    if (fresh)
        announce(*c, QStringLiteral("started"), true, {}, {});

    const bool robots = c->request.kind == CrawlRequest::Kind::Crawl &&
                        m_settings.boolValue(SettingKeys::firecrawlRespectRobots);
    const bool sitemaps = c->request.kind == CrawlRequest::Kind::Crawl && !record.seeded &&
                          c->request.sitemap != CrawlRequest::Sitemaps::Skip;
    if (!robots && !sitemaps) {
        seeded(id, {});
        return;
    }
    // robots.txt and the sitemaps leave through the caller's egress: the network policy
    // judges every fetch and every redirect.
    QNetworkAccessManager *fetcher = m_policy.createFetcher(m_policy.grantFor(record.keyId), this);
    auto *fetch =
        new SitemapFetch(*fetcher, c->request.url, sitemaps, QStringLiteral("pilothouse"), this);
    fetcher->setParent(fetch);
    c->fetch = fetch;
    connect(fetch, &SitemapFetch::finished, this, [this, id, fetch, robots] {
        fetch->deleteLater();
        const auto it = m_running.constFind(id);
        if (it == m_running.cend())
            return;
        if (robots)
            (*it)->robots = fetch->robots();
        seeded(id, fetch->pages());
    });
    fetch->start();
}

void CrawlService::seeded(const QString &id, const QStringList &sitemapPages)
{
    const std::shared_ptr<Running> c = m_running.value(id);
    if (!c)
        return;
    if (!c->record.seeded) {
        m_store.transaction([&] {
            if (c->request.kind == CrawlRequest::Kind::Batch) {
                for (const QUrl &u : c->request.urls)
                    m_repo.addPage(id, u.toString(QUrl::FullyEncoded), 0, QStringLiteral("queued"));
            } else {
                // The start is loaded whatever the filters say: it was asked for.
                const QUrl start = c->scope->normalized(c->request.url.toString(), c->request.url);
                m_repo.addPage(id, start.toString(QUrl::FullyEncoded), 0, QStringLiteral("queued"));
                for (const QString &page : sitemapPages)
                    offer(*c, c->scope->normalized(page, c->request.url), 0);
            }
            m_repo.setSeeded(id);
        });
        c->record.seeded = true;
    }
    c->ready = true;
    pump(id);
}

void CrawlService::pump(const QString &id)
{
    const std::shared_ptr<Running> c = m_running.value(id);
    if (!c || !c->ready || c->stopping)
        return;
    while (!c->stopping && c->inFlight.size() < c->concurrency() && !c->timer->isActive()) {
        if (c->request.delaySeconds > 0) {
            const qint64 now = m_store.clock().nowMs();
            if (now < c->nextStartAt) {
                c->timer->start(int(c->nextStartAt - now));
                break;
            }
        }
        const std::optional<CrawlPage> page = m_repo.nextQueued(id);
        if (!page)
            break;
        load(*c, *page);
    }
    if (!c->stopping && c->inFlight.isEmpty() && !c->timer->isActive() && !m_repo.nextQueued(id))
        end(id, QStringLiteral("completed"), {});
}

void CrawlService::load(Running &c, const CrawlPage &page)
{
    const QString id = c.record.id;
    const QString scrapeId = Ids::make(QStringLiteral("req"), 20);
    ScrapeRequest request = c.request.scrape;
    // A crawl outlives its request: its pictures' links start at the public base URL.
    request.page.keepImage = screenshotKeeper(m_store, c.record.keyId,
                                              m_settings.stringValue(SettingKeys::publicBaseUrl));
    if (c.request.kind == CrawlRequest::Kind::Crawl &&
        !request.formats.contains(QStringLiteral("links")))
        request.formats << QStringLiteral("links"); // to find the next pages
    cloud::ScrapeCall call;
    call.keyId = c.record.keyId;
    call.requestId = scrapeId;
    call.endpoint = c.record.endpoint;
    call.params = {{QStringLiteral("url"), page.url}, {QStringLiteral("crawlId"), id}};
    // What each page does before it is read: scrapeOptions' actions, tag filters, headers,
    // mobile, the screenshot and the json schema's reading.
    call.page = request.page;
    // The scrape's context: deleting it cancels the scrape (cancel, shutdown).
    auto *context = new QObject(this);
    c.inFlight.insert(page.seq, context);
    m_repo.markLoading(id, page.seq, scrapeId);
    if (c.request.delaySeconds > 0)
        c.nextStartAt = m_store.clock().nowMs() + qint64(c.request.delaySeconds * 1000);
    try {
        m_scrape.start(request.cloudRequest({QUrl(page.url)}), call, context,
                       [this, id, page, scrapeId, context](const QJsonObject &answer) {
                           context->deleteLater();
                           loaded(id, page, scrapeId, answer);
                       });
    } catch (const DomainError &e) {
        c.inFlight.remove(page.seq);
        delete context;
        if (e.kind() == DomainError::Kind::TooManyRequests) {
            // The pool or the key's scrapes are full: the page waits for its turn.
            m_repo.markQueued(id, page.seq);
            c.timer->start(kRetryMs);
        } else if (e.kind() == DomainError::Kind::PaymentRequired) {
            m_repo.markQueued(id, page.seq);
            end(id, QStringLiteral("failed"), e.message());
        } else {
            m_store.transaction([&] {
                m_repo.markFailed(id, page.seq, e.message());
                announce(c, QStringLiteral("page"), false, {}, e.message());
            });
        }
    }
}

void CrawlService::loaded(const QString &id, const CrawlPage &page, const QString &scrapeId,
                          const QJsonObject &answer)
{
    const std::shared_ptr<Running> c = m_running.value(id);
    if (!c || c->stopping)
        return;
    c->inFlight.remove(page.seq);
    const QJsonObject result = answer.value(QStringLiteral("results")).toArray().at(0).toObject();
    try {
        m_store.transaction([&] {
            m_repo.addCredits(id, creditsOf(answer));
            if (hasPage(result)) {
                const QJsonObject doc = documentFor(result, c->request.scrape, scrapeId);
                m_repo.markDone(id, page.seq, doc);
                discover(*c, page, result);
                announce(*c, QStringLiteral("page"), true, QJsonArray{doc}, {});
            } else {
                QString error = result.value(QStringLiteral("error"))
                                    .toObject()
                                    .value(QStringLiteral("message"))
                                    .toString();
                if (error.isEmpty())
                    error = answer.value(QStringLiteral("error")).toString();
                m_repo.markFailed(id, page.seq, error);
                announce(*c, QStringLiteral("page"), false, {}, error);
            }
        });
    } catch (const StoreError &e) {
        qWarning("cannot store page %d of crawl %s: %s", page.seq, qPrintable(id), e.what());
    }
    Q_EMIT crawlChanged(id);
    // Not from inside the scrape's answer: the next page starts from the event loop.
    QMetaObject::invokeMethod(
        this, [this, id] { pump(id); }, Qt::QueuedConnection);
}

void CrawlService::discover(Running &c, const CrawlPage &page, const QJsonObject &result)
{
    if (c.request.kind != CrawlRequest::Kind::Crawl ||
        c.request.sitemap == CrawlRequest::Sitemaps::Only)
        return;
    const QString final = result.value(QStringLiteral("finalUrl")).toString();
    const QUrl base(final.isEmpty() ? page.url : final);
    for (const QJsonValue &l : result.value(QStringLiteral("links")).toArray())
        offer(c, c.scope->normalized(l.toObject().value(QStringLiteral("href")).toString(), base),
              page.depth + 1);
}

void CrawlService::offer(Running &c, const QUrl &url, int depth)
{
    if (url.isEmpty() || !c.scope->refusal(url, depth).isEmpty())
        return;
    const QString text = url.toString(QUrl::FullyEncoded);
    // robots.txt is the start host's: it judges the URLs on that host.
    if (c.robots && url.host().compare(c.request.url.host(), Qt::CaseInsensitive) == 0) {
        const QString path = url.toString(QUrl::FullyEncoded | QUrl::RemoveScheme |
                                          QUrl::RemoveAuthority | QUrl::RemoveFragment);
        if (!c.robots->allows(path.isEmpty() ? QStringLiteral("/") : path)) {
            m_repo.addPage(c.record.id, text, depth, QStringLiteral("blocked"));
            return;
        }
    }
    if (m_repo.pageCount(c.record.id) >= c.request.limit)
        return;
    m_repo.addPage(c.record.id, text, depth, QStringLiteral("queued"));
}

void CrawlService::end(const QString &id, const QString &status, const QString &error)
{
    const std::shared_ptr<Running> c = m_running.take(id);
    if (!c)
        return;
    c->stopping = true;
    c->timer->stop();
    c->timer->deleteLater();
    if (c->fetch) {
        c->fetch->cancel();
        c->fetch->deleteLater();
    }
    // Deleting a context cancels its scrape; what it used is billed.
    const QList<QObject *> contexts = c->inFlight.values();
    c->inFlight.clear();
    qDeleteAll(contexts);
    try {
        m_store.transaction([&] {
            m_repo.finish(id, status, error);
            if (status == QLatin1String("completed"))
                announce(*c, QStringLiteral("completed"), true, {}, {});
            else if (status == QLatin1String("failed"))
                announce(*c, QStringLiteral("failed"), false, {}, error);
        });
    } catch (const StoreError &e) {
        qWarning("cannot store the end of crawl %s: %s", qPrintable(id), e.what());
    }
    Q_EMIT crawlChanged(id);
}

bool CrawlService::cancel(const QString &id)
{
    if (m_running.contains(id)) {
        end(id, QStringLiteral("cancelled"), {});
        return true;
    }
    const std::optional<CrawlRecord> r = m_repo.find(id);
    if (!r || r->status != kScraping)
        return false;
    m_repo.finish(id, QStringLiteral("cancelled"), {});
    Q_EMIT crawlChanged(id);
    return true;
}

void CrawlService::resume()
{
    try {
        m_repo.purgeExpired(m_store.clock().nowMs());
        for (const CrawlRecord &r : m_repo.withStatus(kScraping, {})) {
            m_repo.requeueLoading(r.id);
            try {
                run(r, false);
            } catch (const DomainError &e) {
                m_repo.finish(r.id, QStringLiteral("failed"), e.message());
            }
        }
    } catch (const StoreError &e) {
        qWarning("cannot resume the crawls: %s", e.what());
    }
}

void CrawlService::shutdown()
{
    const auto running = std::exchange(m_running, {});
    for (const std::shared_ptr<Running> &c : running) {
        c->stopping = true;
        delete c->timer;
        if (c->fetch) {
            c->fetch->cancel();
            delete c->fetch.data();
        }
        // Cancelled here and billed; stored as loading, so queued again at the next start.
        const QList<QObject *> contexts = c->inFlight.values();
        c->inFlight.clear();
        qDeleteAll(contexts);
    }
}

void CrawlService::announce(const Running &c, const QString &event, bool success,
                            const QJsonArray &data, const QString &error)
{
    if (!c.webhook)
        return;
    const QString name = c.request.eventPrefix() + QLatin1Char('.') + event;
    if (!c.webhook->events.contains(name))
        return;
    // Firecrawl's payload: {success, type, id, data, metadata, error?} (jobId as v2's
    // earlier builds named it).
    QJsonObject payload{
        {QStringLiteral("success"), success}, {QStringLiteral("type"), name},
        {QStringLiteral("id"), c.record.id},  {QStringLiteral("jobId"), c.record.id},
        {QStringLiteral("data"), data},       {QStringLiteral("metadata"), c.webhook->metadata}};
    if (!error.isEmpty())
        payload.insert(QStringLiteral("error"), error);
    m_webhooks.enqueue(c.record.id, c.record.keyId, {*c.webhook}, {{name, payload}});
}

} // namespace ph::firecrawl
