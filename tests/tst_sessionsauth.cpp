// The authorisation matrix of browser sessions (issue 30): every route of the sessions
// area against every kind of credential, and the CDP token as the only credential of
// the DevTools endpoints. The session browser is a fake (no Chromium): this is about who
// may call what, and that no secret reaches anyone else.
#include "FakeSessionBrowser.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "http/HttpServer.h"
#include "http/Route.h"
#include "sessions/SessionService.h"

#include <QJsonArray>
#include <QUrlQuery>

#include <functional>

using namespace ph;
using namespace ph::test;

namespace {

enum Credential { NoCredential, WrongApiKey, ConnectKey, OtherUsersApiKey, OwnerApiKey, Count };

const char *credentialName(int c)
{
    static const char *names[] = {"no credential", "a wrong API key", "a Connect AI key",
                                  "the API key of another (non-owner) user", "the owner's API key"};
    return names[c];
}

struct Endpoint
{
    QString name;
    std::function<QPair<QByteArray, QString>()> make; // method and path, made fresh
    QList<int> expected;                              // one status per Credential
};

} // namespace

class tst_SessionsAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void answers_data();
    void answers();
    void coversEveryRouteOfTheArea();
    void theCdpTokenIsTheOnlyCredentialOfTheDevToolsEndpoints_data();
    void theCdpTokenIsTheOnlyCredentialOfTheDevToolsEndpoints();
    void theLiveViewTokenIsTheOnlyCredentialOfTheLiveView_data();
    void theLiveViewTokenIsTheOnlyCredentialOfTheLiveView();

private:
    QJsonObject ownerSession(const QString &profile = {});
    static QString livePath(const QJsonObject &session, const QString &tail);
    QString credential(int c) const;

    std::unique_ptr<TestService> m_ph;
    QList<Endpoint> m_endpoints;
    QString m_user, m_connect;
    int m_counter = 0;
};

QString tst_SessionsAuth::credential(int c) const
{
    switch (c) {
    case WrongApiKey:
        return QStringLiteral("phk_thisIsNotAKeyOfThisServiceAtAll0000");
    case ConnectKey:
        return m_connect;
    case OtherUsersApiKey:
        return m_user;
    case OwnerApiKey:
        return m_ph->ownerKey();
    default:
        return {};
    }
}

QJsonObject tst_SessionsAuth::ownerSession(const QString &profile)
{
    QJsonObject body;
    if (!profile.isEmpty())
        body.insert(QStringLiteral("profile"), profile);
    const HttpResponse r = m_ph->client().post(QStringLiteral("/sessions"), body);
    r.expectStatus({201}, __FILE__, __LINE__);
    return r.json();
}

void tst_SessionsAuth::initTestCase()
{
    m_ph = std::make_unique<TestService>(
        QStringList{QStringLiteral("sessions.perKey=100"), QStringLiteral("sessions.max=200")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_ph->service().sessions().setBrowserFactory(
        [](const SessionBrowserSpec &spec) { return std::make_unique<FakeSessionBrowser>(spec); });
    m_user = m_ph->mintKey(100);
    const QString site =
        m_ph->client()
            .post(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), QStringLiteral("Site")},
                   {QStringLiteral("label"), QStringLiteral("a")},
                   {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("a.example")}}})
            .json()
            .value(QStringLiteral("siteId"))
            .toString();
    m_connect = m_ph->client()
                    .post(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), site}})
                    .json()
                    .value(QStringLiteral("key"))
                    .toString();
    QVERIFY(m_connect.startsWith(QLatin1String("ck_")));

    auto keyed = [](int ok, int other) { return QList<int>{401, 401, 401, other, ok}; };
    m_endpoints = {
        {QStringLiteral("POST /sessions"),
         [] { return qMakePair(QByteArray("POST"), QStringLiteral("/sessions")); },
         keyed(201, 201)},
        {QStringLiteral("GET /sessions"),
         [] { return qMakePair(QByteArray("GET"), QStringLiteral("/sessions")); }, keyed(200, 200)},
        {QStringLiteral("GET /sessions/profiles"),
         [] { return qMakePair(QByteArray("GET"), QStringLiteral("/sessions/profiles")); },
         keyed(200, 200)},
        {QStringLiteral("DELETE /sessions/profiles/{name}"),
         [this] {
             const QString name = QStringLiteral("p%1").arg(++m_counter);
             const QString id = ownerSession(name).value(QStringLiteral("id")).toString();
             m_ph->client().send("DELETE", QStringLiteral("/sessions/") + id);
             if (!QTest::qWaitFor([this] { return m_ph->service().sessions().liveCount() == 0; }))
                 qWarning("the profile's session did not end");
             return qMakePair(QByteArray("DELETE"), QStringLiteral("/sessions/profiles/") + name);
         },
         keyed(200, 404)},
        {QStringLiteral("GET /sessions/{id}"),
         [this] {
             return qMakePair(QByteArray("GET"),
                              QStringLiteral("/sessions/") +
                                  ownerSession().value(QStringLiteral("id")).toString());
         },
         keyed(200, 404)},
        {QStringLiteral("DELETE /sessions/{id}"),
         [this] {
             return qMakePair(QByteArray("DELETE"),
                              QStringLiteral("/sessions/") +
                                  ownerSession().value(QStringLiteral("id")).toString());
         },
         keyed(200, 404)},
        // The live view's token is its credential: with no key or any valid one, the page
        // answers, an ended session's stream says `end` and closes, and an input reaches
        // the body check (400 for {}); a key that is presented and not valid is refused
        // as on every public route; without the token every one is 403 (below).
        {QStringLiteral("GET /sessions/{id}/live"),
         [this] { return qMakePair(QByteArray("GET"), livePath(ownerSession(), QString())); },
         QList<int>{200, 401, 401, 200, 200}},
        {QStringLiteral("GET /sessions/{id}/live/stream"),
         [this] {
             const QJsonObject s = ownerSession();
             m_ph->client().send("DELETE",
                                 QStringLiteral("/sessions/") + s[QStringLiteral("id")].toString());
             return qMakePair(QByteArray("GET"), livePath(s, QStringLiteral("/stream")));
         },
         QList<int>{200, 401, 401, 200, 200}},
        {QStringLiteral("POST /sessions/{id}/live/input"),
         [this] {
             return qMakePair(QByteArray("POST"),
                              livePath(ownerSession(), QStringLiteral("/input")));
         },
         QList<int>{400, 401, 401, 400, 400}},
    };
}

// "/sessions/<id>/live<tail>?token=…" of a session's liveViewUrl.
QString tst_SessionsAuth::livePath(const QJsonObject &session, const QString &tail)
{
    const QUrl u(session.value(QStringLiteral("liveViewUrl")).toString());
    return u.path() + tail + QLatin1Char('?') + u.query();
}

void tst_SessionsAuth::cleanup()
{
    for (const sessions::BrowserSessionInfo &s : m_ph->service().sessions().all())
        m_ph->client().send("DELETE", QStringLiteral("/sessions/") + s.id);
    QTRY_COMPARE(m_ph->service().sessions().liveCount(), 0);
}

void tst_SessionsAuth::answers_data()
{
    QTest::addColumn<int>("endpoint");
    QTest::addColumn<int>("credential");
    for (int e = 0; e < m_endpoints.size(); ++e) {
        for (int c = 0; c < Count; ++c) {
            const QByteArray name =
                (m_endpoints.at(e).name + QStringLiteral(" with ") + credentialName(c)).toUtf8();
            QTest::newRow(name.constData()) << e << c;
        }
    }
}

void tst_SessionsAuth::answers()
{
    QFETCH(int, endpoint);
    QFETCH(int, credential);
    const Endpoint &e = m_endpoints.at(endpoint);
    const auto [method, path] = e.make();
    HttpClient c(m_ph->base());
    c.setBearer(this->credential(credential));
    const HttpResponse r = c.send(method, path, method == "POST" ? QByteArray("{}") : QByteArray(),
                                  {{"content-type", "application/json"}});
    QVERIFY2(r.status == e.expected.at(credential),
             qPrintable(QStringLiteral("%1 answered %2: %3")
                            .arg(e.name)
                            .arg(r.status)
                            .arg(QString::fromUtf8(r.body.left(300)))));
    // No key's secret is in any answer; a session's token only in its own key's.
    for (const QString &secret : {m_ph->ownerKey(), m_user, m_connect})
        QVERIFY(!r.body.contains(secret.toUtf8()));
    if (credential != OwnerApiKey && credential != OtherUsersApiKey)
        QVERIFY(!r.body.contains("/cdp/"));
    if (credential == OtherUsersApiKey && r.status != 201)
        QVERIFY(!r.body.contains("/cdp/"));
}

void tst_SessionsAuth::coversEveryRouteOfTheArea()
{
    QStringList covered;
    for (const Endpoint &e : std::as_const(m_endpoints))
        covered.append(e.name);
    covered << QStringLiteral("GET /cdp/{token}/json/version")
            << QStringLiteral("GET /cdp/{token}/json")
            << QStringLiteral("GET /cdp/{token}/json/list");
    int routes = 0;
    for (const http::Route &r : m_ph->service().http().routes()) {
        if (!r.pattern.startsWith(QLatin1String("/sessions")) &&
            !r.pattern.startsWith(QLatin1String("/cdp/")))
            continue;
        ++routes;
        const QString name = QString::fromLatin1(r.method) + QLatin1Char(' ') + r.pattern;
        QVERIFY2(covered.contains(name), qPrintable(name));
    }
    QCOMPARE(routes, int(covered.size()));
}

void tst_SessionsAuth::theCdpTokenIsTheOnlyCredentialOfTheDevToolsEndpoints_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("status");
    QTest::newRow("the session's own token answers /json/version") << QStringLiteral("own") << 200;
    QTest::newRow("a made-up token is 401") << QStringLiteral("made-up") << 401;
    QTest::newRow("the owner's API key in place of the token is 401")
        << QStringLiteral("key") << 401;
    QTest::newRow("the token of a released session is 401") << QStringLiteral("released") << 401;
}

void tst_SessionsAuth::theCdpTokenIsTheOnlyCredentialOfTheDevToolsEndpoints()
{
    QFETCH(QString, token);
    QFETCH(int, status);
    const QJsonObject s = ownerSession();
    QString t = s.value(QStringLiteral("cdpHttpUrl")).toString().section(QLatin1Char('/'), -1);
    QVERIFY(t.startsWith(QLatin1String("cdp_")));
    if (token == QLatin1String("made-up"))
        t = QStringLiteral("cdp_") + QString(40, QLatin1Char('A'));
    else if (token == QLatin1String("key"))
        t = m_ph->ownerKey();
    else if (token == QLatin1String("released"))
        m_ph->client().send("DELETE",
                            QStringLiteral("/sessions/") + s[QStringLiteral("id")].toString());
    HttpClient anonymous(m_ph->base());
    for (const QString &tail : {QStringLiteral("/json/version"), QStringLiteral("/json/version/"),
                                QStringLiteral("/json"), QStringLiteral("/json/list")}) {
        const HttpResponse r = anonymous.get(QStringLiteral("/cdp/") + t + tail);
        QVERIFY2(r.status == status, qPrintable(tail + QStringLiteral(": %1").arg(r.status)));
        QVERIFY(!r.body.contains(t.toUtf8()) || status == 200);
    }
    if (status == 200) {
        const HttpResponse v =
            anonymous.get(QStringLiteral("/cdp/") + t + QStringLiteral("/json/version"));
        QCOMPARE(v.json().value(QStringLiteral("webSocketDebuggerUrl")).toString(),
                 s.value(QStringLiteral("cdpUrl")).toString());
    }
}

void tst_SessionsAuth::theLiveViewTokenIsTheOnlyCredentialOfTheLiveView_data()
{
    QTest::addColumn<QString>("token");
    QTest::newRow("no token") << QString();
    QTest::newRow("a made-up token") << QStringLiteral("made-up");
    QTest::newRow("the session's CDP token") << QStringLiteral("cdp");
    QTest::newRow("the owner's API key") << QStringLiteral("key");
    QTest::newRow("another session's token") << QStringLiteral("other");
    QTest::newRow("a token whose expiry was moved") << QStringLiteral("moved");
}

void tst_SessionsAuth::theLiveViewTokenIsTheOnlyCredentialOfTheLiveView()
{
    QFETCH(QString, token);
    const QJsonObject s = ownerSession();
    const QString own = QUrlQuery(QUrl(s.value(QStringLiteral("liveViewUrl")).toString()).query())
                            .queryItemValue(QStringLiteral("token"));
    QVERIFY(!own.isEmpty());
    QString t;
    if (token == QLatin1String("made-up"))
        t = QStringLiteral("1.") + QString(64, QLatin1Char('a'));
    else if (token == QLatin1String("cdp"))
        t = s.value(QStringLiteral("cdpHttpUrl")).toString().section(QLatin1Char('/'), -1);
    else if (token == QLatin1String("key"))
        t = m_ph->ownerKey();
    else if (token == QLatin1String("other"))
        t = QUrlQuery(QUrl(ownerSession().value(QStringLiteral("liveViewUrl")).toString()).query())
                .queryItemValue(QStringLiteral("token"));
    else if (token == QLatin1String("moved"))
        t = QString::number(own.section(QLatin1Char('.'), 0, 0).toLongLong() + 3600) +
            QLatin1Char('.') + own.section(QLatin1Char('.'), 1);
    const QString base =
        QStringLiteral("/sessions/") + s[QStringLiteral("id")].toString() + QStringLiteral("/live");
    const QString query =
        QStringLiteral("?token=") + QString::fromLatin1(QUrl::toPercentEncoding(t));
    HttpClient anonymous(m_ph->base());
    for (const QString &tail : {QString(), QStringLiteral("/stream"), QStringLiteral("/input")}) {
        const HttpResponse r =
            tail.endsWith(QLatin1String("input"))
                ? anonymous.post(base + tail + query,
                                 {{QStringLiteral("type"), QStringLiteral("key")},
                                  {QStringLiteral("key"), QStringLiteral("Enter")}})
                : anonymous.get(base + tail + query);
        QVERIFY2(r.status == 403, qPrintable(tail + QStringLiteral(": %1").arg(r.status)));
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("LIVE_VIEW_TOKEN_INVALID"));
    }
}

PH_WEBENGINE_TEST_MAIN(tst_SessionsAuth)
#include "tst_sessionsauth.moc"
