// ClaimLimiter on its own (docs/api/devices.md, "Guessing codes"): pairing-code claims a
// minute per client address and for everyone, with the Retry-After a refusal carries, and
// the count of wrong codes that withdraws the pending ones. A manual clock, no waiting.
#include "core/Clock.h"
#include "core/DomainError.h"
#include "devices/ClaimLimiter.h"
#include "devices/DeviceService.h"

#include <QtTest>

using namespace ph;
using namespace ph::devices;

namespace {
constexpr qint64 kStart = 1'800'000'000'000;
constexpr qint64 kLifetime = DeviceService::kPairingMs;

// Admits `n` claims from `client`, `gapMs` apart; the first refusal, if any.
std::optional<DomainError> claims(ClaimLimiter &limiter, ManualClock &clock, const QString &client,
                                  int n, qint64 gapMs = 0)
{
    for (int i = 0; i < n; ++i) {
        try {
            limiter.admit(client);
        } catch (const DomainError &e) {
            return e;
        }
        clock.advance(gapMs);
    }
    return std::nullopt;
}
} // namespace

class tst_ClaimLimiter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void limitsClaimsAMinute_data();
    void limitsClaimsAMinute();
    void withdrawsCodesAfterTooManyWrongOnes_data();
    void withdrawsCodesAfterTooManyWrongOnes();
};

void tst_ClaimLimiter::limitsClaimsAMinute_data()
{
    QTest::addColumn<int>("clients"); // addresses taking turns
    QTest::addColumn<int>("claims");  // in all, one every `gapMs`
    QTest::addColumn<qint64>("gapMs");
    QTest::addColumn<QString>("scope"); // of the refusal; empty: all admitted
    QTest::addColumn<int>("retryAfter");

    const int perClient = ClaimLimiter::kPerClientPerMinute;
    QTest::newRow("one address may claim its limit in a minute")
        << 1 << perClient << qint64(0) << QString() << 0;
    QTest::newRow("one address past its limit is refused for the rest of the minute")
        << 1 << perClient + 1 << qint64(1000) << QStringLiteral("client") << 60 - perClient;
    QTest::newRow("one address claiming every seven seconds is never refused")
        << 1 << 3 * perClient << qint64(7000) << QString() << 0;
    QTest::newRow("many addresses together stop at the service's limit")
        << ClaimLimiter::kPerMinute << ClaimLimiter::kPerMinute + 1 << qint64(0)
        << QStringLiteral("service") << 60;
}

void tst_ClaimLimiter::limitsClaimsAMinute()
{
    QFETCH(int, clients);
    QFETCH(int, claims);
    QFETCH(qint64, gapMs);
    QFETCH(QString, scope);
    QFETCH(int, retryAfter);
    ManualClock clock(kStart);
    ClaimLimiter limiter(clock, kLifetime);
    std::optional<DomainError> refused;
    for (int i = 0; i < claims && !refused; ++i)
        refused = ::claims(limiter, clock, QStringLiteral("10.0.0.%1").arg(i % clients), 1, gapMs);
    QCOMPARE(refused ? refused->details().value(QStringLiteral("scope")).toString() : QString(),
             scope);
    if (!refused)
        return;
    QCOMPARE(refused->code(), QStringLiteral("RATE_LIMITED"));
    QCOMPARE(int(refused->kind()), int(DomainError::Kind::TooManyRequests));
    QCOMPARE(refused->retryAfterSeconds(), retryAfter);
    // A refused claim does not count: once the minute has passed, the address may claim.
    clock.advance(qint64(retryAfter) * 1000);
    QVERIFY(!::claims(limiter, clock, QStringLiteral("10.0.0.0"), 1));
}

void tst_ClaimLimiter::withdrawsCodesAfterTooManyWrongOnes_data()
{
    QTest::addColumn<int>("wrong");
    QTest::addColumn<qint64>("gapMs");
    QTest::addColumn<int>("withdrawnAt"); // 1-based wrong code that withdraws; 0: none
    const int n = ClaimLimiter::kWrongCodes;
    QTest::newRow("a few typos withdraw nothing") << n - 1 << qint64(1000) << 0;
    QTest::newRow("the tenth wrong code within a code's lifetime withdraws the codes")
        << n << qint64(1000) << n;
    QTest::newRow("wrong codes spread wider than a code's lifetime withdraw nothing")
        << 3 * n << kLifetime / (n - 1) + 1 << 0;
    QTest::newRow("the count restarts after a withdrawal") << 2 * n << qint64(0) << n;
}

void tst_ClaimLimiter::withdrawsCodesAfterTooManyWrongOnes()
{
    QFETCH(int, wrong);
    QFETCH(qint64, gapMs);
    QFETCH(int, withdrawnAt);
    ManualClock clock(kStart);
    ClaimLimiter limiter(clock, kLifetime);
    QList<int> withdrawals;
    for (int i = 1; i <= wrong; ++i) {
        if (limiter.wrongCode())
            withdrawals << i;
        clock.advance(gapMs);
    }
    QCOMPARE(withdrawals.value(0), withdrawnAt);
    // After a withdrawal, the next withdrawal needs kWrongCodes more.
    if (withdrawnAt && wrong >= 2 * ClaimLimiter::kWrongCodes)
        QCOMPARE(withdrawals.value(1), 2 * ClaimLimiter::kWrongCodes);
}

QTEST_GUILESS_MAIN(tst_ClaimLimiter)
#include "tst_claimlimiter.moc"
