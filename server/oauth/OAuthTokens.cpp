// OAuthService's token half: the token endpoint, revocation, the grants, and the access
// token check the authenticator asks for.
#include "OAuthService.h"

#include "FormBody.h"
#include "Pkce.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Store.h"

#include <QDateTime>

namespace ph::oauth {

namespace {

const QString kAccessPrefix = QStringLiteral("pho_at");
const QString kRefreshPrefix = QStringLiteral("pho_rt");

QString hashOf(const QString &secret)
{
    return Ids::sha256Hex(secret.toUtf8());
}

DomainError invalidGrant(const QString &message)
{
    return DomainError(DomainError::Kind::Invalid, QStringLiteral("OAUTH_INVALID_GRANT"), message);
}

DomainError invalidToken(const QString &message)
{
    return DomainError::unauthorized(QStringLiteral("INVALID_TOKEN"), message);
}

QString isoOf(std::optional<qint64> ms)
{
    return ms ? QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC).toString(Qt::ISODateWithMs)
              : QString();
}

} // namespace

QJsonObject OAuthService::token(const FormBody &form)
{
    const QString type = form.required(QStringLiteral("grant_type"));
    m_repository->purgeExpired(m_store.clock().nowMs());
    if (type == QLatin1String("authorization_code"))
        return exchangeCode(form);
    if (type == QLatin1String("refresh_token"))
        return refresh(form);
    throw DomainError(DomainError::Kind::Invalid, QStringLiteral("OAUTH_UNSUPPORTED_GRANT_TYPE"),
                      QStringLiteral("grant_type must be authorization_code or refresh_token"),
                      QStringLiteral("grant_type"));
}

Grant OAuthService::activeGrant(const QString &grantId, const QString &clientId)
{
    const std::optional<Grant> g = m_repository->findGrant(grantId);
    if (!g || !g->isActive())
        throw invalidGrant(QStringLiteral("the grant was revoked"));
    if (g->clientId != clientId)
        throw invalidGrant(QStringLiteral("the grant belongs to another client"));
    const std::optional<ApiKey> key = m_store.apiKeys().find(g->keyId);
    if (!key || !key->isActive()) {
        m_repository->revokeGrant(g->id, m_store.clock().nowMs(), QStringLiteral("key revoked"));
        throw invalidGrant(QStringLiteral("the API key this grant acts as was revoked"));
    }
    return *g;
}

void OAuthService::checkAudience(const FormBody &form, const Grant &grant) const
{
    const QString resource = form.value(QStringLiteral("resource"));
    if (!resource.isEmpty() && resource != grant.resource)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("OAUTH_INVALID_TARGET"),
                          QStringLiteral("resource is not the one this grant was given for"),
                          QStringLiteral("resource"));
}

QJsonObject OAuthService::exchangeCode(const FormBody &form)
{
    const QString code = form.required(QStringLiteral("code"));
    const QString clientId = form.required(QStringLiteral("client_id"));
    const QString verifier = form.required(QStringLiteral("code_verifier"));
    const QString hash = hashOf(code);
    const qint64 now = m_store.clock().nowMs();
    const std::optional<CodeRow> row = m_repository->findCode(hash);
    if (!row || row->expiresAt < now)
        throw invalidGrant(QStringLiteral("the authorization code is unknown or expired"));
    if (row->usedAt) {
        // A code used twice: the first exchange's tokens may be in the wrong hands too.
        m_repository->revokeGrant(row->grantId, now, QStringLiteral("code reused"));
        Q_EMIT grantChanged(row->grantId);
        throw invalidGrant(QStringLiteral("the authorization code was used already"));
    }
    if (form.value(QStringLiteral("redirect_uri")) != row->redirectUri)
        throw invalidGrant(
            QStringLiteral("redirect_uri is not the one of the authorization request"));
    if (!Pkce::verify(verifier, row->codeChallenge))
        throw invalidGrant(QStringLiteral("code_verifier does not match the code_challenge"));
    const Grant grant = activeGrant(row->grantId, clientId);
    checkAudience(form, grant);
    QJsonObject out;
    m_store.transaction([&] {
        if (!m_repository->useCode(hash, now))
            throw invalidGrant(QStringLiteral("the authorization code was used already"));
        out = issueTokens(grant);
    });
    return out;
}

QJsonObject OAuthService::refresh(const FormBody &form)
{
    const QString refreshToken = form.required(QStringLiteral("refresh_token"));
    const QString clientId = form.required(QStringLiteral("client_id"));
    const QString hash = hashOf(refreshToken);
    const qint64 now = m_store.clock().nowMs();
    const std::optional<TokenRow> row = m_repository->findToken(hash);
    if (!row || row->kind != QLatin1String("refresh") || row->expiresAt < now)
        throw invalidGrant(QStringLiteral("the refresh token is unknown, expired or revoked"));
    if (row->usedAt) {
        // Reuse of a rotated refresh token: whoever holds the family, it ends now.
        if (m_repository->revokeGrant(row->grantId, now, QStringLiteral("refresh token reused")))
            Q_EMIT grantChanged(row->grantId);
        throw invalidGrant(QStringLiteral("the refresh token was used already; the grant is "
                                          "revoked: sign in again"));
    }
    const Grant grant = activeGrant(row->grantId, clientId);
    checkAudience(form, grant);
    QJsonObject out;
    m_store.transaction([&] {
        if (!m_repository->useToken(hash, now))
            throw invalidGrant(QStringLiteral("the refresh token was used already"));
        out = issueTokens(grant);
    });
    return out;
}

QJsonObject OAuthService::issueTokens(const Grant &grant)
{
    const qint64 now = m_store.clock().nowMs();
    const QString access = Ids::make(kAccessPrefix, 32);
    const QString refresh = Ids::make(kRefreshPrefix, 32);
    m_repository->insertToken(hashOf(access),
                              {grant.id, QStringLiteral("access"), now + kAccessTokenMs, {}});
    m_repository->insertToken(hashOf(refresh),
                              {grant.id, QStringLiteral("refresh"), now + kRefreshTokenMs, {}});
    return {{QStringLiteral("access_token"), access},
            {QStringLiteral("token_type"), QStringLiteral("Bearer")},
            {QStringLiteral("expires_in"), int(kAccessTokenMs / 1000)},
            {QStringLiteral("refresh_token"), refresh},
            {QStringLiteral("scope"), grant.scope}};
}

void OAuthService::revoke(const FormBody &form)
{
    const QString token = form.required(QStringLiteral("token"));
    const QString hash = hashOf(token);
    const std::optional<TokenRow> row = m_repository->findToken(hash);
    if (!row)
        return; // RFC 7009 §2.2: an unknown token is answered 200 all the same
    const std::optional<Grant> grant = m_repository->findGrant(row->grantId);
    const QString clientId = form.value(QStringLiteral("client_id"));
    if (grant && !clientId.isEmpty() && grant->clientId != clientId)
        return; // another client's token: not ours to end, and not to tell about
    if (row->kind == QLatin1String("refresh")) {
        if (m_repository->revokeGrant(row->grantId, m_store.clock().nowMs(),
                                      QStringLiteral("revoked by the client")))
            Q_EMIT grantChanged(row->grantId);
    } else {
        m_repository->deleteToken(hash);
    }
}

QList<Grant> OAuthService::grants(const QString &keyId) const
{
    return m_repository->grants(keyId);
}

void OAuthService::revokeGrant(const QString &grantId)
{
    if (!m_repository->findGrant(grantId))
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("OAUTH_GRANT_NOT_FOUND"),
                          QStringLiteral("no OAuth grant %1").arg(grantId));
    if (m_repository->revokeGrant(grantId, m_store.clock().nowMs(),
                                  QStringLiteral("revoked by the owner")))
        Q_EMIT grantChanged(grantId);
}

QJsonObject OAuthService::toJson(const Grant &g)
{
    QJsonObject o{{QStringLiteral("id"), g.id},
                  {QStringLiteral("clientId"), g.clientId},
                  {QStringLiteral("clientName"), g.clientName},
                  {QStringLiteral("keyId"), g.keyId},
                  {QStringLiteral("resource"), g.resource},
                  {QStringLiteral("scope"), g.scope},
                  {QStringLiteral("createdAt"), isoOf(g.createdAt)},
                  {QStringLiteral("lastUsedAt"),
                   g.lastUsedAt ? QJsonValue(isoOf(g.lastUsedAt)) : QJsonValue()},
                  {QStringLiteral("active"), g.isActive()}};
    if (g.revokedAt) {
        o.insert(QStringLiteral("revokedAt"), isoOf(g.revokedAt));
        o.insert(QStringLiteral("revokeReason"), g.revokeReason);
    }
    return o;
}

bool OAuthService::recognizes(const QString &credential) const
{
    return credential.startsWith(kAccessPrefix + QLatin1Char('_')) ||
           credential.startsWith(kRefreshPrefix + QLatin1Char('_'));
}

Principal OAuthService::verify(const QString &credential, const QString &path)
{
    const qint64 now = m_store.clock().nowMs();
    const std::optional<TokenRow> row = m_repository->findToken(hashOf(credential));
    if (!row || row->kind != QLatin1String("access") || row->expiresAt < now)
        throw invalidToken(QStringLiteral("the access token is unknown, expired or revoked"));
    const std::optional<Grant> grant = m_repository->findGrant(row->grantId);
    if (!grant || !grant->isActive())
        throw invalidToken(QStringLiteral("the access token's grant was revoked"));
    if (!protectedPaths().contains(path) || grant->resource != resourceOf(path))
        throw invalidToken(QStringLiteral("this access token was issued for %1, not for this "
                                          "endpoint")
                               .arg(grant->resource));
    const std::optional<ApiKey> key = m_store.apiKeys().find(grant->keyId);
    if (!key || !key->isActive())
        throw invalidToken(QStringLiteral("the API key this token acts as was revoked"));
    if (!grant->lastUsedAt || now - *grant->lastUsedAt > 60'000) {
        m_repository->touchGrant(grant->id, now);
        m_store.apiKeys().touch(key->id);
        Q_EMIT grantChanged(grant->id);
    }
    Principal p;
    p.kind = Principal::Kind::ApiKey;
    p.keyId = key->id;
    p.label = key->label;
    p.owner = key->isOwner();
    return p;
}

QByteArray OAuthService::challenge(const QString &path) const
{
    if (!protectedPaths().contains(path))
        return {};
    return QStringLiteral("Bearer resource_metadata=\"%1/.well-known/oauth-protected-resource%2\", "
                          "scope=\"%3\"")
        .arg(issuer(), path, kScope)
        .toUtf8();
}

} // namespace ph::oauth
