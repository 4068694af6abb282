#include "http/Route.h"

#include <QtTest>

using namespace ph::http;

class tst_Router : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matches_data();
    void matches();
    void refusesARouteTwice_data();
    void refusesARouteTwice();
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

void tst_Router::refusesARouteTwice_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<bool>("refused");
    QTest::newRow("refuses the same method and path again")
        << QByteArray("GET") << "/agent/{id}" << true;
    QTest::newRow("refuses the same shape with another parameter name")
        << QByteArray("GET") << "/agent/{trajectoryId}" << true;
    QTest::newRow("accepts the same path under another method")
        << QByteArray("POST") << "/agent/{id}" << false;
    QTest::newRow("accepts a literal segment where another route has a parameter")
        << QByteArray("GET") << "/agent/latest" << false;
}

void tst_Router::refusesARouteTwice()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, pattern);
    QFETCH(bool, refused);
    Router router;
    QVERIFY(router
                .add({"GET",
                      QStringLiteral("/agent/{id}"),
                      AuthPolicy::ApiKey,
                      [](Exchange &) {},
                      nullptr,
                      {}})
                .isEmpty());
    const QString problem =
        router.add({method, pattern, AuthPolicy::ApiKey, [](Exchange &) {}, nullptr, {}});
    QCOMPARE(!problem.isEmpty(), refused);
    if (refused)
        QVERIFY2(problem.contains(QStringLiteral("routed twice")), qPrintable(problem));
}

QTEST_GUILESS_MAIN(tst_Router)
#include "tst_router.moc"
