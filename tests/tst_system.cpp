// Service endpoints: health, settings, API keys and usage.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "core/Clock.h"
#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "http/HttpServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

using namespace ph;
using namespace ph::test;

class tst_System : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void answersHealthWithoutAKey();
    void mintsAKeyShownOnceWithABalance();
    void neverListsASecret();
    void revokesAKey();
    void refusesKeyManagementToAUserKey();
    void setsABalance();
    void changesSettingsAtomically();
    void describesEachSettingForAForm_data();
    void describesEachSettingForAForm();
    void reportsTheCallersUsage();
    void purgesExpiredStorageOnTheConfiguredInterval();
    void forgetsFilesWithoutALifetimeAfterTheRetention();
    void appliesConnectionLimitsFromSettings();

private:
    std::unique_ptr<TestService> m_ph;
};

void tst_System::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_System::cleanupTestCase()
{
    m_ph.reset();
}

void tst_System::answersHealthWithoutAKey()
{
    HttpClient c(m_ph->base());
    const auto r = c.get(QStringLiteral("/health"));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(
        r.json().value(QStringLiteral("pool")).toObject().value(QStringLiteral("size")).toInt(), 4);
}

void tst_System::mintsAKeyShownOnceWithABalance()
{
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("ci")}});
    QCOMPARE(r.status, 201);
    const QJsonObject key = r.json();
    QVERIFY(key.value(QStringLiteral("key")).toString().startsWith(QLatin1String("phk_")));
    QCOMPARE(key.value(QStringLiteral("role")).toString(), QStringLiteral("user"));
    QCOMPARE(key.value(QStringLiteral("balance")).toDouble(), 1000.0); // the default grant
    HttpClient user(m_ph->base());
    user.setBearer(key.value(QStringLiteral("key")).toString());
    QCOMPARE(user.get(QStringLiteral("/usage")).status, 200);
    QCOMPARE(c.post(QStringLiteral("/keys"), {}).json().value(QStringLiteral("field")).toString(),
             QStringLiteral("label"));
    QCOMPARE(c.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("x")},
                                              {QStringLiteral("balance"), -1}})
                 .status,
             400);
}

void tst_System::neverListsASecret()
{
    HttpClient c = m_ph->client();
    const auto minted =
        c.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("hidden")}});
    const QString secret = minted.json().value(QStringLiteral("key")).toString();
    const auto list = c.get(QStringLiteral("/keys"));
    QCOMPARE(list.status, 200);
    QVERIFY(!list.body.contains(secret.toUtf8()));
    QVERIFY(!list.body.contains(m_ph->ownerKey().toUtf8()));
    for (const auto &k : list.json().value(QStringLiteral("keys")).toArray())
        QVERIFY(!k.toObject().contains(QStringLiteral("key")));
}

void tst_System::revokesAKey()
{
    HttpClient c = m_ph->client();
    const QJsonObject minted =
        c.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("temp")}}).json();
    HttpClient user(m_ph->base());
    user.setBearer(minted.value(QStringLiteral("key")).toString());
    QCOMPARE(user.get(QStringLiteral("/usage")).status, 200);
    const QString id = minted.value(QStringLiteral("id")).toString();
    const auto revoked = c.send("DELETE", QStringLiteral("/keys/") + id);
    QCOMPARE(revoked.status, 200);
    QCOMPARE(revoked.json().value(QStringLiteral("active")).toBool(true), false);
    QCOMPARE(user.get(QStringLiteral("/usage")).status, 401);
    QCOMPARE(c.send("DELETE", QStringLiteral("/keys/key_nope")).status, 404);
}

void tst_System::refusesKeyManagementToAUserKey()
{
    HttpClient user(m_ph->base());
    user.setBearer(m_ph->mintKey(10));
    QCOMPARE(user.get(QStringLiteral("/keys")).status, 403);
    QCOMPARE(
        user.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("x")}}).status,
        403);
    QCOMPARE(user.get(QStringLiteral("/settings")).status, 403);
}

void tst_System::setsABalance()
{
    HttpClient c = m_ph->client();
    const QJsonObject minted =
        c.post(QStringLiteral("/keys"), {{QStringLiteral("label"), QStringLiteral("b")}}).json();
    const QString path = QStringLiteral("/keys/") + minted.value(QStringLiteral("id")).toString();
    auto r = c.send("PATCH", path, R"({"balance": 0})");
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("balance")).toDouble(), 0.0);
    r = c.send("PATCH", path, R"({"balance": null})");
    QCOMPARE(r.json().value(QStringLiteral("unlimited")).toBool(), true);
    QCOMPARE(c.send("PATCH", path, R"({})").status, 400);
}

void tst_System::changesSettingsAtomically()
{
    HttpClient c = m_ph->client();
    auto r = c.send("PATCH", QStringLiteral("/settings"), R"({"pool.size": 3})");
    QCOMPARE(r.status, 200);
    QTRY_COMPARE(m_ph->service().pool().options().size, 3);
    // One bad value: nothing of the request is stored.
    r = c.send("PATCH", QStringLiteral("/settings"), R"({"scrape.maxUrls": 5, "no.such": 1})");
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("no.such"));
    r = c.send("PATCH", QStringLiteral("/settings"), R"({"pool.size": "lots"})");
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("pool.size"));
    const QJsonArray settings =
        c.get(QStringLiteral("/settings")).json().value(QStringLiteral("settings")).toArray();
    for (const auto &s : settings) {
        const QJsonObject o = s.toObject();
        if (o.value(QStringLiteral("key")).toString() == QLatin1String("pool.size"))
            QCOMPARE(o.value(QStringLiteral("value")).toInt(), 3);
        if (o.value(QStringLiteral("key")).toString() == QLatin1String("scrape.maxUrls"))
            QCOMPARE(o.value(QStringLiteral("value")).toInt(), 100);
    }
    c.send("PATCH", QStringLiteral("/settings"), R"({"pool.size": 4})");
}

void tst_System::describesEachSettingForAForm_data()
{
    // What GET /settings says of a setting besides its value: the fields a form needs, as
    // compact JSON of {type, default, minimum, maximum, unit, applies, choices, secret}.
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    QTest::newRow("a bounded whole number with its default")
        << "pool.size"
        << R"({"applies":"immediately","default":4,"maximum":64,"minimum":1,"type":"integer"})";
    QTest::newRow("a duration says its unit") << "pool.navigationTimeoutMs"
                                              << R"({"unit":"ms"})";
    QTest::newRow("a link lifetime applies to new links only")
        << "agent.liveViewTokenSeconds"
        << R"({"applies":"forNewSessions","unit":"s"})";
    QTest::newRow("a choice lists what it accepts")
        << "browser.engine"
        << R"({"choices":["qtwebengine","chromium"],"type":"string"})";
    QTest::newRow("a URL says so") << "llm.baseUrl"
                                   << R"({"type":"string","unit":"url"})";
    QTest::newRow("a toggle is a boolean") << "browser.polyfills"
                                           << R"({"default":true,"type":"boolean"})";
    QTest::newRow("a secret says it is one and shows no default")
        << "llm.apiKey"
        << R"({"default":null,"secret":true})";
}

void tst_System::describesEachSettingForAForm()
{
    QFETCH(QString, key);
    QFETCH(QString, expected);
    HttpClient c = m_ph->client();
    QJsonObject found;
    for (const auto &s :
         c.get(QStringLiteral("/settings")).json().value(QStringLiteral("settings")).toArray())
        if (s.toObject().value(QStringLiteral("key")).toString() == key)
            found = s.toObject();
    QVERIFY2(!found.isEmpty(), qPrintable(key));
    QVERIFY(found.contains(QStringLiteral("help")) && found.contains(QStringLiteral("value")));
    const QJsonObject want = QJsonDocument::fromJson(expected.toUtf8()).object();
    for (auto it = want.begin(); it != want.end(); ++it) {
        // null: the field must be absent
        const QJsonValue got = found.value(it.key());
        if (it.value().isNull())
            QVERIFY2(!found.contains(it.key()), qPrintable(it.key()));
        else
            QVERIFY2(
                got == it.value(),
                qPrintable(it.key() + QStringLiteral(": ") +
                           QString::fromUtf8(QJsonDocument(found).toJson(QJsonDocument::Compact))));
    }
}

void tst_System::reportsTheCallersUsage()
{
    HttpClient c = m_ph->client();
    const auto r = c.get(QStringLiteral("/usage"));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("role")).toString(), QStringLiteral("owner"));
    QVERIFY(r.json().value(QStringLiteral("balance")).isNull());
    QVERIFY(r.json().contains(QStringLiteral("usage")));
}

void tst_System::purgesExpiredStorageOnTheConfiguredInterval()
{
    ManualClock clock(1'800'000'000'000);
    TestService timed({QStringLiteral("storage.purgeIntervalMs=20")}, {}, &clock);
    QVERIFY2(timed.ok(), qPrintable(timed.error()));
    ObjectStore &objects = timed.service().store().objects();
    auto put = [&](qint64 ttlMs) {
        return objects
            .put(QString(), QStringLiteral("response"), QStringLiteral("r.json"),
                 QStringLiteral("application/json"), "{}", ttlMs)
            .id;
    };
    const QString soon = put(1000);
    const QString id = put(3000);
    auto stored = [&](const QString &which) {
        QSqlQuery q(timed.service().store().database());
        q.prepare(QStringLiteral("SELECT COUNT(*) FROM stored_objects WHERE id = :id"));
        q.bindValue(QStringLiteral(":id"), which);
        return q.exec() && q.next() ? q.value(0).toInt() : -1;
    };
    clock.advance(2000);
    // The first has gone: a purge ran after the clock moved, and kept the one not yet due.
    QTRY_COMPARE_WITH_TIMEOUT(stored(soon), 0, 3000);
    QCOMPARE(stored(id), 1);
    clock.advance(2000);
    QTRY_COMPARE_WITH_TIMEOUT(stored(id), 0, 3000);
}

// A generated file, an upload or a website has no expiry of its own: it is kept for
// storage.retentionHours after it was made, then purged; 0 keeps it. Objects with a TTL
// go by their TTL whatever the retention.
void tst_System::forgetsFilesWithoutALifetimeAfterTheRetention()
{
    ManualClock clock(1'800'000'000'000);
    TestService timed({QStringLiteral("storage.purgeIntervalMs=20")}, {}, &clock);
    QVERIFY2(timed.ok(), qPrintable(timed.error()));
    QCOMPARE(timed.service().settings().set(QStringLiteral("storage.retentionHours"), 1),
             QString());
    ObjectStore &objects = timed.service().store().objects();
    auto put = [&](const QString &kind) {
        return objects
            .put(QString(), kind, QStringLiteral("f.bin"),
                 QStringLiteral("application/octet-stream"), "bytes")
            .id;
    };
    auto stored = [&](const QString &id) {
        QSqlQuery q(timed.service().store().database());
        q.prepare(QStringLiteral("SELECT COUNT(*) FROM stored_objects WHERE id = :id"));
        q.bindValue(QStringLiteral(":id"), id);
        return q.exec() && q.next() ? q.value(0).toInt() : -1;
    };
    const QString artifact = put(QStringLiteral("artifact"));
    clock.advance(30 * 60 * 1000);
    const QString upload = put(QStringLiteral("upload"));
    // A marker with a TTL that has passed: once it is gone, a purge has run at this time.
    auto expired = [&] {
        const QString marker =
            objects
                .put(QString(), QStringLiteral("response"), QStringLiteral("m.json"),
                     QStringLiteral("application/json"), "{}", 1)
                .id;
        clock.advance(2);
        return marker;
    };
    const QString halfHour = expired();
    QTRY_COMPARE_WITH_TIMEOUT(stored(halfHour), 0, 3000);
    QCOMPARE(stored(artifact), 1); // half an hour old: kept
    clock.advance(31 * 60 * 1000);
    QTRY_COMPARE_WITH_TIMEOUT(stored(artifact), 0, 3000); // an hour and a minute: gone
    QCOMPARE(stored(upload), 1);                          // 31 minutes: kept
    // 0 keeps everything without a TTL, however old.
    QCOMPARE(timed.service().settings().set(QStringLiteral("storage.retentionHours"), 0),
             QString());
    clock.advance(10LL * 365 * 24 * 3600 * 1000);
    const QString tenYears = expired();
    QTRY_COMPARE_WITH_TIMEOUT(stored(tenYears), 0, 3000);
    QCOMPARE(stored(upload), 1);
}

void tst_System::appliesConnectionLimitsFromSettings()
{
    // The HTTP layer's limits follow the settings, at start and when they change.
    TestService limited({QStringLiteral("http.maxConnectionsPerAddress=7"),
                         QStringLiteral("http.headerTimeoutMs=1234")});
    QVERIFY2(limited.ok(), qPrintable(limited.error()));
    QCOMPARE(limited.service().http().connectionLimits().maxConnectionsPerAddress, 7);
    QCOMPARE(limited.service().http().connectionLimits().headerTimeoutMs, 1234);
    HttpClient c = limited.client();
    const auto r = c.send("PATCH", QStringLiteral("/settings"),
                          QJsonDocument(QJsonObject{{QStringLiteral("http.bodyTimeoutMs"), 4321},
                                                    {QStringLiteral("http.maxConnections"), 99}})
                              .toJson(QJsonDocument::Compact),
                          {{"Content-Type", "application/json"}});
    QCOMPARE(r.status, 200);
    QCOMPARE(limited.service().http().connectionLimits().bodyTimeoutMs, 4321);
    QCOMPARE(limited.service().http().connectionLimits().maxConnections, 99);
}

PH_WEBENGINE_TEST_MAIN(tst_System)
#include "tst_system.moc"
