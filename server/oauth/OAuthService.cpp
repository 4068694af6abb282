#include "OAuthService.h"

#include "ClientDirectory.h"
#include "FormBody.h"
#include "Pkce.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/CredentialVerifier.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QUrl>
#include <QUrlQuery>

namespace ph::oauth {

namespace {

DomainError oauthError(const QString &code, const QString &message, const QString &field = {})
{
    return DomainError(DomainError::Kind::Invalid, code, message, field);
}

const QString kCodePrefix = QStringLiteral("pho_code");

QString hashOf(const QString &secret)
{
    return Ids::sha256Hex(secret.toUtf8());
}

} // namespace

const QStringList &OAuthService::protectedPaths()
{
    static const QStringList paths{QStringLiteral("/mcp"), QStringLiteral("/config/mcp")};
    return paths;
}

OAuthService::OAuthService(Store &store, Settings &settings, NetworkPolicy &policy,
                           CredentialVerifier *idTokens, bool loopbackInstall, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_idTokens(idTokens)
    , m_loopback(loopbackInstall)
    , m_repository(std::make_unique<OAuthRepository>(store))
    , m_clients(std::make_unique<ClientDirectory>(*m_repository, policy, store.clock()))
{}

OAuthService::~OAuthService() = default;

QString OAuthService::issuer() const
{
    QString base = m_settings.stringValue(SettingKeys::publicBaseUrl).trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base;
}

QJsonObject OAuthService::resourceMetadata(const QString &path) const
{
    return {{QStringLiteral("resource"), resourceOf(path)},
            {QStringLiteral("authorization_servers"), QJsonArray{issuer()}},
            {QStringLiteral("scopes_supported"), QJsonArray{kScope}},
            {QStringLiteral("bearer_methods_supported"), QJsonArray{QStringLiteral("header")}},
            {QStringLiteral("resource_name"), QStringLiteral("Pilothouse")},
            {QStringLiteral("resource_documentation"), issuer() + QStringLiteral("/openapi.json")}};
}

QJsonObject OAuthService::serverMetadata() const
{
    const QString base = issuer();
    return {
        {QStringLiteral("issuer"), base},
        {QStringLiteral("authorization_endpoint"), base + QStringLiteral("/oauth/authorize")},
        {QStringLiteral("token_endpoint"), base + QStringLiteral("/oauth/token")},
        {QStringLiteral("registration_endpoint"), base + QStringLiteral("/oauth/register")},
        {QStringLiteral("revocation_endpoint"), base + QStringLiteral("/oauth/revoke")},
        {QStringLiteral("scopes_supported"), QJsonArray{kScope}},
        {QStringLiteral("response_types_supported"), QJsonArray{QStringLiteral("code")}},
        {QStringLiteral("response_modes_supported"), QJsonArray{QStringLiteral("query")}},
        {QStringLiteral("grant_types_supported"),
         QJsonArray{QStringLiteral("authorization_code"), QStringLiteral("refresh_token")}},
        {QStringLiteral("token_endpoint_auth_methods_supported"),
         QJsonArray{QStringLiteral("none")}},
        {QStringLiteral("revocation_endpoint_auth_methods_supported"),
         QJsonArray{QStringLiteral("none")}},
        {QStringLiteral("code_challenge_methods_supported"), QJsonArray{QStringLiteral("S256")}},
        {QStringLiteral("client_id_metadata_document_supported"), true},
        {QStringLiteral("authorization_response_iss_parameter_supported"), true},
    };
}

QJsonObject OAuthService::registerClient(const QJsonObject &request)
{
    OAuthClient client = ClientMetadata::fromRegistration(request);
    if (m_repository->clientCount() >= kMaxClients)
        throw DomainError(DomainError::Kind::TooManyRequests,
                          QStringLiteral("OAUTH_TOO_MANY_CLIENTS"),
                          QStringLiteral("this server has registered %1 clients; use a client "
                                         "ID metadata document instead")
                              .arg(kMaxClients));
    client.id = Ids::make(QStringLiteral("phc"));
    const qint64 now = m_store.clock().nowMs();
    m_repository->insertClient(client, now);
    return {{QStringLiteral("client_id"), client.id},
            {QStringLiteral("client_id_issued_at"), now / 1000},
            {QStringLiteral("client_name"), client.name},
            {QStringLiteral("redirect_uris"), QJsonArray::fromStringList(client.redirectUris)},
            {QStringLiteral("grant_types"),
             QJsonArray{QStringLiteral("authorization_code"), QStringLiteral("refresh_token")}},
            {QStringLiteral("response_types"), QJsonArray{QStringLiteral("code")}},
            {QStringLiteral("token_endpoint_auth_method"), QStringLiteral("none")}};
}

OAuthService::AuthorizeRequest OAuthService::checkAuthorize(const QHash<QString, QString> &query,
                                                            const OAuthClient &client) const
{
    AuthorizeRequest r;
    r.clientId = client.id;
    r.clientName = client.name;
    r.redirectUri = query.value(QStringLiteral("redirect_uri"));
    r.state = query.value(QStringLiteral("state"));
    if (query.value(QStringLiteral("response_type")) != QLatin1String("code"))
        throw oauthError(QStringLiteral("OAUTH_UNSUPPORTED_RESPONSE_TYPE"),
                         QStringLiteral("response_type must be code"),
                         QStringLiteral("response_type"));
    const QString method = query.value(QStringLiteral("code_challenge_method"));
    if (method != QLatin1String("S256"))
        throw oauthError(QStringLiteral("OAUTH_INVALID_REQUEST"),
                         QStringLiteral("code_challenge_method must be S256 (plain is refused)"),
                         QStringLiteral("code_challenge_method"));
    r.codeChallenge = query.value(QStringLiteral("code_challenge"));
    if (r.codeChallenge.size() != 43 || !Pkce::wellFormed(r.codeChallenge + QStringLiteral("xx")))
        throw oauthError(
            QStringLiteral("OAUTH_INVALID_REQUEST"),
            QStringLiteral("code_challenge must be a BASE64URL SHA-256 (43 characters)"),
            QStringLiteral("code_challenge"));
    r.resource = query.value(QStringLiteral("resource"));
    if (r.resource.isEmpty())
        r.resource = resourceOf(QStringLiteral("/mcp"));
    bool known = false;
    for (const QString &path : protectedPaths())
        known = known || r.resource == resourceOf(path);
    if (!known)
        throw oauthError(QStringLiteral("OAUTH_INVALID_TARGET"),
                         QStringLiteral("resource must be one of this server's MCP endpoints "
                                        "(%1/mcp or %1/config/mcp)")
                             .arg(issuer()),
                         QStringLiteral("resource"));
    r.scope = kScope;
    return r;
}

QString OAuthService::redirectWith(const AuthorizeRequest &request,
                                   QList<QPair<QString, QString>> params) const
{
    QUrl url(request.redirectUri);
    QUrlQuery query(url);
    if (!request.state.isEmpty())
        params.append({QStringLiteral("state"), request.state});
    params.append({QStringLiteral("iss"), issuer()});
    for (const auto &p : params)
        query.addQueryItem(p.first, QString::fromLatin1(QUrl::toPercentEncoding(p.second)));
    url.setQuery(query);
    return url.toString(QUrl::FullyEncoded);
}

const OAuthService::Consent &OAuthService::beginConsent(const AuthorizeRequest &request)
{
    prunePending();
    Consent c;
    c.id = Ids::make(QStringLiteral("consent"));
    c.csrf = Ids::base62(32);
    c.request = request;
    c.expiresAt = m_store.clock().nowMs() + kConsentMs;
    return *m_pending.insert(c.id, c);
}

void OAuthService::prunePending()
{
    const qint64 now = m_store.clock().nowMs();
    for (auto it = m_pending.begin(); it != m_pending.end();)
        it = it->expiresAt < now ? m_pending.erase(it) : std::next(it);
    while (m_pending.size() >= kMaxPending) {
        auto oldest = m_pending.begin();
        for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
            if (it->expiresAt < oldest->expiresAt)
                oldest = it;
        }
        m_pending.erase(oldest);
    }
}

OAuthService::Consent &OAuthService::consent(const QString &id, const QString &csrf)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end() || it->expiresAt < m_store.clock().nowMs() || csrf.isEmpty() ||
        !Ids::equalConstantTime(it->csrf.toUtf8(), csrf.toUtf8())) {
        throw oauthError(QStringLiteral("OAUTH_CONSENT_EXPIRED"),
                         QStringLiteral("this sign-in form has expired or was not ours: start "
                                        "again from your MCP client"),
                         QStringLiteral("csrf"));
    }
    return *it;
}

OAuthService::Consent *OAuthService::pendingConsent(const QString &id)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end() || it->expiresAt < m_store.clock().nowMs())
        return nullptr;
    return &*it;
}

bool OAuthService::prepareSignIn(const QString &credential, const std::function<void()> &ready)
{
    if (signInMethod() != QLatin1String("idToken") || !m_idTokens->recognizes(credential))
        return true;
    return m_idTokens->prepare(credential, ready);
}

QList<ApiKey> OAuthService::keysToChoose() const
{
    QList<ApiKey> out;
    for (const ApiKey &k : m_store.apiKeys().list()) {
        if (k.isActive())
            out.append(k);
    }
    return out;
}

QString OAuthService::signInMethod() const
{
    if (!m_settings.stringValue(SettingKeys::oidcIssuer).trimmed().isEmpty() && m_idTokens)
        return QStringLiteral("idToken");
    return m_loopback ? QStringLiteral("ownerKey") : QString();
}

void OAuthService::signIn(Consent &consent, const QString &credential)
{
    const QString method = signInMethod();
    if (method.isEmpty())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("OAUTH_SIGN_IN_UNAVAILABLE"),
                          QStringLiteral("nobody can sign in here: configure auth.oidc.* (or run "
                                         "Pilothouse on loopback and use the owner key)"));
    bool owner = false;
    if (method == QLatin1String("idToken")) {
        if (m_idTokens->recognizes(credential)) {
            try {
                owner = m_idTokens->verify(credential).owner;
            } catch (const DomainError &) {
                owner = false;
            }
        }
    } else {
        const std::optional<ApiKey> key = m_store.apiKeys().findBySecret(credential);
        owner = key && key->isActive() && key->isOwner();
    }
    if (!owner)
        throw DomainError::unauthorized(QStringLiteral("OAUTH_SIGN_IN_FAILED"),
                                        method == QLatin1String("idToken")
                                            ? QStringLiteral("that is not the owner's ID token")
                                            : QStringLiteral("that is not the owner key"));
    consent.signedIn = true;
    consent.csrf = Ids::base62(32);
}

QString OAuthService::deny(const QString &consentId)
{
    const Consent c = m_pending.take(consentId);
    return redirectWith(c.request, {{QStringLiteral("error"), QStringLiteral("access_denied")}});
}

QString OAuthService::approve(const QString &consentId, const QString &keyId)
{
    const Consent c = m_pending.value(consentId);
    if (!c.signedIn)
        throw DomainError::unauthorized(QStringLiteral("OAUTH_SIGN_IN_FAILED"),
                                        QStringLiteral("sign in first"));
    const std::optional<ApiKey> key = m_store.apiKeys().find(keyId);
    if (!key || !key->isActive())
        throw DomainError::invalidField(QStringLiteral("key"),
                                        QStringLiteral("key names no active API key"));
    m_pending.remove(consentId);
    const qint64 now = m_store.clock().nowMs();
    Grant g;
    g.id = Ids::make(QStringLiteral("grant"));
    g.clientId = c.request.clientId;
    g.clientName = c.request.clientName;
    g.keyId = key->id;
    g.resource = c.request.resource;
    g.scope = c.request.scope;
    g.createdAt = now;
    const QString code = Ids::make(kCodePrefix, 32);
    m_store.transaction([&] {
        m_repository->insertGrant(g);
        m_repository->insertCode(
            hashOf(code),
            {g.id, c.request.redirectUri, c.request.codeChallenge, now + kCodeMs, {}});
    });
    Q_EMIT grantChanged(g.id);
    return redirectWith(c.request, {{QStringLiteral("code"), code}});
}

} // namespace ph::oauth
