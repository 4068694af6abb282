// SessionService with a fake session browser and a manual clock (issue 30): limits, the
// profile lock, expiry, crashes, release across keys, sealed profiles, restarts.
#include "FakeSessionBrowser.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Principal.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"
#include "sessions/ProfileVault.h"
#include "sessions/SessionRepository.h"
#include "sessions/SessionService.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;
using namespace ph::sessions;
using ph::test::FakeSessionBrowser;

namespace {

constexpr qint64 kStart = 1'800'000'000'000;

Principal keyOf(const QString &id, bool owner = false)
{
    Principal p;
    p.kind = Principal::Kind::ApiKey;
    p.keyId = id;
    p.owner = owner;
    return p;
}

// One service over a temporary data directory; every browser it makes is kept.
struct World
{
    QTemporaryDir dir;
    ManualClock clock{kStart};
    Store store{QDir(dir.path()).filePath(QStringLiteral("pilothouse.db")), clock};
    Settings *settings = nullptr;
    NetworkPolicy policy{true};
    QList<QPointer<FakeSessionBrowser>> browsers;
    QString engineProblem;
    std::unique_ptr<SessionService> service;

    explicit World(const QStringList &overrides = {})
    {
        QString error;
        if (!store.open(&error))
            qFatal("store: %s", qPrintable(error));
        settings = new Settings(store, &store);
        for (const QString &o : overrides)
            settings->setOverride(o);
        restart();
    }
    void restart()
    {
        service.reset();
        service = std::make_unique<SessionService>(
            store, *settings, policy, dir.path(),
            [this](const SessionBrowserSpec &spec) {
                auto b = std::make_unique<FakeSessionBrowser>(spec);
                browsers.append(b.get());
                return b;
            },
            [this] { return engineProblem; });
        service->start();
    }
    BrowserSessionInfo create(const Principal &who, const QString &profile = {}, int timeoutS = 900,
                              int idleS = 300)
    {
        CreateSessionRequest r;
        r.profile = profile;
        r.timeoutSeconds = timeoutS;
        r.idleTimeoutSeconds = idleS;
        const BrowserSessionInfo info = service->create(who, r);
        [&] { QTRY_COMPARE(status(who, info.id), QStringLiteral("active")); }();
        return info;
    }
    QString status(const Principal &who, const QString &id) const
    {
        const auto info = service->find(who, id);
        return info ? info->status : QStringLiteral("(none)");
    }
    FakeSessionBrowser *last() const { return browsers.isEmpty() ? nullptr : browsers.last(); }
    bool clearDirLeft(const QString &id) const
    {
        return QDir(QDir(dir.path()).filePath(QStringLiteral("profiles/open/") + id)).exists();
    }
};

} // namespace

class tst_SessionService : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void limitsAnswer429WithRetryAfter_data();
    void limitsAnswer429WithRetryAfter();
    void aProfileInUseIsAConflict();
    void sessionsExpire_data();
    void sessionsExpire();
    void aCrashEndsTheSessionAsCrashed();
    void releaseIsPerKey_data();
    void releaseIsPerKey();
    void theProfileIsSealedOnEveryEnd_data();
    void theProfileIsSealedOnEveryEnd();
    void aRestartEndsWhatTheLastProcessLeft();
    void theTokenIsBoundToItsSessionAndStoredHashed();
    void profilesArePerKey();
    void anUnavailableEngineIsRefused();
    void readsTheCreateRequest_data();
    void readsTheCreateRequest();
};

void tst_SessionService::limitsAnswer429WithRetryAfter_data()
{
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<QStringList>("keys"); // the sessions created first, by key
    QTest::addColumn<QString>("scope");
    QTest::newRow("a key past sessions.perKey is refused with 429 and a Retry-After")
        << QStringList{QStringLiteral("sessions.perKey=2")}
        << QStringList{QStringLiteral("key_a"), QStringLiteral("key_a")} << QStringLiteral("key");
    QTest::newRow("the service past sessions.max is refused although the key has room")
        << QStringList{QStringLiteral("sessions.max=2")}
        << QStringList{QStringLiteral("key_b"), QStringLiteral("key_c")}
        << QStringLiteral("service");
}

void tst_SessionService::limitsAnswer429WithRetryAfter()
{
    QFETCH(QStringList, settings);
    QFETCH(QStringList, keys);
    QFETCH(QString, scope);
    World w(settings);
    for (const QString &k : keys)
        w.create(keyOf(k), {}, 900, 120);
    w.clock.advance(20'000);
    try {
        w.service->create(keyOf(QStringLiteral("key_a")), CreateSessionRequest());
        QFAIL("a session past the limit was created");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::TooManyRequests);
        QCOMPARE(e.code(), QStringLiteral("SESSION_LIMIT"));
        QCOMPARE(e.details().value(QStringLiteral("scope")).toString(), scope);
        // The soonest end of the sessions in the way: 120 s idle, 20 s of it gone.
        QCOMPARE(e.retryAfterSeconds(), 100);
    }
    // A session that ends makes room.
    w.service->release(keyOf(QStringLiteral("key_owner"), true), w.service->all().first().id);
    const BrowserSessionInfo again = w.create(keyOf(QStringLiteral("key_a")));
    QVERIFY(!again.id.isEmpty());
}

void tst_SessionService::aProfileInUseIsAConflict()
{
    World w;
    w.create(keyOf(QStringLiteral("key_a")), QStringLiteral("shop"));
    try {
        CreateSessionRequest r;
        r.profile = QStringLiteral("shop");
        w.service->create(keyOf(QStringLiteral("key_a")), r);
        QFAIL("the profile was opened twice");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Conflict);
        QCOMPARE(e.field(), QStringLiteral("profile"));
    }
    // The same name in another key is another profile.
    w.create(keyOf(QStringLiteral("key_b")), QStringLiteral("shop"));
    // And it cannot be deleted while open.
    QVERIFY_THROWS_EXCEPTION(DomainError, w.service->deleteProfile(keyOf(QStringLiteral("key_a")),
                                                                   QStringLiteral("key_a"),
                                                                   QStringLiteral("shop")));
}

void tst_SessionService::sessionsExpire_data()
{
    QTest::addColumn<int>("timeoutS");
    QTest::addColumn<int>("idleS");
    QTest::addColumn<int>("clients");
    QTest::addColumn<int>("endsAfterS");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a session ends as expired at its timeoutSeconds")
        << 60 << 3600 << 0 << 60 << QStringLiteral("timeoutSeconds");
    QTest::newRow("a session with no client ends after its idle timeout")
        << 900 << 30 << 0 << 30 << QStringLiteral("idleTimeoutSeconds");
    QTest::newRow("a session with a client connected is not idle and ends at its timeout")
        << 90 << 30 << 1 << 90 << QStringLiteral("timeoutSeconds");
}

void tst_SessionService::sessionsExpire()
{
    QFETCH(int, timeoutS);
    QFETCH(int, idleS);
    QFETCH(int, clients);
    QFETCH(int, endsAfterS);
    QFETCH(QString, reason);
    World w;
    const Principal a = keyOf(QStringLiteral("key_a"));
    const QString id = w.create(a, QStringLiteral("p"), timeoutS, idleS).id;
    w.last()->setClients(clients);
    QSignalSpy ended(w.service.get(), &SessionService::sessionEnded);
    w.clock.advance(qint64(endsAfterS) * 1000 - 1);
    w.service->sweep();
    QCOMPARE(w.status(a, id), QStringLiteral("active"));
    w.clock.advance(1);
    w.service->sweep();
    QCOMPARE(w.status(a, id), QStringLiteral("expired"));
    QVERIFY(w.service->find(a, id)->endReason.contains(reason));
    QVERIFY(ended.wait());
    QVERIFY(w.last() == nullptr || w.last()->stopped());
    QVERIFY(!w.clearDirLeft(id));
}

void tst_SessionService::aCrashEndsTheSessionAsCrashed()
{
    World w;
    const Principal a = keyOf(QStringLiteral("key_a"));
    const QString id = w.create(a, QStringLiteral("p")).id;
    const QString other = w.create(a).id;
    QSignalSpy ended(w.service.get(), &SessionService::sessionEnded);
    w.browsers.first()->crash(QStringLiteral("the chromium process was killed (signal 9)"));
    QVERIFY(ended.wait());
    QCOMPARE(ended.first().at(0).toString(), id);
    QCOMPARE(ended.first().at(1).toString(), QStringLiteral("crashed"));
    const BrowserSessionInfo info = *w.service->find(a, id);
    QVERIFY2(info.endReason.contains(QStringLiteral("signal 9")), qPrintable(info.endReason));
    QVERIFY(info.endedAt.isValid());
    QVERIFY(!w.clearDirLeft(id));
    // Only that session.
    QCOMPARE(w.status(a, other), QStringLiteral("active"));
    QVERIFY(w.service->browserForToken(info.cdpToken) == nullptr);
}

void tst_SessionService::releaseIsPerKey_data()
{
    QTest::addColumn<QString>("releasedBy");
    QTest::addColumn<bool>("owner");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("a key releases its own session") << QStringLiteral("key_a") << false << true;
    QTest::newRow("another key's release is 404, as if there were no such session")
        << QStringLiteral("key_b") << false << false;
    QTest::newRow("the owner releases any session") << QStringLiteral("key_owner") << true << true;
}

void tst_SessionService::releaseIsPerKey()
{
    QFETCH(QString, releasedBy);
    QFETCH(bool, owner);
    QFETCH(bool, allowed);
    World w;
    const Principal a = keyOf(QStringLiteral("key_a"));
    const QString id = w.create(a).id;
    const Principal by = keyOf(releasedBy, owner);
    if (!allowed) {
        try {
            w.service->release(by, id);
            QFAIL("released by another key");
        } catch (const DomainError &e) {
            QCOMPARE(e.kind(), DomainError::Kind::NotFound);
        }
        QVERIFY(!w.service->find(by, id));
        QCOMPARE(w.status(a, id), QStringLiteral("active"));
        return;
    }
    QCOMPARE(w.service->release(by, id).status, QStringLiteral("released"));
    QTRY_COMPARE(w.service->liveCount(), 0);
    QCOMPARE(w.status(a, id), QStringLiteral("released"));
}

void tst_SessionService::theProfileIsSealedOnEveryEnd_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("a released session's profile is sealed") << QStringLiteral("release");
    QTest::newRow("an expired session's profile is sealed") << QStringLiteral("expire");
    QTest::newRow("a crashed session's profile is sealed") << QStringLiteral("crash");
    QTest::newRow("the service's shutdown seals every profile") << QStringLiteral("shutdown");
}

void tst_SessionService::theProfileIsSealedOnEveryEnd()
{
    QFETCH(QString, how);
    World w;
    const Principal a = keyOf(QStringLiteral("key_a"));
    const QString id = w.create(a, QStringLiteral("shop"), 900, 60).id;
    w.last()->keepCookie("session=signed-in");
    QSignalSpy ended(w.service.get(), &SessionService::sessionEnded);
    if (how == QLatin1String("release")) {
        w.service->release(a, id);
    } else if (how == QLatin1String("expire")) {
        w.clock.advance(60'000);
        w.service->sweep();
    } else if (how == QLatin1String("crash")) {
        w.last()->crash(QStringLiteral("gone"));
    } else {
        bool done = false;
        w.service->shutdown(5000, [&done] { done = true; });
        QTRY_VERIFY(done);
    }
    QTRY_COMPARE(ended.size(), 1);
    QVERIFY(!w.clearDirLeft(id));
    // Nothing of the profile is on disk in clear: only the sealed file.
    const QStringList sealed = QDir(QDir(w.dir.path()).filePath(QStringLiteral("profiles")))
                                   .entryList({QStringLiteral("*.profile")}, QDir::Files);
    QCOMPARE(sealed.size(), 1);
    QFile file(QDir(w.dir.path()).filePath(QStringLiteral("profiles/") + sealed.first()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("signed-in"));
    QVERIFY(w.service->profiles(a).first().bytes > 0);

    // The next session of the profile has the cookie back, without the cache.
    if (how == QLatin1String("shutdown"))
        w.restart();
    w.create(a, QStringLiteral("shop"));
    QCOMPARE(w.last()->cookiesAtStart(), QByteArray("session=signed-in"));
    QVERIFY(!w.last()->cacheAtStart());
    // Another key's profile of the same name has none of it.
    w.create(keyOf(QStringLiteral("key_b")), QStringLiteral("shop"));
    QCOMPARE(w.last()->cookiesAtStart(), QByteArray());
}

void tst_SessionService::aRestartEndsWhatTheLastProcessLeft()
{
    World w;
    const Principal a = keyOf(QStringLiteral("key_a"));
    // What a killed process leaves: a running row and a clear profile directory.
    SessionRepository repo(w.store);
    SessionRow row;
    row.id = QStringLiteral("bs_leftover");
    row.keyId = a.keyId;
    row.profile = QStringLiteral("shop");
    row.status = QStringLiteral("active");
    row.tokenHash = Ids::sha256Hex("t");
    row.width = 1280;
    row.height = 800;
    row.createdAt = row.lastActivityAt = kStart;
    row.expiresAt = kStart + 900'000;
    row.idleTimeoutS = 300;
    repo.insert(row);
    repo.useProfile(a.keyId, row.profile, kStart);
    ProfileVault vault(w.dir.path(), w.store.secrets());
    QString error;
    const QString dir = vault.open(a.keyId, row.profile, row.id, &error);
    QVERIFY2(!dir.isEmpty(), qPrintable(error));
    QVERIFY(QDir(dir).mkpath(QStringLiteral("Default")));
    QFile cookies(QDir(dir).filePath(QStringLiteral("Default/Cookies")));
    QVERIFY(cookies.open(QIODevice::WriteOnly));
    cookies.write("kept");
    cookies.close();
    // A clear directory no session row names is discarded.
    QVERIFY(QDir().mkpath(vault.openDir(QStringLiteral("bs_unknown"))));

    w.restart();
    const BrowserSessionInfo info = *w.service->find(a, row.id);
    QCOMPARE(info.status, QStringLiteral("crashed"));
    QVERIFY(info.endReason.startsWith(QStringLiteral("interrupted")));
    QVERIFY(!w.clearDirLeft(row.id));
    QVERIFY(!w.clearDirLeft(QStringLiteral("bs_unknown")));
    QVERIFY(w.service->list(a).isEmpty());
    w.create(a, QStringLiteral("shop"));
    QCOMPARE(w.last()->cookiesAtStart(), QByteArray("kept"));
}

void tst_SessionService::theTokenIsBoundToItsSessionAndStoredHashed()
{
    World w;
    const Principal a = keyOf(QStringLiteral("key_a"));
    const BrowserSessionInfo one = w.create(a);
    FakeSessionBrowser *first = w.last();
    const BrowserSessionInfo two = w.create(a);
    QVERIFY(one.cdpToken != two.cdpToken);
    QString id;
    QCOMPARE(w.service->browserForToken(one.cdpToken, &id), first);
    QCOMPARE(id, one.id);
    QVERIFY(w.service->browserForToken(one.cdpToken + QLatin1Char('x')) == nullptr);
    QVERIFY(w.service->browserForToken(QString()) == nullptr);
    const SessionRow stored = *SessionRepository(w.store).find(one.id);
    QCOMPARE(stored.tokenHash, Ids::sha256Hex(one.cdpToken.toUtf8()));
    // The token is shown to the session's key only.
    QCOMPARE(w.service->find(a, one.id)->cdpToken, one.cdpToken);
    QVERIFY(w.service->find(keyOf(QStringLiteral("key_o"), true), one.id)->cdpToken.isEmpty());
    QVERIFY(w.service->list(a).first().cdpToken.isEmpty());
    w.service->release(a, one.id);
    QVERIFY(w.service->browserForToken(one.cdpToken) == nullptr);
    QVERIFY(w.service->find(a, one.id)->cdpToken.isEmpty());
}

void tst_SessionService::profilesArePerKey()
{
    World w;
    const Principal a = keyOf(QStringLiteral("key_a"));
    const Principal b = keyOf(QStringLiteral("key_b"));
    w.service->release(a, w.create(a, QStringLiteral("shop")).id);
    QTRY_COMPARE(w.service->liveCount(), 0);
    QCOMPARE(w.service->profiles(a).size(), 1);
    QVERIFY(w.service->profiles(b).isEmpty());
    QVERIFY_THROWS_EXCEPTION(DomainError,
                             w.service->deleteProfile(b, a.keyId, QStringLiteral("shop")));
    w.service->deleteProfile(a, a.keyId, QStringLiteral("shop"));
    QVERIFY(w.service->profiles(a).isEmpty());
    QVERIFY(QDir(QDir(w.dir.path()).filePath(QStringLiteral("profiles")))
                .entryList({QStringLiteral("*.profile")}, QDir::Files)
                .isEmpty());
}

void tst_SessionService::anUnavailableEngineIsRefused()
{
    World w;
    w.engineProblem = QStringLiteral("chromium is not installed");
    try {
        w.service->create(keyOf(QStringLiteral("key_a")), CreateSessionRequest());
        QFAIL("created without an engine");
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Unavailable);
        QCOMPARE(e.code(), QStringLiteral("ENGINE_UNAVAILABLE"));
    }
    QCOMPARE(w.browsers.size(), 0);
}

void tst_SessionService::readsTheCreateRequest_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field"); // empty: accepted
    QTest::newRow("an empty body is a chromium session with the defaults")
        << QByteArray("{}") << QString();
    QTest::newRow("qtwebengine is refused naming engine")
        << QByteArray(R"({"engine":"qtwebengine"})") << QStringLiteral("engine");
    QTest::newRow("an unknown field is refused naming it")
        << QByteArray(R"({"browser":"x"})") << QStringLiteral("browser");
    QTest::newRow("a profile name with a slash is refused")
        << QByteArray(R"({"profile":"a/b"})") << QStringLiteral("profile");
    QTest::newRow("the profile name .. is refused")
        << QByteArray(R"({"profile":".."})") << QStringLiteral("profile");
    QTest::newRow("a viewport narrower than 320 is refused")
        << QByteArray(R"({"viewport":{"width":100,"height":600}})")
        << QStringLiteral("viewport.width");
    QTest::newRow("a user agent with a line break is refused")
        << QByteArray(R"({"userAgent":"a\nb"})") << QStringLiteral("userAgent");
    QTest::newRow("a timeout under 10 s is refused")
        << QByteArray(R"({"timeoutSeconds":5})") << QStringLiteral("timeoutSeconds");
    QTest::newRow("a setting other than the proxy is refused")
        << QByteArray(R"({"settings":{"planner":"llm"}})") << QStringLiteral("settings.planner");
    QTest::newRow("a proxy that is not a URL is refused")
        << QByteArray(R"({"settings":{"proxy":"nope"}})") << QStringLiteral("settings.proxy");
    QTest::newRow("a full request is read")
        << QByteArray(
               R"({"engine":"chromium","profile":"shop.v2","viewport":{"width":800,)"
               R"("height":600},"userAgent":"UA","timeoutSeconds":60,)"
               R"("idleTimeoutSeconds":20,"settings":{"proxy":"http://proxy.example:3128"}})")
        << QString();
}

void tst_SessionService::readsTheCreateRequest()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    EgressGrant grant;
    try {
        const CreateSessionRequest r = CreateSessionRequest::read(object, grant);
        QVERIFY2(field.isEmpty(), "accepted");
        if (object.contains(QStringLiteral("viewport"))) {
            QCOMPARE(r.width, 800);
            QCOMPARE(r.idleTimeoutSeconds, 20);
            QVERIFY(r.proxy);
        }
    } catch (const DomainError &e) {
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
        QCOMPARE(e.field(), field);
    }
}

QTEST_GUILESS_MAIN(tst_SessionService)
#include "tst_sessionservice.moc"
