#include "RuntimeController.h"

#include "RuntimeService.h"

#include "cloud/ScrapeJob.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Settings.h"
#include "http/EventStream.h"
#include "http/Exchange.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QPointer>
#include <QTimer>

namespace ph::runtime {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

QString bearerOf(const http::Request &r)
{
    const QByteArray auth = r.header("authorization");
    if (auth.size() > 7 && auth.left(7).compare("bearer ", Qt::CaseInsensitive) == 0)
        return QString::fromLatin1(auth.mid(7).trimmed());
    return {};
}

void ok(Exchange &ex, const QJsonObject &data, int status = 200)
{
    ex.respondJson(status, {{QStringLiteral("success"), true}, {QStringLiteral("data"), data}});
}

// The session a call is made in: its token (Authorization: Bearer, or sessionToken in
// the body), and the sessionId the body names (required).
Session sessionOf(RuntimeService &service, const http::Request &r, const QJsonObject &body)
{
    QString token = bearerOf(r);
    if (token.isEmpty())
        token = body.value(QStringLiteral("sessionToken")).toString();
    const Session session =
        service.authenticate(token, body.value(QStringLiteral("sessionId")).toString());
    if (!body.value(QStringLiteral("sessionId")).isString())
        throw DomainError::missingField(QStringLiteral("sessionId"));
    return session;
}

} // namespace

RuntimeController::RuntimeController(RuntimeService &service, Settings &settings, QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_settings(settings)
{
    connect(&m_service, &RuntimeService::sessionAdvanced, this,
            [this](const QString &sessionId, qint64) {
                const auto listeners = m_listeners.values(sessionId);
                for (const auto &l : listeners)
                    l.second();
            });
}

QJsonObject RuntimeController::errorEnvelope(const DomainError &error, const QString &requestId)
{
    QJsonObject data = error.details();
    data.insert(QStringLiteral("code"), error.code());
    data.insert(QStringLiteral("message"), error.message());
    if (!error.field().isEmpty())
        data.insert(QStringLiteral("field"), error.field());
    if (!data.contains(QStringLiteral("retryable")))
        data.insert(QStringLiteral("retryable"),
                    error.kind() == DomainError::Kind::TooManyRequests ||
                        error.kind() == DomainError::Kind::Unavailable);
    QJsonObject o{{QStringLiteral("success"), false},
                  {QStringLiteral("error"), error.message()},
                  {QStringLiteral("code"), error.code()},
                  {QStringLiteral("requestId"), requestId},
                  {QStringLiteral("data"), data}};
    if (!error.field().isEmpty())
        o.insert(QStringLiteral("field"), error.field());
    if (error.retryAfterSeconds() > 0)
        o.insert(QStringLiteral("retryAfter"), error.retryAfterSeconds());
    return o;
}

QList<Route> RuntimeController::routes()
{
    using C = RuntimeController;
    QList<Route> table = {
        Route::to("POST", QStringLiteral("/v2/runtime/session/open"), AuthPolicy::Anonymous, this,
                  &C::open),
        Route::to("POST", QStringLiteral("/v2/runtime/session/context"), AuthPolicy::Anonymous,
                  this, &C::context),
        Route::to("POST", QStringLiteral("/v2/runtime/command"), AuthPolicy::Anonymous, this,
                  &C::command),
        Route::to("GET", QStringLiteral("/v2/runtime/stream"), AuthPolicy::Anonymous, this,
                  &C::stream),
        Route::to("POST", QStringLiteral("/v2/runtime/state"), AuthPolicy::Anonymous, this,
                  &C::state),
        Route::to("POST", QStringLiteral("/v2/runtime/snapshot"), AuthPolicy::Anonymous, this,
                  &C::snapshot),
        Route::to("POST", QStringLiteral("/v2/runtime/context/external"), AuthPolicy::Anonymous,
                  this, &C::external),
        Route::to("POST", QStringLiteral("/v2/runtime/telemetry/ingest"), AuthPolicy::Anonymous,
                  this, &C::telemetry),
        Route::to("GET", QStringLiteral("/v2/runtime/collect"), AuthPolicy::Anonymous, this,
                  &C::collect),
        Route::to("POST", QStringLiteral("/v2/runtime/site-tokens"), AuthPolicy::Anonymous, this,
                  &C::siteTokens),
        Route::to("POST", QStringLiteral("/v2/runtime/collect"), AuthPolicy::Anonymous, this,
                  &C::collect),
    };
    for (Route &route : table)
        route.envelope = &RuntimeController::errorEnvelope;
    table.append(
        Route::to("GET", QStringLiteral("/embed.js"), AuthPolicy::Public, this, &C::embedScript));
    return table;
}

QString RuntimeController::base(const Exchange &ex) const
{
    QString b = m_settings.stringValue(SettingKeys::publicBaseUrl);
    if (b.isEmpty())
        b = ex.request().origin();
    while (b.endsWith(u'/'))
        b.chop(1);
    return b;
}

void RuntimeController::open(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QJsonObject body = r.jsonObject();
    const RuntimeService::Opened o = m_service.open(body, bearerOf(r), r.remoteAddress.toString());
    QJsonObject data{
        {QStringLiteral("sessionId"), o.session.id},
        {QStringLiteral("sessionToken"), o.sessionToken},
        {QStringLiteral("sessionTokenExpiresAt"), o.sessionTokenExpiresAt},
        {QStringLiteral("streamToken"), o.streamToken},
        {QStringLiteral("epoch"), o.session.epoch},
        {QStringLiteral("seq"), o.session.seq},
        {QStringLiteral("refreshed"), o.refreshed},
        {QStringLiteral("capabilities"), o.capabilities},
        {QStringLiteral("policy"), o.policy},
        {QStringLiteral("projection"), m_service.projection(o.session, 0, true)},
        {QStringLiteral("siteConfig"), o.siteConfig},
        {QStringLiteral("analytics"), o.analytics},
        {QStringLiteral("sseUrl"),
         base(ex) + QStringLiteral("/v2/runtime/stream?streamTicket=") + o.streamToken}};
    if (!o.contextToken.isEmpty()) {
        data.insert(QStringLiteral("contextToken"), o.contextToken);
        data.insert(QStringLiteral("context"), o.session.context);
    }
    ok(ex, data);
}

void RuntimeController::context(Exchange &ex)
{
    const QJsonObject body = ex.request().jsonObject();
    const Session session = sessionOf(m_service, ex.request(), body);
    ok(ex, m_service.updateContext(session, body));
}

void RuntimeController::command(Exchange &ex)
{
    const QJsonObject body = ex.request().jsonObject();
    const Session session = sessionOf(m_service, ex.request(), body);
    const RuntimeService::Answer answer = m_service.command(session, body);
    ok(ex, answer.data, answer.status);
}

void RuntimeController::state(Exchange &ex)
{
    const QJsonObject body = ex.request().jsonObject();
    const Session session = sessionOf(m_service, ex.request(), body);
    const qint64 after = qint64(body.value(QStringLiteral("seqAfter")).toDouble(0));
    if (body.contains(QStringLiteral("seqAfter")) &&
        !body.value(QStringLiteral("seqAfter")).isDouble())
        throw DomainError::invalidField(QStringLiteral("seqAfter"),
                                        QStringLiteral("must be a number"));
    // Without seqAfter (a resync) the checkpoint comes along.
    ok(ex, m_service.projection(session, after, !body.contains(QStringLiteral("seqAfter"))));
}

void RuntimeController::snapshot(Exchange &ex)
{
    const QJsonObject body = ex.request().jsonObject();
    const Session session = sessionOf(m_service, ex.request(), body);
    ok(ex, m_service.saveSnapshot(session, body));
}

void RuntimeController::external(Exchange &ex)
{
    const QJsonObject body = ex.request().jsonObject();
    const Session session = sessionOf(m_service, ex.request(), body);
    // `act` carries a task: the visitor's message.
    const QString task = body.value(QStringLiteral("message"))
                             .toString(body.value(QStringLiteral("userInput")).toString())
                             .trimmed();
    QJsonObject decision = m_service.externalDecision(session, body);
    if (decision.value(QStringLiteral("decision")).toString() == QLatin1String("allow") &&
        decision.value(QStringLiteral("intent")).toString() == QLatin1String("act") && m_actor) {
        // act: the task carried out on the external page in the cloud browser.
        QPointer<Exchange> guard(&ex);
        RuntimeService *service = &m_service;
        const QString sessionId = session.id;
        m_actor(session.siteId, session.url, decision.value(QStringLiteral("url")).toString(), task,
                std::clamp(body.value(QStringLiteral("timeoutMs")).toInt(30000), 1000, 120000), &ex,
                [guard, decision, service, sessionId](const QJsonObject &outcome) mutable {
                    if (!guard)
                        return;
                    if (outcome.value(QStringLiteral("status")).toString() ==
                        QLatin1String("success"))
                        service->markTab(sessionId,
                                         decision.value(QStringLiteral("logicalTabId")).toString(),
                                         QStringLiteral("acted"));
                    decision.insert(QStringLiteral("outcome"), outcome);
                    ok(*guard, decision);
                });
        return;
    }
    if (decision.value(QStringLiteral("decision")).toString() != QLatin1String("allow") ||
        decision.value(QStringLiteral("intent")).toString() != QLatin1String("read_context") ||
        !m_pool || !m_policy) {
        ok(ex, decision);
        return;
    }
    // read_context: the page read through the cloud browser (the network policy on every
    // hop), its text and markdown handed back as context.
    cloud::ScrapeOptions options;
    options.formats = {QStringLiteral("markdown")};
    options.timeoutMs =
        std::clamp(body.value(QStringLiteral("timeoutMs")).toInt(20000), 1000, 60000);
    options.maxTextChars = 20000;
    options.browser.forVisitorsOf(session.siteId); // a visitor's read: the visitors' share
    const QString keyId = m_accountFor ? m_accountFor(session.siteId) : QString();
    // A visitor's read reaches the site's own private hosts on the standard port of its
    // page's scheme only (other ports where the owner listed them).
    auto *job = new cloud::ScrapeJob(
        *m_pool, *m_policy, NetworkPolicy::pinReach(m_policy->grantFor(keyId), QUrl(session.url)),
        {QUrl(decision.value(QStringLiteral("url")).toString())}, options,
        QStringLiteral("runtime external"), 1, &ex);
    QPointer<Exchange> guard(&ex);
    RuntimeService *service = &m_service;
    const QString sessionId = session.id;
    connect(job, &cloud::ScrapeJob::finished, &ex,
            [guard, job, decision, service, sessionId]() mutable {
                if (!guard)
                    return;
                const QJsonArray results = job->results();
                const QJsonObject result =
                    results.isEmpty() ? QJsonObject() : results.first().toObject();
                QJsonObject context{
                    {QStringLiteral("url"), result.value(QStringLiteral("url"))},
                    {QStringLiteral("status"), result.value(QStringLiteral("status"))}};
                if (result.value(QStringLiteral("status")).toString() == QLatin1String("success")) {
                    context.insert(QStringLiteral("title"), result.value(QStringLiteral("title")));
                    context.insert(QStringLiteral("markdown"),
                                   result.value(QStringLiteral("markdown")).toString().left(20000));
                    service->markTab(sessionId,
                                     decision.value(QStringLiteral("logicalTabId")).toString(),
                                     QStringLiteral("scraped"));
                } else {
                    context.insert(QStringLiteral("error"), result.value(QStringLiteral("error")));
                }
                decision.insert(QStringLiteral("context"), context);
                ok(*guard, decision);
            });
    job->start();
}

void RuntimeController::telemetry(Exchange &ex)
{
    const QJsonObject body = ex.request().jsonObject();
    const Session session = sessionOf(m_service, ex.request(), body);
    ok(ex, m_service.ingestTelemetry(session, body), 202);
}

void RuntimeController::collect(Exchange &ex)
{
    QHash<QString, QString> query;
    for (const auto &item : ex.request().query.queryItems(QUrl::FullyDecoded))
        query.insert(item.first, item.second);
    const QString id = m_service.collect(query);
    ok(ex, {{QStringLiteral("id"), id}}, 202);
}

void RuntimeController::siteTokens(Exchange &ex)
{
    // Server to server: the site's secret key, never a browser's credential.
    const RuntimeService::SiteToken t =
        m_service.mintSiteToken(bearerOf(ex.request()), ex.request().jsonObject());
    ok(ex,
       {{QStringLiteral("kind"), t.kind},
        {t.kind == QLatin1String("bootstrap") ? QStringLiteral("bootstrapToken")
                                              : QStringLiteral("contextToken"),
         t.token},
        {QStringLiteral("expiresAt"), t.expiresAt}},
       201);
}

void RuntimeController::embedScript(Exchange &ex)
{
    static const QByteArray script = [] {
        QFile f(QStringLiteral(":/pilothouse/embed/embed.js"));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    if (script.isEmpty())
        throw DomainError::internal(QStringLiteral("the embed SDK is not built into this binary"));
    static const QByteArray etag =
        '"' + QCryptographicHash::hash(script, QCryptographicHash::Sha256).toHex().left(16) + '"';
    if (ex.request().header("if-none-match") == etag) {
        ex.respond(304, {}, {}, {{"ETag", etag}});
        return;
    }
    ex.respond(200, script, "text/javascript; charset=utf-8",
               {{"Cache-Control", "public, max-age=300"},
                {"ETag", etag},
                {"X-Content-Type-Options", "nosniff"}});
}

void RuntimeController::stream(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString ticket = r.queryValue(QStringLiteral("streamTicket"));
    if (ticket.isEmpty())
        throw DomainError::missingField(QStringLiteral("streamTicket"));
    const Session session = m_service.authenticateStream(ticket);
    ex.setSite(session.siteId); // counts against http.maxStreamsPerSite
    bool numeric = true;
    qint64 after = 0;
    if (r.query.hasQueryItem(QStringLiteral("seqAfter"))) {
        after = r.queryValue(QStringLiteral("seqAfter")).toLongLong(&numeric);
        if (!numeric || after < 0)
            throw DomainError::invalidField(QStringLiteral("seqAfter"),
                                            QStringLiteral("must be a whole number ≥ 0"));
    } else if (const QByteArray last = r.header("last-event-id"); !last.isEmpty()) {
        after = last.toLongLong();
    }
    auto *events = new http::EventStream(ex, http::EventStream::Framing::Sse, 0, &ex);
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    events->send(QStringLiteral("ready"), {{QStringLiteral("sessionId"), session.id},
                                           {QStringLiteral("ts"), nowMs},
                                           {QStringLiteral("seq"), session.seq}});
    // A client ahead of the session (seqAfter past its seq) holds events that were never
    // sent (a restored checkpoint of another session, a rolled-back write): it is told,
    // and gets the whole projection again.
    if (after > session.seq) {
        events->send(QStringLiteral("error"),
                     {{QStringLiteral("message"),
                       QStringLiteral("seqAfter %1 is ahead of the session (seq %2): resync "
                                      "from this projection")
                           .arg(after)
                           .arg(session.seq)},
                      {QStringLiteral("code"), QStringLiteral("stale_seq")}});
        after = 0;
    }
    // What happened after seqAfter, then a projection whenever the session moves.
    auto last = std::make_shared<qint64>(after);
    const QString sessionId = session.id;
    RuntimeService *service = &m_service;
    auto push = [events, last, sessionId, service] {
        const QJsonObject p = service->projection(sessionId, *last);
        const QJsonArray list = p.value(QStringLiteral("events")).toArray();
        if (p.isEmpty())
            return;
        const qint64 seq = p.value(QStringLiteral("seq")).toInteger();
        if (!list.isEmpty())
            *last = list.last().toObject().value(QStringLiteral("seq")).toInteger();
        events->send(QStringLiteral("projection"), p, seq);
    };
    push();
    // Told by the hub when its session moves (one lookup per event, not one call per
    // open stream).
    auto *listener = new QObject(events);
    m_listeners.insert(sessionId, {listener, push});
    connect(listener, &QObject::destroyed, this, [this, sessionId, listener] {
        for (auto it = m_listeners.find(sessionId);
             it != m_listeners.end() && it.key() == sessionId;) {
            if (it->first == listener)
                it = m_listeners.erase(it);
            else
                ++it;
        }
    });
    auto *ping = new QTimer(events);
    connect(ping, &QTimer::timeout, events, [events] {
        events->send(QStringLiteral("ping"),
                     {{QStringLiteral("ts"), QDateTime::currentMSecsSinceEpoch()}});
    });
    ping->start(m_settings.intValue(SettingKeys::runtimeStreamPingMs));
}

} // namespace ph::runtime
