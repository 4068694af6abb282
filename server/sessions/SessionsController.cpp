#include "SessionsController.h"

#include "SessionLiveViewController.h"
#include "SessionRequest.h"
#include "SessionService.h"

#include "browser/SessionBrowser.h"
#include "core/DomainError.h"
#include "core/Principal.h"
#include "http/Exchange.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QPointer>

namespace ph::sessions {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

QJsonValue isoOrNull(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

QString wsOrigin(const QString &origin)
{
    if (origin.startsWith(QLatin1String("https://")))
        return QStringLiteral("wss://") + origin.mid(8);
    if (origin.startsWith(QLatin1String("http://")))
        return QStringLiteral("ws://") + origin.mid(7);
    return origin;
}

QString cdpBase(const QString &origin, const QString &token)
{
    return origin + QStringLiteral("/cdp/") + token;
}

QString browserSocketUrl(const QString &origin, const QString &token)
{
    return wsOrigin(origin) + QStringLiteral("/cdp/") + token + QStringLiteral("/devtools/browser");
}

// A wrong, ended or unknown token: the same answer whatever the reason.
DomainError badToken()
{
    return DomainError::unauthorized(QStringLiteral("INVALID_SESSION_TOKEN"),
                                     QStringLiteral("this DevTools URL is not (or no longer) "
                                                    "valid; create a session with POST /sessions"));
}

const QStringList &statusFilters()
{
    static const QStringList filters = {QStringLiteral("active"),   QStringLiteral("all"),
                                        QStringLiteral("starting"), QStringLiteral("released"),
                                        QStringLiteral("expired"),  QStringLiteral("crashed"),
                                        QStringLiteral("failed")};
    return filters;
}

} // namespace

SessionsController::SessionsController(SessionService &sessions, const NetworkPolicy &policy,
                                       QObject *parent)
    : QObject(parent)
    , m_sessions(sessions)
    , m_policy(policy)
{}

QList<Route> SessionsController::routes()
{
    using C = SessionsController;
    return {
        Route::to("POST", QStringLiteral("/sessions"), AuthPolicy::ApiKey, this, &C::create),
        Route::to("GET", QStringLiteral("/sessions"), AuthPolicy::ApiKey, this, &C::list),
        Route::to("GET", QStringLiteral("/sessions/profiles"), AuthPolicy::ApiKey, this,
                  &C::listProfiles),
        Route::to("DELETE", QStringLiteral("/sessions/profiles/{name}"), AuthPolicy::ApiKey, this,
                  &C::deleteProfile),
        Route::to("GET", QStringLiteral("/sessions/{id}"), AuthPolicy::ApiKey, this, &C::get),
        Route::to("DELETE", QStringLiteral("/sessions/{id}"), AuthPolicy::ApiKey, this,
                  &C::release),
        Route::to("GET", QStringLiteral("/cdp/{token}/json/version"), AuthPolicy::Public, this,
                  &C::cdpVersion),
        Route::to("GET", QStringLiteral("/cdp/{token}/json"), AuthPolicy::Public, this,
                  &C::cdpTargets),
        Route::to("GET", QStringLiteral("/cdp/{token}/json/list"), AuthPolicy::Public, this,
                  &C::cdpTargets),
    };
}

QJsonObject SessionsController::toJson(const BrowserSessionInfo &info, const QString &origin,
                                       bool liveView) const
{
    QJsonObject o{
        {QStringLiteral("id"), info.id},
        {QStringLiteral("status"), info.status},
        {QStringLiteral("endReason"),
         info.endReason.isEmpty() ? QJsonValue() : QJsonValue(info.endReason)},
        {QStringLiteral("engine"), QStringLiteral("chromium")},
        {QStringLiteral("profile"),
         info.profile.isEmpty() ? QJsonValue() : QJsonValue(info.profile)},
        {QStringLiteral("viewport"), QJsonObject{{QStringLiteral("width"), info.width},
                                                 {QStringLiteral("height"), info.height}}},
        {QStringLiteral("userAgent"),
         info.userAgent.isEmpty() ? QJsonValue() : QJsonValue(info.userAgent)},
        {QStringLiteral("createdAt"), isoOrNull(info.createdAt)},
        {QStringLiteral("expiresAt"), isoOrNull(info.expiresAt)},
        {QStringLiteral("lastActivityAt"), isoOrNull(info.lastActivityAt)},
        {QStringLiteral("endedAt"), isoOrNull(info.endedAt)},
        {QStringLiteral("idleTimeoutSeconds"), info.idleTimeoutSeconds},
        {QStringLiteral("clients"), info.clients},
        {QStringLiteral("pid"), info.pid > 0 ? QJsonValue(double(info.pid)) : QJsonValue()},
        {QStringLiteral("liveViewUrl"), QJsonValue()},
    };
    if (!info.cdpToken.isEmpty()) {
        o.insert(QStringLiteral("cdpUrl"), browserSocketUrl(origin, info.cdpToken));
        o.insert(QStringLiteral("cdpHttpUrl"), cdpBase(origin, info.cdpToken));
    }
    // Its own token, not the CDP token: the create answer and GET /sessions/{id} (the
    // session's own key, or the owner) while the session runs.
    const QString live =
        liveView ? SessionLiveViewController::url(m_sessions, origin, info.id) : QString();
    if (!live.isEmpty())
        o.insert(QStringLiteral("liveViewUrl"), live);
    return o;
}

void SessionsController::create(Exchange &ex)
{
    const Principal caller = ex.request().principal;
    // The proxy's host is judged with the key's own grant (a private proxy needs it).
    const CreateSessionRequest req =
        CreateSessionRequest::read(ex.request().jsonObject(), m_policy.grantFor(caller.keyId));
    const BrowserSessionInfo created = m_sessions.create(caller, req);
    const QString origin = ex.request().origin();
    QPointer<Exchange> pending(&ex);
    m_sessions.whenStarted(created.id, &ex, [this, pending, caller, created, origin] {
        if (!pending || pending->isAnswered())
            return;
        std::optional<BrowserSessionInfo> now = m_sessions.find(caller, created.id);
        if (!now || now->status != QLatin1String("active")) {
            pending->fail(DomainError(DomainError::Kind::Unavailable,
                                      QStringLiteral("SESSION_FAILED"),
                                      QStringLiteral("the session's browser did not start: %1")
                                          .arg(now ? now->endReason : QStringLiteral("unknown"))));
            return;
        }
        now->cdpToken = created.cdpToken;
        pending->respondJson(201, toJson(*now, origin, true));
    });
}

void SessionsController::list(Exchange &ex)
{
    QString status = ex.request().queryValue(QStringLiteral("status"));
    if (status.isEmpty())
        status = QStringLiteral("active");
    if (!statusFilters().contains(status))
        throw DomainError::invalidField(
            QStringLiteral("status"),
            QStringLiteral("must be one of %1").arg(statusFilters().join(QStringLiteral(", "))));
    const bool liveOnly = status == QLatin1String("active");
    QJsonArray out;
    for (const BrowserSessionInfo &info : m_sessions.list(ex.request().principal, liveOnly)) {
        if (liveOnly || status == QLatin1String("all") || info.status == status)
            out.append(toJson(info, ex.request().origin()));
    }
    ex.respondJson(200, {{QStringLiteral("sessions"), out}});
}

void SessionsController::get(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const std::optional<BrowserSessionInfo> info = m_sessions.find(ex.request().principal, id);
    if (!info)
        throw DomainError::notFound(QStringLiteral("no browser session %1").arg(id.left(64)));
    // find() answers only the caller's own session, or any for the owner.
    ex.respondJson(200, toJson(*info, ex.request().origin(), true));
}

void SessionsController::release(Exchange &ex)
{
    const BrowserSessionInfo info =
        m_sessions.release(ex.request().principal, ex.request().param(QStringLiteral("id")));
    ex.respondJson(200, toJson(info, ex.request().origin()));
}

void SessionsController::listProfiles(Exchange &ex)
{
    QJsonArray out;
    for (const ProfileInfo &p : m_sessions.profiles(ex.request().principal))
        out.append(QJsonObject{{QStringLiteral("name"), p.name},
                               {QStringLiteral("createdAt"), isoOrNull(p.createdAt)},
                               {QStringLiteral("lastUsedAt"), isoOrNull(p.lastUsedAt)},
                               {QStringLiteral("bytes"), double(p.bytes)},
                               {QStringLiteral("inUse"), p.inUse}});
    ex.respondJson(200, {{QStringLiteral("profiles"), out}});
}

void SessionsController::deleteProfile(Exchange &ex)
{
    const QString name = ex.request().param(QStringLiteral("name"));
    m_sessions.deleteProfile(ex.request().principal, ex.request().principal.keyId, name);
    ex.respondJson(200, {{QStringLiteral("deleted"), true}, {QStringLiteral("name"), name}});
}

void SessionsController::cdpVersion(Exchange &ex)
{
    const QString token = ex.request().param(QStringLiteral("token"));
    SessionBrowser *browser = m_sessions.browserForToken(token);
    if (!browser)
        throw badToken();
    QJsonObject version = browser->version();
    version.insert(QStringLiteral("webSocketDebuggerUrl"),
                   browserSocketUrl(ex.request().origin(), token));
    ex.respondJson(200, version);
}

// The session's targets are the relay's to tell (Target.getTargets through the
// WebSocket); the HTTP list answers [] so no client learns a target id without it.
void SessionsController::cdpTargets(Exchange &ex)
{
    if (!m_sessions.browserForToken(ex.request().param(QStringLiteral("token"))))
        throw badToken();
    ex.respond(200, QByteArrayLiteral("[]"), QByteArrayLiteral("application/json"));
}

} // namespace ph::sessions
