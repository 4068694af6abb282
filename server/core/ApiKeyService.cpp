#include "ApiKeyService.h"

#include "core/DomainError.h"
#include "core/Store.h"

#include <cmath>

namespace ph {

namespace {
const QStringList kRoles{QStringLiteral("user"), QStringLiteral("owner")};
} // namespace

ApiKeyService::ApiKeyService(Store &store)
    : m_store(store)
{
    connect(&m_store.apiKeys(), &ApiKeyRepository::keyChanged, this, &ApiKeyService::keyChanged);
    connect(&m_store.credits(), &CreditLedger::balanceChanged, this,
            &ApiKeyService::creditsChanged);
}

std::optional<ApiKeyService::KeyUsage> ApiKeyService::lookup(const QString &id) const
{
    const auto key = m_store.apiKeys().find(id);
    if (!key)
        return std::nullopt;
    return KeyUsage{*key, m_store.credits().totals(id)};
}

QString ApiKeyService::activeOwnerId() const
{
    return m_store.apiKeys().activeOwnerId();
}

QList<ApiKeyService::KeyUsage> ApiKeyService::list() const
{
    QList<KeyUsage> out;
    for (const ApiKey &k : m_store.apiKeys().list())
        out.append({k, m_store.credits().totals(k.id)});
    return out;
}

ApiKey ApiKeyService::existing(const QString &id) const
{
    const auto key = m_store.apiKeys().find(id);
    if (!key)
        throw DomainError::notFound(QStringLiteral("no API key %1").arg(id));
    return *key;
}

ApiKeyService::KeyUsage ApiKeyService::find(const QString &id) const
{
    return {existing(id), m_store.credits().totals(id)};
}

std::optional<qint64> ApiKeyService::milli(const Balance &balance)
{
    if (!balance.credits)
        return std::nullopt;
    const double credits = *balance.credits;
    if (!std::isfinite(credits) || credits < 0 || credits > kMaxCredits)
        throw DomainError::invalidField(
            QStringLiteral("balance"),
            QStringLiteral("must be between %1 and %2").arg(0.0).arg(kMaxCredits));
    return qint64(std::llround(credits * 1000));
}

ApiKeyRepository::Minted ApiKeyService::mint(const NewKey &request)
{
    if (request.label.trimmed().isEmpty())
        throw DomainError::invalidField(QStringLiteral("label"),
                                        QStringLiteral("must not be empty"));
    if (!kRoles.contains(request.role))
        throw DomainError::invalidField(
            QStringLiteral("role"),
            QStringLiteral("must be one of %1").arg(kRoles.join(QStringLiteral(", "))));
    // User keys carry a balance (1000 credits unless given); owners are unlimited unless
    // a balance is given.
    std::optional<qint64> balance;
    if (request.balance)
        balance = milli(*request.balance);
    else if (request.role == QLatin1String("user"))
        balance = kDefaultUserBalanceMilli;
    return m_store.apiKeys().mint(request.label, request.role, balance);
}

ApiKey ApiKeyService::setBalance(const QString &id, Balance balance, const QString &actor)
{
    existing(id);
    m_store.credits().setBalance(id, milli(balance), QStringLiteral("set by %1").arg(actor));
    return existing(id);
}

ApiKey ApiKeyService::revoke(const QString &id, const QString &actorKeyId)
{
    existing(id);
    if (id == actorKeyId)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("CANNOT_REVOKE_SELF"),
                          QStringLiteral("a key cannot revoke itself"));
    m_store.apiKeys().revoke(id);
    return existing(id);
}

} // namespace ph
