// core/TrustedProxies on its own: reading the http.trustedProxies list, the Forwarded
// (RFC 7239) and X-Forwarded-For chains, and which client a request is from.
#include "core/TrustedProxies.h"

#include <QtTest>

using ph::TrustedProxies;

namespace {

// The proxies of most rows: nginx on loopback and a load balancer network.
TrustedProxies proxies()
{
    return TrustedProxies::parse(QStringLiteral("127.0.0.1, ::1, 10.0.0.0/8")).value();
}

} // namespace

class tst_TrustedProxies : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTheList_data();
    void readsTheList();
    void refusesABadList_data();
    void refusesABadList();
    void tellsTheClient_data();
    void tellsTheClient();
    void readsAForwardedChain_data();
    void readsAForwardedChain();
};

void tst_TrustedProxies::readsTheList_data()
{
    QTest::addColumn<QString>("list");
    QTest::addColumn<QString>("address");
    QTest::addColumn<bool>("trusted");
    QTest::newRow("trusts nobody when the list is empty") << ""
                                                          << "127.0.0.1" << false;
    QTest::newRow("trusts a listed IPv4 address") << "127.0.0.1"
                                                  << "127.0.0.1" << true;
    QTest::newRow("does not trust a neighbour of a listed address") << "127.0.0.1"
                                                                    << "127.0.0.2" << false;
    QTest::newRow("trusts an address in a listed range") << "10.0.0.0/8"
                                                         << "10.1.2.3" << true;
    QTest::newRow("does not trust an address outside a listed range") << "10.0.0.0/8"
                                                                      << "11.0.0.1" << false;
    QTest::newRow("trusts a listed IPv6 address") << "::1"
                                                  << "::1" << true;
    QTest::newRow("trusts an address in a listed IPv6 range") << "fd00::/8"
                                                              << "fd12::7" << true;
    QTest::newRow("reads IPv4 on a dual-stack socket as IPv4") << "127.0.0.1"
                                                               << "::ffff:127.0.0.1" << true;
    QTest::newRow("takes white space as a separator too") << " 192.0.2.1\t198.51.100.0/24 ,,"
                                                          << "198.51.100.9" << true;
}

void tst_TrustedProxies::readsTheList()
{
    QFETCH(QString, list);
    QFETCH(QString, address);
    QFETCH(bool, trusted);
    QString problem;
    const auto parsed = TrustedProxies::parse(list, &problem);
    QVERIFY2(parsed, qPrintable(problem));
    QCOMPARE(parsed->contains(QHostAddress(address)), trusted);
    QCOMPARE(parsed->isEmpty(), list.trimmed().isEmpty());
}

void tst_TrustedProxies::refusesABadList_data()
{
    QTest::addColumn<QString>("list");
    QTest::addColumn<QString>("named");
    QTest::newRow("refuses a host name") << "127.0.0.1, proxy.local"
                                         << "'proxy.local'";
    QTest::newRow("refuses a range with a bad prefix") << "10.0.0.0/33"
                                                       << "'10.0.0.0/33'";
    QTest::newRow("refuses a range of a host name") << "example.com/8"
                                                    << "'example.com/8'";
    QTest::newRow("refuses an address with a port") << "127.0.0.1:80"
                                                    << "'127.0.0.1:80'";
}

void tst_TrustedProxies::refusesABadList()
{
    QFETCH(QString, list);
    QFETCH(QString, named);
    QString problem;
    QVERIFY(!TrustedProxies::parse(list, &problem));
    QVERIFY2(problem.contains(named), qPrintable(problem));
}

void tst_TrustedProxies::tellsTheClient_data()
{
    QTest::addColumn<QString>("peer");
    QTest::addColumn<QByteArray>("forwarded");
    QTest::addColumn<QByteArray>("xff");
    QTest::addColumn<QString>("client");
    QTest::newRow("ignores the headers of an untrusted peer")
        << "192.0.2.7" << QByteArray("for=198.51.100.1") << QByteArray("198.51.100.2")
        << "192.0.2.7";
    QTest::newRow("is the peer when a trusted proxy sends no header")
        << "127.0.0.1" << QByteArray() << QByteArray() << "127.0.0.1";
    QTest::newRow("takes the address a trusted proxy appended to X-Forwarded-For")
        << "127.0.0.1" << QByteArray() << QByteArray("203.0.113.5") << "203.0.113.5";
    QTest::newRow("does not believe what the client wrote left of it")
        << "127.0.0.1" << QByteArray() << QByteArray("1.1.1.1, 203.0.113.5") << "203.0.113.5";
    QTest::newRow("skips trusted proxies from the right")
        << "127.0.0.1" << QByteArray() << QByteArray("203.0.113.5, 10.0.0.4, 10.9.9.9")
        << "203.0.113.5";
    QTest::newRow("does not let a client hide behind a trusted address it wrote itself")
        << "127.0.0.1" << QByteArray() << QByteArray("127.0.0.1, 203.0.113.5") << "203.0.113.5";
    QTest::newRow("takes the farthest proxy when every hop is trusted")
        << "127.0.0.1" << QByteArray() << QByteArray("10.0.0.9, 10.0.0.4") << "10.0.0.9";
    QTest::newRow("reads an address with a port in X-Forwarded-For")
        << "127.0.0.1" << QByteArray() << QByteArray("203.0.113.5:51234") << "203.0.113.5";
    QTest::newRow("reads a bare IPv6 address in X-Forwarded-For")
        << "::1" << QByteArray() << QByteArray("2001:db8::17") << "2001:db8::17";
    QTest::newRow("reads a bracketed IPv6 address with a port in X-Forwarded-For")
        << "::1" << QByteArray() << QByteArray("[2001:db8::17]:443") << "2001:db8::17";
    QTest::newRow("reads a mapped IPv4 address as IPv4")
        << "::ffff:127.0.0.1" << QByteArray() << QByteArray("::ffff:203.0.113.5") << "203.0.113.5";
    QTest::newRow("falls back to the peer on a malformed X-Forwarded-For")
        << "127.0.0.1" << QByteArray() << QByteArray("203.0.113.5, not-an-address") << "127.0.0.1";
    QTest::newRow("falls back to the peer on a shortened IPv4 address")
        << "127.0.0.1" << QByteArray() << QByteArray("127.1") << "127.0.0.1";
    QTest::newRow("falls back to the peer on an address with a zone")
        << "127.0.0.1" << QByteArray() << QByteArray("fe80::1%eth0") << "127.0.0.1";
    QTest::newRow("falls back to the peer when an unknown hop comes first")
        << "127.0.0.1" << QByteArray() << QByteArray("203.0.113.5, unknown") << "127.0.0.1";
    QTest::newRow("skips empty list elements")
        << "127.0.0.1" << QByteArray() << QByteArray(" , 203.0.113.5 ,") << "203.0.113.5";
    QTest::newRow("takes the for= of a Forwarded header")
        << "127.0.0.1" << QByteArray("for=203.0.113.5;proto=https;by=127.0.0.1") << QByteArray()
        << "203.0.113.5";
    QTest::newRow("reads a quoted IPv6 node with a port in Forwarded")
        << "127.0.0.1" << QByteArray("For=\"[2001:db8:cafe::17]:4711\"") << QByteArray()
        << "2001:db8:cafe::17";
    QTest::newRow("reads a quoted IPv4 node with a port in Forwarded")
        << "127.0.0.1" << QByteArray("for=\"192.0.2.43:47011\"") << QByteArray() << "192.0.2.43";
    QTest::newRow("walks a Forwarded chain from the right")
        << "127.0.0.1" << QByteArray("for=1.1.1.1, for=203.0.113.5, for=10.0.0.4") << QByteArray()
        << "203.0.113.5";
    QTest::newRow("falls back to the peer on an obfuscated node in Forwarded")
        << "127.0.0.1" << QByteArray("for=203.0.113.5, for=_hidden") << QByteArray() << "127.0.0.1";
    QTest::newRow("falls back to the peer on an unterminated quote in Forwarded")
        << "127.0.0.1" << QByteArray("for=\"203.0.113.5") << QByteArray() << "127.0.0.1";
    QTest::newRow("falls back to the peer on a Forwarded element naming for twice")
        << "127.0.0.1" << QByteArray("for=203.0.113.5;for=203.0.113.6") << QByteArray()
        << "127.0.0.1";
    QTest::newRow("agrees when both headers name the same client")
        << "127.0.0.1" << QByteArray("for=203.0.113.5") << QByteArray("203.0.113.5")
        << "203.0.113.5";
    QTest::newRow("falls back to the peer when the two headers name different clients")
        << "127.0.0.1" << QByteArray("for=198.51.100.1") << QByteArray("203.0.113.5")
        << "127.0.0.1";
}

void tst_TrustedProxies::tellsTheClient()
{
    QFETCH(QString, peer);
    QFETCH(QByteArray, forwarded);
    QFETCH(QByteArray, xff);
    QFETCH(QString, client);
    const QHostAddress got = proxies().clientOf(QHostAddress(peer), forwarded, xff);
    QCOMPARE(got.toString(), client);
}

void tst_TrustedProxies::readsAForwardedChain_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QStringList>("chain"); // "" for an unknown node; {"malformed"}
    QTest::newRow("reads the example of RFC 7239 section 4")
        << QByteArray("for=\"_gazonk\"") << QStringList{""};
    QTest::newRow("reads several elements with several pairs")
        << QByteArray(
               "for=192.0.2.43, for=198.51.100.17;by=203.0.113.60;proto=http;host=example.com")
        << QStringList{"192.0.2.43", "198.51.100.17"};
    QTest::newRow("counts an element without for as an unknown hop")
        << QByteArray("proto=https, for=192.0.2.1") << QStringList{"", "192.0.2.1"};
    QTest::newRow("reads escapes in a quoted string")
        << QByteArray("for=\"\\1\\92.0.2.1\"") << QStringList{"192.0.2.1"};
    QTest::newRow("keeps a comma inside quotes inside its element")
        << QByteArray("host=\"a,b\";for=192.0.2.1") << QStringList{"192.0.2.1"};
    QTest::newRow("refuses a pair without a value")
        << QByteArray("for=") << QStringList{"malformed"};
    QTest::newRow("refuses white space around the equals sign")
        << QByteArray("for = 192.0.2.1") << QStringList{"malformed"};
    QTest::newRow("refuses a bracketed IPv4 address")
        << QByteArray("for=\"[192.0.2.1]\"") << QStringList{"malformed"};
    QTest::newRow("refuses a port out of range")
        << QByteArray("for=\"192.0.2.1:65536\"") << QStringList{"malformed"};
}

void tst_TrustedProxies::readsAForwardedChain()
{
    QFETCH(QByteArray, value);
    QFETCH(QStringList, chain);
    const auto got = TrustedProxies::forwardedChain(value);
    QStringList read;
    if (!got)
        read << QStringLiteral("malformed");
    else
        for (const QHostAddress &a : *got)
            read << (a.isNull() ? QString() : a.toString());
    QCOMPARE(read, chain);
}

QTEST_GUILESS_MAIN(tst_TrustedProxies)
#include "tst_trustedproxies.moc"
