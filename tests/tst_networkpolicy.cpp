#include "net/NetworkPolicy.h"

#include <QHostAddress>
#include <QtTest>

using namespace ph;

class tst_NetworkPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void classifiesHosts_data();
    void classifiesHosts();
    void refusesUrls_data();
    void refusesUrls();
    void judgesResolvedAddresses_data();
    void judgesResolvedAddresses();
    void grantsPrivateTargetsOnlyUnderTheSwitch_data();
    void grantsPrivateTargetsOnlyUnderTheSwitch();
    void decidesPrivateReachInOnePlace_data();
    void decidesPrivateReachInOnePlace();
    void givesAVisitorAccountOnlyItsSitesReach();
    void normalizesAllowlistEntries_data();
    void normalizesAllowlistEntries();
    void namesTheOriginOfAUrl_data();
    void namesTheOriginOfAUrl();
};

void tst_NetworkPolicy::classifiesHosts_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("isPrivate");
    QTest::newRow("loopback v4") << "127.0.0.1" << true;
    QTest::newRow("loopback v4 elsewhere in 127/8") << "127.45.6.7" << true;
    QTest::newRow("loopback v6") << "::1" << true;
    QTest::newRow("bracketed loopback v6") << "[::1]" << true;
    QTest::newRow("localhost") << "localhost" << true;
    QTest::newRow("localhost with a trailing dot") << "localhost." << true;
    QTest::newRow("a name under .localhost") << "app.localhost" << true;
    QTest::newRow("uppercase LOCALHOST") << "LOCALHOST" << true;
    QTest::newRow("an mDNS name under .local") << "printer.local" << true;
    QTest::newRow("a single-label name resolves through local search domains")
        << "intranet" << true;
    QTest::newRow("10/8") << "10.1.2.3" << true;
    QTest::newRow("172.16/12") << "172.20.0.1" << true;
    QTest::newRow("just outside 172.16/12") << "172.32.0.1" << false;
    QTest::newRow("192.168/16") << "192.168.1.10" << true;
    QTest::newRow("link-local v4 (cloud metadata)") << "169.254.169.254" << true;
    QTest::newRow("carrier-grade NAT") << "100.64.0.1" << true;
    QTest::newRow("the top of carrier-grade NAT") << "100.127.255.254" << true;
    QTest::newRow("unspecified v4") << "0.0.0.0" << true;
    QTest::newRow("this network, 0/8") << "0.1.2.3" << true;
    QTest::newRow("multicast v4") << "224.0.0.251" << true;
    QTest::newRow("limited broadcast") << "255.255.255.255" << true;
    QTest::newRow("reserved 240/4") << "240.0.0.1" << true;
    QTest::newRow("unique-local v6") << "fd00::1" << true;
    QTest::newRow("link-local v6") << "fe80::1" << true;
    QTest::newRow("multicast v6") << "ff02::1" << true;
    QTest::newRow("v4-mapped private v6") << "::ffff:10.0.0.1" << true;
    QTest::newRow("v4-mapped loopback v6") << "::ffff:127.0.0.1" << true;
    QTest::newRow("NAT64 of loopback, 64:ff9b::/96") << "64:ff9b::7f00:1" << true;
    QTest::newRow("6to4, 2002::/16") << "2002:7f00:1::1" << true;
    QTest::newRow("Teredo, 2001::/32") << "2001:0:4136:e378:8000:63bf:3fff:fdd2" << true;
    QTest::newRow("a public v4 address") << "93.184.215.14" << false;
    QTest::newRow("a public v6 address") << "2606:4700::1111" << false;
    QTest::newRow("a public v6 address just past Teredo") << "2001:1::1" << false;
    QTest::newRow("a public name (needs resolving, not literal)") << "example.org" << false;
}

void tst_NetworkPolicy::classifiesHosts()
{
    QFETCH(QString, host);
    QFETCH(bool, isPrivate);
    QCOMPARE(NetworkPolicy::isPrivateHostLiteral(host), isPrivate);
}

void tst_NetworkPolicy::refusesUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("privateGrant");
    QTest::addColumn<bool>("refused");
    QTest::newRow("allows a public https URL") << "https://example.org/a" << false << false;
    QTest::newRow("allows a public http URL") << "http://example.org/" << false << false;
    QTest::newRow("refuses file:") << "file:///etc/passwd" << true << true;
    QTest::newRow("refuses file: with a host") << "file://localhost/etc/passwd" << true << true;
    QTest::newRow("refuses javascript:") << "javascript:alert(1)" << true << true;
    QTest::newRow("refuses ftp:") << "ftp://example.org/" << true << true;
    QTest::newRow("refuses data:") << "data:text/html,<p>hi</p>" << true << true;
    QTest::newRow("refuses view-source:") << "view-source:http://example.org/" << true << true;
    QTest::newRow("refuses qrc:") << "qrc:/pilothouse/pageagent.js" << true << true;
    QTest::newRow("refuses a loopback target without the grant")
        << "http://127.0.0.1:8000/" << false << true;
    QTest::newRow("allows a loopback target with the grant")
        << "http://127.0.0.1:8000/" << true << false;
    QTest::newRow("refuses a single-label host without the grant")
        << "http://router/" << false << true;
    QTest::newRow("refuses the metadata address without the grant")
        << "http://169.254.169.254/latest/meta-data/" << false << true;
    QTest::newRow("refuses a relative URL") << "/relative" << true << true;
}

void tst_NetworkPolicy::refusesUrls()
{
    QFETCH(QString, url);
    QFETCH(bool, privateGrant);
    QFETCH(bool, refused);
    EgressGrant grant;
    grant.privateTargets = privateGrant;
    QCOMPARE(!NetworkPolicy::refusal(QUrl(url), grant).isEmpty(), refused);
}

void tst_NetworkPolicy::judgesResolvedAddresses_data()
{
    QTest::addColumn<QStringList>("addresses");
    QTest::addColumn<bool>("privateGrant");
    QTest::addColumn<bool>("refused");
    QTest::newRow("allows a name with only public addresses")
        << QStringList{"93.184.215.14", "2606:4700::1111"} << false << false;
    QTest::newRow("refuses a name with one private address among public ones")
        << QStringList{"93.184.215.14", "10.0.0.7"} << false << true;
    QTest::newRow("refuses a name resolving to loopback")
        << QStringList{"127.0.0.1"} << false << true;
    QTest::newRow("refuses a name resolving to NAT64 loopback")
        << QStringList{"64:ff9b::7f00:1"} << false << true;
    QTest::newRow("allows a name resolving to loopback with the grant")
        << QStringList{"127.0.0.1"} << true << false;
    QTest::newRow("refuses a name that resolved to nothing") << QStringList{} << true << true;
}

void tst_NetworkPolicy::judgesResolvedAddresses()
{
    QFETCH(QStringList, addresses);
    QFETCH(bool, privateGrant);
    QFETCH(bool, refused);
    QList<QHostAddress> list;
    for (const QString &a : addresses)
        list << QHostAddress(a);
    EgressGrant grant;
    grant.privateTargets = privateGrant;
    QCOMPARE(!NetworkPolicy::addressRefusal(QStringLiteral("name.example"), list, grant).isEmpty(),
             refused);
}

void tst_NetworkPolicy::grantsPrivateTargetsOnlyUnderTheSwitch_data()
{
    QTest::addColumn<bool>("switchOn");
    QTest::addColumn<QString>("keyId");
    QTest::addColumn<bool>("granted");
    QTest::newRow("a granted key while the switch is on") << true << "key_owner" << true;
    QTest::newRow("a key without the capability while the switch is on")
        << true << "key_user" << false;
    QTest::newRow("a granted key while the switch is off") << false << "key_owner" << false;
    QTest::newRow("no key at all") << true << "" << false;
}

void tst_NetworkPolicy::grantsPrivateTargetsOnlyUnderTheSwitch()
{
    QFETCH(bool, switchOn);
    QFETCH(QString, keyId);
    QFETCH(bool, granted);
    NetworkPolicy policy(switchOn);
    policy.setPrivateGrantLookup(
        [](const QString &id) { return id == QLatin1String("key_owner"); });
    const EgressGrant grant = policy.grantFor(keyId);
    QCOMPARE(grant.privateTargets, granted);
    QCOMPARE(grant.tenant, keyId);
}

namespace {

// A visitor's grant: the site at intranet.test and 127.0.0.1 (its keys' allowed
// domains, which carry no port), pinned to the run's start, with the owner's allowlist.
EgressGrant visitorGrant(const QStringList &allowlist, const QString &start)
{
    auto reach = std::make_shared<PrivateReach>();
    reach->siteHost = [](const QString &host) {
        return host == QLatin1String("intranet.test") || host == QLatin1String("127.0.0.1");
    };
    reach->allowlist = allowlist;
    EgressGrant grant;
    grant.reach = reach;
    return NetworkPolicy::pinReach(grant, QUrl(start));
}

} // namespace

void tst_NetworkPolicy::decidesPrivateReachInOnePlace_data()
{
    QTest::addColumn<QString>("grantKind");
    QTest::addColumn<QStringList>("allowlist");
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("allowed");
    // A run started on the site's standard http port, and one started on another port of
    // the site's host: the start URL is the caller's choice, allowed domains carry no
    // port, so only the scheme's standard port is the site's own.
    const QString run = QStringLiteral("http://intranet.test/");
    const QString elsewhere = QStringLiteral("http://intranet.test:8080/");
    QTest::newRow("a key with privateTargets reaches any private host")
        << "private" << QStringList() << "http"
        << "10.0.0.5" << 22 << true;
    QTest::newRow("a key without any grant reaches no private host")
        << "none" << QStringList() << "http"
        << "127.0.0.1" << 8080 << false;
    QTest::newRow("a visitor reaches the site's host on the standard port of the run's scheme")
        << run << QStringList() << "http"
        << "intranet.test" << 80 << true;
    QTest::newRow("a visitor reaches the site's address literal on the standard port")
        << run << QStringList() << "http"
        << "127.0.0.1" << 80 << true;
    QTest::newRow("a visitor's page socket (ws) to the site's origin counts as http")
        << run << QStringList() << "ws"
        << "intranet.test" << 80 << true;
    QTest::newRow("a visitor's tunnel to the site's host and port is judged by the port")
        << run << QStringList() << ""
        << "intranet.test" << 80 << true;
    QTest::newRow("a visitor may not reach the site's host on another port")
        << run << QStringList() << "http"
        << "intranet.test" << 8081 << false;
    QTest::newRow("a visitor may not reach the site's address on another port")
        << run << QStringList() << "http"
        << "127.0.0.1" << 9999 << false;
    QTest::newRow("a visitor may not reach the site's host on another scheme")
        << run << QStringList() << "https"
        << "intranet.test" << 443 << false;
    QTest::newRow("a visitor may not reach the site's host on another scheme on the run's port")
        << run << QStringList() << "https"
        << "intranet.test" << 80 << false;
    QTest::newRow("a visitor's tunnel to the site's host on another port is refused")
        << run << QStringList() << ""
        << "intranet.test" << 443 << false;
    QTest::newRow("a visitor may not reach loopback by another name")
        << run << QStringList() << "http"
        << "localhost" << 80 << false;
    QTest::newRow("a visitor may not reach a LAN address") << run << QStringList() << "http"
                                                           << "192.168.1.1" << 80 << false;
    QTest::newRow("a visitor may not reach the metadata address")
        << run << QStringList() << "http"
        << "169.254.169.254" << 80 << false;
    QTest::newRow("a run started on another port of the site's host does not reach it there")
        << elsewhere << QStringList() << "http"
        << "intranet.test" << 8080 << false;
    QTest::newRow("a run started on another port of the site's address does not reach it there")
        << QStringLiteral("http://127.0.0.1:8080/secret") << QStringList() << "http"
        << "127.0.0.1" << 8080 << false;
    QTest::newRow("a tunnel of a run started on another port of the site's host is refused")
        << elsewhere << QStringList() << ""
        << "intranet.test" << 8080 << false;
    QTest::newRow("an https run started on another port of the site's host does not reach it")
        << QStringLiteral("https://intranet.test:8443/") << QStringList() << "https"
        << "intranet.test" << 8443 << false;
    QTest::newRow("a visitor reaches the site's host on another port the owner listed")
        << elsewhere << QStringList{"intranet.test:8080"} << "http"
        << "intranet.test" << 8080 << true;
    QTest::newRow("a visitor reaches the site's address on another port the owner listed")
        << QStringLiteral("http://127.0.0.1:8080/") << QStringList{"127.0.0.1:8080"} << "http"
        << "127.0.0.1" << 8080 << true;
    QTest::newRow("a run started on a listed port reaches the site's host on the standard port")
        << elsewhere << QStringList{"intranet.test:8080"} << "http"
        << "intranet.test" << 80 << true;
    QTest::newRow("a listed host:port of the site's host opens that port only")
        << elsewhere << QStringList{"intranet.test:8080"} << "http"
        << "intranet.test" << 8081 << false;
    QTest::newRow("the site's host listed bare is reached on any port")
        << elsewhere << QStringList{"intranet.test"} << "http"
        << "intranet.test" << 9000 << true;
    QTest::newRow("the site's address listed bare is reached on any port")
        << run << QStringList{"127.0.0.1"} << "http"
        << "127.0.0.1" << 9999 << true;
    QTest::newRow("a visitor reaches an allowlisted host on any port")
        << run << QStringList{"10.0.0.5"} << "http"
        << "10.0.0.5" << 9000 << true;
    QTest::newRow("a visitor reaches an allowlisted host:port on that port")
        << run << QStringList{"printer.lan:631"} << "https"
        << "printer.lan" << 631 << true;
    QTest::newRow("a visitor may not reach an allowlisted host:port on another port")
        << run << QStringList{"printer.lan:631"} << "http"
        << "printer.lan" << 80 << false;
    QTest::newRow("an allowlisted IPv6 host:port matches its address")
        << run << QStringList{"[fd00::1]:8443"} << "https"
        << "[FD00:0::1]" << 8443 << true;
    QTest::newRow("an allowlisted IPv6 host matches any port")
        << run << QStringList{"[fd00::1]"} << "http"
        << "fd00::1" << 80 << true;
    QTest::newRow("the default port of the scheme is the port when none is named")
        << QStringLiteral("https://intranet.test/") << QStringList() << "https"
        << "intranet.test" << -1 << true;
    QTest::newRow("an unpinned visitor grant reaches no site host")
        << "unpinned" << QStringList() << "http"
        << "intranet.test" << 80 << false;
    QTest::newRow("a visitor pinned to a non-web URL reaches no site host")
        << "about:blank" << QStringList() << "http"
        << "intranet.test" << 80 << false;
}

void tst_NetworkPolicy::decidesPrivateReachInOnePlace()
{
    QFETCH(QString, grantKind);
    QFETCH(QStringList, allowlist);
    QFETCH(QString, scheme);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(bool, allowed);
    EgressGrant grant;
    if (grantKind == QLatin1String("private")) {
        grant.privateTargets = true;
    } else if (grantKind == QLatin1String("unpinned")) {
        grant = visitorGrant(allowlist, QString());
        auto reach = std::make_shared<PrivateReach>(*grant.reach);
        reach->pinned = false;
        reach->scheme.clear();
        grant.reach = reach;
    } else if (grantKind != QLatin1String("none")) {
        grant = visitorGrant(allowlist, grantKind);
    }
    QCOMPARE(NetworkPolicy::mayReachPrivate(grant, scheme, host, port), allowed);
    // Every check goes through the decision: the literal check, the resolved one.
    if (NetworkPolicy::isPrivateHostLiteral(host))
        QCOMPARE(NetworkPolicy::literalRefusal(scheme, host, port, grant).isEmpty(), allowed);
    QCOMPARE(NetworkPolicy::addressRefusal(host, {QHostAddress(QStringLiteral("127.0.0.1"))}, grant,
                                           scheme, port)
                 .isEmpty(),
             allowed);
    if (!scheme.isEmpty()) {
        QUrl url;
        url.setScheme(scheme == QLatin1String("ws") ? QStringLiteral("http") : scheme);
        url.setHost(host.startsWith(u'[') ? host.mid(1, host.size() - 2) : host);
        url.setPort(port);
        url.setPath(QStringLiteral("/"));
        if (NetworkPolicy::isPrivateHostLiteral(host))
            QCOMPARE(NetworkPolicy::refusal(url, grant).isEmpty(), allowed);
    }
}

void tst_NetworkPolicy::givesAVisitorAccountOnlyItsSitesReach()
{
    NetworkPolicy policy(true);
    // Even if the account key had the capability (a store from before the migration).
    policy.setPrivateGrantLookup([](const QString &) { return true; });
    policy.setVisitorReachLookup([](const QString &id) -> std::shared_ptr<const PrivateReach> {
        if (id != QLatin1String("key_account"))
            return nullptr;
        auto reach = std::make_shared<PrivateReach>();
        reach->siteHost = [](const QString &host) { return host == QLatin1String("127.0.0.1"); };
        return reach;
    });
    const EgressGrant account = policy.grantFor(QStringLiteral("key_account"));
    QVERIFY(!account.privateTargets);
    QVERIFY(account.reach);
    QVERIFY(!account.reach->pinned);
    const EgressGrant pinned =
        NetworkPolicy::pinReach(account, QUrl(QStringLiteral("http://127.0.0.1/shop")));
    QVERIFY(NetworkPolicy::refusal(QUrl(QStringLiteral("http://127.0.0.1/a")), pinned).isEmpty());
    QVERIFY(!NetworkPolicy::refusal(QUrl(QStringLiteral("http://127.0.0.1:4001/secret")), pinned)
                 .isEmpty());
    // Pinned once, for good: a later URL does not move it.
    const EgressGrant again =
        NetworkPolicy::pinReach(pinned, QUrl(QStringLiteral("http://127.0.0.1:4001/")));
    QCOMPARE(again.reach->port, 80);
    // A run the caller starts on another port of the site's host reaches nothing there:
    // the allowed domain names no port, so only the owner's list opens one.
    const EgressGrant elsewhere =
        NetworkPolicy::pinReach(account, QUrl(QStringLiteral("http://127.0.0.1:4000/secret")));
    QVERIFY(!NetworkPolicy::refusal(QUrl(QStringLiteral("http://127.0.0.1:4000/secret")), elsewhere)
                 .isEmpty());
    // Another key keeps its own grant; with the switch off nobody reaches anything.
    QVERIFY(policy.grantFor(QStringLiteral("key_owner")).privateTargets);
    policy.setAllowPrivateTargets(false);
    QVERIFY(!policy.grantFor(QStringLiteral("key_account")).reach);
    QVERIFY(!policy.grantFor(QStringLiteral("key_owner")).privateTargets);
}

void tst_NetworkPolicy::normalizesAllowlistEntries_data()
{
    QTest::addColumn<QString>("entry");
    QTest::addColumn<QString>("normalized"); // empty: refused
    QTest::newRow("a host name") << "Printer.LAN."
                                 << "printer.lan";
    QTest::newRow("a host and port") << "nas.local:5000"
                                     << "nas.local:5000";
    QTest::newRow("an IPv4 address") << "10.0.0.5"
                                     << "10.0.0.5";
    QTest::newRow("an IPv4 address and port") << "10.0.0.5:8080"
                                              << "10.0.0.5:8080";
    QTest::newRow("an IPv6 address in brackets with a port") << "[FD00::1]:443"
                                                             << "[fd00::1]:443";
    QTest::newRow("a bare IPv6 address") << "fd00::1"
                                         << "[fd00::1]";
    QTest::newRow("a URL is refused") << "http://10.0.0.5/"
                                      << "";
    QTest::newRow("a path is refused") << "10.0.0.5/admin"
                                       << "";
    QTest::newRow("a wildcard is refused") << "*.lan"
                                           << "";
    QTest::newRow("port zero is refused") << "10.0.0.5:0"
                                          << "";
    QTest::newRow("a port above 65535 is refused") << "10.0.0.5:70000"
                                                   << "";
    QTest::newRow("an empty entry is refused") << "  "
                                               << "";
    QTest::newRow("credentials are refused") << "user@10.0.0.5"
                                             << "";
    QTest::newRow("an unclosed bracket is refused") << "[fd00::1"
                                                    << "";
}

void tst_NetworkPolicy::normalizesAllowlistEntries()
{
    QFETCH(QString, entry);
    QFETCH(QString, normalized);
    QString problem;
    QCOMPARE(NetworkPolicy::normalizeAllowlistEntry(entry, &problem), normalized);
    QCOMPARE(problem.isEmpty(), !normalized.isEmpty());
}

void tst_NetworkPolicy::namesTheOriginOfAUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("origin");
    QTest::newRow("http spells out port 80") << "http://Shop.Example/a?b"
                                             << "http://shop.example:80";
    QTest::newRow("https spells out port 443") << "https://shop.example/"
                                               << "https://shop.example:443";
    QTest::newRow("an explicit port stays") << "http://127.0.0.1:4000/x"
                                            << "http://127.0.0.1:4000";
    QTest::newRow("IPv6 in brackets") << "http://[::1]:81/"
                                      << "http://[::1]:81";
    QTest::newRow("no origin for other schemes") << "file:///etc/passwd"
                                                 << "";
}

void tst_NetworkPolicy::namesTheOriginOfAUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, origin);
    QCOMPARE(NetworkPolicy::originOf(QUrl(url)), origin);
}

QTEST_GUILESS_MAIN(tst_NetworkPolicy)
#include "tst_networkpolicy.moc"
