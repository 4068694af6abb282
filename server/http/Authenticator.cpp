#include "Authenticator.h"

#include "core/DomainError.h"

#include "core/ApiKeyRepository.h"
#include "core/Store.h"

namespace ph::http {

namespace {
bool acceptsVerifiedCredentials(AuthPolicy policy)
{
    return policy == AuthPolicy::Workspace || policy == AuthPolicy::SiteAgent;
}
} // namespace

ApiKeyAuthenticator::ApiKeyAuthenticator(Store &store)
    : m_store(store)
{}

void ApiKeyAuthenticator::addVerifier(CredentialVerifier *verifier)
{
    m_verifiers.append(verifier);
}

void ApiKeyAuthenticator::removeVerifier(CredentialVerifier *verifier)
{
    m_verifiers.removeAll(verifier);
}

QString ApiKeyAuthenticator::presentedKey(const Request &request)
{
    const QByteArray authorization = request.header("authorization").trimmed();
    if (!authorization.isEmpty()) {
        if (authorization.toLower() == "bearer")
            return {}; // "Bearer " with nothing after it (trimmed by the client)
        if (authorization.size() > 7 && authorization.left(7).toLower() == "bearer ")
            return QString::fromUtf8(authorization.mid(7).trimmed());
        return QString::fromUtf8(authorization);
    }
    return QString::fromUtf8(request.header("x-api-key").trimmed());
}

CredentialVerifier *ApiKeyAuthenticator::verifierFor(const QString &credential,
                                                     AuthPolicy policy) const
{
    if (!acceptsVerifiedCredentials(policy))
        return nullptr;
    for (CredentialVerifier *v : m_verifiers) {
        if (v->recognizes(credential))
            return v;
    }
    return nullptr;
}

bool ApiKeyAuthenticator::prepare(const Request &request, AuthPolicy policy,
                                  const std::function<void()> &ready)
{
    const QString credential = presentedKey(request);
    if (credential.isEmpty())
        return true;
    CredentialVerifier *v = verifierFor(credential, policy);
    return v ? v->prepare(credential, ready) : true;
}

Principal ApiKeyAuthenticator::apiKeyPrincipal(const QString &key)
{
    const auto found = m_store.apiKeys().findBySecret(key);
    if (!found || !found->isActive()) {
        throw DomainError::unauthorized(QStringLiteral("INVALID_API_KEY"),
                                        QStringLiteral("the API key is not valid"));
    }
    m_store.apiKeys().touch(found->id);
    Principal principal;
    principal.kind = Principal::Kind::ApiKey;
    principal.keyId = found->id;
    principal.label = found->label;
    principal.owner = found->isOwner();
    return principal;
}

Principal ApiKeyAuthenticator::authenticate(const Request &request, AuthPolicy policy)
{
    const QString key = presentedKey(request);
    if ((policy == AuthPolicy::Public && key.isEmpty()) || policy == AuthPolicy::Anonymous ||
        policy == AuthPolicy::AccessToken)
        return {};
    if (key.isEmpty()) {
        if (acceptsVerifiedCredentials(policy)) {
            throw DomainError::unauthorized(
                QStringLiteral("MISSING_CREDENTIAL"),
                QStringLiteral("a credential is required: send Authorization: Bearer <key>"
                               " with the owner's API key, an ID token%1")
                    .arg(policy == AuthPolicy::SiteAgent ? QStringLiteral(" or a Connect AI key")
                                                         : QString()));
        }
        throw DomainError::unauthorized(
            QStringLiteral("MISSING_API_KEY"),
            QStringLiteral("an API key is required: send Authorization: Bearer <key> or "
                           "x-api-key: <key>"));
    }
    CredentialVerifier *verifier = verifierFor(key, policy);
    const bool resourceToken = m_resourceTokens && m_resourceTokens->recognizes(key);
    const Principal principal = resourceToken ? m_resourceTokens->verify(key, request.path)
                                : verifier    ? verifier->verify(key)
                                              : apiKeyPrincipal(key);
    switch (policy) {
    case AuthPolicy::Public:
    case AuthPolicy::Anonymous:
    case AuthPolicy::AccessToken:
    case AuthPolicy::ApiKey:
        break;
    case AuthPolicy::Owner:
        if (!principal.owner)
            throw DomainError::forbidden(QStringLiteral("this call needs the owner's key"));
        break;
    case AuthPolicy::Workspace:
        if (!principal.owner)
            throw DomainError::forbidden(QStringLiteral(
                "this call is the site owner's: use the owner's API key or ID token"));
        break;
    case AuthPolicy::SiteAgent:
        if (!principal.owner && !principal.isSiteScoped())
            throw DomainError::forbidden(
                QStringLiteral("this call needs the site owner's credentials or a Connect AI key"));
        break;
    }
    return principal;
}

} // namespace ph::http

namespace ph::http {

QByteArray ApiKeyAuthenticator::challenge(const Request &request) const
{
    return m_resourceTokens ? m_resourceTokens->challenge(request.path) : QByteArray();
}

bool ApiKeyAuthenticator::allows(const Principal &principal, const QString &capability)
{
    // The owner may do everything; only API keys carry capabilities.
    if (capability.isEmpty() || principal.owner || principal.kind != Principal::Kind::ApiKey ||
        !m_capabilities)
        return true;
    return m_capabilities(principal.keyId, capability).value_or(true);
}

} // namespace ph::http
