#include "http/Route.h"

#include <QtTest>

using namespace ph::http;

class tst_Router : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matches_data();
    void matches();
};

void tst_Router::matches_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("param");
    QTest::addColumn<QStringList>("allowed");
    QTest::newRow("matches a literal path") << QByteArray("POST") << "/scrape"
                                            << "/scrape"
                                            << "" << QStringList{};
    QTest::newRow("tolerates a trailing slash") << QByteArray("POST") << "/scrape/"
                                                << "/scrape"
                                                << "" << QStringList{};
    QTest::newRow("captures a parameter") << QByteArray("GET") << "/agent/tr_123"
                                          << "/agent/{id}"
                                          << "tr_123" << QStringList{};
    QTest::newRow("decodes a parameter") << QByteArray("GET") << "/agent/a%20b%2Fc"
                                         << "/agent/{id}"
                                         << "a b/c" << QStringList{};
    QTest::newRow("lets HEAD use a GET route") << QByteArray("HEAD") << "/agent/x"
                                               << "/agent/{id}"
                                               << "x" << QStringList{};
    QTest::newRow("names the allowed methods for a known path") << QByteArray("GET") << "/scrape"
                                                                << ""
                                                                << "" << QStringList{"POST"};
    QTest::newRow("finds nothing for an unknown path") << QByteArray("GET") << "/nope"
                                                       << ""
                                                       << "" << QStringList{};
    QTest::newRow("does not match a longer path") << QByteArray("POST") << "/scrape/extra"
                                                  << ""
                                                  << "" << QStringList{};
}

void tst_Router::matches()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, path);
    QFETCH(QString, pattern);
    QFETCH(QString, param);
    QFETCH(QStringList, allowed);
    Router router;
    router.add(
        {"POST", QStringLiteral("/scrape"), AuthPolicy::ApiKey, [](Exchange &) {}, nullptr, {}});
    router.add(
        {"GET", QStringLiteral("/agent/{id}"), AuthPolicy::ApiKey, [](Exchange &) {}, nullptr, {}});
    router.add({"DELETE",
                QStringLiteral("/agent/{id}"),
                AuthPolicy::ApiKey,
                [](Exchange &) {},
                nullptr,
                {}});
    const auto m = router.match(method, path);
    if (pattern.isEmpty()) {
        QVERIFY(m.route == nullptr);
        QCOMPARE(m.allowedMethods, allowed);
        return;
    }
    QVERIFY(m.route);
    QCOMPARE(m.route->pattern, pattern);
    if (!param.isEmpty())
        QCOMPARE(m.params.value(QStringLiteral("id")), param);
}

QTEST_GUILESS_MAIN(tst_Router)
#include "tst_router.moc"
