#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <optional>

namespace ph {

class Store;
struct ApiKey;

// What a request consumed. Prices turn it into credits (docs/api/credits.md).
struct Usage
{
    int pages = 0;
    qint64 browserMs = 0;
    qint64 tokens = 0;
    qint64 testDeliveries = 0; // POST /webhooks/test

    Usage &operator+=(const Usage &o)
    {
        pages += o.pages;
        browserMs += o.browserMs;
        tokens += o.tokens;
        testDeliveries += o.testDeliveries;
        return *this;
    }
};

// Credits are kept in thousandths ("milli-credits") so sums never drift.
struct Prices
{
    static constexpr qint64 kMilliPerPage = 1000;           // 1 credit per page loaded
    static constexpr qint64 kMilliPerBrowserSecond = 100;   // 0.1 credit per browser-second
    static constexpr qint64 kMilliPerThousandTokens = 1000; // 1 credit per 1,000 model tokens
    static constexpr qint64 kMilliPerTestDelivery = 1;      // 0.001 credit per test delivery

    static qint64 costMilli(const Usage &usage);
};

struct Charge
{
    qint64 usedMilli = 0;
    std::optional<qint64> leftMilli; // nullopt: the key is unlimited

    // `usage` object of billed responses: creditsUsed, creditsLeft (null when unlimited).
    QJsonObject toJson(const Usage &usage) const;
};

double creditsFromMilli(qint64 milli);

// The per-key ledger: every billed request appends a row and, for keys with a
// balance, lowers it in the same transaction.
class CreditLedger : public QObject
{
    Q_OBJECT
public:
    explicit CreditLedger(Store &store);

    // True when the key may start billed work: unlimited, or a balance above zero.
    bool canSpend(const QString &keyId) const;
    std::optional<qint64> balanceMilli(const QString &keyId) const;

    Charge charge(const QString &keyId, const QString &requestId, const QString &endpoint,
                  const Usage &usage);
    // Sets (or clears, for unlimited) a balance and records the adjustment.
    void setBalance(const QString &keyId, std::optional<qint64> balanceMilli,
                    const QString &reason);

    struct Totals
    {
        qint64 usedMilli = 0;
        int pages = 0;
        qint64 browserMs = 0;
        qint64 tokens = 0;
        int requests = 0;
    };
    Totals totals(const QString &keyId) const;

Q_SIGNALS:
    // A key's ledger moved (a charge, a refund, a balance set).
    void balanceChanged(const QString &keyId);

private:
    Store &m_store;
};

} // namespace ph
