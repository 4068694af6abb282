#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/Store.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

class tst_Credits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void pricesUsage_data();
    void pricesUsage();
    void lowersABalanceAndRecordsTheCharge();
    void refusesSpendingAtZero();
    void neverLimitsAnUnlimitedKey();
    void sumsTheLedgerPerKey();

private:
    QTemporaryDir m_dir;
    ManualClock m_clock{1'700'000'000'000};
    std::unique_ptr<Store> m_store;
};

void tst_Credits::init()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("c.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
}

void tst_Credits::cleanup()
{
    m_store.reset();
    QFile::remove(m_dir.filePath(QStringLiteral("c.db")));
}

void tst_Credits::pricesUsage_data()
{
    QTest::addColumn<int>("pages");
    QTest::addColumn<qint64>("browserMs");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<qint64>("milli");
    QTest::newRow("one page costs one credit") << 1 << qint64(0) << qint64(0) << qint64(1000);
    QTest::newRow("ten browser-seconds cost one credit")
        << 0 << qint64(10000) << qint64(0) << qint64(1000);
    QTest::newRow("browser time rounds up to a milli-credit")
        << 0 << qint64(1) << qint64(0) << qint64(1);
    QTest::newRow("a thousand tokens cost one credit")
        << 0 << qint64(0) << qint64(1000) << qint64(1000);
    QTest::newRow("mixed usage adds up")
        << 3 << qint64(2500) << qint64(1500) << qint64(3000 + 250 + 1500);
}

void tst_Credits::pricesUsage()
{
    QFETCH(int, pages);
    QFETCH(qint64, browserMs);
    QFETCH(qint64, tokens);
    QFETCH(qint64, milli);
    Usage u;
    u.pages = pages;
    u.browserMs = browserMs;
    u.tokens = tokens;
    QCOMPARE(Prices::costMilli(u), milli);
}

void tst_Credits::lowersABalanceAndRecordsTheCharge()
{
    const auto key = m_store->apiKeys().mint(QStringLiteral("u"), QStringLiteral("user"), 5000).key;
    Usage u;
    u.pages = 2;
    const Charge c =
        m_store->credits().charge(key.id, QStringLiteral("req_1"), QStringLiteral("/scrape"), u);
    QCOMPARE(c.usedMilli, qint64(2000));
    QCOMPARE(c.leftMilli.value(), qint64(3000));
    QCOMPARE(m_store->credits().balanceMilli(key.id).value(), qint64(3000));
    const QJsonObject json = c.toJson(u);
    QCOMPARE(json.value(QStringLiteral("creditsUsed")).toDouble(), 2.0);
    QCOMPARE(json.value(QStringLiteral("creditsLeft")).toDouble(), 3.0);
}

void tst_Credits::refusesSpendingAtZero()
{
    const auto key = m_store->apiKeys().mint(QStringLiteral("u"), QStringLiteral("user"), 1000).key;
    QVERIFY(m_store->credits().canSpend(key.id));
    Usage u;
    u.pages = 1;
    m_store->credits().charge(key.id, QStringLiteral("req_1"), QStringLiteral("/scrape"), u);
    QCOMPARE(m_store->credits().balanceMilli(key.id).value(), qint64(0));
    QVERIFY(!m_store->credits().canSpend(key.id));
}

void tst_Credits::neverLimitsAnUnlimitedKey()
{
    const auto key =
        m_store->apiKeys().mint(QStringLiteral("o"), QStringLiteral("owner"), std::nullopt).key;
    Usage u;
    u.pages = 1000;
    const Charge c =
        m_store->credits().charge(key.id, QStringLiteral("req"), QStringLiteral("/scrape"), u);
    QVERIFY(!c.leftMilli.has_value());
    QVERIFY(c.toJson(u).value(QStringLiteral("creditsLeft")).isNull());
    QVERIFY(m_store->credits().canSpend(key.id));
}

void tst_Credits::sumsTheLedgerPerKey()
{
    const auto a = m_store->apiKeys().mint(QStringLiteral("a"), QStringLiteral("user"), 100000).key;
    const auto b = m_store->apiKeys().mint(QStringLiteral("b"), QStringLiteral("user"), 100000).key;
    Usage u;
    u.pages = 1;
    u.browserMs = 500;
    m_store->credits().charge(a.id, QStringLiteral("r1"), QStringLiteral("/scrape"), u);
    m_store->credits().charge(a.id, QStringLiteral("r2"), QStringLiteral("/scrape"), u);
    m_store->credits().charge(b.id, QStringLiteral("r3"), QStringLiteral("/scrape"), u);
    m_store->credits().setBalance(a.id, 9000, QStringLiteral("top-up"));
    const auto t = m_store->credits().totals(a.id);
    QCOMPARE(t.requests, 2);
    QCOMPARE(t.pages, 2);
    QCOMPARE(t.browserMs, qint64(1000));
    QCOMPARE(t.usedMilli, qint64(2 * 1050));
    QCOMPARE(m_store->credits().balanceMilli(a.id).value(), qint64(9000));
}

QTEST_GUILESS_MAIN(tst_Credits)
#include "tst_credits.moc"
