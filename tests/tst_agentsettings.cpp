// The `settings` override of POST /agent end to end: the run's own proxy (HTTP and
// SOCKS5, started by the test on loopback) for its pages and its input fetches, the
// extraction config, typed refusals of unknown settings, and result.json as an array
// when a run read several records.
#include "FixtureServer.h"
#include "ForwardProxy.h"
#include "HttpClient.h"
#include "ModelStub.h"
#include "TestMain.h"
#include "TestService.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSslConfiguration>

using namespace ph;
using namespace ph::test;

namespace {

const QString kPassword = QStringLiteral("pr0xy-s3cret-9f2a");

QString resultText(const QJsonObject &r)
{
    return r.value(QStringLiteral("result")).toObject().value(QStringLiteral("text")).toString();
}

// Every byte the store holds (the database and its write-ahead log).
QByteArray storeBytes(const QString &dataDir)
{
    QByteArray all;
    for (const QString &name : QDir(dataDir).entryList({QStringLiteral("pilothouse.db*")})) {
        QFile f(dataDir + QLatin1Char('/') + name);
        if (f.open(QIODevice::ReadOnly))
            all += f.readAll();
    }
    return all;
}

} // namespace

class tst_AgentSettings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void refusesSettingsItCannotHonour_data();
    void refusesSettingsItCannotHonour();
    void refusesAPrivateProxyToAKeyWithoutTheGrant();
    void reachesPagesAndInputsThroughTheRunsProxy_data();
    void reachesPagesAndInputsThroughTheRunsProxy();
    void failsHonestlyWhenTheProxyRefusesItsCredentials();
    void readsPagesAsTheExtractionConfigSays_data();
    void readsPagesAsTheExtractionConfigSays();
    void answersOneJsonBlockPerRecordRead();
    void showsThePlannerTheTreeAsTheSettingsCapIt_data();
    void showsThePlannerTheTreeAsTheSettingsCapIt();

private:
    QJsonObject agent(const QJsonObject &body);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    ModelScript m_model;
};

void tst_AgentSettings::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/proxied", htmlPage(QStringLiteral("Proxied"),
                                     QStringLiteral("<h1>Harbour news</h1><p>Read through the "
                                                    "proxy: tide tables are out.</p>")));
    m_site.route("/rows.csv", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "text/csv"}};
        r.body = "name,price\nRope,12.5\nFender,24\n";
        return r;
    });
    QString article;
    for (int i = 0; i < 8; ++i)
        article += QStringLiteral("<p>The harbour master reports calm water in the bay and a "
                                  "steady breeze from the west, paragraph %1 of the report.</p>")
                       .arg(i + 1);
    m_site.page("/article",
                htmlPage(QStringLiteral("Report"),
                         QStringLiteral("<nav><a href=\"/\">NAVWORD home</a> <a href=\"/a\">"
                                        "NAVWORD archive</a></nav><main><article><h1>Harbour "
                                        "report</h1>%1<p>ENDMARK</p></article></main>"
                                        "<footer>FOOTWORD contact</footer>")
                             .arg(article)));
    m_site.page("/late", htmlPage(QStringLiteral("Late"),
                                  QStringLiteral("<h1>Departures</h1><p>Loading…</p><script>"
                                                 "setTimeout(function(){var p=document."
                                                 "createElement('p');p.id='late';p.textContent="
                                                 "'LATEWORD ferry at noon';document.body."
                                                 "appendChild(p);},2500);</script>")));
    m_site.page("/product/1", htmlPage(QStringLiteral("Kayak"),
                                       QStringLiteral("<h1>Kayak</h1><p>Price: €499.00</p>")));
    m_site.page("/product/2", htmlPage(QStringLiteral("Paddle"),
                                       QStringLiteral("<h1>Paddle</h1><p>Price: €59.90</p>")));
    QString items;
    for (int i = 1; i <= 20; ++i)
        items += QStringLiteral("<li><a href=\"/n%1\">Entry %1</a></li>").arg(i);
    m_site.page("/menu", htmlPage(QStringLiteral("Menu"),
                                  QStringLiteral("<nav id=\"top\"><a href=\"/\">Home</a> <a "
                                                 "href=\"/help\">Help</a></nav><button>Show "
                                                 "more</button><ul>%1</ul>")
                                      .arg(items)));
    m_model.serveOn(m_site);
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_AgentSettings::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_AgentSettings::agent(const QJsonObject &body)
{
    HttpClient c = m_ph->client();
    const auto r = c.post(QStringLiteral("/agent"), body);
    r.expectStatus({200}, __FILE__, __LINE__);
    return r.json();
}

void tst_AgentSettings::refusesSettingsItCannotHonour_data()
{
    QTest::addColumn<QByteArray>("settings");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("an unknown setting is named by its path, never dropped")
        << QByteArray(R"({"colour":"red"})") << QStringLiteral("UNKNOWN_SETTING")
        << QStringLiteral("settings.colour");
    QTest::newRow("an unknown extraction setting is named by its path")
        << QByteArray(R"({"extraction":{"depth":3}})") << QStringLiteral("UNKNOWN_SETTING")
        << QStringLiteral("settings.extraction.depth");
    QTest::newRow("an unknown accessibility-tree setting is named by its path")
        << QByteArray(R"({"extraction":{"accessibilityTree":{"maxDepth":3}}})")
        << QStringLiteral("UNKNOWN_SETTING")
        << QStringLiteral("settings.extraction.accessibilityTree.maxDepth");
    QTest::newRow("an unknown proxy field is named by its path")
        << QByteArray(R"({"proxy":{"url":"http://127.0.0.1:3128","region":"eu"}})")
        << QStringLiteral("UNKNOWN_SETTING") << QStringLiteral("settings.proxy.region");
    QTest::newRow("a proxy of another scheme is refused")
        << QByteArray(R"({"proxy":"ftp://127.0.0.1:21"})") << QStringLiteral("UNSUPPORTED_SCHEME")
        << QStringLiteral("settings.proxy");
    QTest::newRow("a proxy that is no URL is refused")
        << QByteArray(R"({"proxy":{"url":"not a proxy"}})") << QStringLiteral("INVALID_FIELD")
        << QStringLiteral("settings.proxy.url");
    QTest::newRow("a proxy URL with a path is refused")
        << QByteArray(R"({"proxy":"http://127.0.0.1:3128/x"})") << QStringLiteral("INVALID_FIELD")
        << QStringLiteral("settings.proxy");
    QTest::newRow("a proxy given as a number is refused")
        << QByteArray(R"({"proxy":3128})") << QStringLiteral("INVALID_FIELD")
        << QStringLiteral("settings.proxy");
    QTest::newRow("a text cap below one is refused")
        << QByteArray(R"({"extraction":{"maxTextChars":0}})") << QStringLiteral("INVALID_FIELD")
        << QStringLiteral("settings.extraction.maxTextChars");
    QTest::newRow("waiting for a selector and a text at once is refused")
        << QByteArray(R"({"extraction":{"waitForSelector":"#a","waitForText":"b"}})")
        << QStringLiteral("INVALID_FIELD") << QStringLiteral("settings.extraction.waitForText");
    QTest::newRow("an unknown waitUntil is refused")
        << QByteArray(R"({"extraction":{"waitUntil":"networkidle"}})")
        << QStringLiteral("INVALID_FIELD") << QStringLiteral("settings.extraction.waitUntil");
}

void tst_AgentSettings::refusesSettingsItCannotHonour()
{
    QFETCH(QByteArray, settings);
    QFETCH(QString, code);
    QFETCH(QString, field);
    HttpClient c = m_ph->client();
    const QByteArray body = R"({"input":"Read the page","urls":[")" +
                            m_site.url(QStringLiteral("/proxied")).toUtf8() + R"("],"settings":)" +
                            settings + "}";
    const auto r = c.postRaw(QStringLiteral("/agent"), body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
}

void tst_AgentSettings::refusesAPrivateProxyToAKeyWithoutTheGrant()
{
    HttpClient c = m_ph->client();
    c.setBearer(m_ph->mintKey(100, false));
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{QStringLiteral("https://example.org/")}},
                {QStringLiteral("settings"),
                 QJsonObject{{QStringLiteral("proxy"), QStringLiteral("http://10.0.0.8:3128")}}}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("PRIVATE_TARGET"));
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("settings.proxy"));
}

void tst_AgentSettings::reachesPagesAndInputsThroughTheRunsProxy_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("asObject");
    QTest::newRow("through an HTTP proxy named by a URL with credentials")
        << int(ForwardProxy::Kind::Http) << false;
    QTest::newRow("through a SOCKS5 proxy named by an object with credentials")
        << int(ForwardProxy::Kind::Socks5) << true;
    QTest::newRow("through an HTTPS proxy (TLS to the proxy) named by a URL with credentials")
        << int(ForwardProxy::Kind::Https) << false;
}

void tst_AgentSettings::reachesPagesAndInputsThroughTheRunsProxy()
{
    QFETCH(int, kind);
    QFETCH(bool, asObject);
    ForwardProxy proxy(ForwardProxy::Kind(kind), "harbour", kPassword.toUtf8());
    QVERIFY(proxy.start());
    if (kind == int(ForwardProxy::Kind::Https)) {
        // The proxy's certificate is checked like any server's: trust the test's own.
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.addCaCertificate(proxy.certificate());
        QSslConfiguration::setDefaultConfiguration(tls);
    }
    const QJsonValue proxySetting =
        asObject ? QJsonValue(QJsonObject{{QStringLiteral("url"), proxy.url()},
                                          {QStringLiteral("username"), QStringLiteral("harbour")},
                                          {QStringLiteral("password"), kPassword}})
                 : QJsonValue(proxy.url(QStringLiteral("harbour:") + kPassword));
    const int pageHits = m_site.hits("/proxied");
    const int csvHits = m_site.hits("/rows.csv");
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Read the page")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/proxied"))}},
               {QStringLiteral("file_urls"), QJsonArray{m_site.url(QStringLiteral("/rows.csv"))}},
               {QStringLiteral("settings"), QJsonObject{{QStringLiteral("proxy"), proxySetting}}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY2(resultText(r).contains(QLatin1String("tide tables")), qPrintable(resultText(r)));
    // The page and the input file were fetched, and every connection went through the
    // run's proxy with its credentials.
    QVERIFY(m_site.hits("/proxied") > pageHits);
    QVERIFY(m_site.hits("/rows.csv") > csvHits);
    QCOMPARE(proxy.refusedCredentials, 0);
    const QString fixture = QStringLiteral("127.0.0.1:%1").arg(m_site.port());
    if (kind != int(ForwardProxy::Kind::Socks5)) {
        QVERIFY2(proxy.targets.contains(QStringLiteral("GET http://%1/proxied").arg(fixture)),
                 qPrintable(proxy.targets.join(QLatin1Char('\n'))));
        QVERIFY2(proxy.targets.contains(QStringLiteral("GET http://%1/rows.csv").arg(fixture)),
                 qPrintable(proxy.targets.join(QLatin1Char('\n'))));
    } else {
        QVERIFY2(proxy.targets.count(QStringLiteral("SOCKS %1").arg(fixture)) >= 2,
                 qPrintable(proxy.targets.join(QLatin1Char('\n'))));
    }
    // The password is never echoed, and the store holds it sealed only.
    QVERIFY(!QJsonDocument(r).toJson().contains(kPassword.toUtf8()));
    const QString id = r.value(QStringLiteral("trajectoryId")).toString();
    HttpClient c = m_ph->client();
    const auto again = c.get(QStringLiteral("/agent/") + id);
    QVERIFY(!again.body.contains(kPassword.toUtf8()));
    const QByteArray stored = storeBytes(m_ph->dataDir());
    QVERIFY(!stored.isEmpty());
    QVERIFY2(!stored.contains(kPassword.toUtf8()), "the proxy password is in the store in clear");
    QVERIFY(stored.contains("sealedPassword"));
}

void tst_AgentSettings::failsHonestlyWhenTheProxyRefusesItsCredentials()
{
    ForwardProxy proxy(ForwardProxy::Kind::Http, "harbour", kPassword.toUtf8());
    QVERIFY(proxy.start());
    const int pageHits = m_site.hits("/proxied");
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("Read the page")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/proxied"))}},
         {QStringLiteral("settings"),
          QJsonObject{{QStringLiteral("proxy"), proxy.url(QStringLiteral("harbour:wrong"))}}}});
    QVERIFY2(r.value(QStringLiteral("status")).toString() != QLatin1String("success"),
             QJsonDocument(r).toJson().constData());
    QCOMPARE(r.value(QStringLiteral("success")).toBool(), false);
    QVERIFY2(r.value(QStringLiteral("error")).toString().contains(QLatin1String("PROXY_FAILED")),
             qPrintable(r.value(QStringLiteral("error")).toString()));
    QVERIFY(proxy.refusedCredentials >= 1);
    QCOMPARE(m_site.hits("/proxied"), pageHits);
}

void tst_AgentSettings::readsPagesAsTheExtractionConfigSays_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("extraction");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");
    QTest::newRow("reads the main content by default")
        << QStringLiteral("/article") << QByteArray("{}")
        << QStringList{QStringLiteral("ENDMARK"), QStringLiteral("paragraph 8")}
        << QStringList{QStringLiteral("NAVWORD"), QStringLiteral("FOOTWORD")};
    QTest::newRow("reads the whole page when mainContentOnly is false")
        << QStringLiteral("/article") << QByteArray(R"({"mainContentOnly":false})")
        << QStringList{QStringLiteral("NAVWORD"), QStringLiteral("FOOTWORD"),
                       QStringLiteral("ENDMARK")}
        << QStringList{};
    QTest::newRow("cuts what the run reads at maxTextChars")
        << QStringLiteral("/article") << QByteArray(R"({"maxTextChars":120})")
        << QStringList{QStringLiteral("Harbour report")}
        << QStringList{QStringLiteral("ENDMARK"), QStringLiteral("paragraph 3")};
    QTest::newRow("reads a late element once waitForSelector matches")
        << QStringLiteral("/late") << QByteArray(R"({"waitForSelector":"#late"})")
        << QStringList{QStringLiteral("LATEWORD")} << QStringList{};
    QTest::newRow("reads a late text once waitForText appears")
        << QStringLiteral("/late") << QByteArray(R"({"waitForText":"ferry at noon"})")
        << QStringList{QStringLiteral("LATEWORD")} << QStringList{};
    QTest::newRow("reads at load without a wait condition")
        << QStringLiteral("/late") << QByteArray("{}") << QStringList{QStringLiteral("Departures")}
        << QStringList{QStringLiteral("LATEWORD")};
}

void tst_AgentSettings::readsPagesAsTheExtractionConfigSays()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, extraction);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);
    const QJsonObject r = agent({{QStringLiteral("input"), QStringLiteral("Read the page")},
                                 {QStringLiteral("urls"), QJsonArray{m_site.url(path)}},
                                 {QStringLiteral("settings"),
                                  QJsonObject{{QStringLiteral("extraction"),
                                               QJsonDocument::fromJson(extraction).object()}}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QString text = resultText(r);
    for (const QString &p : present)
        QVERIFY2(text.contains(p), qPrintable(QStringLiteral("%1 missing in: %2").arg(p, text)));
    for (const QString &a : absent)
        QVERIFY2(!text.contains(a), qPrintable(QStringLiteral("%1 present in: %2").arg(a, text)));
}

void tst_AgentSettings::answersOneJsonBlockPerRecordRead()
{
    const QJsonObject schema = QJsonDocument::fromJson(R"json({"type":"object","properties":{
        "name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]})json")
                                   .object();
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Get the name and price of each product")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/product/1")),
                                                   m_site.url(QStringLiteral("/product/2"))}},
               {QStringLiteral("schema"), schema}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonValue json =
        r.value(QStringLiteral("result")).toObject().value(QStringLiteral("json"));
    QVERIFY2(json.isArray(), QJsonDocument(r).toJson().constData());
    const QJsonArray records = json.toArray();
    QCOMPARE(records.size(), 2);
    QCOMPARE(records.at(0).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("Kayak"));
    QCOMPARE(records.at(0).toObject().value(QStringLiteral("price")).toDouble(), 499.0);
    QCOMPARE(records.at(1).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("Paddle"));
    QCOMPARE(records.at(1).toObject().value(QStringLiteral("price")).toDouble(), 59.9);
    // Each record is its own output block.
    int blocks = 0;
    for (const auto &b : r.value(QStringLiteral("output")).toArray()) {
        if (b.toObject().value(QStringLiteral("type")).toString() == QLatin1String("json")) {
            QCOMPARE(b.toObject().value(QStringLiteral("data")), records.at(blocks));
            ++blocks;
        }
    }
    QCOMPARE(blocks, 2);
    QVERIFY(!r.contains(QStringLiteral("warnings")));
}

void tst_AgentSettings::showsThePlannerTheTreeAsTheSettingsCapIt_data()
{
    QTest::addColumn<QByteArray>("extraction");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");
    QTest::newRow("the whole tree by default")
        << QByteArray("{}") << QStringList{QStringLiteral("Help"), QStringLiteral("Entry 20")}
        << QStringList{};
    QTest::newRow("only what the scope matches")
        << QByteArray(R"({"accessibilityTree":{"scope":"#top"}})")
        << QStringList{QStringLiteral("Help")}
        << QStringList{QStringLiteral("Entry 1"), QStringLiteral("Show more")};
    QTest::newRow("no more nodes than maxNodes")
        << QByteArray(R"({"accessibilityTree":{"maxNodes":12}})")
        << QStringList{QStringLiteral("Home")} << QStringList{QStringLiteral("Entry 20")};
}

void tst_AgentSettings::showsThePlannerTheTreeAsTheSettingsCapIt()
{
    QFETCH(QByteArray, extraction);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);
    // The LLM planner (a stub served by the test) is shown the opened page's tree: what
    // the model's first request holds is what the settings let through.
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub-model"),
                     QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY(llm.ok());
    m_model.reset();
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("Read.")}})},
        100);
    HttpClient c = llm.client();
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Look at the menu")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/menu"))}},
                {QStringLiteral("settings"),
                 QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")},
                             {QStringLiteral("extraction"),
                              QJsonDocument::fromJson(extraction).object()}}}});
    r.expectStatus({200}, __FILE__, __LINE__);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(!m_model.requests.isEmpty());
    const QString tree = QString::fromUtf8(QJsonDocument(m_model.requests.first()).toJson());
    for (const QString &p : present)
        QVERIFY2(tree.contains(p), qPrintable(QStringLiteral("%1 missing").arg(p)));
    for (const QString &a : absent)
        QVERIFY2(!tree.contains(a), qPrintable(QStringLiteral("%1 present").arg(a)));
}

PH_WEBENGINE_TEST_MAIN(tst_AgentSettings)
#include "tst_agentsettings.moc"
