#include "ScrapeService.h"

#include "ScrapeJob.h"
#include "SessionWork.h"

#include "browser/BrowserPool.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/RequestLog.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"
#include "webhooks/WebhookEvents.h"
#include "webhooks/WebhookQueue.h"

namespace ph::cloud {

namespace {

constexpr int kMaxTimeoutMs = 120000;

ScrapeOptions readOptions(const JsonFields &body, const Settings &settings)
{
    ScrapeOptions o;
    o.formats = ScrapeService::defaultFormats();
    if (const auto formats = body.stringArray(QStringLiteral("formats"), false)) {
        if (formats->isEmpty())
            throw DomainError::invalidField(QStringLiteral("formats"),
                                            QStringLiteral("must name at least one format"));
        for (qsizetype i = 0; i < formats->size(); ++i) {
            if (!ScrapeService::knownFormats().contains(formats->at(i)))
                throw DomainError::invalidField(
                    QStringLiteral("formats[%1]").arg(i),
                    QStringLiteral("must be one of %1")
                        .arg(ScrapeService::knownFormats().join(QStringLiteral(", "))));
        }
        o.formats = *formats;
        o.formats.removeDuplicates();
    }
    o.maxNodes = settings.intValue(SettingKeys::scrapeMaxTreeNodes);
    if (const auto tree = body.optionalObject(QStringLiteral("accessibilityTree"))) {
        if (const auto max = tree->optionalInt(QStringLiteral("maxNodes"), 1, 200000))
            o.maxNodes = int(*max);
        if (const auto scope = tree->optionalString(QStringLiteral("scope")))
            o.scope = *scope;
    }
    o.timeoutMs = settings.intValue(SettingKeys::navigationTimeoutMs);
    if (const auto t = body.optionalInt(QStringLiteral("timeoutMs"), 100, kMaxTimeoutMs))
        o.timeoutMs = int(*t);
    if (const auto w =
            body.optionalEnum(QStringLiteral("waitUntil"),
                              {QStringLiteral("load"), QStringLiteral("domcontentloaded")}))
        o.domContentLoaded = *w == QLatin1String("domcontentloaded");
    o.waitForSelector = body.optionalString(QStringLiteral("waitForSelector")).value_or(QString());
    o.waitForText = body.optionalString(QStringLiteral("waitForText")).value_or(QString());
    if (!o.waitForSelector.isEmpty() && !o.waitForText.isEmpty())
        throw DomainError::invalidField(QStringLiteral("waitForText"),
                                        QStringLiteral("cannot be combined with waitForSelector"));
    if (const auto w = body.optionalInt(QStringLiteral("waitMs"), 0, 60000))
        o.waitMs = int(*w);
    if (const auto m = body.optionalInt(QStringLiteral("maxTextChars"), 1, 50'000'000))
        o.maxTextChars = int(*m);
    o.browser = LeaseOptions::read(body, QStringLiteral("browser"));
    o.browserSession = readBrowserSession(body, o.browser);
    return o;
}

QList<QUrl> readUrls(const JsonFields &body, const Settings &settings, const EgressGrant &grant)
{
    const QStringList raw = *body.stringArray(QStringLiteral("urls"), true);
    if (raw.isEmpty())
        throw DomainError::invalidField(QStringLiteral("urls"),
                                        QStringLiteral("must hold at least one URL"));
    const int cap = settings.intValue(SettingKeys::scrapeMaxUrls);
    if (raw.size() > cap)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("TOO_MANY_URLS"),
                          QStringLiteral("urls holds %1 URLs; the limit is %2 per request")
                              .arg(raw.size())
                              .arg(cap),
                          QStringLiteral("urls"),
                          QJsonObject{{QStringLiteral("limit"), cap},
                                      {QStringLiteral("received"), int(raw.size())},
                                      {QStringLiteral("setting"), SettingKeys::scrapeMaxUrls}});
    QList<QUrl> urls;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const QString field = QStringLiteral("urls[%1]").arg(i);
        // The scheme is judged first, on a lenient parse, so `javascript:` and `file:`
        // get their own error whatever follows them.
        const QString scheme = QUrl(raw.at(i).trimmed()).scheme();
        if (!scheme.isEmpty() && scheme != QLatin1String("http") &&
            scheme != QLatin1String("https"))
            throw DomainError(
                DomainError::Kind::Invalid, QStringLiteral("UNSUPPORTED_SCHEME"),
                QStringLiteral("%1 uses the scheme '%2'; only http and https are allowed")
                    .arg(field, scheme),
                field);
        const QUrl url(raw.at(i).trimmed(), QUrl::StrictMode);
        if (!url.isValid() || url.scheme().isEmpty())
            throw DomainError::invalidField(field, QStringLiteral("is not a valid absolute URL"));
        if (url.host().isEmpty())
            throw DomainError::invalidField(field, QStringLiteral("has no host"));
        NetworkPolicy::requireReachable(url, field, grant);
        urls.append(url);
    }
    return urls;
}

} // namespace

ScrapeService::ScrapeService(Store &store, Settings &settings, BrowserPool &pool,
                             NetworkPolicy &policy, webhooks::WebhookQueue &webhooks,
                             QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_pool(pool)
    , m_policy(policy)
    , m_webhooks(webhooks)
{}

const QStringList &ScrapeService::knownFormats()
{
    static const QStringList formats = {
        QStringLiteral("text"),         QStringLiteral("markdown"),
        QStringLiteral("html"),         QStringLiteral("accessibilityTree"),
        QStringLiteral("ariaSnapshot"), QStringLiteral("elementLinkRecord"),
        QStringLiteral("links")};
    return formats;
}

const QStringList &ScrapeService::defaultFormats()
{
    static const QStringList formats = {QStringLiteral("text"), QStringLiteral("accessibilityTree"),
                                        QStringLiteral("elementLinkRecord"),
                                        QStringLiteral("links")};
    return formats;
}

namespace {

// What a finished scrape's callbacks say (the caller adds whose request it was, and when).
webhooks::Outcome outcomeOf(const ScrapeJob &job, const QString &status, bool cancelled,
                            const Charge &charge, const QJsonObject &answerBody)
{
    webhooks::Outcome o;
    o.status = status;
    // A scrape that read at least one page completed; one that read none failed.
    o.success = !cancelled && job.succeeded() > 0;
    o.creditsUsedMilli = charge.usedMilli;
    o.creditsLeftMilli = charge.leftMilli;
    o.output = answerBody;
    o.extractedData = job.results();
    o.errorMessage = cancelled ? QStringLiteral("the request was cancelled")
                               : QStringLiteral("no URL could be read");
    o.errorCode = cancelled ? QStringLiteral("CANCELLED") : QStringLiteral("SCRAPE_FAILED");
    o.errorDetails = {{QStringLiteral("results"), job.results()}};
    return o;
}

} // namespace

void ScrapeService::start(const QJsonObject &request, const ScrapeCall &call, QObject *context,
                          std::function<void(const QJsonObject &)> answer)
{
    const JsonFields body(request, call.fieldPrefix);
    const QString keyId = call.keyId;
    const QList<WebhookSubscription> &subscriptions = call.subscriptions;
    const QString &endpoint = call.endpoint;
    const QString &tool = call.tool;
    const QJsonObject &params = call.params;
    const EgressGrant grant = m_policy.grantFor(keyId);
    const QList<QUrl> urls = readUrls(body, m_settings, grant);
    ScrapeOptions options = readOptions(body, m_settings);
    options.contentScope = call.contentScope;

    options.page = call.page;

    if (!m_store.credits().canSpend(keyId))
        throw DomainError::creditsExhausted();
    const int perKey = m_settings.intValue(SettingKeys::scrapeMaxRequestsPerKey);
    if (m_inFlight.value(keyId) >= perKey)
        throw DomainError::keyBusy(QStringLiteral("scrape requests"), m_inFlight.value(keyId),
                                   perKey, SettingKeys::scrapeMaxRequestsPerKey,
                                   m_pool.retryAfterSeconds());
    // Inside the caller's own active browser session (404 for another key's or an unknown
    // one, 409 when it is not active), the pages are the session's tabs, not the pool's.
    SessionBrowser *session = options.browserSession.isEmpty()
                                  ? nullptr
                                  : findSessionBrowser(m_sessions, keyId, options.browserSession);
    m_pool.requireEngine(options.browser);
    // A job keeps one wave (at most the pool's size) in the pool at a time.
    const int parallel = qMin(int(urls.size()), m_pool.options().size);
    if (!session && !m_pool.hasRoomFor(parallel))
        throw DomainError::busy(QStringLiteral("the browser pool is busy; retry later"),
                                m_pool.retryAfterSeconds());

    const QString requestId = call.requestId;
    m_store.transaction([&] {
        m_store.requests().begin(requestId, keyId, endpoint);
        m_store.requests().addSubscriptions(requestId, subscriptions);
    });

    auto *job = new ScrapeJob(m_pool, m_policy, grant, urls, options, requestId, parallel, this);
    if (session)
        job->setSessionPages(sessionPageOpener(session));
    // Settles once: when the job finishes, or earlier when `context` goes without it
    // (client gone, shutdown). Browser time and pages used so far are billed either way.
    auto settled = std::make_shared<bool>(false);
    const qint64 startedAt = m_store.clock().nowMs();
    auto settle = [this, job, answer, requestId, keyId, settled, subscriptions, startedAt, params,
                   endpoint, tool](bool cancelled) {
        if (*settled)
            return;
        *settled = true;
        if (--m_inFlight[keyId] <= 0)
            m_inFlight.remove(keyId);
        if (cancelled)
            job->cancel();
        const QString status = cancelled              ? QStringLiteral("cancelled")
                               : job->failed() == 0   ? QStringLiteral("success")
                               : job->succeeded() > 0 ? QStringLiteral("partial")
                                                      : QStringLiteral("error");
        // The bill, the request's end and the callbacks it owes commit together; the
        // answer goes out after that commit.
        QJsonObject answerBody;
        try {
            m_store.transaction([&] {
                const Charge charge =
                    m_store.credits().charge(keyId, requestId, endpoint, job->usage());
                m_store.requests().finish(
                    requestId, status,
                    {{QStringLiteral("urls"), int(job->results().size())},
                     {QStringLiteral("succeeded"), job->succeeded()},
                     {QStringLiteral("failed"), job->failed()},
                     {QStringLiteral("creditsUsed"), creditsFromMilli(charge.usedMilli)}});
                answerBody = {{QStringLiteral("success"), job->failed() == 0},
                              {QStringLiteral("status"), status},
                              {QStringLiteral("requestId"), requestId},
                              {QStringLiteral("results"), job->results()},
                              {QStringLiteral("usage"), charge.toJson(job->usage())}};
                if (subscriptions.isEmpty())
                    return;
                webhooks::Outcome o = outcomeOf(*job, status, cancelled, charge, answerBody);
                o.requestId = requestId;
                o.endpoint = endpoint;
                o.tool = tool;
                o.startedAt = startedAt;
                o.finishedAt = m_store.clock().nowMs();
                o.params = params;
                m_webhooks.enqueue(requestId, keyId, subscriptions,
                                   webhooks::eventsFor(o, m_store.clock()));
            });
        } catch (const StoreError &e) {
            // Stored as still executing: the next start reports it cancelled.
            qWarning("cannot store the end of scrape %s: %s", qPrintable(requestId), e.what());
            job->deleteLater();
            if (!cancelled)
                answer(
                    {{QStringLiteral("success"), false},
                     {QStringLiteral("status"), QStringLiteral("error")},
                     {QStringLiteral("requestId"), requestId},
                     {QStringLiteral("error"), QStringLiteral("the result could not be stored")}});
            return;
        }
        if (!cancelled)
            answer(answerBody);
        job->deleteLater();
    };
    ++m_inFlight[keyId];
    connect(job, &ScrapeJob::finished, this, [settle] { settle(false); });
    connect(context, &QObject::destroyed, job, [settle] { settle(true); });
    job->start();
}

int ScrapeService::recoverUnfinished()
{
    const QString reason = QStringLiteral("the service restarted during the request");
    int n = 0;
    for (const RequestRecord &r : m_store.requests().unfinished()) {
        const QList<WebhookSubscription> subscriptions = m_store.requests().subscriptions(r.id);
        try {
            m_store.transaction([&] {
                m_store.requests().finish(r.id, QStringLiteral("cancelled"),
                                          {{QStringLiteral("error"), reason}});
                if (subscriptions.isEmpty())
                    return;
                webhooks::Outcome o;
                o.requestId = r.id;
                o.endpoint = r.endpoint;
                // Runs were recovered before: what is left of /mcp is a bridge scrape, and
                // what is left under /firecrawl/ a page of a Firecrawl scrape, map, search,
                // crawl or batch scrape (their json extraction runs are runs).
                const bool scrape = r.endpoint == QLatin1String("/scrape") ||
                                    r.endpoint == QLatin1String("/mcp") ||
                                    r.endpoint.startsWith(QLatin1String("/firecrawl/"));
                o.tool = scrape ? QStringLiteral("scrape") : QStringLiteral("agent");
                o.status = QStringLiteral("cancelled");
                o.startedAt = r.startedAt;
                o.finishedAt = m_store.clock().nowMs();
                o.output = {{QStringLiteral("success"), false},
                            {QStringLiteral("status"), o.status},
                            {QStringLiteral("requestId"), r.id},
                            {QStringLiteral("error"), reason}};
                o.errorMessage = reason;
                o.errorCode = QStringLiteral("CANCELLED");
                o.errorDetails = {{QStringLiteral("status"), o.status}};
                m_webhooks.enqueue(r.id, r.keyId, subscriptions,
                                   webhooks::eventsFor(o, m_store.clock()));
            });
            ++n;
        } catch (const StoreError &e) {
            qWarning("cannot cancel the unfinished request %s: %s", qPrintable(r.id), e.what());
        }
    }
    return n;
}

} // namespace ph::cloud
