// HttpUrl: the one check of a caller-supplied URL field (absolute http or https, a host).
#include "core/DomainError.h"
#include "core/HttpUrl.h"

#include <QtTest>

using namespace ph;

class tst_HttpUrl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void judgesAUrlField_data();
    void judgesAUrlField();
    void namesTheFieldItRefuses();
};

void tst_HttpUrl::judgesAUrlField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("an https page is accepted") << "https://shop.example/a?b=1" << true;
    QTest::newRow("an http URL with a port is accepted") << "http://127.0.0.1:8080/" << true;
    QTest::newRow("an upper-case scheme is accepted") << "HTTPS://shop.example/" << true;
    QTest::newRow("a relative path is refused") << "/checkout" << false;
    QTest::newRow("a host without a scheme is refused") << "shop.example" << false;
    QTest::newRow("a file URL is refused") << "file:///etc/passwd" << false;
    QTest::newRow("a javascript URL is refused") << "javascript:alert(1)" << false;
    QTest::newRow("an http URL without a host is refused") << "http:///path" << false;
    QTest::newRow("a URL with a space is refused in strict mode")
        << "https://a b.example/" << false;
    QTest::newRow("surrounding blanks are the caller's to trim")
        << " https://shop.example/" << false;
    QTest::newRow("an empty text is refused") << "" << false;
}

void tst_HttpUrl::judgesAUrlField()
{
    QFETCH(QString, text);
    QFETCH(bool, accepted);
    QCOMPARE(HttpUrl::parse(text).has_value(), accepted);
}

void tst_HttpUrl::namesTheFieldItRefuses()
{
    try {
        HttpUrl::require(QStringLiteral("ftp://x.example/"), QStringLiteral("webhooks[0].url"));
        QFAIL("an ftp URL was accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("INVALID_FIELD"));
        QCOMPARE(e.field(), QStringLiteral("webhooks[0].url"));
        QCOMPARE(e.message(), QStringLiteral("webhooks[0].url must be an absolute http(s) URL"));
    }
    QCOMPARE(HttpUrl::require(QStringLiteral("https://x.example/p"), QStringLiteral("url")),
             QUrl(QStringLiteral("https://x.example/p")));
}

QTEST_GUILESS_MAIN(tst_HttpUrl)
#include "tst_httpurl.moc"
