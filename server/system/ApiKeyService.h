#pragma once

#include "core/ApiKeyRepository.h"

#include <QList>
#include <QString>

#include <optional>

namespace ph {
class Store;
}

namespace ph::sys {

// API keys as the owner manages them, for both front ends: the /keys routes
// (SystemController) and the console's Keys panel. Typed arguments in, typed keys out;
// failures are DomainErrors naming the field.
class ApiKeyService
{
public:
    struct NewKey
    {
        QString label;
        QString role = QStringLiteral("user"); // "user" or "owner"
        // Credits in thousandths. Unset: 1000 credits for a user key, unlimited for an
        // owner key. Set to nullopt: unlimited.
        std::optional<std::optional<qint64>> balanceMilli;
    };

    explicit ApiKeyService(Store &store);

    // The result's secret is shown once. 400 MISSING_FIELD `label`, 400 INVALID_FIELD
    // `role` or `balance`.
    ApiKeyRepository::Minted mint(const NewKey &key);
    // nullopt: unlimited. `actor` goes into the ledger's reason ("set by <actor>").
    // 404 for an unknown key; 400 INVALID_FIELD `balance` below zero.
    ApiKey setBalance(const QString &id, std::optional<qint64> balanceMilli, const QString &actor);
    // `actorKeyId` is the caller's key (a key cannot revoke itself, 409); empty for the
    // console. 404 for an unknown key.
    ApiKey revoke(const QString &id, const QString &actorKeyId);
    QList<ApiKey> list() const;

private:
    Store &m_store;
};

} // namespace ph::sys
