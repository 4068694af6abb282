// ApiKeyService: the key operations the /keys routes and the console's Keys panel share.
#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Store.h"
#include "system/ApiKeyService.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace ph;
using sys::ApiKeyService;

Q_DECLARE_METATYPE(ApiKeyService::NewKey)

class tst_ApiKeyService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void mintsWithTheBalanceItWasGiven_data();
    void mintsWithTheBalanceItWasGiven();
    void refusesAKeyItCannotMint_data();
    void refusesAKeyItCannotMint();
    void setsABalanceOrMakesAKeyUnlimited();
    void refusesToChangeAKeyThatDoesNotExist();
    void revokesAKeyButNeverTheCallersOwn();

private:
    QTemporaryDir m_dir;
    SystemClock m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<ApiKeyService> m_keys;
};

void tst_ApiKeyService::init()
{
    m_store = std::make_unique<Store>(
        m_dir.filePath(QStringLiteral("%1.db").arg(QTest::currentTestFunction())), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_keys = std::make_unique<ApiKeyService>(*m_store);
}

void tst_ApiKeyService::cleanup()
{
    m_keys.reset();
    m_store.reset();
}

void tst_ApiKeyService::mintsWithTheBalanceItWasGiven_data()
{
    QTest::addColumn<ApiKeyService::NewKey>("request");
    QTest::addColumn<bool>("unlimited");
    QTest::addColumn<qint64>("balanceMilli");
    QTest::addColumn<QString>("role");
    ApiKeyService::NewKey user{QStringLiteral("ci"), QStringLiteral("user"), {}};
    QTest::newRow("gives a user key 1000 credits by default")
        << user << false << qint64(1000 * 1000) << QStringLiteral("user");
    ApiKeyService::NewKey owner{QStringLiteral("ops"), QStringLiteral("owner"), {}};
    QTest::newRow("leaves an owner key unlimited by default")
        << owner << true << qint64(0) << QStringLiteral("owner");
    ApiKeyService::NewKey fifty{QStringLiteral("ci"), QStringLiteral("user"),
                                std::optional<qint64>(50 * 1000)};
    QTest::newRow("keeps the balance it was given")
        << fifty << false << qint64(50 * 1000) << QStringLiteral("user");
    ApiKeyService::NewKey open{QStringLiteral("ci"), QStringLiteral("user"),
                               std::optional<qint64>()};
    QTest::newRow("makes a user key unlimited when asked")
        << open << true << qint64(0) << QStringLiteral("user");
}

void tst_ApiKeyService::mintsWithTheBalanceItWasGiven()
{
    QFETCH(ApiKeyService::NewKey, request);
    QFETCH(bool, unlimited);
    QFETCH(qint64, balanceMilli);
    QFETCH(QString, role);
    const auto minted = m_keys->mint(request);
    QVERIFY(!minted.secret.isEmpty());
    const auto stored = m_store->apiKeys().find(minted.key.id);
    QVERIFY(stored);
    QCOMPARE(stored->role, role);
    QCOMPARE(!stored->balanceMilli.has_value(), unlimited);
    if (!unlimited)
        QCOMPARE(*stored->balanceMilli, balanceMilli);
    QVERIFY(m_keys->list().size() >= 1);
}

void tst_ApiKeyService::refusesAKeyItCannotMint_data()
{
    QTest::addColumn<ApiKeyService::NewKey>("request");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses a key without a label")
        << ApiKeyService::NewKey{QStringLiteral("  "), QStringLiteral("user"), {}}
        << QStringLiteral("label");
    QTest::newRow("refuses a role it does not know")
        << ApiKeyService::NewKey{QStringLiteral("ci"), QStringLiteral("admin"), {}}
        << QStringLiteral("role");
    QTest::newRow("refuses a negative balance")
        << ApiKeyService::NewKey{QStringLiteral("ci"), QStringLiteral("user"),
                                 std::optional<qint64>(-1)}
        << QStringLiteral("balance");
}

void tst_ApiKeyService::refusesAKeyItCannotMint()
{
    QFETCH(ApiKeyService::NewKey, request);
    QFETCH(QString, field);
    const int before = m_keys->list().size();
    try {
        m_keys->mint(request);
        QFAIL("minted a key it should have refused");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
        QCOMPARE(e.field(), field);
    }
    QCOMPARE(m_keys->list().size(), before);
}

void tst_ApiKeyService::setsABalanceOrMakesAKeyUnlimited()
{
    const auto minted = m_keys->mint({QStringLiteral("ci"), QStringLiteral("user"), {}});
    ApiKey key = m_keys->setBalance(minted.key.id, 7 * 1000, QStringLiteral("console"));
    QCOMPARE(key.balanceMilli, std::optional<qint64>(7 * 1000));
    key = m_keys->setBalance(minted.key.id, std::nullopt, QStringLiteral("console"));
    QVERIFY(!key.balanceMilli);
    try {
        m_keys->setBalance(minted.key.id, -5, QStringLiteral("console"));
        QFAIL("accepted a negative balance");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), QStringLiteral("balance"));
    }
    QVERIFY(!m_store->apiKeys().find(minted.key.id)->balanceMilli); // unchanged
}

void tst_ApiKeyService::refusesToChangeAKeyThatDoesNotExist()
{
    for (int op = 0; op < 2; ++op) {
        try {
            if (op == 0)
                m_keys->setBalance(QStringLiteral("key_missing"), 1000, QStringLiteral("console"));
            else
                m_keys->revoke(QStringLiteral("key_missing"), {});
            QFAIL("changed a key that does not exist");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Kind::NotFound);
        }
    }
}

void tst_ApiKeyService::revokesAKeyButNeverTheCallersOwn()
{
    const auto mine = m_keys->mint({QStringLiteral("me"), QStringLiteral("owner"), {}});
    const auto other = m_keys->mint({QStringLiteral("ci"), QStringLiteral("user"), {}});
    try {
        m_keys->revoke(mine.key.id, mine.key.id);
        QFAIL("a key revoked itself");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Conflict);
        QCOMPARE(e.code(), QStringLiteral("CANNOT_REVOKE_SELF"));
    }
    QVERIFY(m_store->apiKeys().find(mine.key.id)->isActive());
    const ApiKey revoked = m_keys->revoke(other.key.id, mine.key.id);
    QVERIFY(!revoked.isActive());
    QVERIFY(!m_store->apiKeys().find(other.key.id)->isActive());
}

QTEST_GUILESS_MAIN(tst_ApiKeyService)
#include "tst_apikeyservice.moc"
