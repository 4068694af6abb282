#include "ApiKeyService.h"

#include "core/CreditLedger.h"
#include "core/DomainError.h"
#include "core/Store.h"

namespace ph::sys {

namespace {
constexpr qint64 kDefaultUserBalanceMilli = 1000 * 1000;

void checkBalance(const std::optional<qint64> &balanceMilli)
{
    // The range and the words of the API's balance field (credits, 0 to 1e12).
    constexpr double kMaxCredits = 1e12;
    if (balanceMilli && (*balanceMilli < 0 || double(*balanceMilli) / 1000 > kMaxCredits))
        throw DomainError::invalidField(
            QStringLiteral("balance"), QStringLiteral("must be between 0 and %1").arg(kMaxCredits));
}
} // namespace

ApiKeyService::ApiKeyService(Store &store)
    : m_store(store)
{}

ApiKeyRepository::Minted ApiKeyService::mint(const NewKey &key)
{
    const QString label = key.label.trimmed();
    if (label.isEmpty())
        throw DomainError::missingField(QStringLiteral("label"));
    if (key.role != QLatin1String("user") && key.role != QLatin1String("owner"))
        throw DomainError::invalidField(QStringLiteral("role"),
                                        QStringLiteral("must be one of user, owner"));
    std::optional<qint64> balance;
    if (key.balanceMilli) {
        balance = *key.balanceMilli;
        checkBalance(balance);
    } else if (key.role == QLatin1String("user")) {
        balance = kDefaultUserBalanceMilli;
    }
    return m_store.apiKeys().mint(label, key.role, balance);
}

ApiKey ApiKeyService::setBalance(const QString &id, std::optional<qint64> balanceMilli,
                                 const QString &actor)
{
    if (!m_store.apiKeys().find(id))
        throw DomainError::notFound(QStringLiteral("no API key %1").arg(id));
    checkBalance(balanceMilli);
    m_store.credits().setBalance(id, balanceMilli, QStringLiteral("set by %1").arg(actor));
    return *m_store.apiKeys().find(id);
}

ApiKey ApiKeyService::revoke(const QString &id, const QString &actorKeyId)
{
    if (!m_store.apiKeys().find(id))
        throw DomainError::notFound(QStringLiteral("no API key %1").arg(id));
    if (id == actorKeyId)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("CANNOT_REVOKE_SELF"),
                          QStringLiteral("a key cannot revoke itself"));
    m_store.apiKeys().revoke(id);
    return *m_store.apiKeys().find(id);
}

QList<ApiKey> ApiKeyService::list() const
{
    return m_store.apiKeys().list();
}

} // namespace ph::sys
