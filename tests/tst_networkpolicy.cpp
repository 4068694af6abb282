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

QTEST_GUILESS_MAIN(tst_NetworkPolicy)
#include "tst_networkpolicy.moc"
