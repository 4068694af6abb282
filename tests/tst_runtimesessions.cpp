// RuntimeSessions: session/open (bootstrap and refresh), the session and stream tokens,
// site tokens, the visitor's context and the open rates, on a real store with a manual
// clock. No HTTP.
#include "RuntimeParts.h"

#include "core/DomainError.h"
#include "runtime/RuntimeCommon.h"
#include "runtime/RuntimeSessions.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace ph;
using namespace ph::runtime;
using ph::test::json;
using ph::test::thrown;

class tst_RuntimeSessions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void opensASessionWithThePublicKey();
    void refusesAnOpenNamingWhy_data();
    void refusesAnOpenNamingWhy();
    void refreshesWithAValidSessionToken();
    void asksForABootstrapOnceTheTokenExpired();
    void limitsOpensPerClientAndMinute();
    void opensOnceWithABootstrapToken();
    void exchangesAContextTokenOnce();
    void sanitizesTheVisitorsContext_data();
    void sanitizesTheVisitorsContext();

private:
    // The session as a call's token reads it now (its seq moves with every event).
    Session current(const OpenedSession &o) const
    {
        return m_sessions->authenticate(o.sessionToken, QString());
    }
    QJsonObject bootstrap(const QString &host = QStringLiteral("shop.harbour.example")) const;
    std::unique_ptr<test::RuntimeParts> m_parts;
    std::unique_ptr<RuntimeSessions> m_sessions;
};

void tst_RuntimeSessions::init()
{
    m_parts = std::make_unique<test::RuntimeParts>();
    QVERIFY(m_parts->opened);
    m_sessions = std::make_unique<RuntimeSessions>(*m_parts->journal);
}

void tst_RuntimeSessions::cleanup()
{
    m_sessions.reset();
    m_parts.reset();
}

QJsonObject tst_RuntimeSessions::bootstrap(const QString &host) const
{
    return {{QStringLiteral("siteId"), m_parts->siteId},
            {QStringLiteral("host"), host},
            {QStringLiteral("publicKey"), m_parts->key.publicKey}};
}

void tst_RuntimeSessions::opensASessionWithThePublicKey()
{
    QJsonObject body = bootstrap();
    body.insert(QStringLiteral("visitor"),
                json(R"({"context":{"plan":"gold","password":"hunter2"}})"));
    const OpenedSession o = m_sessions->open(body, QString(), QStringLiteral("192.0.2.1"));
    QVERIFY(o.session.id.startsWith(QLatin1String("rts_")));
    QVERIFY(!o.refreshed);
    QCOMPARE(o.session.host, QStringLiteral("shop.harbour.example"));
    QCOMPARE(o.session.seq, qint64(1));
    QCOMPARE(o.session.context, json(R"({"plan":"gold"})"));
    QVERIFY(o.sessionToken.startsWith(QLatin1String("sess_")));
    QVERIFY(o.streamToken.startsWith(QLatin1String("stream_")));
    QCOMPARE(o.sessionTokenExpiresAt, m_parts->clock.nowMs() + 600 * 1000);
    QCOMPARE(o.capabilities.value(QStringLiteral("embed")).toBool(), true);
    QCOMPARE(o.analytics.value(QStringLiteral("sid")).toString(), o.session.id);
    // Stored, its opening announced once, and its tokens open it.
    QCOMPARE(m_parts->advanced.size(), 1);
    QCOMPARE(m_parts->advanced.first(), qMakePair(o.session.id, qint64(1)));
    QCOMPARE(m_parts->repo().eventsAfter(o.session.id, 0, 10).first().type,
             QStringLiteral("session.opened"));
    QCOMPARE(m_sessions->authenticate(o.sessionToken, o.session.id).id, o.session.id);
    QCOMPARE(m_sessions->authenticateStream(o.streamToken).id, o.session.id);
    QCOMPARE(thrown([&] { m_sessions->authenticate(o.streamToken, QString()); }).code(),
             QStringLiteral("SESSION_TOKEN_INVALID"));
    QCOMPARE(
        thrown([&] { m_sessions->authenticate(o.sessionToken, QStringLiteral("rts_x")); }).code(),
        QStringLiteral("SESSION_TOKEN_INVALID"));
}

void tst_RuntimeSessions::refusesAnOpenNamingWhy_data()
{
    QTest::addColumn<QJsonObject>("change");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("a secret site key in a page is refused")
        << json(R"({"publicKey":"sk_site_abc"})") << "INVALID_FIELD"
        << "publicKey";
    QTest::newRow("an unknown public key asks for a bootstrap")
        << json(R"({"publicKey":"pk_site_unknown"})") << "BOOTSTRAP_REQUIRED" << QString();
    QTest::newRow("a call with neither a token nor a key asks for a bootstrap")
        << json(R"({"publicKey":""})") << "BOOTSTRAP_REQUIRED" << QString();
    QTest::newRow("a page on a host the key does not allow is refused")
        << json(R"({"host":"shop.other.example"})") << "DOMAIN_NOT_ALLOWED"
        << "host";
    QTest::newRow("a page given by a URL is refused naming the url")
        << json(R"({"host":"","url":"https://shop.other.example/cart"})") << "DOMAIN_NOT_ALLOWED"
        << "url";
    QTest::newRow("a page that is not http(s) is refused")
        << json(R"({"host":"","url":"ftp://shop.harbour.example/"})") << "INVALID_FIELD"
        << "url";
    QTest::newRow("a call without a host or a url names the host")
        << json(R"({"host":""})") << "MISSING_FIELD"
        << "host";
    QTest::newRow("the key of one site does not open another site's session")
        << json(R"({"siteId":"site_other"})") << "SITE_KEY_MISMATCH"
        << "siteId";
}

void tst_RuntimeSessions::refusesAnOpenNamingWhy()
{
    QFETCH(QJsonObject, change);
    QFETCH(QString, code);
    QFETCH(QString, field);
    QJsonObject body = bootstrap();
    for (auto it = change.begin(); it != change.end(); ++it) {
        if (it.value().toString().isEmpty())
            body.remove(it.key());
        else
            body.insert(it.key(), it.value());
    }
    const DomainError e =
        thrown([&] { m_sessions->open(body, QString(), QStringLiteral("192.0.2.1")); });
    QCOMPARE(e.code(), code);
    QCOMPARE(e.field(), field);
    QVERIFY(m_parts->repo().liveSessions(10).isEmpty());
}

void tst_RuntimeSessions::refreshesWithAValidSessionToken()
{
    const OpenedSession first = m_sessions->open(bootstrap(), QString(), QStringLiteral("a"));
    m_parts->clock.advance(60 * 1000);
    const OpenedSession again = m_sessions->open({}, first.sessionToken, QStringLiteral("a"));
    QVERIFY(again.refreshed);
    QCOMPARE(again.session.id, first.session.id);
    QVERIFY(again.sessionToken != first.sessionToken);
    // The old token keeps working until it expires: a refresh is not a logout.
    QCOMPARE(m_sessions->authenticate(first.sessionToken, QString()).id, first.session.id);
    QCOMPARE(thrown([&] {
                 m_sessions->open(json(R"({"sessionId":"rts_other"})"), first.sessionToken,
                                  QStringLiteral("a"));
             }).code(),
             QStringLiteral("SESSION_TOKEN_INVALID"));
}

void tst_RuntimeSessions::asksForABootstrapOnceTheTokenExpired()
{
    const OpenedSession o = m_sessions->open(bootstrap(), QString(), QStringLiteral("a"));
    m_parts->clock.advance(600 * 1000);
    const DomainError e = thrown([&] { m_sessions->authenticate(o.sessionToken, QString()); });
    QCOMPARE(e.code(), QStringLiteral("SESSION_TOKEN_EXPIRED"));
    QCOMPARE(e.details().value(QStringLiteral("retryable")).toBool(), true);
    QCOMPARE(thrown([&] { m_sessions->open({}, o.sessionToken, QStringLiteral("a")); }).code(),
             QStringLiteral("SESSION_TOKEN_EXPIRED"));
    // With the public key it bootstraps a new session.
    QJsonObject body = bootstrap();
    body.insert(QStringLiteral("sessionToken"), o.sessionToken);
    const OpenedSession fresh = m_sessions->open(body, QString(), QStringLiteral("a"));
    QVERIFY(!fresh.refreshed);
    QVERIFY(fresh.session.id != o.session.id);
}

void tst_RuntimeSessions::limitsOpensPerClientAndMinute()
{
    QCOMPARE(m_parts->settings->set(SettingKeys::runtimeSessionOpensPerMinutePerClient, 2),
             QString());
    m_sessions->open(bootstrap(), QString(), QStringLiteral("192.0.2.1"));
    m_parts->clock.advance(10 * 1000);
    m_sessions->open(bootstrap(), QString(), QStringLiteral("192.0.2.1"));
    const DomainError e =
        thrown([&] { m_sessions->open(bootstrap(), QString(), QStringLiteral("192.0.2.1")); });
    QCOMPARE(e.code(), QStringLiteral("RATE_LIMITED"));
    QCOMPARE(e.details().value(QStringLiteral("scope")).toString(), QStringLiteral("client"));
    QCOMPARE(e.retryAfterSeconds(), 50); // the first open leaves the window then
    // Another client is not held back; the first one is once its minute is over.
    m_sessions->open(bootstrap(), QString(), QStringLiteral("192.0.2.2"));
    m_parts->clock.advance(50 * 1000);
    m_sessions->open(bootstrap(), QString(), QStringLiteral("192.0.2.1"));
}

void tst_RuntimeSessions::opensOnceWithABootstrapToken()
{
    const QString secret = m_parts->sites->mintSecret(m_parts->key.id);
    const MintedSiteToken t = m_sessions->mintSiteToken(
        secret, json(R"({"kind":"bootstrap","host":"shop.harbour.example"})"));
    QVERIFY(t.token.startsWith(QLatin1String("bt_")));
    const QJsonObject body{{QStringLiteral("siteId"), m_parts->siteId},
                           {QStringLiteral("host"), QStringLiteral("shop.harbour.example")},
                           {QStringLiteral("bootstrapToken"), t.token}};
    QVERIFY(!m_sessions->open(body, QString(), QStringLiteral("a")).session.id.isEmpty());
    QCOMPARE(thrown([&] { m_sessions->open(body, QString(), QStringLiteral("a")); }).code(),
             QStringLiteral("BOOTSTRAP_REQUIRED"));
    QCOMPARE(
        thrown([&] { m_sessions->mintSiteToken(QStringLiteral("sk_site_wrong"), body); }).code(),
        QStringLiteral("SITE_SECRET_INVALID"));
    QCOMPARE(thrown([&] {
                 m_sessions->mintSiteToken(
                     secret, json(R"({"kind":"bootstrap","host":"shop.other.example"})"));
             }).field(),
             QStringLiteral("host"));
}

void tst_RuntimeSessions::exchangesAContextTokenOnce()
{
    const OpenedSession o = m_sessions->open(bootstrap(), QString(), QStringLiteral("a"));
    const MintedSiteToken t = m_sessions->mintSiteToken(
        m_parts->sites->mintSecret(m_parts->key.id),
        json(R"({"kind":"context","context":{"tier":"gold","apiKey":"x"},"subject":"u1"})"));
    const QJsonObject body{
        {QStringLiteral("visitor"), QJsonObject{{QStringLiteral("contextToken"), t.token}}}};
    const QJsonObject first = m_sessions->updateContext(current(o), body);
    QCOMPARE(first.value(QStringLiteral("contextToken"))
                 .toObject()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("resolved"));
    QCOMPARE(first.value(QStringLiteral("context")).toObject(),
             json(R"({"tier":"gold","subject":"u1"})"));
    const QJsonObject second = m_sessions->updateContext(current(o), body);
    QCOMPARE(second.value(QStringLiteral("contextToken"))
                 .toObject()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("already_exchanged"));
    // visitor null clears the context (a logout).
    const QJsonObject cleared = m_sessions->updateContext(current(o), json(R"({"visitor":null})"));
    QCOMPARE(cleared.value(QStringLiteral("context")).toObject(), QJsonObject());
}

void tst_RuntimeSessions::sanitizesTheVisitorsContext_data()
{
    QTest::addColumn<QJsonObject>("context");
    QTest::addColumn<QJsonObject>("kept");
    QTest::addColumn<QStringList>("dropped");
    QTest::newRow("data-only values are kept as they are")
        << json(R"({"plan":"gold","items":3,"member":true})")
        << json(R"({"plan":"gold","items":3,"member":true})") << QStringList();
    QTest::newRow("a secret-looking key is dropped and named")
        << json(R"({"plan":"gold","sessionCookie":"abc","cardNumber":"4111"})")
        << json(R"({"plan":"gold"})")
        << QStringList{QStringLiteral("cardNumber"), QStringLiteral("sessionCookie")};
    QTest::newRow("recent requests are cut to the last three")
        << json(R"({"recentRequests":["a","b","c","d","e"]})")
        << json(R"({"recentRequests":["c","d","e"]})") << QStringList();
    QTest::newRow("a secret inside an object is dropped, the object kept")
        << json(R"({"profile":{"name":"Ann","password":"x"}})")
        << json(R"({"profile":{"name":"Ann"}})") << QStringList();
    QTest::newRow("a null value is not data and is dropped")
        << json(R"({"plan":null})") << QJsonObject() << QStringList{QStringLiteral("plan")};
}

void tst_RuntimeSessions::sanitizesTheVisitorsContext()
{
    QFETCH(QJsonObject, context);
    QFETCH(QJsonObject, kept);
    QFETCH(QStringList, dropped);
    QStringList names;
    QCOMPARE(sanitizeContext(context, &names), kept);
    QCOMPARE(names, dropped);
}

QTEST_GUILESS_MAIN(tst_RuntimeSessions)
#include "tst_runtimesessions.moc"
