#include "CreditLedger.h"

#include "ApiKeyRepository.h"
#include "Clock.h"
#include "Store.h"

#include <QJsonValue>

#include <cmath>

namespace ph {

qint64 Prices::costMilli(const Usage &usage)
{
    // Browser time and tokens are priced pro rata and rounded up to a milli-credit.
    const qint64 browser = (usage.browserMs * kMilliPerBrowserSecond + 999) / 1000;
    const qint64 tokens = (usage.tokens * kMilliPerThousandTokens + 999) / 1000;
    return usage.pages * kMilliPerPage + browser + tokens +
           usage.testDeliveries * kMilliPerTestDelivery;
}

double creditsFromMilli(qint64 milli)
{
    return static_cast<double>(milli) / 1000.0;
}

QJsonObject Charge::toJson(const Usage &usage) const
{
    QJsonObject o{{QStringLiteral("creditsUsed"), creditsFromMilli(usedMilli)},
                  {QStringLiteral("creditsLeft"),
                   leftMilli ? QJsonValue(creditsFromMilli(*leftMilli)) : QJsonValue()},
                  {QStringLiteral("pages"), usage.pages},
                  {QStringLiteral("browserMs"), usage.browserMs}};
    if (usage.tokens > 0)
        o.insert(QStringLiteral("tokens"), usage.tokens);
    if (usage.testDeliveries > 0)
        o.insert(QStringLiteral("testDeliveries"), usage.testDeliveries);
    return o;
}

CreditLedger::CreditLedger(Store &store)
    : m_store(store)
{}

std::optional<qint64> CreditLedger::balanceMilli(const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT balance_milli FROM api_keys WHERE id = :id"));
    q.bind(QStringLiteral(":id"), keyId).exec();
    if (!q.next() || q.value(0).isNull())
        return std::nullopt;
    return q.value(0).toLongLong();
}

bool CreditLedger::canSpend(const QString &keyId) const
{
    const auto balance = balanceMilli(keyId);
    return !balance || *balance > 0;
}

Charge CreditLedger::charge(const QString &keyId, const QString &requestId, const QString &endpoint,
                            const Usage &usage)
{
    Charge result;
    result.usedMilli = Prices::costMilli(usage);
    m_store.transaction([&] {
        // A balance may go below zero by the cost of the request that crossed it;
        // the next request is then refused with 402.
        Sql(m_store, QStringLiteral("UPDATE api_keys SET balance_milli = balance_milli - :c"
                                    " WHERE id = :id AND balance_milli IS NOT NULL"))
            .bind(QStringLiteral(":c"), result.usedMilli)
            .bind(QStringLiteral(":id"), keyId)
            .exec();
        result.leftMilli = balanceMilli(keyId);
        Sql(m_store,
            QStringLiteral("INSERT INTO credit_ledger (key_id, at, request_id, endpoint,"
                           " pages, browser_ms, tokens, credits_milli, balance_after_milli)"
                           " VALUES (:k, :at, :r, :e, :p, :b, :t, :c, :after)"))
            .bind(QStringLiteral(":k"), keyId)
            .bind(QStringLiteral(":at"), m_store.clock().nowMs())
            .bind(QStringLiteral(":r"), requestId)
            .bind(QStringLiteral(":e"), endpoint)
            .bind(QStringLiteral(":p"), usage.pages)
            .bind(QStringLiteral(":b"), usage.browserMs)
            .bind(QStringLiteral(":t"), usage.tokens)
            .bind(QStringLiteral(":c"), result.usedMilli)
            .bind(QStringLiteral(":after"), result.leftMilli
                                                ? QVariant(*result.leftMilli)
                                                : QVariant(QMetaType::fromType<qint64>()))
            .exec();
    });
    m_store.notifyChanged(QStringLiteral("credit_ledger"), keyId);
    Q_EMIT balanceChanged(keyId);
    return result;
}

void CreditLedger::setBalance(const QString &keyId, std::optional<qint64> balanceMilli,
                              const QString &reason)
{
    m_store.transaction([&] {
        const auto before = this->balanceMilli(keyId);
        m_store.apiKeys().setBalance(keyId, balanceMilli);
        const qint64 delta = (balanceMilli.value_or(0)) - before.value_or(0);
        Sql(m_store, QStringLiteral("INSERT INTO credit_ledger (key_id, at, request_id, endpoint,"
                                    " credits_milli, balance_after_milli) VALUES (:k, :at, :r,"
                                    " 'balance', :c, :after)"))
            .bind(QStringLiteral(":k"), keyId)
            .bind(QStringLiteral(":at"), m_store.clock().nowMs())
            .bind(QStringLiteral(":r"), reason)
            .bind(QStringLiteral(":c"), -delta)
            .bind(QStringLiteral(":after"),
                  balanceMilli ? QVariant(*balanceMilli) : QVariant(QMetaType::fromType<qint64>()))
            .exec();
    });
}

CreditLedger::Totals CreditLedger::totals(const QString &keyId) const
{
    Sql q(m_store,
          QStringLiteral("SELECT COALESCE(SUM(credits_milli),0), COALESCE(SUM(pages),0),"
                         " COALESCE(SUM(browser_ms),0), COALESCE(SUM(tokens),0), COUNT(*)"
                         " FROM credit_ledger WHERE key_id = :k AND endpoint <> 'balance'"));
    q.bind(QStringLiteral(":k"), keyId).exec();
    Totals t;
    if (q.next()) {
        t.usedMilli = q.value(0).toLongLong();
        t.pages = q.value(1).toInt();
        t.browserMs = q.value(2).toLongLong();
        t.tokens = q.value(3).toLongLong();
        t.requests = q.value(4).toInt();
    }
    return t;
}

} // namespace ph
