#include "browser/NetworkPolicy.h"

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
    QTest::newRow("10/8") << "10.1.2.3" << true;
    QTest::newRow("172.16/12") << "172.20.0.1" << true;
    QTest::newRow("just outside 172.16/12") << "172.32.0.1" << false;
    QTest::newRow("192.168/16") << "192.168.1.10" << true;
    QTest::newRow("link-local v4") << "169.254.169.254" << true;
    QTest::newRow("carrier-grade NAT") << "100.64.0.1" << true;
    QTest::newRow("unspecified v4") << "0.0.0.0" << true;
    QTest::newRow("unique-local v6") << "fd00::1" << true;
    QTest::newRow("link-local v6") << "fe80::1" << true;
    QTest::newRow("v4-mapped private v6") << "::ffff:10.0.0.1" << true;
    QTest::newRow("a public v4 address") << "93.184.215.14" << false;
    QTest::newRow("a public v6 address") << "2606:4700::1111" << false;
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
    QTest::addColumn<bool>("allowPrivate");
    QTest::addColumn<bool>("refused");
    QTest::newRow("allows a public https URL") << "https://example.org/a" << false << false;
    QTest::newRow("allows a public http URL") << "http://example.org/" << false << false;
    QTest::newRow("refuses file:") << "file:///etc/passwd" << true << true;
    QTest::newRow("refuses javascript:") << "javascript:alert(1)" << true << true;
    QTest::newRow("refuses ftp:") << "ftp://example.org/" << true << true;
    QTest::newRow("refuses a loopback target when private targets are off")
        << "http://127.0.0.1:8000/" << false << true;
    QTest::newRow("allows a loopback target when private targets are on")
        << "http://127.0.0.1:8000/" << true << false;
    QTest::newRow("refuses a relative URL") << "/relative" << true << true;
}

void tst_NetworkPolicy::refusesUrls()
{
    QFETCH(QString, url);
    QFETCH(bool, allowPrivate);
    QFETCH(bool, refused);
    NetworkPolicy policy(allowPrivate);
    QCOMPARE(!policy.refusal(QUrl(url)).isEmpty(), refused);
}

QTEST_GUILESS_MAIN(tst_NetworkPolicy)
#include "tst_networkpolicy.moc"
