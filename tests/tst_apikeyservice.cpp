// ApiKeyService on a real SQLite file: minting with each role's default balance, typed
// refusals naming the field (nothing minted or changed then), balances, revocation, and
// unknown keys.
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Store.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

namespace {
using Balance = ApiKeyService::Balance;
using OptionalBalance = std::optional<Balance>;
using Milli = std::optional<qint64>;
} // namespace

Q_DECLARE_METATYPE(OptionalBalance)
Q_DECLARE_METATYPE(Milli)

class tst_ApiKeyService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void mintsWithTheRolesBalance_data();
    void mintsWithTheRolesBalance();
    void refusesAMintNamingTheField_data();
    void refusesAMintNamingTheField();
    void setsABalance_data();
    void setsABalance();
    void refusesABadBalanceAndKeepsTheOldOne();
    void refusesUnknownKeys_data();
    void refusesUnknownKeys();
    void revokesAKeyButNotItself();
    void listsKeysWithTheirUsage();

private:
    QTemporaryDir m_dir;
    ManualClock m_clock{1'700'000'000'000};
    std::unique_ptr<Store> m_store;
    std::unique_ptr<ApiKeyService> m_keys;
};

void tst_ApiKeyService::init()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("keys.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_keys = std::make_unique<ApiKeyService>(*m_store);
}

void tst_ApiKeyService::cleanup()
{
    m_keys.reset();
    m_store.reset();
    QFile::remove(m_dir.filePath(QStringLiteral("keys.db")));
}

void tst_ApiKeyService::mintsWithTheRolesBalance_data()
{
    QTest::addColumn<QString>("role");
    QTest::addColumn<OptionalBalance>("balance");
    QTest::addColumn<Milli>("milli");
    QTest::newRow("gives a user key a thousand credits by default")
        << "user" << OptionalBalance() << Milli(1'000'000);
    QTest::newRow("leaves an owner key unlimited by default")
        << "owner" << OptionalBalance() << Milli();
    QTest::newRow("gives a user key the balance asked for")
        << "user" << OptionalBalance(Balance::of(50)) << Milli(50'000);
    QTest::newRow("gives an owner key a limit when asked")
        << "owner" << OptionalBalance(Balance::of(2)) << Milli(2'000);
    QTest::newRow("makes a user key unlimited when asked")
        << "user" << OptionalBalance(Balance::unlimited()) << Milli();
    QTest::newRow("rounds a balance to the milli-credit")
        << "user" << OptionalBalance(Balance::of(1.2345)) << Milli(1'235);
}

void tst_ApiKeyService::mintsWithTheRolesBalance()
{
    QFETCH(QString, role);
    QFETCH(OptionalBalance, balance);
    QFETCH(Milli, milli);
    ApiKeyService::NewKey request;
    request.label = QStringLiteral("robot");
    request.role = role;
    request.balance = balance;
    const auto minted = m_keys->mint(request);
    QVERIFY(minted.secret.startsWith(QLatin1String("phk_")));
    QCOMPARE(minted.key.role, role);
    QCOMPARE(minted.key.balanceMilli, milli);
    // It is the stored key, and its secret opens it.
    QCOMPARE(m_keys->find(minted.key.id).key.balanceMilli, milli);
    QCOMPARE(m_store->apiKeys().findBySecret(minted.secret)->id, minted.key.id);
}

void tst_ApiKeyService::refusesAMintNamingTheField_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("role");
    QTest::addColumn<OptionalBalance>("balance");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("refuses a blank label") << "  "
                                           << "user" << OptionalBalance() << "label"
                                           << "label must not be empty";
    QTest::newRow("refuses a role that is neither user nor owner")
        << "robot"
        << "admin" << OptionalBalance() << "role"
        << "role must be one of user, owner";
    QTest::newRow("refuses a negative balance")
        << "robot"
        << "user" << OptionalBalance(Balance::of(-1)) << "balance"
        << "balance must be between 0 and 1e+12";
    QTest::newRow("refuses a balance over a trillion credits")
        << "robot"
        << "owner" << OptionalBalance(Balance::of(2e12)) << "balance"
        << "balance must be between 0 and 1e+12";
}

void tst_ApiKeyService::refusesAMintNamingTheField()
{
    QFETCH(QString, label);
    QFETCH(QString, role);
    QFETCH(OptionalBalance, balance);
    QFETCH(QString, field);
    QFETCH(QString, message);
    const qsizetype before = m_keys->list().size();
    ApiKeyService::NewKey request{label, role, balance};
    try {
        m_keys->mint(request);
        QFAIL("minted");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
        QCOMPARE(e.code(), QStringLiteral("INVALID_FIELD"));
        QCOMPARE(e.field(), field);
        QCOMPARE(e.message(), message);
    }
    QCOMPARE(m_keys->list().size(), before);
}

void tst_ApiKeyService::setsABalance_data()
{
    QTest::addColumn<Balance>("balance");
    QTest::addColumn<Milli>("milli");
    QTest::newRow("sets a number of credits") << Balance::of(42.5) << Milli(42'500);
    QTest::newRow("sets a balance of nothing") << Balance::of(0) << Milli(0);
    QTest::newRow("makes the key unlimited") << Balance::unlimited() << Milli();
}

void tst_ApiKeyService::setsABalance()
{
    QFETCH(Balance, balance);
    QFETCH(Milli, milli);
    const auto minted = m_keys->mint({QStringLiteral("robot"), QStringLiteral("user"), {}});
    const ApiKey key = m_keys->setBalance(minted.key.id, balance, QStringLiteral("tester"));
    QCOMPARE(key.balanceMilli, milli);
    QCOMPARE(m_store->apiKeys().find(minted.key.id)->balanceMilli, milli);
}

void tst_ApiKeyService::refusesABadBalanceAndKeepsTheOldOne()
{
    const auto minted =
        m_keys->mint({QStringLiteral("robot"), QStringLiteral("user"), Balance::of(7)});
    try {
        m_keys->setBalance(minted.key.id, Balance::of(-3), QStringLiteral("tester"));
        QFAIL("set");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("INVALID_FIELD"));
        QCOMPARE(e.field(), QStringLiteral("balance"));
    }
    QCOMPARE(m_store->apiKeys().find(minted.key.id)->balanceMilli, Milli(7'000));
}

void tst_ApiKeyService::refusesUnknownKeys_data()
{
    QTest::addColumn<QString>("operation");
    QTest::newRow("refuses the balance of an unknown key") << "balance";
    QTest::newRow("refuses revoking an unknown key") << "revoke";
    QTest::newRow("refuses reading an unknown key") << "find";
}

void tst_ApiKeyService::refusesUnknownKeys()
{
    QFETCH(QString, operation);
    const QString id = QStringLiteral("key_nobody");
    try {
        if (operation == QLatin1String("balance"))
            m_keys->setBalance(id, Balance::of(1), QStringLiteral("tester"));
        else if (operation == QLatin1String("revoke"))
            m_keys->revoke(id);
        else
            m_keys->find(id);
        QFAIL("no error");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::NotFound);
        QCOMPARE(e.code(), QStringLiteral("NOT_FOUND"));
        QVERIFY2(e.message().contains(id), qPrintable(e.message()));
    }
    QVERIFY(m_keys->list().isEmpty());
}

void tst_ApiKeyService::revokesAKeyButNotItself()
{
    const auto a = m_keys->mint({QStringLiteral("a"), QStringLiteral("owner"), {}});
    const auto b = m_keys->mint({QStringLiteral("b"), QStringLiteral("user"), {}});
    // A key cannot revoke itself: 409, still active.
    try {
        m_keys->revoke(a.key.id, a.key.id);
        QFAIL("revoked itself");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Conflict);
        QCOMPARE(e.code(), QStringLiteral("CANNOT_REVOKE_SELF"));
    }
    QVERIFY(m_keys->find(a.key.id).key.isActive());
    const ApiKey revoked = m_keys->revoke(b.key.id, a.key.id);
    QVERIFY(!revoked.isActive());
    QCOMPARE(revoked.revokedAt, std::optional<qint64>(m_clock.nowMs()));
    // The console revokes as nobody in particular.
    QVERIFY(!m_keys->revoke(a.key.id).isActive());
}

void tst_ApiKeyService::listsKeysWithTheirUsage()
{
    const auto minted = m_keys->mint({QStringLiteral("robot"), QStringLiteral("user"), {}});
    Usage u;
    u.pages = 3;
    m_store->credits().charge(minted.key.id, QStringLiteral("req_1"), QStringLiteral("/scrape"), u);
    const auto list = m_keys->list();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.at(0).key.id, minted.key.id);
    QCOMPARE(list.at(0).usage.pages, 3);
    QCOMPARE(list.at(0).usage.usedMilli, qint64(3000));
    QCOMPARE(list.at(0).key.balanceMilli, Milli(1'000'000 - 3000));
}

QTEST_GUILESS_MAIN(tst_ApiKeyService)
#include "tst_apikeyservice.moc"
