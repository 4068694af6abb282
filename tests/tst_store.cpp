#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/ObjectPurger.h"
#include "core/ObjectStore.h"
#include "core/RequestLog.h"
#include "core/SecretBox.h"
#include "core/SqlRow.h"
#include "core/Store.h"
#include "engine/TrajectoryRepository.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

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
    void rollsBackOnlyTheNestedWorkThatFailed();
    void findsRunsByAFragmentOfTheirTaskOrId();
    void purgesExpiredObjectsOnATimer();
    void keepsTheDataDirectoryAndTheDatabaseTheOwnersAlone();
    void tightensLooserModesAtStart();
    void leavesASharedDirectoryAsItIs();
    void writesTheSecretsKeyWholeOrNotAtAll_data();
    void writesTheSecretsKeyWholeOrNotAtAll();
    void sealsTheWebhookHeadersOfAnOlderStore();
    void usesFullSynchronousCommits();
    void takesPrivateTargetsFromTheSiteAccountsOfAnOlderStore();
    void readsARowColumnByColumn_data();
    void readsARowColumnByColumn();

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

void tst_Store::rollsBackOnlyTheNestedWorkThatFailed()
{
    // A run's end that cannot be stored inside the request that started the run: the end
    // and what waited for its commit (its callbacks going out) are undone, the rest stays.
    Store store(path(QStringLiteral("nested.db")), m_clock);
    QString error;
    QVERIFY(store.open(&error));
    QList<std::pair<QString, bool>> ended;
    store.transaction([&] {
        store.apiKeys().mint(QStringLiteral("kept"), QStringLiteral("user"), 0);
        store.onTransactionEnd([&](bool committed) {
            ended.append({QStringLiteral("outer"), committed});
        });
        try {
            store.transaction([&] {
                store.apiKeys().mint(QStringLiteral("undone"), QStringLiteral("user"), 0);
                store.onTransactionEnd([&](bool committed) {
                    ended.append({QStringLiteral("inner"), committed});
                });
                throw StoreError("disk full");
            });
        } catch (const StoreError &) {
        }
        QCOMPARE(ended.size(), 1); // the failed nested work's callback, at once
    });
    const auto keys = store.apiKeys().list();
    QCOMPARE(keys.size(), 1);
    QCOMPARE(keys.first().label, QStringLiteral("kept"));
    QCOMPARE(ended, (QList<std::pair<QString, bool>>{{QStringLiteral("inner"), false},
                                                     {QStringLiteral("outer"), true}}));
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
    QSignalSpy swept(&purger, &ObjectPurger::swept);
    QTRY_VERIFY(swept.count() >= 2); // ticks with nothing expired remove nothing
    QCOMPARE(swept.first().first().toInt(), 0);
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

namespace {
int modeOf(const QString &path)
{
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}
} // namespace

void tst_Store::keepsTheDataDirectoryAndTheDatabaseTheOwnersAlone()
{
    // A data directory made with the usual umask (0755), as mkpath() makes it.
    const QString dir = path(QStringLiteral("fresh"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(::chmod(QFile::encodeName(dir).constData(), 0755) == 0);
    const QString db = dir + QStringLiteral("/pilothouse.db");
    Store store(db, m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    store.apiKeys().mint(QStringLiteral("k"), QStringLiteral("user"), 1000); // a write: -wal
    QCOMPARE(modeOf(dir), 0700);
    QCOMPARE(modeOf(db), 0600);
    QVERIFY(QFile::exists(db + QStringLiteral("-wal")));
    QCOMPARE(modeOf(db + QStringLiteral("-wal")), 0600);
    QCOMPARE(modeOf(db + QStringLiteral("-shm")), 0600);
    QCOMPARE(modeOf(dir + QStringLiteral("/secrets.key")), 0600);
}

void tst_Store::tightensLooserModesAtStart()
{
    const QString dir = path(QStringLiteral("loose"));
    QVERIFY(QDir().mkpath(dir));
    const QString db = dir + QStringLiteral("/pilothouse.db");
    {
        Store store(db, m_clock);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
    }
    // An older build (or a copy) left everything readable; a stale -wal and -shm too.
    for (const QString &f : {db + QStringLiteral("-wal"), db + QStringLiteral("-shm")}) {
        QFile file(f);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QVERIFY(::chmod(QFile::encodeName(dir).constData(), 0755) == 0);
    for (const QString &f : {db, db + QStringLiteral("-wal"), db + QStringLiteral("-shm"),
                             dir + QStringLiteral("/secrets.key")})
        QVERIFY(::chmod(QFile::encodeName(f).constData(), 0644) == 0);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("had mode 755")));
    for (int i = 0; i < 4; ++i)
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("had mode 644")));
    Store store(db, m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QCOMPARE(modeOf(dir), 0700);
    QCOMPARE(modeOf(db), 0600);
    QCOMPARE(modeOf(db + QStringLiteral("-wal")), 0600);
    QCOMPARE(modeOf(db + QStringLiteral("-shm")), 0600);
    QCOMPARE(modeOf(dir + QStringLiteral("/secrets.key")), 0600);
}

void tst_Store::leavesASharedDirectoryAsItIs()
{
    // A directory with the sticky bit (as /tmp) is shared: it keeps its mode, with a
    // warning, and the files in it are still the owner's alone.
    const QString dir = path(QStringLiteral("shared"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(::chmod(QFile::encodeName(dir).constData(), 01777) == 0);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("is shared")));
    Store store(dir + QStringLiteral("/pilothouse.db"), m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QCOMPARE(modeOf(dir), 01777);
    QCOMPARE(modeOf(dir + QStringLiteral("/pilothouse.db")), 0600);
}

void tst_Store::writesTheSecretsKeyWholeOrNotAtAll_data()
{
    QTest::addColumn<QByteArray>("before"); // secrets.key before the start; "-": none
    QTest::addColumn<QString>("leftover");  // a file an earlier, cut-off start left
    QTest::addColumn<bool>("keepsTheKey");  // the key afterwards is `before`
    QTest::newRow("a new key is 32 bytes, owner-only, with no temporary file left")
        << QByteArray("-") << QString() << false;
    QTest::newRow("an empty key left by a start cut off while writing it is replaced")
        << QByteArray() << QString() << false;
    QTest::newRow("a temporary key left by a start cut off before its rename is removed")
        << QByteArray("-") << QStringLiteral(".secrets.key.Ab12Cd") << false;
    QTest::newRow("an existing key is kept as it is")
        << QByteArray(32, 'k') << QStringLiteral(".secrets.key.Zz99Yy") << true;
}

void tst_Store::writesTheSecretsKeyWholeOrNotAtAll()
{
    QFETCH(QByteArray, before);
    QFETCH(QString, leftover);
    QFETCH(bool, keepsTheKey);
    QTemporaryDir dir;
    const QString key = dir.filePath(QStringLiteral("secrets.key"));
    if (before != "-") {
        QFile f(key);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(before);
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }
    if (!leftover.isEmpty()) {
        QFile f(dir.filePath(leftover));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(32, 't'));
    }
    if (before.isEmpty())
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("is empty")));
    Store store(dir.filePath(QStringLiteral("pilothouse.db")), m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QFile f(key);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray now = f.readAll();
    QCOMPARE(now.size(), 32);
    QCOMPARE(now == before, keepsTheKey);
    QCOMPARE(modeOf(key), 0600);
    // Only the key: no temporary file beside it.
    QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("*secrets*")}, QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("secrets.key")});
    // And it works: a value sealed now opens after a restart.
    const QString sealed = store.secrets().seal(QStringLiteral("s3cret"));
    store.close();
    Store again(dir.filePath(QStringLiteral("pilothouse.db")), m_clock);
    QVERIFY2(again.open(&error), qPrintable(error));
    QCOMPARE(again.secrets().unseal(sealed), QStringLiteral("s3cret"));
}

void tst_Store::sealsTheWebhookHeadersOfAnOlderStore()
{
    // Rows as a build before migration 0022 wrote them: header values in clear in the
    // subscription and delivery configs, in the stored request and in the payload that
    // echoes it.
    const QString dir = path(QStringLiteral("headers"));
    QVERIFY(QDir().mkpath(dir));
    const QString file = dir + QStringLiteral("/pilothouse.db");
    const QByteArray value = "hdr-cred-5f1d0c7e";
    const QJsonObject clearHeaders{{QStringLiteral("X-Api-Key"), QString::fromLatin1(value)}};
    const QJsonObject request{
        {QStringLiteral("input"), QStringLiteral("List the products")},
        {QStringLiteral("webhooks"),
         QJsonArray{QJsonObject{{QStringLiteral("url"), QStringLiteral("https://h.example/x")},
                                {QStringLiteral("headers"), clearHeaders}}}}};
    const QString config =
        QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("auth"), QJsonObject()},
                                                    {QStringLiteral("headers"), clearHeaders},
                                                    {QStringLiteral("metadata"), QJsonObject()}})
                              .toJson(QJsonDocument::Compact));
    const QByteArray payload =
        QJsonDocument(QJsonObject{{QStringLiteral("event"), QStringLiteral("workflow.completed")},
                                  {QStringLiteral("originalRequest"),
                                   QJsonObject{{QStringLiteral("tool"), QStringLiteral("agent")},
                                               {QStringLiteral("params"), request}}}})
            .toJson(QJsonDocument::Compact);
    const QString requestText =
        QString::fromUtf8(QJsonDocument(request).toJson(QJsonDocument::Compact));
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY2(store.open(&error, 21), qPrintable(error));
        QSqlQuery q(store.database());
        QVERIFY(q.exec(QStringLiteral("INSERT INTO api_requests (id, endpoint, started_at, status)"
                                      " VALUES ('req_1', '/agent', 1, 'success')")));
        QVERIFY(q.prepare(QStringLiteral("INSERT INTO webhook_subscriptions (request_id, url,"
                                         " events, config, created_at) VALUES ('req_1',"
                                         " 'https://h.example/x', '', ?, 1)")));
        q.addBindValue(config);
        QVERIFY(q.exec());
        QVERIFY(q.prepare(QStringLiteral("INSERT INTO webhook_deliveries (id, request_id, url,"
                                         " event, payload, config, status, created_at) VALUES"
                                         " ('dlv_1', 'req_1', 'https://h.example/x',"
                                         " 'workflow.completed', ?, ?, 'pending', 1)")));
        q.addBindValue(payload);
        q.addBindValue(config);
        QVERIFY(q.exec());
        QVERIFY(q.exec(QStringLiteral("INSERT INTO trajectories (id, created_at, updated_at,"
                                      " status, phase, task, planner) VALUES ('traj_1', 1, 1,"
                                      " 'success', 1, 't', 'rule')")));
        QVERIFY(q.prepare(QStringLiteral("INSERT INTO phases (trajectory_id, phase, request_id,"
                                         " status, request, started_at) VALUES ('traj_1', 1,"
                                         " 'req_1', 'success', ?, 1)")));
        q.addBindValue(requestText);
        QVERIFY(q.exec());
    }
    auto fileHolds = [&](const QByteArray &needle) {
        QByteArray bytes;
        for (const QString &f : {file, file + QStringLiteral("-wal")}) {
            QFile in(f);
            if (in.open(QIODevice::ReadOnly))
                bytes += in.readAll();
        }
        return bytes.contains(needle);
    };
    QVERIFY(fileHolds(value)); // the control: the old rows hold it in clear
    Store store(file, m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QSqlQuery q(store.database());
    for (const QString &table :
         {QStringLiteral("webhook_subscriptions"), QStringLiteral("webhook_deliveries")}) {
        QVERIFY(q.exec(QStringLiteral("SELECT url, config FROM %1").arg(table)));
        QVERIFY(q.next());
        const QJsonObject c = QJsonDocument::fromJson(q.value(1).toByteArray()).object();
        QVERIFY2(!c.contains(QStringLiteral("headers")), qPrintable(table));
        // Sealed, and still what the receiver is sent.
        const WebhookSubscription s =
            WebhookSubscription::fromSealedJson(q.value(0).toString(), {}, c, store.secrets());
        QCOMPARE(s.headers, clearHeaders);
    }
    QVERIFY(q.exec(QStringLiteral("SELECT payload FROM webhook_deliveries")));
    QVERIFY(q.next());
    const QJsonObject echoed = QJsonDocument::fromJson(q.value(0).toByteArray())
                                   .object()
                                   .value(QStringLiteral("originalRequest"))
                                   .toObject()
                                   .value(QStringLiteral("params"))
                                   .toObject();
    QCOMPARE(echoed.value(QStringLiteral("webhooks"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("headers"))
                 .toObject()
                 .value(QStringLiteral("X-Api-Key"))
                 .toString(),
             WebhookSubscription::kMask);
    QCOMPARE(echoed.value(QStringLiteral("input")).toString(), QStringLiteral("List the products"));
    QVERIFY(q.exec(QStringLiteral("SELECT request FROM phases")));
    QVERIFY(q.next());
    QVERIFY(!q.value(0).toString().contains(QString::fromLatin1(value)));
    QVERIFY(q.value(0).toString().contains(WebhookSubscription::kMask));
    // Not in the file either: no copy in freed pages or in the write-ahead log.
    store.close();
    QVERIFY(!fileHolds(value));
}

void tst_Store::usesFullSynchronousCommits()
{
    // docs/security.md, Durability: a commit is on disk before what depends on it leaves.
    Store store(path(QStringLiteral("sync.db")), m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    const auto synchronous = [&store] {
        QSqlQuery q(store.database());
        q.exec(QStringLiteral("PRAGMA synchronous"));
        q.next();
        return q.value(0).toInt();
    };
    QCOMPARE(synchronous(), 2); // FULL
    // A relaxed transaction (the webhook queue's bookkeeping) commits with NORMAL and
    // leaves FULL behind it, for its end callbacks too, and a nested one inherits.
    int inside = -1, afterwards = -1, nested = -1;
    store.transaction(
        [&] {
            inside = synchronous();
            store.transaction([&] { nested = synchronous(); }); // Full asked, joins
            store.onTransactionEnd([&](bool) { afterwards = synchronous(); });
        },
        Store::Sync::Normal);
    QCOMPARE(inside, 1); // NORMAL
    QCOMPARE(nested, 1);
    QCOMPARE(afterwards, 2);
    QCOMPARE(synchronous(), 2);
}

void tst_Store::takesPrivateTargetsFromTheSiteAccountsOfAnOlderStore()
{
    // Migration 0053: a site's A2W account key acts for visitors and loses privateTargets
    // (docs/security.md, "What visitors and visiting agents may reach"); a user key the
    // owner granted it keeps it, and every site starts with an empty private-host list.
    const QString file = path(QStringLiteral("reach.db"));
    QString account, user;
    {
        Store store(file, m_clock);
        QString error;
        QVERIFY2(store.open(&error, 52), qPrintable(error));
        account = store.apiKeys()
                      .mint(QStringLiteral("A2W visitors"), QStringLiteral("user"), std::nullopt)
                      .key.id;
        user = store.apiKeys()
                   .mint(QStringLiteral("lan"), QStringLiteral("user"), std::nullopt)
                   .key.id;
        QSqlQuery q(store.database());
        QVERIFY(q.exec(QStringLiteral("INSERT INTO sites (id, name, owner_uid, created_at, "
                                      "updated_at) VALUES ('site_a', 'Harbour', 'local', 1, 1)")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO a2w_site_accounts (site_id, key_id, created_at)"
                                      " VALUES ('site_a', '%1', 1)")
                           .arg(account)));
        for (const QString &id : {account, user})
            QVERIFY(q.exec(QStringLiteral("INSERT INTO api_key_capabilities (key_id, capabilities,"
                                          " updated_at) VALUES ('%1', '{\"privateTargets\":true,"
                                          "\"cloudAgent\":true}', 1)")
                               .arg(id)));
    }
    Store store(file, m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    QSqlQuery q(store.database());
    auto caps = [&q](const QString &id) {
        q.exec(QStringLiteral("SELECT capabilities FROM api_key_capabilities WHERE key_id = '%1'")
                   .arg(id));
        q.next();
        return QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
    };
    QVERIFY(!caps(account).contains(QStringLiteral("privateTargets")));
    QVERIFY(caps(account).value(QStringLiteral("cloudAgent")).toBool());
    QVERIFY(caps(user).value(QStringLiteral("privateTargets")).toBool());
    QVERIFY(q.exec(QStringLiteral("SELECT private_hosts FROM sites WHERE id = 'site_a'")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("[]"));
}

void tst_Store::readsARowColumnByColumn_data()
{
    QTest::addColumn<QString>("select");
    QTest::addColumn<QString>("expected"); // what the readers answer, one per column
    QTest::newRow("a row is read in the order the SELECT names its columns")
        << "SELECT 'a', 7, 1, 2"
        << "text=a integer=7 flag=true number=2";
    QTest::newRow("a NULL timestamp reads as no value and a set one as its value")
        << "SELECT NULL, 1700000000000"
        << "optionalInt=none optionalInt=1700000000000";
    QTest::newRow("a NULL number reads as no value") << "SELECT NULL, 3"
                                                     << "optionalNumber=none optionalNumber=3";
    QTest::newRow("JSON columns read as their object and array")
        << R"(SELECT '{"k":1}', '["x","y"]', '["s"]')"
        << R"(object={"k":1} array=["x","y"] strings=s)";
    QTest::newRow("a NULL JSON column reads as an empty object") << "SELECT NULL"
                                                                 << "object={}";
}

void tst_Store::readsARowColumnByColumn()
{
    QFETCH(QString, select);
    QFETCH(QString, expected);
    Store store(path(QStringLiteral("sqlrow.db")), m_clock);
    QString error;
    QVERIFY2(store.open(&error), qPrintable(error));
    Sql q(store, select);
    q.exec();
    QVERIFY(q.next());
    SqlRow row(q);
    QStringList got;
    const auto json = [](const auto &v) {
        return QString::fromUtf8(QJsonDocument(v).toJson(QJsonDocument::Compact));
    };
    for (const QString &part : expected.split(u' ')) {
        const QString reader = part.section(u'=', 0, 0);
        QString value;
        if (reader == QLatin1String("text"))
            value = row.text();
        else if (reader == QLatin1String("integer"))
            value = QString::number(row.integer());
        else if (reader == QLatin1String("number"))
            value = QString::number(row.number());
        else if (reader == QLatin1String("flag"))
            value = row.flag() ? QStringLiteral("true") : QStringLiteral("false");
        else if (reader == QLatin1String("optionalInt")) {
            const auto v = row.optionalInt();
            value = v ? QString::number(*v) : QStringLiteral("none");
        } else if (reader == QLatin1String("optionalNumber")) {
            const auto v = row.optionalNumber();
            value = v ? QString::number(*v) : QStringLiteral("none");
        } else if (reader == QLatin1String("object"))
            value = json(row.object());
        else if (reader == QLatin1String("array"))
            value = json(row.array());
        else if (reader == QLatin1String("strings"))
            value = row.strings().join(u',');
        got << reader + u'=' + value;
    }
    QCOMPARE(got.join(u' '), expected);
}

QTEST_GUILESS_MAIN(tst_Store)
#include "tst_store.moc"
