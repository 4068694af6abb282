#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/ObjectPurger.h"
#include "core/ObjectStore.h"
#include "core/Store.h"
#include "engine/TrajectoryRepository.h"

#include <QFile>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

class tst_Store : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void appliesEveryMigrationToAnEmptyStore();
    void upgradesAnExistingStoreKeepingItsRows();
    void reopensAMigratedStoreWithoutChangingIt();
    void refusesAStoreNewerThanTheBuild();
    void usesWriteAheadLogging();
    void storesKeysHashedNeverInClear();
    void rollsBackAFailedTransaction();
    void findsRunsByAFragmentOfTheirTaskOrId();
    void purgesExpiredObjectsOnATimer();

private:
    QTemporaryDir m_dir;
    SystemClock m_clock;
    QString path(const QString &name) { return m_dir.filePath(name); }
};

void tst_Store::appliesEveryMigrationToAnEmptyStore()
{
    Store store(path(QStringLiteral("empty.db")), m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QVERIFY(Store::latestSchemaVersion() >= 2);
    QCOMPARE(store.schemaVersion(), Store::latestSchemaVersion());
    QSqlQuery q(store.database());
    QVERIFY(q.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'")));
    QStringList tables;
    while (q.next())
        tables << q.value(0).toString();
    for (const char *t : {"schema_version", "api_keys", "credit_ledger", "settings", "api_requests",
                          "webhook_subscriptions"})
        QVERIFY2(tables.contains(QLatin1String(t)), t);
}

void tst_Store::upgradesAnExistingStoreKeepingItsRows()
{
    const QString file = path(QStringLiteral("old.db"));
    QString keyId;
    QString secret;
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY2(store.open(&error, 1), qPrintable(error)); // only migration 1
        QCOMPARE(store.schemaVersion(), 1);
        const auto minted =
            store.apiKeys().mint(QStringLiteral("kept"), QStringLiteral("owner"), std::nullopt);
        keyId = minted.key.id;
        secret = minted.secret;
        QSqlQuery q(store.database());
        QVERIFY(!q.exec(QStringLiteral("SELECT COUNT(*) FROM api_requests"))); // not yet there
    }
    Store store(file, m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QCOMPARE(store.schemaVersion(), Store::latestSchemaVersion());
    const auto found = store.apiKeys().findBySecret(secret);
    QVERIFY(found.has_value());
    QCOMPARE(found->id, keyId);
    QCOMPARE(found->label, QStringLiteral("kept"));
    QSqlQuery q(store.database());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM api_requests")));
}

void tst_Store::reopensAMigratedStoreWithoutChangingIt()
{
    // Areas number their migrations in ranges of their own (0001.., 0003.., 0010..), so
    // versions have gaps: compare the recorded rows before and after, not to the newest.
    const QString file = path(QStringLiteral("twice.db"));
    auto applied = [](const Store &store) {
        QSqlQuery q(store.database());
        q.exec(QStringLiteral("SELECT COUNT(*), MAX(applied_at) FROM schema_version"));
        q.next();
        return qMakePair(q.value(0).toInt(), q.value(1).toLongLong());
    };
    QPair<int, qint64> first;
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY(store.open(&error));
        first = applied(store);
        QVERIFY(first.first >= 4);
    }
    Store store(file, m_clock);
    QString error;
    QVERIFY(store.open(&error));
    QCOMPARE(applied(store), first); // nothing applied twice
    QCOMPARE(store.schemaVersion(), Store::latestSchemaVersion());
}

void tst_Store::refusesAStoreNewerThanTheBuild()
{
    const QString file = path(QStringLiteral("future.db"));
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY(store.open(&error));
        store.apiKeys().mint(QStringLiteral("precious"), QStringLiteral("owner"), std::nullopt);
        QSqlQuery q(store.database());
        QVERIFY(q.exec(QStringLiteral("INSERT INTO schema_version VALUES (9999, 'future', 0)")));
    }
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY(!store.open(&error));
        QVERIFY2(error.contains(QLatin1String("newer")), qPrintable(error));
    }
    // Nothing was touched: the row and the future version are still there.
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
    db.setDatabaseName(file);
    QVERIFY(db.open());
    {
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM api_keys WHERE label = 'precious'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QVERIFY(q.exec(QStringLiteral("SELECT MAX(version) FROM schema_version")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 9999);
    }
    db.close();
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("peek"));
}

void tst_Store::usesWriteAheadLogging()
{
    Store store(path(QStringLiteral("wal.db")), m_clock);
    QString error;
    QVERIFY(store.open(&error));
    QSqlQuery q(store.database());
    QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
}

void tst_Store::storesKeysHashedNeverInClear()
{
    const QString file = path(QStringLiteral("hashed.db"));
    QString secret;
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY(store.open(&error));
        secret = store.apiKeys().mint(QStringLiteral("k"), QStringLiteral("user"), 5000).secret;
        QVERIFY(secret.startsWith(QLatin1String("phk_")));
        QVERIFY(store.apiKeys().findBySecret(secret).has_value());
        QVERIFY(!store.apiKeys().findBySecret(secret + QLatin1Char('x')).has_value());
    }
    for (const QString &f : {file, file + QStringLiteral("-wal")}) {
        QFile raw(f);
        if (!raw.open(QIODevice::ReadOnly))
            continue;
        QVERIFY2(!raw.readAll().contains(secret.toUtf8()), "the key is stored in clear");
    }
}

void tst_Store::rollsBackAFailedTransaction()
{
    Store store(path(QStringLiteral("tx.db")), m_clock);
    QString error;
    QVERIFY(store.open(&error));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, store.transaction([&] {
        store.apiKeys().mint(QStringLiteral("lost"), QStringLiteral("user"), 0);
        throw std::runtime_error("boom");
    }));
    QCOMPARE(store.apiKeys().list().size(), 0);
}

void tst_Store::findsRunsByAFragmentOfTheirTaskOrId()
{
    const QString file = path(QStringLiteral("search.db"));
    QString keyId;
    {
        // A run stored before the search index existed (schema 4) is found after the
        // upgrade.
        Store store(file, m_clock);
        QString error;
        QVERIFY2(store.open(&error, 4), qPrintable(error));
        keyId = store.apiKeys()
                    .mint(QStringLiteral("runs"), QStringLiteral("owner"), std::nullopt)
                    .key.id;
        engine::TrajectoryRepository(store).create(QStringLiteral("traj_Older1"), keyId,
                                                   QStringLiteral("Read the old harbour log"),
                                                   QStringLiteral("rules"));
    }
    Store store(file, m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    engine::TrajectoryRepository runs(store);
    runs.create(QStringLiteral("traj_AbCdEf123"), keyId,
                QStringLiteral("List the 100% cotton \"Harbour\" shirts"), QStringLiteral("rules"));
    runs.create(QStringLiteral("traj_Zz9"), keyId, QStringLiteral("Read the price_list page"),
                QStringLiteral("rules"));
    const auto found = [&runs](const QString &text) {
        QStringList ids;
        for (const engine::TrajectoryRow &r : runs.list(QString(), QString(), 50, 0, text))
            ids << r.id;
        ids.sort();
        return ids;
    };
    const QStringList cotton{QStringLiteral("traj_AbCdEf123")};
    QCOMPARE(found(QStringLiteral("cotton")), cotton);
    QCOMPARE(found(QStringLiteral("COTTON")), cotton);      // any case
    QCOMPARE(found(QStringLiteral("cdef1")), cotton);       // a fragment of the id
    QCOMPARE(found(QStringLiteral("100%")), cotton);        // % is a character
    QCOMPARE(found(QStringLiteral("\"Harbour\"")), cotton); // so are quotes
    QCOMPARE(found(QStringLiteral("e_l")), QStringList{QStringLiteral("traj_Zz9")}); // and _
    QCOMPARE(found(QStringLiteral("harbour")),
             (QStringList{QStringLiteral("traj_AbCdEf123"), QStringLiteral("traj_Older1")}));
    QCOMPARE(found(QStringLiteral("Zz")), QStringList{QStringLiteral("traj_Zz9")}); // short
    QCOMPARE(found(QStringLiteral("%")), cotton);
    QVERIFY(found(QStringLiteral("no such words")).isEmpty());
    QVERIFY(found(QStringLiteral("cotton shirts")).isEmpty()); // a substring, not words
    // With a status filter too.
    QCOMPARE(
        runs.list(QString(), QStringLiteral("success"), 50, 0, QStringLiteral("harbour")).size(),
        0);
}

void tst_Store::purgesExpiredObjectsOnATimer()
{
    ManualClock clock(1'800'000'000'000);
    Store store(path(QStringLiteral("purge.db")), clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    ObjectStore &objects = store.objects();
    const QString expiring =
        objects
            .put(QString(), QStringLiteral("response"), QStringLiteral("r.json"),
                 QStringLiteral("application/json"), QByteArray(4096, 'x'), 60'000)
            .id;
    const QString later = objects
                              .put(QString(), QStringLiteral("response"), QStringLiteral("l.json"),
                                   QStringLiteral("application/json"), "{}", 3'600'000)
                              .id;
    const QString kept = objects
                             .put(QString(), QStringLiteral("upload"), QStringLiteral("u.csv"),
                                  QStringLiteral("text/csv"), "a,b\n")
                             .id;
    auto rows = [&store] {
        QSqlQuery q(store.database());
        QStringList ids;
        if (q.exec(QStringLiteral("SELECT id FROM stored_objects ORDER BY id")))
            while (q.next())
                ids << q.value(0).toString();
        return ids;
    };
    ObjectPurger purger(objects, 20);
    QSignalSpy purged(&purger, &ObjectPurger::purged);
    QTest::qWait(100); // ticks with nothing expired remove nothing
    QCOMPARE(rows().size(), 3);
    QCOMPARE(purged.count(), 0);

    clock.advance(61'000); // the first has expired: invisible at once, its bytes gone soon
    QVERIFY(!objects.find(expiring));
    QTRY_COMPARE_WITH_TIMEOUT(purged.count(), 1, 2000);
    QCOMPARE(purged.first().first().toInt(), 1);
    QStringList left{later, kept};
    left.sort();
    QCOMPARE(rows(), left);
    QCOMPARE(purger.purgedTotal(), 1);

    clock.advance(3'600'000); // objects without a TTL (uploads) are never purged
    QTRY_COMPARE_WITH_TIMEOUT(rows(), QStringList{kept}, 2000);
}

QTEST_GUILESS_MAIN(tst_Store)
#include "tst_store.moc"
