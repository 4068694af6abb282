#include "Authenticator.h"

#include "ApiError.h"

#include "core/ApiKeyRepository.h"
#include "core/Store.h"

namespace ph::http {

ApiKeyAuthenticator::ApiKeyAuthenticator(Store &store)
    : m_store(store)
{}

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

Principal ApiKeyAuthenticator::authenticate(const Request &request, AuthPolicy policy)
{
    Principal principal;
    const QString key = presentedKey(request);
    if (policy == AuthPolicy::Public && key.isEmpty())
        return principal;
    if (key.isEmpty()) {
        throw ApiError::unauthorized(
            QStringLiteral("MISSING_API_KEY"),
            QStringLiteral("an API key is required: send Authorization: Bearer <key> or "
                           "x-api-key: <key>"));
    }
    const auto found = m_store.apiKeys().findBySecret(key);
    if (!found || !found->isActive()) {
        throw ApiError::unauthorized(QStringLiteral("INVALID_API_KEY"),
                                     QStringLiteral("the API key is not valid"));
    }
    if (policy == AuthPolicy::Owner && !found->isOwner())
        throw ApiError::forbidden(QStringLiteral("this call needs the owner's key"));
    m_store.apiKeys().touch(found->id);
    principal.kind = Principal::Kind::ApiKey;
    principal.keyId = found->id;
    principal.label = found->label;
    principal.owner = found->isOwner();
    return principal;
}

} // namespace ph::http
