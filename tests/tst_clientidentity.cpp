// Client identity behind a reverse proxy (docs/security.md, "Client identity behind a
// reverse proxy"), through the real service on loopback: the test plays a reverse proxy
// on 127.0.0.1 that sends X-Forwarded-For, and the clients behind it. Per-client limits
// (connections, open streams, the A2W rate limit) hold for each client, not for the
// proxy; an untrusted peer's X-Forwarded-For is ignored; open streams are capped per
// client and per site.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "a2w/A2wService.h"
#include "http/HttpServer.h"

#include <QJsonArray>
#include <QTcpSocket>

using namespace ph;
using namespace ph::test;

namespace {

using Sockets = std::vector<std::unique_ptr<QTcpSocket>>;

// Sends `request` on a new connection and reads until the answer's head has come (and,
// for an answer that is not a stream, its JSON body). The connection stays open.
std::unique_ptr<QTcpSocket> send(quint16 port, const QByteArray &request, QByteArray *reply)
{
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(QHostAddress::LocalHost, port);
    socket->write(request);
    auto complete = [reply] {
        const qsizetype end = reply->indexOf("\r\n\r\n");
        if (end < 0)
            return false;
        return reply->startsWith("HTTP/1.1 200") || reply->endsWith("}");
    };
    (void)QTest::qWaitFor(
        [&] {
            *reply += socket->readAll();
            return complete();
        },
        10000);
    return socket;
}

QJsonObject bodyOf(const QByteArray &reply)
{
    return QJsonDocument::fromJson(reply.mid(reply.indexOf("\r\n\r\n") + 4)).object();
}

} // namespace

class tst_ClientIdentity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void countsAProxiedConnectionForItsClient();
    void capsTheStreamsOfOneClient();
    void ignoresForwardedForFromAnUntrustedPeer();
    void capsTheStreamsOfOneSite();
    void rateLimitsA2wRunsPerClientBehindTheProxy();
    void takesTheTrustedProxiesFromTheSettings();

private:
    // A service with an enabled site (fixture pages on 127.0.0.1) and these settings.
    std::unique_ptr<TestService> start(const QStringList &settings);
    // Creates a browser-mode A2W run (it waits for a visitor's browser, holding no page)
    // as the client `forwardedFor`; returns its id and access token.
    QPair<QString, QString> run(TestService &ph, const QByteArray &forwardedFor = {});
    // The run's event stream, as `forwardedFor` through the proxy.
    static QByteArray streamRequest(const QPair<QString, QString> &run,
                                    const QByteArray &forwardedFor);

    FixtureServer m_site;
};

void tst_ClientIdentity::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/shop", "<!doctype html><title>Shop</title><h1>Shop</h1>");
}

std::unique_ptr<TestService> tst_ClientIdentity::start(const QStringList &settings)
{
    auto ph =
        std::make_unique<TestService>(QStringList{QStringLiteral("pool.standby=0")} + settings);
    if (!ph->ok())
        return ph;
    const HttpResponse r = ph->client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Harbour")},
         {QStringLiteral("label"), QStringLiteral("embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}});
    if (r.status != 201)
        qWarning() << "generateSiteKey" << r.status << r.body;
    ph->allowBrowserHandoffs();                // off by default; the runs here are browser runs
    ph->listPrivateHosts({m_site.hostPort()}); // the site is on a random loopback port
    return ph;
}

QPair<QString, QString> tst_ClientIdentity::run(TestService &ph, const QByteArray &forwardedFor)
{
    HttpClient::Headers headers{{"Content-Type", "application/json"},
                                {"Prefer", "execution=browser"}};
    if (!forwardedFor.isEmpty())
        headers.append({"X-Forwarded-For", forwardedFor});
    const HttpResponse r = HttpClient(ph.base()).send(
        "POST", QStringLiteral("/v2/a2w/runs"),
        QJsonDocument(QJsonObject{{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
                                  {QStringLiteral("prompt"), QStringLiteral("List the products")}})
            .toJson(QJsonDocument::Compact),
        headers);
    if (r.status != 201)
        qWarning() << "create" << r.status << r.body;
    return {r.json().value(QStringLiteral("id")).toString(),
            r.json().value(QStringLiteral("run")).toString().section(QStringLiteral("access="), 1)};
}

QByteArray tst_ClientIdentity::streamRequest(const QPair<QString, QString> &run,
                                             const QByteArray &forwardedFor)
{
    QByteArray request = "GET /v2/a2w/runs/" + run.first.toUtf8() +
                         "?access=" + run.second.toUtf8() +
                         " HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n";
    if (!forwardedFor.isEmpty())
        request += "X-Forwarded-For: " + forwardedFor + "\r\n";
    return request + "\r\n";
}

void tst_ClientIdentity::countsAProxiedConnectionForItsClient()
{
    // Finding 4 of issue 28: behind a proxy every client is the proxy's address, so one
    // client's open streams used up the per-address connection cap for everyone.
    auto ph = start({QStringLiteral("http.trustedProxies=127.0.0.1, ::1"),
                     QStringLiteral("http.maxConnectionsPerAddress=6"),
                     QStringLiteral("http.maxStreamsPerClient=100")});
    QVERIFY2(ph->ok(), qPrintable(ph->error()));
    const auto a = run(*ph, "203.0.113.1");
    QVERIFY(!a.first.isEmpty());
    Sockets held;
    for (int i = 0; i < 6; ++i) {
        QByteArray reply;
        held.push_back(send(ph->port(), streamRequest(a, "203.0.113.1"), &reply));
        QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    }
    // Client A is at its cap: its next request is refused, as its own.
    QByteArray refused;
    auto extra = send(ph->port(), streamRequest(a, "203.0.113.1"), &refused);
    QVERIFY2(refused.startsWith("HTTP/1.1 429"), refused.constData());
    QCOMPARE(bodyOf(refused).value(QStringLiteral("code")).toString(),
             QStringLiteral("TOO_MANY_CONNECTIONS"));
    QVERIFY(refused.contains("Retry-After: "));
    // Another client behind the same proxy is served: a request and a stream.
    const HttpResponse other =
        HttpClient(ph->base())
            .get(QStringLiteral("/v2/a2w/runs/%1?access=%2").arg(a.first, a.second),
                 {{"X-Forwarded-For", "203.0.113.2"}});
    QCOMPARE(other.status, 200);
    QByteArray stream;
    held.push_back(send(ph->port(), streamRequest(a, "203.0.113.2"), &stream));
    QVERIFY2(stream.startsWith("HTTP/1.1 200"), stream.constData());
    QCOMPARE(ph->service().http().connectionsFrom(QHostAddress(QStringLiteral("203.0.113.1"))), 6);
    QCOMPARE(ph->service().http().connectionsFrom(QHostAddress(QStringLiteral("203.0.113.2"))), 1);
}

void tst_ClientIdentity::capsTheStreamsOfOneClient()
{
    auto ph = start({QStringLiteral("http.trustedProxies=127.0.0.1"),
                     QStringLiteral("http.maxStreamsPerClient=3")});
    QVERIFY2(ph->ok(), qPrintable(ph->error()));
    const auto a = run(*ph, "203.0.113.1");
    QVERIFY(!a.first.isEmpty());
    Sockets held;
    for (int i = 0; i < 3; ++i) {
        QByteArray reply;
        held.push_back(send(ph->port(), streamRequest(a, "203.0.113.1"), &reply));
        QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    }
    QByteArray refused;
    auto extra = send(ph->port(), streamRequest(a, "203.0.113.1"), &refused);
    QVERIFY2(refused.startsWith("HTTP/1.1 429"), refused.constData());
    QVERIFY(refused.contains("Retry-After: 5"));
    const QJsonObject body = bodyOf(refused);
    QCOMPARE(body.value(QStringLiteral("code")).toString(), QStringLiteral("TOO_MANY_STREAMS"));
    QVERIFY2(body.value(QStringLiteral("error"))
                 .toString()
                 .contains(QLatin1String("http.maxStreamsPerClient")),
             refused.constData());
    QCOMPARE(ph->service().http().openStreamsOf(QHostAddress(QStringLiteral("203.0.113.1"))), 3);
    // Another client behind the proxy opens its own.
    QByteArray other;
    held.push_back(send(ph->port(), streamRequest(a, "203.0.113.2"), &other));
    QVERIFY2(other.startsWith("HTTP/1.1 200"), other.constData());
    // A stream that ends makes room.
    held.front()->abort();
    QTRY_COMPARE(ph->service().http().openStreamsOf(QHostAddress(QStringLiteral("203.0.113.1"))),
                 2);
    QByteArray again;
    held.push_back(send(ph->port(), streamRequest(a, "203.0.113.1"), &again));
    QVERIFY2(again.startsWith("HTTP/1.1 200"), again.constData());
}

void tst_ClientIdentity::ignoresForwardedForFromAnUntrustedPeer()
{
    // No proxy is trusted: a client on 127.0.0.1 that names a new address in every
    // request is still one client.
    auto ph = start({QStringLiteral("http.maxStreamsPerClient=3")});
    QVERIFY2(ph->ok(), qPrintable(ph->error()));
    const auto a = run(*ph, "198.51.100.77");
    QVERIFY(!a.first.isEmpty());
    QCOMPARE(ph->service().a2w().find(a.first)->clientAddress, QStringLiteral("127.0.0.1"));
    Sockets held;
    for (int i = 0; i < 3; ++i) {
        QByteArray reply;
        held.push_back(
            send(ph->port(), streamRequest(a, "198.51.100." + QByteArray::number(i + 1)), &reply));
        QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    }
    QByteArray refused;
    auto extra = send(ph->port(), streamRequest(a, "198.51.100.9"), &refused);
    QVERIFY2(refused.startsWith("HTTP/1.1 429"), refused.constData());
    QCOMPARE(bodyOf(refused).value(QStringLiteral("code")).toString(),
             QStringLiteral("TOO_MANY_STREAMS"));
    QCOMPARE(ph->service().http().openStreamsOf(QHostAddress::LocalHost), 3);
}

void tst_ClientIdentity::capsTheStreamsOfOneSite()
{
    auto ph = start({QStringLiteral("http.trustedProxies=127.0.0.1"),
                     QStringLiteral("http.maxStreamsPerSite=3")});
    QVERIFY2(ph->ok(), qPrintable(ph->error()));
    const auto a = run(*ph, "203.0.113.1");
    QVERIFY(!a.first.isEmpty());
    const QString siteId = ph->service().a2w().find(a.first)->siteId;
    Sockets held;
    for (int i = 0; i < 3; ++i) {
        QByteArray reply;
        held.push_back(
            send(ph->port(), streamRequest(a, "203.0.113." + QByteArray::number(10 + i)), &reply));
        QVERIFY2(reply.startsWith("HTTP/1.1 200"), reply.constData());
    }
    QCOMPARE(ph->service().http().openStreamsOfSite(siteId), 3);
    QByteArray refused;
    auto extra = send(ph->port(), streamRequest(a, "203.0.113.20"), &refused);
    QVERIFY2(refused.startsWith("HTTP/1.1 429"), refused.constData());
    const QJsonObject body = bodyOf(refused);
    QCOMPARE(body.value(QStringLiteral("code")).toString(), QStringLiteral("TOO_MANY_STREAMS"));
    QCOMPARE(body.value(QStringLiteral("details"))[QStringLiteral("setting")].toString(),
             QStringLiteral("http.maxStreamsPerSite"));
    // A long-poll of the same site is not refused (it answers without waiting; the
    // http test checks that): the request may have started work.
    const HttpResponse polled =
        HttpClient(ph->base())
            .get(QStringLiteral("/v2/a2w/runs/%1?access=%2").arg(a.first, a.second),
                 {{"Prefer", "wait=1"}, {"X-Forwarded-For", "203.0.113.21"}});
    QCOMPARE(polled.status, 200);
    QCOMPARE(polled.json().value(QStringLiteral("status")).toString(),
             QStringLiteral("waiting_browser"));
}

void tst_ClientIdentity::rateLimitsA2wRunsPerClientBehindTheProxy()
{
    auto ph = start({QStringLiteral("http.trustedProxies=127.0.0.1"),
                     QStringLiteral("a2w.runsPerMinutePerAddress=2")});
    QVERIFY2(ph->ok(), qPrintable(ph->error()));
    QVERIFY(!run(*ph, "203.0.113.1").first.isEmpty());
    QVERIFY(!run(*ph, "203.0.113.1").first.isEmpty());
    const HttpResponse limited =
        HttpClient(ph->base())
            .send("POST", QStringLiteral("/v2/a2w/runs"),
                  QJsonDocument(
                      QJsonObject{{QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))},
                                  {QStringLiteral("prompt"), QStringLiteral("List the products")}})
                      .toJson(QJsonDocument::Compact),
                  {{"Content-Type", "application/json"},
                   {"Prefer", "execution=browser"},
                   {"X-Forwarded-For", "203.0.113.1"}});
    QCOMPARE(limited.status, 429);
    QCOMPARE(limited.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("RATE_LIMITED"));
    // The next client behind the proxy has its own budget, and its run records it.
    const auto b = run(*ph, "203.0.113.2");
    QVERIFY(!b.first.isEmpty());
    QCOMPARE(ph->service().a2w().find(b.first)->clientAddress, QStringLiteral("203.0.113.2"));
}

void tst_ClientIdentity::takesTheTrustedProxiesFromTheSettings()
{
    auto ph = start({});
    QVERIFY2(ph->ok(), qPrintable(ph->error()));
    // Trusting nobody, the proxy's header is ignored.
    const auto before = run(*ph, "203.0.113.8");
    QCOMPARE(ph->service().a2w().find(before.first)->clientAddress, QStringLiteral("127.0.0.1"));
    // Set while running, the list applies at once.
    const HttpResponse set = ph->client().send("PATCH", QStringLiteral("/settings"),
                                               R"({"http.trustedProxies": "127.0.0.0/8, ::1"})",
                                               {{"Content-Type", "application/json"}});
    QCOMPARE(set.status, 200);
    const auto after = run(*ph, "203.0.113.8");
    QCOMPARE(ph->service().a2w().find(after.first)->clientAddress, QStringLiteral("203.0.113.8"));
    // A list that does not read is refused, naming the setting and the entry.
    const HttpResponse r =
        ph->client().send("PATCH", QStringLiteral("/settings"),
                          R"({"http.trustedProxies": "127.0.0.1, proxy.example"})",
                          {{"Content-Type", "application/json"}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("http.trustedProxies"));
    QVERIFY2(
        r.json().value(QStringLiteral("error")).toString().contains(QLatin1String("proxy.example")),
        r.body.constData());
}

PH_WEBENGINE_TEST_MAIN(tst_ClientIdentity)
#include "tst_clientidentity.moc"
