#pragma once

#include "core/ApiKeyRepository.h"
#include "core/CreditLedger.h"

#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace ph {

class Store;

// The owner's work on API keys (docs/decisions.md, "Domain services"): mint, set a
// balance, revoke, list with usage. GET/POST /keys, PATCH/DELETE /keys/{id}, GET /usage
// (sys::SystemController) and the console's keys panel both call it. Failures are
// DomainErrors naming the field; nothing is stored then.
class ApiKeyService : public QObject
{
    Q_OBJECT
public:
    // A balance as the owner sets it: a number of credits, or unlimited.
    struct Balance
    {
        std::optional<double> credits; // empty: unlimited

        static Balance unlimited() { return {}; }
        static Balance of(double credits) { return {credits}; }
    };

    struct NewKey
    {
        QString label;
        QString role = QStringLiteral("user"); // user or owner
        // Unset: the role's default (1000 credits for a user, unlimited for an owner).
        std::optional<Balance> balance;
    };

    // A key with its use so far.
    struct KeyUsage
    {
        ApiKey key;
        CreditLedger::Totals usage;
    };

    static constexpr double kMaxCredits = 1e12;
    static constexpr qint64 kDefaultUserBalanceMilli = 1000 * 1000;

    explicit ApiKeyService(Store &store);

    QList<KeyUsage> list() const;
    // A key and its use; 404 NOT_FOUND when there is none.
    KeyUsage find(const QString &id) const;
    // A new key; its secret is in the result only (shown once). 400 naming label, role
    // or balance.
    ApiKeyRepository::Minted mint(const NewKey &request);
    // Sets the balance; `actor` goes into the ledger's reason ("set by <actor>"). 404 for
    // an unknown key, 400 naming balance.
    ApiKey setBalance(const QString &id, Balance balance, const QString &actor);
    // Revokes the key; `actorKeyId` is the caller's own key (a key cannot revoke itself,
    // 409 CANNOT_REVOKE_SELF; empty for the console). 404 for an unknown key.
    ApiKey revoke(const QString &id, const QString &actorKeyId = {});

    // A key and its use, or nothing (the console's lookups; find() answers 404).
    std::optional<KeyUsage> lookup(const QString &id) const;
    // The key the console acts as: the newest active owner key, else empty.
    QString activeOwnerId() const;

Q_SIGNALS:
    // A key was minted, revoked, used or its balance set, whoever did it (the API, the
    // console, a start).
    void keyChanged(const QString &keyId);
    // A key's credit ledger moved (a charged request or run, a refund).
    void creditsChanged(const QString &keyId);

private:
    static std::optional<qint64> milli(const Balance &balance);
    ApiKey existing(const QString &id) const;

    Store &m_store;
};

} // namespace ph
