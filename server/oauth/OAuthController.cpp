#include "OAuthController.h"

#include "ClientDirectory.h"
#include "ConsentPage.h"
#include "FormBody.h"
#include "OAuthService.h"

#include "core/ApiKeyRepository.h"
#include "core/DomainError.h"
#include "http/Exchange.h"

#include <QJsonArray>
#include <QPointer>
#include <QUrlQuery>

namespace ph::oauth {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

const QString kWellKnownResource = QStringLiteral("/.well-known/oauth-protected-resource");
const QString kCookiePrefix = QStringLiteral("ph_oauth_");

// RFC 6749 §5.2's shape: {error, error_description}, with our code and the field.
QJsonObject oauthEnvelope(const DomainError &e, const QString &requestId)
{
    QString error = QStringLiteral("invalid_request");
    if (e.code().startsWith(QLatin1String("OAUTH_")) &&
        e.code() != QLatin1String("OAUTH_INVALID_REQUEST"))
        error = e.code().mid(6).toLower();
    else if (e.kind() == DomainError::Kind::TooManyRequests)
        error = QStringLiteral("temporarily_unavailable");
    else if (e.kind() == DomainError::Kind::Internal)
        error = QStringLiteral("server_error");
    QJsonObject o{{QStringLiteral("error"), error},
                  {QStringLiteral("error_description"), e.message()},
                  {QStringLiteral("code"), e.code()},
                  {QStringLiteral("requestId"), requestId}};
    if (!e.field().isEmpty())
        o.insert(QStringLiteral("field"), e.field());
    return o;
}

Route oauthRoute(Route r)
{
    r.envelope = oauthEnvelope;
    return r;
}

QHash<QString, QString> queryOf(const http::Request &r)
{
    QHash<QString, QString> out;
    for (const auto &item : r.query.queryItems(QUrl::FullyDecoded))
        out.insert(item.first, item.second);
    return out;
}

QString cookie(const http::Request &r, const QString &name)
{
    const QList<QByteArray> parts = r.header("cookie").split(';');
    for (const QByteArray &part : parts) {
        const QByteArray p = part.trimmed();
        const qsizetype eq = p.indexOf('=');
        if (eq > 0 && QString::fromLatin1(p.left(eq)) == name)
            return QString::fromLatin1(p.mid(eq + 1));
    }
    return {};
}

QByteArray csrfCookie(const QString &consentId, const QString &csrf)
{
    return (kCookiePrefix + consentId + QLatin1Char('=') + csrf +
            QStringLiteral("; Path=/oauth/authorize; HttpOnly; SameSite=Strict; Max-Age=600"))
        .toLatin1();
}

ConsentPage::Client clientOf(const OAuthService::AuthorizeRequest &r)
{
    return {r.clientName, r.clientId, r.redirectUri, r.resource};
}

} // namespace

OAuthController::OAuthController(OAuthService &service, QObject *parent)
    : QObject(parent)
    , m_service(service)
{}

QStringList OAuthController::crossOriginPrefixes()
{
    return {QStringLiteral("/.well-known/oauth-"), QStringLiteral("/oauth/token"),
            QStringLiteral("/oauth/register"), QStringLiteral("/oauth/revoke")};
}

QList<Route> OAuthController::routes()
{
    using C = OAuthController;
    const AuthPolicy open = AuthPolicy::Anonymous;
    return {
        Route::to("GET", kWellKnownResource, open, this, &C::resourceMetadata),
        Route::to("GET", kWellKnownResource + QStringLiteral("/mcp"), open, this,
                  &C::resourceMetadata),
        Route::to("GET", kWellKnownResource + QStringLiteral("/config/mcp"), open, this,
                  &C::resourceMetadata),
        Route::to("GET", kWellKnownResource + QStringLiteral("/v2/a2w/sites/{siteId}/mcp"), open,
                  this, &C::siteResourceMetadata),
        Route::to("GET", QStringLiteral("/.well-known/oauth-authorization-server"), open, this,
                  &C::serverMetadata),
        oauthRoute(
            Route::to("POST", QStringLiteral("/oauth/register"), open, this, &C::registerClient)),
        Route::to("GET", QStringLiteral("/oauth/authorize"), open, this, &C::authorizePage),
        Route::to("POST", QStringLiteral("/oauth/authorize"), open, this, &C::authorizeForm),
        oauthRoute(Route::to("POST", QStringLiteral("/oauth/token"), open, this, &C::token)),
        oauthRoute(Route::to("POST", QStringLiteral("/oauth/revoke"), open, this, &C::revoke)),
        Route::to("GET", QStringLiteral("/oauth/grants"), AuthPolicy::Owner, this, &C::listGrants),
        Route::to("DELETE", QStringLiteral("/oauth/grants/{grantId}"), AuthPolicy::Owner, this,
                  &C::revokeGrant),
    };
}

void OAuthController::resourceMetadata(Exchange &ex)
{
    QString path = ex.request().path.mid(kWellKnownResource.size());
    if (path.isEmpty())
        path = QStringLiteral("/mcp");
    ex.respondJson(200, m_service.resourceMetadata(path));
}

void OAuthController::siteResourceMetadata(Exchange &ex)
{
    // A site's MCP server is open to visiting agents: no token is needed, so it names no
    // authorization server (docs/api/mcp.md#oauth).
    const QString path = ex.request().path.mid(kWellKnownResource.size());
    ex.respondJson(200,
                   {{QStringLiteral("resource"), m_service.resourceOf(path)},
                    {QStringLiteral("authorization_servers"), QJsonArray()},
                    {QStringLiteral("bearer_methods_supported"), QJsonArray()},
                    {QStringLiteral("resource_name"), QStringLiteral("Pilothouse site tools")}});
}

void OAuthController::serverMetadata(Exchange &ex)
{
    ex.respondJson(200, m_service.serverMetadata());
}

void OAuthController::registerClient(Exchange &ex)
{
    ex.respondJson(201, m_service.registerClient(ex.request().jsonObject()),
                   {{"Cache-Control", "no-store"}});
}

void OAuthController::authorizePage(Exchange &ex)
{
    const QHash<QString, QString> query = queryOf(ex.request());
    QPointer<Exchange> held(&ex);
    m_service.clients().resolve(
        query.value(QStringLiteral("client_id")),
        [this, held, query](const OAuthClient *client, const DomainError *error) {
            if (!held || held->isAnswered())
                return;
            if (error) {
                html(*held, 400, ConsentPage::error(error->message()));
                return;
            }
            const QString redirectUri = query.value(QStringLiteral("redirect_uri"));
            if (!client->allowsRedirect(redirectUri)) {
                html(*held, 400,
                     ConsentPage::error(QStringLiteral("redirect_uri is not one of the client's "
                                                       "registered redirect URIs")));
                return;
            }
            OAuthService::AuthorizeRequest r;
            try {
                r = m_service.checkAuthorize(query, *client);
            } catch (const DomainError &e) {
                OAuthService::AuthorizeRequest back;
                back.redirectUri = redirectUri;
                back.state = query.value(QStringLiteral("state"));
                const QString oauthCode =
                    oauthEnvelope(e, {}).value(QStringLiteral("error")).toString();
                redirect(*held, m_service.redirectWith(
                                    back, {{QStringLiteral("error"), oauthCode},
                                           {QStringLiteral("error_description"), e.message()}}));
                return;
            }
            const OAuthService::Consent &c = m_service.beginConsent(r);
            const QString method = m_service.signInMethod();
            html(*held, 200,
                 method.isEmpty()
                     ? ConsentPage::error(QStringLiteral(
                           "Nobody can sign in here: the operator has configured no identity "
                           "provider (auth.oidc.*), and this Pilothouse is not on loopback."))
                     : ConsentPage::signIn(clientOf(r), c.id, c.csrf, method),
                 csrfCookie(c.id, c.csrf));
        });
}

void OAuthController::authorizeForm(Exchange &ex)
{
    try {
        const FormBody form = FormBody::parse(ex.request().body);
        const QString consentId = form.required(QStringLiteral("consent"));
        const QString csrf = form.value(QStringLiteral("csrf"));
        // The form's token and the cookie set with the page must both match (the form
        // cannot be posted from another site's page, SameSite=Strict).
        if (cookie(ex.request(), kCookiePrefix + consentId) != csrf)
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("OAUTH_CONSENT_EXPIRED"),
                              QStringLiteral("the sign-in form's cookie is missing or stale: "
                                             "start again from your MCP client"),
                              QStringLiteral("csrf"));
        OAuthService::Consent &consent = m_service.consent(consentId, csrf);
        const QString decision = form.value(QStringLiteral("decision"));
        if (decision == QLatin1String("deny")) {
            redirect(ex, m_service.deny(consentId));
            return;
        }
        const QString step = form.value(QStringLiteral("step"));
        if (step == QLatin1String("signin")) {
            signInStep(ex, consentId, form.value(QStringLiteral("credential")));
            return;
        }
        if (!consent.signedIn)
            throw DomainError::unauthorized(QStringLiteral("OAUTH_SIGN_IN_FAILED"),
                                            QStringLiteral("sign in first"));
        redirect(ex, m_service.approve(consentId, form.required(QStringLiteral("key"))));
    } catch (const DomainError &e) {
        html(ex, e.kind() == DomainError::Kind::Unauthenticated ? 401 : 400,
             ConsentPage::error(e.message()));
    }
}

void OAuthController::signInStep(Exchange &ex, const QString &consentId, const QString &credential)
{
    QPointer<Exchange> held(&ex);
    auto run = [this, held, consentId, credential] {
        if (!held || held->isAnswered())
            return;
        OAuthService::Consent *c = m_service.pendingConsent(consentId);
        try {
            if (!c)
                throw DomainError(DomainError::Kind::Invalid,
                                  QStringLiteral("OAUTH_CONSENT_EXPIRED"),
                                  QStringLiteral("this sign-in form has expired: start again from "
                                                 "your MCP client"),
                                  QStringLiteral("consent"));
            m_service.signIn(*c, credential);
        } catch (const DomainError &e) {
            if (!c || e.code() == QLatin1String("OAUTH_SIGN_IN_UNAVAILABLE")) {
                html(*held, 400, ConsentPage::error(e.message()));
                return;
            }
            // Another try on the same form (the CSRF token is unchanged).
            html(*held, 401,
                 ConsentPage::signIn(clientOf(c->request), c->id, c->csrf, m_service.signInMethod(),
                                     e.message()));
            return;
        }
        showKeys(*held, consentId);
    };
    if (m_service.prepareSignIn(credential, run))
        run();
}

void OAuthController::showKeys(Exchange &ex, const QString &consentId)
{
    const OAuthService::Consent *c = m_service.pendingConsent(consentId);
    if (!c) {
        html(ex, 400, ConsentPage::error(QStringLiteral("this sign-in form has expired")));
        return;
    }
    QList<ConsentPage::KeyChoice> keys;
    for (const ApiKey &k : m_service.keysToChoose())
        keys.append({k.id, k.label, k.prefix, k.isOwner()});
    html(ex, 200, ConsentPage::chooseKey(clientOf(c->request), c->id, c->csrf, keys),
         csrfCookie(c->id, c->csrf));
}

void OAuthController::token(Exchange &ex)
{
    const FormBody form = FormBody::parse(ex.request().body);
    ex.respondJson(200, m_service.token(form),
                   {{"Cache-Control", "no-store"}, {"Pragma", "no-cache"}});
}

void OAuthController::revoke(Exchange &ex)
{
    m_service.revoke(FormBody::parse(ex.request().body));
    ex.respond(200, QByteArray(), "text/plain");
}

void OAuthController::listGrants(Exchange &ex)
{
    QJsonArray out;
    for (const Grant &g : m_service.grants(ex.request().queryValue(QStringLiteral("keyId"))))
        out.append(OAuthService::toJson(g));
    ex.respondJson(200, {{QStringLiteral("success"), true}, {QStringLiteral("grants"), out}});
}

void OAuthController::revokeGrant(Exchange &ex)
{
    m_service.revokeGrant(ex.request().param(QStringLiteral("grantId")));
    ex.respondJson(200, {{QStringLiteral("success"), true}});
}

void OAuthController::html(Exchange &ex, int status, const QByteArray &body,
                           const QByteArray &cookie)
{
    http::HeaderList headers = ConsentPage::headers();
    if (!cookie.isEmpty())
        headers.append({"Set-Cookie", cookie});
    ex.respond(status, body, "text/html; charset=utf-8", headers);
}

void OAuthController::redirect(Exchange &ex, const QString &location)
{
    ex.respond(302, QByteArray(), "text/plain",
               {{"Location", location.toUtf8()}, {"Cache-Control", "no-store"}});
}

} // namespace ph::oauth
