#include "FixtureServer.h"
#include "ForwardProxy.h"
#include "ProxyFetch.h"
#include "TestResolver.h"

#include "net/EgressProxy.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QtTest>

using namespace ph;
using namespace ph::test;

namespace {

// Answers public first, then loopback: what a rebinding attacker's DNS does.
class FlippingResolver : public TestResolver
{
public:
    void lookup(const QString &host, QObject *context,
                std::function<void(const Answer &)> done) const override
    {
        ++m_lookups;
        Answer a;
        a.addresses = {m_lookups == 1 ? QHostAddress(QStringLiteral("203.0.113.9"))
                                      : QHostAddress(QHostAddress::LocalHost)};
        QTimer::singleShot(0, context, [a, done] { done(a); });
    }
    mutable int m_lookups = 0;
};

} // namespace

class tst_EgressProxy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void decidesByGrantAndResolvedAddress_data();
    void decidesByGrantAndResolvedAddress();
    void refusesAPrivateRedirectHop();
    void connectsToTheAddressItChecked();
    void asksForCredentialsItDoesNotKnow();
    void tunnelsConnectToAnAllowedHost();
    void refusesATunnelToAPrivateName();
    void keepsTenantsApart();
    void reachesTheTargetThroughTheRunsProxy_data();
    void reachesTheTargetThroughTheRunsProxy();
    void failsWhenTheRunsProxyRefusesItsCredentials_data();
    void failsWhenTheRunsProxyRefusesItsCredentials();
    void refusesAProxyAtAPrivateAddressWithoutTheGrant();

private:
    // A grant whose traffic goes through `proxy` (loopback: it needs privateTargets).
    static EgressGrant viaProxy(const ForwardProxy &proxy, ForwardProxy::Kind kind,
                                const QString &user, const QString &password)
    {
        auto upstream = std::make_shared<UpstreamProxy>();
        upstream->kind = kind == ForwardProxy::Kind::Http ? UpstreamProxy::Kind::Http
                                                          : UpstreamProxy::Kind::Socks5;
        upstream->host = QStringLiteral("127.0.0.1");
        upstream->port = proxy.port();
        upstream->user = user;
        upstream->password = password;
        EgressGrant grant{true, QStringLiteral("key_p")};
        grant.upstream = upstream;
        return grant;
    }
    // Sends a CONNECT for 127.0.0.1:<inside> through the egress proxy as `id`, then a GET
    // through the tunnel; answers everything the client read.
    QByteArray tunnel(const EgressProxy::Identity &id);

    FixtureServer m_site;   // "public": shop.example -> 203.0.113.7 -> here
    FixtureServer m_inside; // on loopback, reached as 127.0.0.1 or intranet.test
    std::shared_ptr<TestResolver> m_resolver = std::make_shared<TestResolver>();
    std::shared_ptr<EgressProxy> m_proxy;
};

void tst_EgressProxy::initTestCase()
{
    QVERIFY(m_site.start());
    QVERIFY(m_inside.start());
    m_site.page("/", "<p>public</p>");
    m_site.route("/to-inside", [this](const FixtureRequest &) {
        FixtureResponse r;
        r.status = 302;
        r.headers.append(
            {QByteArray("Location"),
             QStringLiteral("http://intranet.test:%1/secret").arg(m_inside.port()).toLatin1()});
        return r;
    });
    m_site.route("/cookie", [](const FixtureRequest &req) {
        FixtureResponse r = FixtureResponse::html("<p>" + req.headers.value("cookie") + "</p>");
        r.headers.append({QByteArray("Set-Cookie"), QByteArray("session=tenant-a")});
        return r;
    });
    m_inside.page("/secret", "<p>the secret</p>");
    m_resolver->add(QStringLiteral("shop.example"), {QHostAddress(QStringLiteral("203.0.113.7"))});
    m_resolver->route(QHostAddress(QStringLiteral("203.0.113.7")), m_site.port());
    m_resolver->add(QStringLiteral("intranet.test"), {QHostAddress(QHostAddress::LocalHost)});
    m_resolver->add(QStringLiteral("mixed.example"), {QHostAddress(QStringLiteral("203.0.113.7")),
                                                      QHostAddress(QStringLiteral("10.0.0.5"))});
    m_proxy = EgressProxy::instance();
    QVERIFY(m_proxy->isListening());
}

void tst_EgressProxy::decidesByGrantAndResolvedAddress_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("privateTargets");
    QTest::addColumn<bool>("allowed");
    const QString site = QStringLiteral("http://shop.example:%1/").arg(m_site.port());
    const QString loopback = QStringLiteral("http://127.0.0.1:%1/secret").arg(m_inside.port());
    const QString named = QStringLiteral("http://intranet.test:%1/secret").arg(m_inside.port());
    QTest::newRow("lets a public name through without the grant") << site << false << true;
    QTest::newRow("refuses a literal loopback address without the grant")
        << loopback << false << false;
    QTest::newRow("refuses a name that resolves to loopback without the grant")
        << named << false << false;
    QTest::newRow("refuses a name with one private address among public ones")
        << QStringLiteral("http://mixed.example:%1/").arg(m_site.port()) << false << false;
    QTest::newRow("lets a name that resolves to loopback through with the grant")
        << named << true << true;
    QTest::newRow("lets a literal loopback address through with the grant")
        << loopback << true << true;
}

void tst_EgressProxy::decidesByGrantAndResolvedAddress()
{
    QFETCH(QString, url);
    QFETCH(bool, privateTargets);
    QFETCH(bool, allowed);
    EgressGrant grant{privateTargets, QStringLiteral("key_a")};
    QNetworkAccessManager *nam = m_proxy->createFetcher(grant, m_resolver, this);
    QSignalSpy refused(m_proxy.get(), &EgressProxy::refused);
    const Fetched f = fetch(nam, url);
    if (allowed) {
        QCOMPARE(f.status, 200);
        QVERIFY(f.body.contains("<p>"));
    } else {
        QCOMPARE(f.status, 403);
        QVERIFY2(f.body.startsWith("Pilothouse network policy: "), f.body.constData());
        QVERIFY(!f.body.contains("secret</p>"));
        QTRY_COMPARE(refused.size(), 1);
    }
    delete nam;
}

void tst_EgressProxy::refusesAPrivateRedirectHop()
{
    QNetworkAccessManager *nam =
        m_proxy->createFetcher(EgressGrant{false, QStringLiteral("key_a")}, m_resolver, this);
    const int before = m_inside.hits("/secret");
    const Fetched f =
        fetch(nam, QStringLiteral("http://shop.example:%1/to-inside").arg(m_site.port()));
    QCOMPARE(f.status, 403);
    QVERIFY(!f.body.contains("the secret"));
    QCOMPARE(m_inside.hits("/secret"), before);
    delete nam;
}

void tst_EgressProxy::connectsToTheAddressItChecked()
{
    auto flipping = std::make_shared<FlippingResolver>();
    flipping->route(QHostAddress(QStringLiteral("203.0.113.9")), m_site.port());
    QNetworkAccessManager *nam =
        m_proxy->createFetcher(EgressGrant{false, QStringLiteral("key_a")}, flipping, this);
    const int insideBefore = m_inside.hits("/");
    // The check saw a public address, and the connection went to it (the public site),
    // not to wherever the name points a moment later.
    Fetched f = fetch(nam, QStringLiteral("http://rebind.example:%1/").arg(m_inside.port()));
    QCOMPARE(f.status, 200);
    QVERIFY(f.body.contains("public"));
    QCOMPARE(flipping->m_lookups, 1);
    // The next connection resolves again, sees loopback, and is refused.
    f = fetch(nam, QStringLiteral("http://rebind.example:%1/").arg(m_inside.port()));
    QCOMPARE(f.status, 403);
    QCOMPARE(m_inside.hits("/"), insideBefore);
    delete nam;
}

void tst_EgressProxy::asksForCredentialsItDoesNotKnow()
{
    const int before = m_inside.hits("/secret");
    QTcpSocket socket;
    socket.setProxy(QNetworkProxy::NoProxy);
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write(QStringLiteral("GET http://127.0.0.1:%1/secret HTTP/1.1\r\nHost: x\r\n"
                                "Proxy-Authorization: Basic %2\r\n\r\n")
                     .arg(m_inside.port())
                     .arg(QString::fromLatin1(QByteArray("nobody:guess").toBase64()))
                     .toLatin1());
    QByteArray answer;
    while (socket.waitForReadyRead(5000))
        answer += socket.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 407"), answer.constData());
    QCOMPARE(m_inside.hits("/secret"), before);
}

void tst_EgressProxy::tunnelsConnectToAnAllowedHost()
{
    const EgressProxy::Identity id =
        m_proxy->open(EgressGrant{false, QStringLiteral("key_a")}, m_resolver);
    QTcpSocket socket;
    socket.setProxy(QNetworkProxy::NoProxy);
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray auth = (id.user + QLatin1Char(':') + id.password).toLatin1().toBase64();
    socket.write("CONNECT shop.example:" + QByteArray::number(m_site.port()) +
                 " HTTP/1.1\r\nProxy-Authorization: Basic " + auth + "\r\n\r\n");
    QByteArray answer;
    while (!answer.contains("\r\n\r\n") && socket.waitForReadyRead(5000))
        answer += socket.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.constData());
    answer = answer.mid(answer.indexOf("\r\n\r\n") + 4);
    socket.write("GET / HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n");
    // The fixture site answers from this thread's event loop: wait with it running.
    connect(&socket, &QTcpSocket::readyRead, this, [&] { answer += socket.readAll(); });
    QTRY_VERIFY_WITH_TIMEOUT(answer.contains("public"), 5000);
    QVERIFY2(answer.contains("public"), answer.constData());
    m_proxy->close(id);
}

void tst_EgressProxy::refusesATunnelToAPrivateName()
{
    const EgressProxy::Identity id =
        m_proxy->open(EgressGrant{false, QStringLiteral("key_a")}, m_resolver);
    QSignalSpy refused(m_proxy.get(), &EgressProxy::refused);
    QTcpSocket socket;
    socket.setProxy(QNetworkProxy::NoProxy);
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    QVERIFY(socket.waitForConnected(5000));
    const QByteArray auth = (id.user + QLatin1Char(':') + id.password).toLatin1().toBase64();
    socket.write("CONNECT intranet.test:" + QByteArray::number(m_inside.port()) +
                 " HTTP/1.1\r\nProxy-Authorization: Basic " + auth + "\r\n\r\n");
    QByteArray answer;
    while (socket.waitForReadyRead(5000))
        answer += socket.readAll();
    QVERIFY2(answer.startsWith("HTTP/1.1 403"), answer.constData());
    QTRY_COMPARE(refused.size(), 1);
    QCOMPARE(refused.at(0).at(0).toString(), id.user);
    m_proxy->close(id);
}

void tst_EgressProxy::keepsTenantsApart()
{
    // Each fetcher is its own cookie jar: tenant B never sends tenant A's cookie.
    QNetworkAccessManager *a =
        m_proxy->createFetcher(EgressGrant{false, QStringLiteral("key_a")}, m_resolver, this);
    QNetworkAccessManager *b =
        m_proxy->createFetcher(EgressGrant{false, QStringLiteral("key_b")}, m_resolver, this);
    const QString url = QStringLiteral("http://shop.example:%1/cookie").arg(m_site.port());
    QCOMPARE(fetch(a, url).status, 200);
    QVERIFY(fetch(a, url).body.contains("session=tenant-a"));
    const Fetched other = fetch(b, url);
    QCOMPARE(other.status, 200);
    QVERIFY2(!other.body.contains("tenant-a"), other.body.constData());
    QVERIFY(a->cookieJar() != b->cookieJar());
    delete a;
    delete b;
}

QByteArray tst_EgressProxy::tunnel(const EgressProxy::Identity &id)
{
    QTcpSocket socket;
    socket.setProxy(QNetworkProxy::NoProxy);
    socket.connectToHost(QHostAddress::LocalHost, m_proxy->port());
    if (!socket.waitForConnected(5000))
        return {};
    QByteArray answer;
    connect(&socket, &QTcpSocket::readyRead, this, [&] { answer += socket.readAll(); });
    const QByteArray auth = (id.user + QLatin1Char(':') + id.password).toLatin1().toBase64();
    socket.write("CONNECT 127.0.0.1:" + QByteArray::number(m_inside.port()) +
                 " HTTP/1.1\r\nProxy-Authorization: Basic " + auth + "\r\n\r\n");
    if (!QTest::qWaitFor([&] { return answer.contains("\r\n\r\n"); }, 5000) ||
        !answer.startsWith("HTTP/1.1 200"))
        return answer;
    socket.write("GET /secret HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    if (!QTest::qWaitFor([&] { return answer.contains("the secret"); }, 5000))
        qWarning("no answer through the tunnel");
    return answer;
}

void tst_EgressProxy::reachesTheTargetThroughTheRunsProxy_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("viaTunnel");
    QTest::addColumn<QString>("expectedTarget");
    QTest::newRow("a tunnel goes through an HTTP proxy as CONNECT")
        << int(ForwardProxy::Kind::Http) << true << QStringLiteral("CONNECT 127.0.0.1:");
    QTest::newRow("a plain request goes to an HTTP proxy in absolute form")
        << int(ForwardProxy::Kind::Http) << false << QStringLiteral("GET http://127.0.0.1:");
    QTest::newRow("a tunnel goes through a SOCKS5 proxy")
        << int(ForwardProxy::Kind::Socks5) << true << QStringLiteral("SOCKS 127.0.0.1:");
    QTest::newRow("a plain request goes through a SOCKS5 proxy")
        << int(ForwardProxy::Kind::Socks5) << false << QStringLiteral("SOCKS 127.0.0.1:");
}

void tst_EgressProxy::reachesTheTargetThroughTheRunsProxy()
{
    QFETCH(int, kind);
    QFETCH(bool, viaTunnel);
    QFETCH(QString, expectedTarget);
    ForwardProxy upstream(ForwardProxy::Kind(kind), "ada", "s3cret");
    QVERIFY(upstream.start());
    const EgressGrant grant = viaProxy(upstream, ForwardProxy::Kind(kind), QStringLiteral("ada"),
                                       QStringLiteral("s3cret"));
    const int before = m_inside.hits("/secret");
    if (viaTunnel) {
        const EgressProxy::Identity id = m_proxy->open(grant, m_resolver);
        const QByteArray answer = tunnel(id);
        QVERIFY2(answer.contains("the secret"), answer.constData());
        m_proxy->close(id);
    } else {
        QNetworkAccessManager *nam = m_proxy->createFetcher(grant, m_resolver, this);
        QNetworkRequest request{
            QUrl(QStringLiteral("http://127.0.0.1:%1/secret").arg(m_inside.port()))};
        QNetworkReply *reply = nam->get(request);
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QVERIFY(reply->readAll().contains("the secret"));
        delete nam;
    }
    QCOMPARE(m_inside.hits("/secret"), before + 1);
    QCOMPARE(upstream.targets.size(), 1);
    QVERIFY2(upstream.targets.first().startsWith(expectedTarget),
             qPrintable(upstream.targets.first()));
    QCOMPARE(upstream.refusedCredentials, 0);
}

void tst_EgressProxy::failsWhenTheRunsProxyRefusesItsCredentials_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("an HTTP proxy answering 407 is a bad gateway") << int(ForwardProxy::Kind::Http);
    QTest::newRow("a SOCKS5 proxy refusing the password is a bad gateway")
        << int(ForwardProxy::Kind::Socks5);
}

void tst_EgressProxy::failsWhenTheRunsProxyRefusesItsCredentials()
{
    QFETCH(int, kind);
    ForwardProxy upstream(ForwardProxy::Kind(kind), "ada", "s3cret");
    QVERIFY(upstream.start());
    const EgressProxy::Identity id =
        m_proxy->open(viaProxy(upstream, ForwardProxy::Kind(kind), QStringLiteral("ada"),
                               QStringLiteral("wrong")),
                      m_resolver);
    const int before = m_inside.hits("/secret");
    const QByteArray answer = tunnel(id);
    QVERIFY2(answer.startsWith("HTTP/1.1 502"), answer.constData());
    QVERIFY2(answer.contains("the proxy 127.0.0.1"), answer.constData());
    QCOMPARE(upstream.refusedCredentials, 1);
    QCOMPARE(m_inside.hits("/secret"), before);
    m_proxy->close(id);
}

void tst_EgressProxy::refusesAProxyAtAPrivateAddressWithoutTheGrant()
{
    // The target is public (shop.example), the proxy is on loopback: a key without the
    // privateTargets grant may not use it.
    ForwardProxy upstream(ForwardProxy::Kind::Http);
    QVERIFY(upstream.start());
    EgressGrant grant = viaProxy(upstream, ForwardProxy::Kind::Http, {}, {});
    grant.privateTargets = false;
    QNetworkAccessManager *nam = m_proxy->createFetcher(grant, m_resolver, this);
    const Fetched f = fetch(nam, QStringLiteral("http://shop.example:%1/").arg(m_site.port()));
    QCOMPARE(f.status, 403);
    QVERIFY2(f.body.contains("the proxy"), f.body.constData());
    QVERIFY(upstream.targets.isEmpty());
    delete nam;
}

QTEST_GUILESS_MAIN(tst_EgressProxy)
#include "tst_egressproxy.moc"
