#include "FixtureServer.h"
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

struct Fetched
{
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
};

Fetched fetch(QNetworkAccessManager *nam, const QString &url)
{
    QNetworkRequest request{QUrl(url)};
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    QNetworkReply *reply = nam->get(request);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(10000))
        return {};
    Fetched f;
    f.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    f.error = reply->error();
    f.body = reply->readAll();
    reply->deleteLater();
    return f;
}

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

private:
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

QTEST_GUILESS_MAIN(tst_EgressProxy)
#include "tst_egressproxy.moc"
