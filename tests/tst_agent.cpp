// POST /agent end to end: the real service, real QtWebEngine pages, the rule planner
// (no model), and the LLM planner against an OpenAI-compatible stub served by the test.
#include "Engines.h"
#include "FixtureServer.h"
#include "HttpClient.h"
#include "ModelStub.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/RunManager.h"
#include "http/HttpServer.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSqlQuery>
#include <QUrlQuery>

using namespace ph;
using namespace ph::test;

namespace {

QJsonObject productsSchema()
{
    return QJsonDocument::fromJson(
               R"json({"type":"object","properties":{"products":{"type":"array","items":{
        "type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]}}}})json")
        .object();
}

QString cards(const QStringList &names, double base)
{
    QString out = QStringLiteral("<div class=\"grid\">");
    for (int i = 0; i < names.size(); ++i)
        out += QStringLiteral("<div class=\"card\"><h3 class=\"title\">%1</h3><p "
                              "class=\"blurb\">Good quality.</p>"
                              "<span class=\"price\">$%2</span><a href=\"/item/%3\">View</a></div>")
                   .arg(names[i])
                   .arg(base + i, 0, 'f', 2)
                   .arg(i);
    return out + QStringLiteral("</div>");
}

QJsonArray products(const QJsonObject &response)
{
    return response.value(QStringLiteral("result"))
        .toObject()
        .value(QStringLiteral("json"))
        .toObject()
        .value(QStringLiteral("products"))
        .toArray();
}

QStringList names(const QJsonArray &items)
{
    QStringList out;
    for (const auto &p : items)
        out << p.toObject().value(QStringLiteral("name")).toString();
    return out;
}

} // namespace

class tst_Agent : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase_data();
    void initTestCase();
    void init();
    void cleanupTestCase();
    void extractsATableShapedLikeTheSchema();
    void readsNumbersAsThePageWritesThem_data();
    void readsNumbersAsThePageWritesThem();
    void fillsAListOfStringsFromTheBestColumn_data();
    void fillsAListOfStringsFromTheBestColumn();
    void endsInErrorWhenNoneOfTheDataIsThere();
    void extractsFromJsonLd();
    void extractsRepeatedCards();
    void followsThreePagesOfPagination();
    void paginatesByWhatThePageOffers_data();
    void paginatesByWhatThePageOffers();
    void searchesThroughTheSearchForm();
    void searchesForTheTermAloneHoweverItIsPhrased_data();
    void searchesForTheTermAloneHoweverItIsPhrased();
    void asksForCredentialsThenSignsIn();
    void signsInWithCredentialsWrittenAsText_data();
    void signsInWithCredentialsWrittenAsText();
    void resumesByReplayingWhenThePageWasReleased();
    void resumesAfterARestart();
    void runsExplicitSteps();
    void reportsStepsByVerbosity_data();
    void reportsStepsByVerbosity();
    void warnsWhenRequiredFieldsAreMissing();
    void snapshotsALargeOutputToAnExpiringLink();
    void cancelsWhenTheClientDisconnects();
    void answersExecutingAfterTheSyncWindow();
    void continuesATrajectoryWithANewPhase();
    void refusesBadRequests_data();
    void refusesBadRequests();
    void generatesDocumentsAndPdfsBehindSignedLinks();
    void enablesTheWebsiteAndFormToolsWithoutWarnings();
    void runsInParallelWithinThePerKeyLimit();
    void storesALargeResponseOnceHoweverOftenItIsRead();
    void countsAWaitingRunsPageAndGivesItUpWhenAnotherKeyWaits();
    void runsAnOpenEndedTaskThroughTheLlmPlanner();
    void runsTheCorpusClassesThroughTheLlmPlanner_data();
    void runsTheCorpusClassesThroughTheLlmPlanner();
    void retriesAModelEndpointThatFails();
    void sendsImagesToTheModel();
    void streamsProgressAsEvents_data();
    void streamsProgressAsEvents();

private:
    QJsonObject agent(const QJsonObject &body, int expectedStatus = 200,
                      TestService *service = nullptr);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    ModelScript m_model;
    int m_accountHits = 0;
};

void tst_Agent::initTestCase_data()
{
    ph::test::addEngineRows();
}

void tst_Agent::init()
{
    PH_USE_ROW_ENGINE(m_ph.get());
}

void tst_Agent::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page(
        "/shop",
        htmlPage(
            QStringLiteral("Shop"),
            QStringLiteral(
                "<h1>Harbour "
                "Supplies</h1><table><thead><tr><th>Product</th><th>Price</th><th>Stock</th></"
                "tr></thead><tbody>"
                "<tr><td>Rope, 10 "
                "m</td><td>$12.50</td><td>yes</td></tr><tr><td>Fender</td><td>$24.00</td><td>no</"
                "td></tr>"
                "<tr><td>Anchor</td><td>$1,299.00</td><td>yes</td></tr></tbody></table>")));
    m_site.page(
        "/jsonld",
        htmlPage(QStringLiteral("Catalog"),
                 QStringLiteral("<script "
                                "type=\"application/ld+json\">{\"@context\":\"https://"
                                "schema.org\",\"@type\":\"ItemList\",\"itemListElement\":["
                                "{\"@type\":\"ListItem\",\"position\":1,\"item\":{\"@type\":"
                                "\"Product\",\"name\":\"Kayak\",\"offers\":{\"@type\":"
                                "\"Offer\",\"price\":\"499.00\",\"priceCurrency\":\"EUR\"}}},"
                                "{\"@type\":\"ListItem\",\"position\":2,\"item\":{\"@type\":"
                                "\"Product\",\"name\":\"Paddle\",\"offers\":{\"@type\":"
                                "\"Offer\",\"price\":\"59.90\",\"priceCurrency\":\"EUR\"}}}]}"
                                "</script><h1>Catalog</h1><p>Our boats.</p>")));
    m_site.page("/cards", htmlPage(QStringLiteral("Cards"),
                                   QStringLiteral("<h1>Deals</h1>") +
                                       cards({QStringLiteral("Compass"), QStringLiteral("Lantern"),
                                              QStringLiteral("Whistle")},
                                             10)));
    for (int p = 1; p <= 3; ++p) {
        const QString next =
            p < 3 ? QStringLiteral("<a rel=\"next\" href=\"/list?page=%1\">Next</a>").arg(p + 1)
                  : QString();
        const QByteArray html = htmlPage(
            QStringLiteral("List %1").arg(p),
            QStringLiteral("<h1>Products, page %1</h1>").arg(p) +
                cards({QStringLiteral("Item %1A").arg(p), QStringLiteral("Item %1B").arg(p)},
                      p * 10) +
                QStringLiteral("<nav class=\"pager\">%1</nav>").arg(next));
        m_site.route("/list", [](const FixtureRequest &r) {
            const int n = QUrlQuery(QUrl(QString::fromUtf8(r.path)).query())
                              .queryItemValue(QStringLiteral("page"))
                              .toInt();
            const int pageNo = n < 1 ? 1 : n;
            const QString nextLink =
                pageNo < 3 ? QStringLiteral("<a rel=\"next\" href=\"/list?page=%1\">Next</a>")
                                 .arg(pageNo + 1)
                           : QString();
            return FixtureResponse::html(
                htmlPage(QStringLiteral("List %1").arg(pageNo),
                         QStringLiteral("<h1>Products, page %1</h1>").arg(pageNo) +
                             cards({QStringLiteral("Item %1A").arg(pageNo),
                                    QStringLiteral("Item %1B").arg(pageNo)},
                                   pageNo * 10) +
                             QStringLiteral("<nav class=\"pager\">%1</nav>").arg(nextLink)));
        });
        Q_UNUSED(html);
    }
    m_site.route("/search", [](const FixtureRequest &r) {
        const QString q = QUrlQuery(QUrl(QString::fromUtf8(r.path)).query())
                              .queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded);
        QString body = QStringLiteral("<form role=\"search\" action=\"/search\"><input "
                                      "type=\"search\" name=\"q\" aria-label=\"Search products\">"
                                      "<button>Search</button></form>");
        if (!q.isEmpty())
            body += QStringLiteral("<h1>Results for %1</h1>").arg(q.toHtmlEscaped()) +
                    cards({q + QStringLiteral(" Pro"), q + QStringLiteral(" Lite")}, 5);
        return FixtureResponse::html(htmlPage(QStringLiteral("Search"), body));
    });
    const QByteArray loginPage = htmlPage(
        QStringLiteral("Sign in"),
        QStringLiteral("<h1>Sign in</h1><form method=\"post\" action=\"/session\"><label "
                       "for=\"e\">Email</label><input id=\"e\" name=\"email\" type=\"email\">"
                       "<label for=\"p\">Password</label><input id=\"p\" name=\"password\" "
                       "type=\"password\"><button type=\"submit\">Sign in</button></form>"));
    m_site.page("/login", loginPage);
    m_site.route("/session", [](const FixtureRequest &r) {
        const QUrlQuery form(QString::fromUtf8(r.body));
        FixtureResponse resp;
        if (form.queryItemValue(QStringLiteral("email"), QUrl::FullyDecoded) ==
                QLatin1String("ada@example.org") &&
            form.queryItemValue(QStringLiteral("password"), QUrl::FullyDecoded) ==
                QLatin1String("s3cret!")) {
            resp.status = 303;
            resp.headers = {{"Location", "/account"}, {"Set-Cookie", "session=ok; Path=/"}};
        } else {
            resp = FixtureResponse::html(
                htmlPage(QStringLiteral("Sign in"), QStringLiteral("<p>Wrong password</p>")));
            resp.status = 401;
        }
        return resp;
    });
    m_site.route("/account", [this, loginPage](const FixtureRequest &r) {
        ++m_accountHits;
        if (!r.headers.value("cookie").contains("session=ok"))
            return FixtureResponse::html(loginPage);
        return FixtureResponse::html(htmlPage(
            QStringLiteral("Orders"),
            QStringLiteral(
                "<h1>Your "
                "orders</h1><table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody>"
                "<tr><td>Sextant</td><td>310.00</td></tr><tr><td>Chart</td><td>25.00</td></"
                "tr></tbody></table>")));
    });
    m_site.page("/form",
                htmlPage(QStringLiteral("Form"),
                         QStringLiteral(
                             "<button id=\"show\" "
                             "onclick=\"setTimeout(()=>{document.getElementById('d').textContent='"
                             "Details shown'},300)\">Show details</button>"
                             "<p id=\"d\"></p><label for=\"n\">Name</label><input id=\"n\"><label "
                             "for=\"c\">Color</label>"
                             "<select id=\"c\"><option>Red</option><option>Blue</option></select>"
                             "<button onclick=\"document.getElementById('out').textContent='Saved "
                             "'+document.getElementById('n').value+' "
                             "'+document.getElementById('c').value\">Save</button>"
                             "<p id=\"out\"></p>")));
    m_site.route("/hang", [](const FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>never</title><p>partial");
        r.hang = true;
        return r;
    });
    m_site.route("/big", [](const FixtureRequest &) {
        QString rows;
        for (int i = 0; i < 400; ++i)
            rows += QStringLiteral("<tr><td>Product number %1 with a long descriptive "
                                   "name</td><td>%2.99</td></tr>")
                        .arg(i)
                        .arg(i);
        return FixtureResponse::html(htmlPage(
            QStringLiteral("Big"), QStringLiteral("<table><thead><tr><th>Name</th><th>Price</"
                                                  "th></tr></thead><tbody>%1</tbody></table>")
                                       .arg(rows)));
    });
    m_site.page(
        "/prices",
        htmlPage(
            QStringLiteral("Prices"),
            QStringLiteral(
                "<h1>Boat shop</h1><button "
                "onclick=\"document.getElementById('p').hidden=false\">Show prices</button>"
                "<table id=\"p\" "
                "hidden><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody><tr><td>Dinghy</"
                "td><td>900</td></tr></tbody></table>")));
    m_site.route("/image.png", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "image/png"}};
        r.body = QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42m"
                                        "Nk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
        return r;
    });
    m_model.serveOn(m_site);
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_Agent::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_Agent::agent(const QJsonObject &body, int expectedStatus, TestService *service)
{
    HttpClient c = (service ? service : m_ph.get())->client();
    const auto r = c.post(QStringLiteral("/agent"), body);
    r.expectStatus({expectedStatus}, __FILE__, __LINE__);
    return r.json();
}

void tst_Agent::streamsProgressAsEvents_data()
{
    QTest::addColumn<bool>("emitEvents");
    QTest::addColumn<QByteArray>("accept");
    QTest::newRow("streams each step when the run asks for events")
        << true << QByteArray("text/event-stream");
    QTest::newRow("streams only status and the end otherwise")
        << false << QByteArray("text/event-stream");
    QTest::newRow("streams the same events as NDJSON")
        << true << QByteArray("application/x-ndjson");
}

void tst_Agent::streamsProgressAsEvents()
{
    QFETCH(bool, emitEvents);
    QFETCH(QByteArray, accept);
    // A page slow enough that the stream opens while the run works.
    m_site.route("/slow-shop", [](const FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html(
            htmlPage(QStringLiteral("Slow shop"),
                     QStringLiteral("<table><tr><th>Name</th><th>Price</th></tr><tr><td>Rope</td>"
                                    "<td>12.5</td></tr></table>")));
        r.delayMs = 1500;
        return r;
    });
    HttpClient c = m_ph->client();
    const auto started = c.send(
        "POST", QStringLiteral("/agent"),
        QJsonDocument(
            QJsonObject{
                {QStringLiteral("input"), QStringLiteral("List the products")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/slow-shop"))}},
                {QStringLiteral("options"),
                 QJsonObject{{QStringLiteral("ui"),
                              QJsonObject{{QStringLiteral("emitEvents"), emitEvents}}}}}})
            .toJson(QJsonDocument::Compact),
        {{"Content-Type", "application/json"}, {"Prefer", "wait=0"}});
    QCOMPARE(started.status, 202);
    const QString id = started.json().value(QStringLiteral("trajectoryId")).toString();
    const QByteArray reply =
        HttpClient::raw(m_ph->port(),
                        "GET /agent/" + id.toUtf8() + " HTTP/1.1\r\nHost: x\r\nAccept: " + accept +
                            "\r\nAuthorization: Bearer " + m_ph->ownerKey().toUtf8() + "\r\n\r\n",
                        30000, accept == "text/event-stream" ? "event: done" : "\"type\":\"done\"");
    QVERIFY2(reply.contains("Content-Type: " + accept) || reply.contains("content-type: " + accept),
             reply.left(300).constData());
    const QByteArray step = accept == "text/event-stream" ? "event: step" : "\"type\":\"step\"";
    const QByteArray status =
        accept == "text/event-stream" ? "event: status" : "\"type\":\"status\"";
    QVERIFY(reply.contains(status));
    QCOMPARE(reply.contains(step), emitEvents);
    QVERIFY2(reply.contains("done") && reply.contains("\"success\""), reply.constData());
}

void tst_Agent::readsNumbersAsThePageWritesThem_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QStringList>("written");
    QTest::newRow("comma thousands on an English page")
        << QStringLiteral("en")
        << QStringList{QStringLiteral("8,336,817"), QStringLiteral("1,234,567"),
                       QStringLiteral("812,000")};
    QTest::newRow("dot thousands on a German page")
        << QStringLiteral("de")
        << QStringList{QStringLiteral("8.336.817"), QStringLiteral("1.234.567"),
                       QStringLiteral("812.000")};
    QTest::newRow("spaced thousands on a French page")
        << QStringLiteral("fr")
        << QStringList{QStringLiteral("8 336 817"), QStringLiteral("1 234 567"),
                       QStringLiteral("812 000")};
    QTest::newRow("apostrophe thousands on a Swiss page")
        << QStringLiteral("de-CH")
        << QStringList{QStringLiteral("8'336'817"), QStringLiteral("1'234'567"),
                       QStringLiteral("812'000")};
}

void tst_Agent::readsNumbersAsThePageWritesThem()
{
    // A population column read into an integer field: the whole number, whatever the
    // page's way of grouping thousands; a cell that is no number is a typed warning.
    QFETCH(QString, lang);
    QFETCH(QStringList, written);
    QString rows;
    const QStringList cities{QStringLiteral("Lisbon"), QStringLiteral("Porto"),
                             QStringLiteral("Braga")};
    for (int i = 0; i < cities.size(); ++i)
        rows += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(cities.at(i), written.at(i));
    rows += QStringLiteral("<tr><td>Faro</td><td>unknown</td></tr>");
    const QByteArray path = "/cities-" + lang.toLatin1();
    m_site.page(path,
                QStringLiteral("<!doctype html><html lang=\"%1\"><head><meta charset=\"utf-8\">"
                               "<title>Cities</title></head><body><table><thead><tr><th>City"
                               "</th><th>Population</th></tr></thead><tbody>%2</tbody></table>"
                               "</body></html>")
                    .arg(lang, rows)
                    .toUtf8());
    const QJsonObject schema = QJsonDocument::fromJson(
                                   R"({"type":"object","properties":{"cities":{"type":"array",
        "items":{"type":"object","properties":{"city":{"type":"string"},
        "population":{"type":"integer"}},"required":["city","population"]}}}})")
                                   .object();
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List the cities with their population")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QString::fromLatin1(path))}},
               {QStringLiteral("schema"), schema}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray items =
        r[QStringLiteral("result")][QStringLiteral("json")][QStringLiteral("cities")].toArray();
    QCOMPARE(items.size(), 4);
    QCOMPARE(items[0][QStringLiteral("population")].toInteger(), 8336817);
    QCOMPARE(items[1][QStringLiteral("population")].toInteger(), 1234567);
    QCOMPARE(items[2][QStringLiteral("population")].toInteger(), 812000);
    QVERIFY(!items[3].toObject().contains(QStringLiteral("population")));
    bool warned = false;
    for (const QJsonValue &w : r.value(QStringLiteral("warnings")).toArray())
        warned |= w.toString().contains(QLatin1String("\"unknown\" is not a number"));
    QVERIFY2(warned,
             QJsonDocument(r.value(QStringLiteral("warnings")).toArray()).toJson().constData());
}

void tst_Agent::fillsAListOfStringsFromTheBestColumn_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QString>("path");
    QTest::newRow("a property that is an array of names")
        << QByteArray(R"({"type":"object","properties":{"names":{"type":"array",
            "items":{"type":"string"}}},"required":["names"]})")
        << QStringLiteral("names");
    QTest::newRow("a property named in the singular's plural: cities")
        << QByteArray(R"({"type":"object","properties":{"cities":{"type":"array",
            "items":{"type":"string"}}},"required":["cities"]})")
        << QStringLiteral("cities");
    QTest::newRow("a top-level array of strings titled by the column")
        << QByteArray(R"({"type":"array","title":"city","items":{"type":"string"}})") << QString();
}

void tst_Agent::fillsAListOfStringsFromTheBestColumn()
{
    // A schema asking for one array of names: filled from the column that names them,
    // not the first column, never rows as objects, never empty with success.
    QFETCH(QByteArray, schema);
    QFETCH(QString, path);
    m_site.page("/harbours",
                htmlPage(QStringLiteral("Harbours"),
                         QStringLiteral("<table><thead><tr><th>Rank</th><th>City</th><th>Name"
                                        "</th></tr></thead><tbody><tr><td>1</td><td>Lisbon</td>"
                                        "<td>Alcântara</td></tr><tr><td>2</td><td>Porto</td><td>"
                                        "Leixões</td></tr><tr><td>3</td><td>Sines</td><td>Sines "
                                        "Terminal</td></tr></tbody></table>")));
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List the harbours")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/harbours"))}},
               {QStringLiteral("schema"), QJsonDocument::fromJson(schema).object()}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonValue json = r[QStringLiteral("result")][QStringLiteral("json")];
    const QJsonArray values = path.isEmpty() ? json.toArray() : json[path].toArray();
    const QStringList expected =
        path == QLatin1String("names")
            ? QStringList{QStringLiteral("Alcântara"), QStringLiteral("Leixões"),
                          QStringLiteral("Sines Terminal")}
            : QStringList{QStringLiteral("Lisbon"), QStringLiteral("Porto"),
                          QStringLiteral("Sines")};
    QStringList got;
    for (const QJsonValue &v : values)
        got << v.toString();
    QCOMPARE(got, expected);
}

void tst_Agent::endsInErrorWhenNoneOfTheDataIsThere()
{
    // Data was asked for and the page has none: error naming what is missing, never a
    // silent success with an empty answer.
    m_site.page("/empty", htmlPage(QStringLiteral("Nothing here"),
                                   QStringLiteral("<h1>Coming soon</h1><p>No listings yet.</p>")));
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List the city names")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/empty"))}},
               {QStringLiteral("schema"),
                QJsonDocument::fromJson(R"({"type":"object","properties":{"names":{"type":"array",
                    "items":{"type":"string"}}},"required":["names"]})")
                    .object()}});
    QVERIFY2(r.value(QStringLiteral("status")).toString() == QLatin1String("error"),
             QJsonDocument(r).toJson().constData());
    QCOMPARE(r.value(QStringLiteral("success")).toBool(true), false);
    QVERIFY2(r.value(QStringLiteral("error")).toString().contains(QLatin1String("names")),
             qPrintable(r.value(QStringLiteral("error")).toString()));
}

void tst_Agent::paginatesByWhatThePageOffers_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("a numbered pager, the current page marked") << QStringLiteral("numbered");
    QTest::newRow("a › link with no words") << QStringLiteral("arrow");
    QTest::newRow("a Load more button that appends rows") << QStringLiteral("more");
    QTest::newRow("infinite scroll that appends rows") << QStringLiteral("scroll");
}

void tst_Agent::paginatesByWhatThePageOffers()
{
    // Three pages of three products, offered as the page's kind of pagination; every
    // product once, however the page offers the next ones.
    QFETCH(QString, kind);
    const auto rowsOf = [](int page) {
        QString rows;
        for (int i = 1; i <= 3; ++i)
            rows += QStringLiteral("<tr><td>Item %1-%2</td><td>%3.00</td></tr>")
                        .arg(page)
                        .arg(i)
                        .arg(page * 10 + i);
        return rows;
    };
    const QString table = QStringLiteral("<table><thead><tr><th>Name</th><th>Price</th></tr>"
                                         "</thead><tbody id=\"rows\">%1</tbody></table>");
    const QByteArray path = "/paged-" + kind.toLatin1();
    if (kind == QLatin1String("numbered") || kind == QLatin1String("arrow")) {
        m_site.route(path, [=](const FixtureRequest &r) {
            const int page = qMax(1, QUrlQuery(QUrl(QString::fromUtf8(r.path)).query())
                                         .queryItemValue(QStringLiteral("page"))
                                         .toInt());
            QString nav;
            if (kind == QLatin1String("numbered")) {
                nav = QStringLiteral("<nav class=\"pagination\"><ul>");
                for (int p = 1; p <= 3; ++p)
                    nav += p == page
                               ? QStringLiteral("<li><span aria-current=\"page\">%1</span>"
                                                "</li>")
                                     .arg(p)
                               : QStringLiteral("<li><a href=\"?page=%1\">%1</a></li>").arg(p);
                nav += QStringLiteral("</ul></nav>");
            } else if (page < 3) {
                nav = QStringLiteral("<a href=\"?page=%1\">›</a>").arg(page + 1);
            }
            return FixtureResponse::html(
                htmlPage(QStringLiteral("Page %1").arg(page), table.arg(rowsOf(page)) + nav));
        });
    } else {
        // One page: more rows arrive by a button or when scrolled to the bottom.
        const QString more =
            kind == QLatin1String("more")
                ? QStringLiteral("<button id=\"more\" type=\"button\">Load more</button>")
                : QStringLiteral("<div style=\"height:3000px\"></div>");
        const QString script =
            QStringLiteral(
                "<script>var next=2;var rows=%1;function add(){if(next>3)return;"
                "document.getElementById('rows').insertAdjacentHTML('beforeend',rows[next]);next++;"
                "if(next>3&&document.getElementById('more'))document.getElementById('more')."
                "remove();}%2</script>")
                .arg(QStringLiteral("{2:'%1',3:'%2'}").arg(rowsOf(2), rowsOf(3)),
                     kind == QLatin1String("more")
                         ? QStringLiteral("document.getElementById('more')."
                                          "onclick=add;")
                         : QStringLiteral("window.addEventListener('scroll',"
                                          "function(){setTimeout(add,50);});"));
        m_site.page(path,
                    htmlPage(QStringLiteral("Catalogue"), table.arg(rowsOf(1)) + more + script));
    }
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List all products on every page")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QString::fromLatin1(path))}},
               {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QStringList got = names(products(r));
    QStringList expected;
    for (int p = 1; p <= 3; ++p)
        for (int i = 1; i <= 3; ++i)
            expected << QStringLiteral("Item %1-%2").arg(p).arg(i);
    QCOMPARE(got, expected);
}

void tst_Agent::extractsATableShapedLikeTheSchema()
{
    const QJsonObject r =
        agent({{QStringLiteral("input"),
                QStringLiteral("List every product on this page with its name and price")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
               {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r.value(QStringLiteral("success")).toBool(), true);
    QVERIFY(r.value(QStringLiteral("trajectoryId")).toString().startsWith(QLatin1String("traj_")));
    const QJsonArray items = products(r);
    QCOMPARE(items.size(), 3);
    QCOMPARE(items[0].toObject(),
             (QJsonObject{{QStringLiteral("name"), QStringLiteral("Rope, 10 m")},
                          {QStringLiteral("price"), 12.5}}));
    QCOMPARE(items[2].toObject().value(QStringLiteral("price")).toDouble(), 1299.0);
    // Exactly the schema's properties: nothing else leaks in.
    QCOMPARE(items[1].toObject().keys(),
             (QStringList{QStringLiteral("name"), QStringLiteral("price")}));
    QVERIFY(!r.contains(QStringLiteral("steps"))); // verbosity final
    QVERIFY(!r.contains(QStringLiteral("warnings")));
    const QJsonObject usage = r.value(QStringLiteral("usage")).toObject();
    QVERIFY(usage.value(QStringLiteral("creditsUsed")).toDouble() >= 1.0);
    QCOMPARE(
        r.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("planner")).toString(),
        QStringLiteral("rule"));
    QCOMPARE(
        r.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("taskRef")).toString(),
        r.value(QStringLiteral("trajectoryId")).toString() + QStringLiteral("/1"));
    // /execute is the same contract.
    HttpClient c = m_ph->client();
    const auto e =
        c.post(QStringLiteral("/execute"),
               {{QStringLiteral("input"), QStringLiteral("List every product")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(products(e.json()).size(), 3);
}

void tst_Agent::extractsFromJsonLd()
{
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Get the products")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/jsonld"))}},
               {QStringLiteral("schema"), productsSchema()}});
    const QJsonArray items = products(r);
    QCOMPARE(names(items), (QStringList{QStringLiteral("Kayak"), QStringLiteral("Paddle")}));
    QCOMPARE(items[1].toObject().value(QStringLiteral("price")).toDouble(), 59.9);
}

void tst_Agent::extractsRepeatedCards()
{
    const QJsonObject schema =
        QJsonDocument::fromJson(R"json({"type":"array","items":{"type":"object",
        "properties":{"title":{"type":"string"},"price":{"type":"number"},"url":{"type":"string"}},"required":["title","price"]}})json")
            .object();
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Extract the deals")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/cards"))}},
               {QStringLiteral("schema"), schema}});
    const QJsonArray items =
        r.value(QStringLiteral("result")).toObject().value(QStringLiteral("json")).toArray();
    QCOMPARE(items.size(), 3);
    QCOMPARE(items[1].toObject().value(QStringLiteral("title")).toString(),
             QStringLiteral("Lantern"));
    QCOMPARE(items[1].toObject().value(QStringLiteral("price")).toDouble(), 11.0);
    QCOMPARE(items[1].toObject().value(QStringLiteral("url")).toString(),
             m_site.url(QStringLiteral("/item/1")));
}

void tst_Agent::followsThreePagesOfPagination()
{
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List every product across all pages")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/list"))}},
               {QStringLiteral("schema"), productsSchema()},
               {QStringLiteral("response"),
                QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}});
    QCOMPARE(names(products(r)),
             (QStringList{QStringLiteral("Item 1A"), QStringLiteral("Item 1B"),
                          QStringLiteral("Item 2A"), QStringLiteral("Item 2B"),
                          QStringLiteral("Item 3A"), QStringLiteral("Item 3B")}));
    QVERIFY2(
        r.value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("text"))
            .toString()
            .contains(QLatin1String("3 pages")),
        qPrintable(
            r.value(QStringLiteral("result")).toObject().value(QStringLiteral("text")).toString()));
    // Without "all pages" the planner stays on the first page.
    const QJsonObject one =
        agent({{QStringLiteral("input"), QStringLiteral("List the products")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/list"))}},
               {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(products(one).size(), 2);
}

void tst_Agent::searchesThroughTheSearchForm()
{
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("Search for \"kayak\" and list the results")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/search"))}},
         {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(names(products(r)),
             (QStringList{QStringLiteral("kayak Pro"), QStringLiteral("kayak Lite")}));
    QVERIFY(m_site.requests("/search").last().path.contains("q=kayak"));
}

void tst_Agent::searchesForTheTermAloneHoweverItIsPhrased_data()
{
    QTest::addColumn<QString>("task");
    QTest::newRow("search <where> for <what>") << QStringLiteral("Search the catalogue for kayak");
    QTest::newRow("search in <where> for <what>, then list")
        << QStringLiteral("search in the shop for kayak and list the results");
    QTest::newRow("look up <what> in <where>") << QStringLiteral("Look up kayak in the catalogue");
    QTest::newRow("German: durchsuche <Ort> nach <Begriff>")
        << QStringLiteral("Durchsuche den Katalog nach kayak");
}

void tst_Agent::searchesForTheTermAloneHoweverItIsPhrased()
{
    // The words naming the place are never typed into the search box.
    QFETCH(QString, task);
    const QJsonObject r =
        agent({{QStringLiteral("input"), task},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/search"))}},
               {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(names(products(r)),
             (QStringList{QStringLiteral("kayak Pro"), QStringLiteral("kayak Lite")}));
    QVERIFY2(m_site.requests("/search").last().path.endsWith("q=kayak"),
             m_site.requests("/search").last().path.constData());
}

void tst_Agent::asksForCredentialsThenSignsIn()
{
    const QJsonObject first =
        agent({{QStringLiteral("input"), QStringLiteral("Sign in and list my orders")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
               {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    QCOMPARE(first.value(QStringLiteral("success")).toBool(true), false);
    const QJsonArray questions = first.value(QStringLiteral("questions")).toArray();
    QCOMPARE(questions.size(), 2); // one per missing field
    QCOMPARE(questions[0].toObject().value(QStringLiteral("key")).toString(),
             QStringLiteral("email"));
    QCOMPARE(questions[1].toObject().value(QStringLiteral("key")).toString(),
             QStringLiteral("password"));
    QCOMPARE(questions[1].toObject().value(QStringLiteral("secret")).toBool(), true);
    QVERIFY(first.value(QStringLiteral("history"))
                .toObject()
                .value(QStringLiteral("previousSteps"))
                .toArray()
                .size() >= 2);

    const QString trajectory = first.value(QStringLiteral("trajectoryId")).toString();
    QJsonObject history = first.value(QStringLiteral("history")).toObject();
    history.insert(QStringLiteral("continue"), true);
    history.insert(QStringLiteral("answers"),
                   QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                               {QStringLiteral("password"), QStringLiteral("s3cret!")}});
    HttpClient c = m_ph->client();
    const auto second =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Here are my credentials")},
                {QStringLiteral("trajectoryId"), trajectory},
                {QStringLiteral("history"), history},
                {QStringLiteral("response"),
                 QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("debug")}}}});
    const QJsonObject r = second.json();
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r.value(QStringLiteral("trajectoryId")).toString(), trajectory);
    QCOMPARE(names(products(r)), (QStringList{QStringLiteral("Sextant"), QStringLiteral("Chart")}));
    // The password never comes back, nor is it stored.
    QVERIFY(!second.body.contains("s3cret!"));
    QSqlQuery q(m_ph->service().store().database());
    for (const char *sql :
         {"SELECT args FROM steps", "SELECT request FROM phases", "SELECT response FROM phases",
          "SELECT COALESCE(state, '') FROM phases"}) {
        QVERIFY(q.exec(QString::fromLatin1(sql)));
        while (q.next())
            QVERIFY2(!q.value(0).toString().contains(QLatin1String("s3cret!")), sql);
    }
}

void tst_Agent::signsInWithCredentialsWrittenAsText_data()
{
    QTest::addColumn<QString>("input");
    QTest::newRow("key: value lines, no quotes")
        << QStringLiteral("email: ada@example.org\npassword: s3cret!");
    QTest::newRow("pairs in the other order on one line")
        << QStringLiteral("password: s3cret!, email: ada@example.org");
    QTest::newRow("a sentence") << QStringLiteral(
        "My email is ada@example.org and the password is \"s3cret!\"");
}

void tst_Agent::signsInWithCredentialsWrittenAsText()
{
    // After requires_input, the continuation's input alone (no history.answers) answers
    // the questions however it is written; the run signs in instead of asking again.
    QFETCH(QString, input);
    const QJsonObject first =
        agent({{QStringLiteral("input"), QStringLiteral("Sign in and list my orders")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
               {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    const auto second = m_ph->client().post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"), input},
         {QStringLiteral("trajectoryId"), first.value(QStringLiteral("trajectoryId"))},
         {QStringLiteral("history"), QJsonObject{{QStringLiteral("continue"), true}}}});
    const QJsonObject r = second.json();
    QVERIFY2(r.value(QStringLiteral("status")).toString() == QLatin1String("success"),
             second.body.constData());
    QCOMPARE(names(products(r)), (QStringList{QStringLiteral("Sextant"), QStringLiteral("Chart")}));
    QVERIFY(!second.body.contains("s3cret!"));
}

void tst_Agent::resumesByReplayingWhenThePageWasReleased()
{
    TestService quick({QStringLiteral("agent.pausedLeaseMs=0")});
    QVERIFY(quick.ok());
    const QJsonObject first =
        agent({{QStringLiteral("input"), QStringLiteral("Log in and get my orders")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
               {QStringLiteral("schema"), productsSchema()}},
              200, &quick);
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    const QString trajectory = first.value(QStringLiteral("trajectoryId")).toString();
    QTRY_VERIFY(!quick.service().runs().live(trajectory) ||
                quick.service().pool().stats().busy == 0);
    const int before = m_accountHits;
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("continue")},
         {QStringLiteral("trajectoryId"), trajectory},
         {QStringLiteral("history"),
          QJsonObject{{QStringLiteral("continue"), true},
                      {QStringLiteral("answers"),
                       QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                                   {QStringLiteral("password"), QStringLiteral("s3cret!")}}}}}},
        200, &quick);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(products(r).size(), 2);
    QVERIFY(m_accountHits > before); // the replay opened the page again
}

void tst_Agent::resumesAfterARestart()
{
    QTemporaryDir dir;
    QString trajectory;
    QString key;
    QString firstRequest;
    int firstPages = 0;
    {
        TestService before({}, dir.path());
        QVERIFY(before.ok());
        key = before.ownerKey();
        const QJsonObject first =
            agent({{QStringLiteral("input"), QStringLiteral("Sign in and list my orders")},
                   {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
                   {QStringLiteral("schema"), productsSchema()}},
                  200, &before);
        QCOMPARE(first.value(QStringLiteral("status")).toString(),
                 QStringLiteral("requires_input"));
        trajectory = first.value(QStringLiteral("trajectoryId")).toString();
        firstRequest = first.value(QStringLiteral("requestId")).toString();
        firstPages =
            first.value(QStringLiteral("usage")).toObject().value(QStringLiteral("pages")).toInt();
    }
    TestService after({}, dir.path());
    QVERIFY(after.ok());
    HttpClient c(after.base());
    c.setBearer(key);
    // The stored state answers GET at once, and the continuation rebuilds the run.
    QCOMPARE(c.get(QStringLiteral("/agent/") + trajectory)
                 .json()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("requires_input"));
    const auto r = c.post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"), QStringLiteral("continue")},
         {QStringLiteral("trajectoryId"), trajectory},
         {QStringLiteral("history"),
          QJsonObject{{QStringLiteral("continue"), true},
                      {QStringLiteral("answers"),
                       QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                                   {QStringLiteral("password"), QStringLiteral("s3cret!")}}}}}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(products(r.json()).size(), 2);
    // The usage shown is all the phase was billed for, before the restart and after.
    QSqlQuery q(after.service().store().database());
    QVERIFY(q.prepare(QStringLiteral("SELECT SUM(pages), SUM(browser_ms) FROM credit_ledger"
                                     " WHERE request_id IN (:first, :second)")));
    q.bindValue(QStringLiteral(":first"), firstRequest);
    q.bindValue(QStringLiteral(":second"), r.json().value(QStringLiteral("requestId")).toString());
    QVERIFY(q.exec() && q.next());
    const QJsonObject usage = r.json().value(QStringLiteral("usage")).toObject();
    QVERIFY(firstPages > 0);
    QCOMPARE(usage.value(QStringLiteral("pages")).toInt(), q.value(0).toInt());
    QCOMPARE(qint64(usage.value(QStringLiteral("browserMs")).toDouble()), q.value(1).toLongLong());
}

void tst_Agent::runsExplicitSteps()
{
    const QJsonObject r = agent(
        {{QStringLiteral("input"),
          QStringLiteral(
              "click \"Show details\", wait for \"Details shown\", type \"Ada\" into \"Name\", "
              "select \"Blue\" from \"Color\" then click \"Save\". Return the page text.")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/form"))}},
         {QStringLiteral("response"),
          QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QStringList tools;
    for (const auto &s : r.value(QStringLiteral("steps")).toArray())
        tools << s.toObject().value(QStringLiteral("summary")).toString();
    QCOMPARE(r.value(QStringLiteral("steps")).toArray().size(), 7); // open, 5 actions, read
    QVERIFY2(
        r.value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("text"))
            .toString()
            .contains(QLatin1String("Saved Ada Blue")),
        qPrintable(
            r.value(QStringLiteral("result")).toObject().value(QStringLiteral("text")).toString()));
    // A step that cannot be done ends the run with an error naming it.
    const QJsonObject bad =
        agent({{QStringLiteral("input"), QStringLiteral("click \"No such button\"")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/form"))}}});
    QCOMPARE(bad.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    QCOMPARE(bad.value(QStringLiteral("success")).toBool(true), false);
    QVERIFY(
        bad.value(QStringLiteral("error")).toString().contains(QLatin1String("No such button")));
    QVERIFY(bad.value(QStringLiteral("usage"))
                .toObject()
                .value(QStringLiteral("creditsUsed"))
                .toDouble() > 0);
}

void tst_Agent::reportsStepsByVerbosity_data()
{
    QTest::addColumn<QString>("verbosity");
    QTest::addColumn<bool>("steps");
    QTest::addColumn<bool>("toolResults");
    QTest::newRow("final gives neither steps nor tool results") << "final" << false << false;
    QTest::newRow("steps gives the step summaries") << "steps" << true << false;
    QTest::newRow("debug adds tool_result blocks") << "debug" << true << true;
}

void tst_Agent::reportsStepsByVerbosity()
{
    QFETCH(QString, verbosity);
    QFETCH(bool, steps);
    QFETCH(bool, toolResults);
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("List the products")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
         {QStringLiteral("schema"), productsSchema()},
         {QStringLiteral("response"), QJsonObject{{QStringLiteral("verbosity"), verbosity}}}});
    QCOMPARE(r.contains(QStringLiteral("steps")), steps);
    bool sawToolResult = false;
    for (const auto &b : r.value(QStringLiteral("output")).toArray())
        sawToolResult |=
            b.toObject().value(QStringLiteral("type")).toString() == QLatin1String("tool_result");
    QCOMPARE(sawToolResult, toolResults);
    if (steps) {
        const QJsonObject step = r.value(QStringLiteral("steps")).toArray().first().toObject();
        for (const char *field : {"toolName", "status", "duration", "creditsUsed", "hasOutput",
                                  "hasSheets", "hasGeneratedContent"})
            QVERIFY2(step.contains(QLatin1String(field)), field);
    }
}

void tst_Agent::warnsWhenRequiredFieldsAreMissing()
{
    const QJsonObject schema =
        QJsonDocument::fromJson(
            R"json({"type":"object","properties":{"products":{"type":"array","items":{
        "type":"object","properties":{"name":{"type":"string"},"sku":{"type":"string"}},"required":["name","sku"]}}}})json")
            .object();
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List products with SKUs")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
               {QStringLiteral("schema"), schema}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray warnings = r.value(QStringLiteral("warnings")).toArray();
    QVERIFY(!warnings.isEmpty());
    bool named = false;
    for (const auto &w : warnings)
        named |= w.toString().contains(QLatin1String("sku"));
    QVERIFY2(named, QJsonDocument(warnings).toJson().constData());
}

void tst_Agent::snapshotsALargeOutputToAnExpiringLink()
{
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List every product")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/big"))}},
               {QStringLiteral("schema"), productsSchema()},
               {QStringLiteral("response"),
                QJsonObject{{QStringLiteral("inlineOutputMaxBytes"), 4096}}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(QJsonDocument(r).toJson(QJsonDocument::Compact).size() <= 4096);
    const QJsonObject meta = r.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(meta.value(QStringLiteral("outputTooLarge")).toBool(), true);
    QCOMPARE(meta.value(QStringLiteral("inlineOutputMaxBytes")).toInt(), 4096);
    const QString url = meta.value(QStringLiteral("responseRef"))
                            .toObject()
                            .value(QStringLiteral("downloadUrl"))
                            .toString();
    QVERIFY2(url.startsWith(m_ph->base() + QStringLiteral("/storage/obj_")), qPrintable(url));
    // The link needs no key; it carries its own signature.
    HttpClient anonymous;
    const auto full = anonymous.get(url);
    QCOMPARE(full.status, 200);
    QCOMPARE(products(full.json()).size(), 400);
    QCOMPARE(full.json().value(QStringLiteral("trajectoryId")),
             r.value(QStringLiteral("trajectoryId")));
    // A tampered or expired signature is refused.
    QString tampered = url;
    tampered.chop(1);
    tampered += url.endsWith(QLatin1Char('0')) ? QLatin1Char('1') : QLatin1Char('0');
    QCOMPARE(anonymous.get(tampered).status, 403);
    QString expired = url;
    expired.replace(QRegularExpression(QStringLiteral("expires=\\d+")),
                    QStringLiteral("expires=1000"));
    QCOMPARE(anonymous.get(expired).status, 403);
}

void tst_Agent::cancelsWhenTheClientDisconnects()
{
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(m_ph->base() + QStringLiteral("/agent")));
    request.setRawHeader("Authorization", "Bearer " + m_ph->ownerKey().toUtf8());
    const int hangsBefore = m_site.hits("/hang");
    QNetworkReply *reply = nam.post(
        request,
        QJsonDocument(
            QJsonObject{{QStringLiteral("input"), QStringLiteral("Read the page")},
                        {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/hang"))}}})
            .toJson());
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().http().inFlight(), 1, 5000);
    // The run holds a page and the page has asked the site for the hanging document.
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().pool().stats().busy, 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(m_site.hits("/hang") > hangsBefore, 10000);
    reply->abort();
    reply->deleteLater();
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().pool().stats().busy, 0, 5000);
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT id FROM trajectories ORDER BY created_at DESC LIMIT 1")));
    QVERIFY(q.next());
    const QString trajectory = q.value(0).toString();
    HttpClient c = m_ph->client();
    const QJsonObject r = c.get(QStringLiteral("/agent/") + trajectory).json();
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(r.value(QStringLiteral("usage"))
                 .toObject()
                 .value(QStringLiteral("expiryReason"))
                 .toString(),
             QStringLiteral("client_disconnected"));
    // Partial work is billed: the page load and its browser time.
    QVERIFY(r.value(QStringLiteral("usage"))
                .toObject()
                .value(QStringLiteral("creditsUsed"))
                .toDouble() >= 1.0);
}

void tst_Agent::answersExecutingAfterTheSyncWindow()
{
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/hang"))}}},
               {{"Prefer", "wait=1"}});
    QCOMPARE(r.status, 202);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("executing"));
    QCOMPARE(r.json().value(QStringLiteral("success")).toBool(true), false);
    const QString trajectory = r.json().value(QStringLiteral("trajectoryId")).toString();
    // The run goes on; GET reports it, and DELETE ends it.
    QCOMPARE(c.get(QStringLiteral("/agent/") + trajectory)
                 .json()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("executing"));
    const auto cancelled = c.send("DELETE", QStringLiteral("/agent/") + trajectory);
    QCOMPARE(cancelled.status, 200);
    QCOMPARE(cancelled.json().value(QStringLiteral("status")).toString(),
             QStringLiteral("cancelled"));
    // Someone else's key cannot see it.
    HttpClient other(m_ph->base());
    other.setBearer(m_ph->mintKey(10));
    QCOMPARE(other.get(QStringLiteral("/agent/") + trajectory).status, 404);
}

void tst_Agent::continuesATrajectoryWithANewPhase()
{
    const QJsonObject first =
        agent({{QStringLiteral("input"), QStringLiteral("List the products")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
               {QStringLiteral("schema"), productsSchema()}});
    const QString trajectory = first.value(QStringLiteral("trajectoryId")).toString();
    const QJsonObject second =
        agent({{QStringLiteral("input"), QStringLiteral("Now list the deals")},
               {QStringLiteral("trajectoryId"), trajectory},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/cards"))}},
               {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(second.value(QStringLiteral("trajectoryId")).toString(), trajectory);
    QCOMPARE(second.value(QStringLiteral("phase")).toInt(), 2);
    QCOMPARE(products(second).size(), 3);
    QVERIFY(second.value(QStringLiteral("usage"))
                .toObject()
                .value(QStringLiteral("currentCreditsUsed"))
                .toDouble() > second.value(QStringLiteral("usage"))
                                  .toObject()
                                  .value(QStringLiteral("creditsUsed"))
                                  .toDouble());
    HttpClient c = m_ph->client();
    const auto again =
        c.post(QStringLiteral("/agent"), {{QStringLiteral("input"), QStringLiteral("x")},
                                          {QStringLiteral("trajectoryId"), trajectory},
                                          {QStringLiteral("phase"), 2}});
    QCOMPARE(again.status, 409);
    QCOMPARE(again.json().value(QStringLiteral("code")).toString(), QStringLiteral("PHASE_EXISTS"));
    const auto notWaiting =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("x")},
                {QStringLiteral("trajectoryId"), trajectory},
                {QStringLiteral("history"), QJsonObject{{QStringLiteral("continue"), true}}}});
    QCOMPARE(notWaiting.status, 409);
    QCOMPARE(notWaiting.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("NOT_WAITING_FOR_INPUT"));
}

void tst_Agent::refusesBadRequests_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses a request without input")
        << QByteArray(R"({"urls":["http://a.example/"]})") << 400 << "MISSING_FIELD"
        << "input";
    QTest::newRow("refuses urls that are not strings")
        << QByteArray(R"({"input":"x","urls":[1]})") << 400 << "INVALID_FIELD"
        << "urls[0]";
    QTest::newRow("refuses a file: URL")
        << QByteArray(R"({"input":"x","urls":["file:///etc/passwd"]})") << 400
        << "UNSUPPORTED_SCHEME"
        << "urls[0]";
    QTest::newRow("refuses a schema that is not one")
        << QByteArray(R"({"input":"x","schema":{"foo":1}})") << 400 << "INVALID_FIELD"
        << "schema";
    QTest::newRow("refuses an unknown additional tool")
        << QByteArray(R"({"input":"x","tools":{"enableAdditionalTools":["teleport"]}})") << 400
        << "INVALID_FIELD"
        << "tools.enableAdditionalTools[0]";
    QTest::newRow("refuses an unknown verbosity")
        << QByteArray(R"({"input":"x","response":{"verbosity":"loud"}})") << 400 << "INVALID_FIELD"
        << "response.verbosity";
    QTest::newRow("refuses a tiny inline cap")
        << QByteArray(R"({"input":"x","response":{"inlineOutputMaxBytes":10}})") << 400
        << "INVALID_FIELD"
        << "response.inlineOutputMaxBytes";
    QTest::newRow("refuses a data input with two sources")
        << QByteArray(
               R"({"input":"x","dataInputs":[{"inline":"a","url":"http://a.example/x.csv"}]})")
        << 400 << "INVALID_FIELD"
        << "dataInputs[0]";
    QTest::newRow("refuses a data input of an unknown format")
        << QByteArray(R"({"input":"x","dataInputs":[{"inline":"a","format":"docx"}]})") << 400
        << "INVALID_FIELD"
        << "dataInputs[0].format";
    QTest::newRow("refuses a continuation without a trajectory")
        << QByteArray(R"({"input":"x","history":{"continue":true}})") << 400 << "MISSING_FIELD"
        << "trajectoryId";
    QTest::newRow("refuses an unknown trajectory")
        << QByteArray(R"({"input":"x","trajectoryId":"traj_nope"})") << 404
        << "TRAJECTORY_NOT_FOUND"
        << "trajectoryId";
    QTest::newRow("refuses the LLM planner when none is configured")
        << QByteArray(R"({"input":"x","settings":{"planner":"llm"}})") << 400
        << "LLM_NOT_CONFIGURED"
        << "settings.planner";
}

void tst_Agent::refusesBadRequests()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    HttpClient c = m_ph->client();
    const auto r = c.postRaw(QStringLiteral("/agent"), body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
}

void tst_Agent::generatesDocumentsAndPdfsBehindSignedLinks()
{
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("List every product")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
         {QStringLiteral("schema"), productsSchema()},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("generate_docs"),
                                                           QStringLiteral("generate_pdfs")}}}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray files = r.value(QStringLiteral("metadata"))
                                 .toObject()
                                 .value(QStringLiteral("generatedFiles"))
                                 .toArray();
    QCOMPARE(files.size(), 2);
    HttpClient anonymous;
    for (const auto &f : files) {
        const QJsonObject file = f.toObject();
        const auto got = anonymous.get(file.value(QStringLiteral("downloadUrl")).toString());
        QCOMPARE(got.status, 200);
        QCOMPARE(QString::fromLatin1(got.header("content-type")),
                 file.value(QStringLiteral("contentType")).toString());
        QCOMPARE(got.body.size(), file.value(QStringLiteral("sizeBytes")).toInt());
        if (file.value(QStringLiteral("tool")).toString() == QLatin1String("generate_pdfs")) {
            QVERIFY(got.body.startsWith("%PDF-"));
        } else {
            QVERIFY2(got.body.contains("| Rope, 10 m | 12.5 |"), got.body.constData());
        }
    }
    QVERIFY(r.value(QStringLiteral("metadata"))
                .toObject()
                .value(QStringLiteral("toolsUsed"))
                .toArray()
                .contains(QStringLiteral("generate_pdfs")));
}

void tst_Agent::enablesTheWebsiteAndFormToolsWithoutWarnings()
{
    // Both are available now (tests/tst_websitetool.cpp, tests/tst_pdffilling.cpp): the
    // run builds the site of its result and fills no form, since the task names none.
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("List the products")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
         {QStringLiteral("schema"), productsSchema()},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("generate_websites"),
                                                           QStringLiteral("pdf_filling")}}}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY2(!r.contains(QStringLiteral("warnings")),
             QJsonDocument(r.value(QStringLiteral("warnings")).toArray()).toJson().constData());
    const QJsonArray used = r[QStringLiteral("metadata")][QStringLiteral("toolsUsed")].toArray();
    QVERIFY(used.contains(QStringLiteral("generate_websites")));
    QVERIFY(!used.contains(QStringLiteral("pdf_filling")));
}

void tst_Agent::runsInParallelWithinThePerKeyLimit()
{
    TestService limited(
        {QStringLiteral("agent.maxConcurrentRunsPerKey=2"), QStringLiteral("pool.size=4")});
    QVERIFY(limited.ok());
    HttpClient c = limited.client();
    QList<QString> trajectories;
    for (int i = 0; i < 2; ++i) {
        const auto r =
            c.post(QStringLiteral("/agent"),
                   {{QStringLiteral("input"), QStringLiteral("Read the page")},
                    {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/hang"))}}},
                   {{"Prefer", "wait=0"}});
        QCOMPARE(r.status, 202);
        trajectories << r.json().value(QStringLiteral("trajectoryId")).toString();
    }
    // Two runs execute side by side; the third for the same key is refused, another key's is not.
    QCOMPARE(limited.service().pool().stats().busy + limited.service().pool().stats().queued, 2);
    const auto third =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}}});
    QCOMPARE(third.status, 429);
    QCOMPARE(third.json().value(QStringLiteral("code")).toString(), QStringLiteral("BUSY"));
    QVERIFY(!third.header("retry-after").isEmpty());
    HttpClient other(limited.base());
    other.setBearer(limited.mintKey(100));
    const auto theirs =
        other.post(QStringLiteral("/agent"),
                   {{QStringLiteral("input"), QStringLiteral("List the products")},
                    {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                    {QStringLiteral("schema"), productsSchema()}});
    QCOMPARE(theirs.status, 200);
    QCOMPARE(products(theirs.json()).size(), 3);
    for (const QString &t : trajectories)
        QCOMPARE(c.send("DELETE", QStringLiteral("/agent/") + t).status, 200);
    QCOMPARE(c.post(QStringLiteral("/agent"),
                    {{QStringLiteral("input"), QStringLiteral("List the products")},
                     {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                     {QStringLiteral("schema"), productsSchema()}})
                 .status,
             200);
}

void tst_Agent::storesALargeResponseOnceHoweverOftenItIsRead()
{
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("List every product")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/big"))}},
               {QStringLiteral("schema"), productsSchema()},
               {QStringLiteral("response"),
                QJsonObject{{QStringLiteral("inlineOutputMaxBytes"), 4096}}}});
    QString trajectory = r.value(QStringLiteral("trajectoryId")).toString();
    QVERIFY(r.value(QStringLiteral("metadata"))
                .toObject()
                .value(QStringLiteral("outputTooLarge"))
                .toBool());
    auto snapshots = [&] {
        QSqlQuery q(m_ph->service().store().database());
        q.prepare(QStringLiteral("SELECT COUNT(*) FROM stored_objects WHERE kind = 'response' AND "
                                 "name LIKE :n"));
        q.bindValue(QStringLiteral(":n"), trajectory + QStringLiteral("-%"));
        return q.exec() && q.next() ? q.value(0).toInt() : -1;
    };
    QCOMPARE(snapshots(), 1);
    // Polling the run (live in memory, then from the store) never stores it again.
    HttpClient c = m_ph->client();
    QString link;
    for (int i = 0; i < 5; ++i) {
        const auto polled = c.get(QStringLiteral("/agent/") + trajectory);
        QCOMPARE(polled.status, 200);
        const QJsonObject meta = polled.json().value(QStringLiteral("metadata")).toObject();
        QVERIFY(meta.value(QStringLiteral("outputTooLarge")).toBool());
        const QString id = meta.value(QStringLiteral("responseRef"))
                               .toObject()
                               .value(QStringLiteral("id"))
                               .toString();
        QVERIFY(link.isEmpty() || id == link);
        link = id;
    }
    QCOMPARE(snapshots(), 1);

    // A run still executing is not stored at all while it is polled; once it settles,
    // once.
    const auto started =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/hang"))}},
                {QStringLiteral("response"),
                 QJsonObject{{QStringLiteral("inlineOutputMaxBytes"), 256},
                             {QStringLiteral("verbosity"), QStringLiteral("debug")}}}},
               {{"Prefer", "wait=0"}});
    QCOMPARE(started.status, 202);
    trajectory = started.json().value(QStringLiteral("trajectoryId")).toString();
    for (int i = 0; i < 3; ++i) {
        const QJsonObject polled = c.get(QStringLiteral("/agent/") + trajectory).json();
        QCOMPARE(polled.value(QStringLiteral("status")).toString(), QStringLiteral("executing"));
        const QJsonObject meta = polled.value(QStringLiteral("metadata")).toObject();
        QVERIFY(meta.value(QStringLiteral("outputTooLarge")).toBool());
        QVERIFY(!meta.contains(QStringLiteral("responseRef")));
    }
    QCOMPARE(snapshots(), 0);
    QCOMPARE(c.send("DELETE", QStringLiteral("/agent/") + trajectory).status, 200);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(c.get(QStringLiteral("/agent/") + trajectory).status, 200);
    QCOMPARE(snapshots(), 1);
}

void tst_Agent::countsAWaitingRunsPageAndGivesItUpWhenAnotherKeyWaits()
{
    TestService fair({QStringLiteral("pool.size=1"),
                      QStringLiteral("agent.maxConcurrentRunsPerKey=1"),
                      QStringLiteral("agent.syncWindowMs=20000")});
    QVERIFY(fair.ok());
    const QJsonObject first =
        agent({{QStringLiteral("input"), QStringLiteral("Sign in and list my orders")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/account"))}},
               {QStringLiteral("schema"), productsSchema()}},
              200, &fair);
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    const QString trajectory = first.value(QStringLiteral("trajectoryId")).toString();
    QVERIFY(fair.service().runs().live(trajectory)->holdsPage());

    // The held page counts against the key: its next run is refused while it waits.
    HttpClient owner = fair.client();
    const auto refused =
        owner.post(QStringLiteral("/agent"),
                   {{QStringLiteral("input"), QStringLiteral("List the products")},
                    {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}}},
                   {{"Prefer", "wait=5"}});
    QCOMPARE(refused.status, 429);
    QCOMPARE(refused.json().value(QStringLiteral("code")).toString(), QStringLiteral("BUSY"));
    const QJsonObject details = refused.json().value(QStringLiteral("details")).toObject();
    QCOMPARE(details.value(QStringLiteral("scope")).toString(), QStringLiteral("key"));
    QCOMPARE(details.value(QStringLiteral("setting")).toString(),
             QStringLiteral("agent.maxConcurrentRunsPerKey"));
    QVERIFY(!refused.header("retry-after").isEmpty());

    // Another key that needs the only page gets it: the waiting run gives it back.
    HttpClient other(fair.base());
    other.setBearer(fair.mintKey(100));
    const auto theirs =
        other.post(QStringLiteral("/agent"),
                   {{QStringLiteral("input"), QStringLiteral("List the products")},
                    {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                    {QStringLiteral("schema"), productsSchema()}},
                   {{"Prefer", "wait=15"}});
    QCOMPARE(theirs.status, 200);
    QCOMPARE(products(theirs.json()).size(), 3);
    QVERIFY(!fair.service().runs().live(trajectory)->holdsPage());

    // The waiting run keeps its state: the continuation replays into a fresh page.
    const QJsonObject r = agent(
        {{QStringLiteral("input"), QStringLiteral("continue")},
         {QStringLiteral("trajectoryId"), trajectory},
         {QStringLiteral("history"),
          QJsonObject{{QStringLiteral("continue"), true},
                      {QStringLiteral("answers"),
                       QJsonObject{{QStringLiteral("email"), QStringLiteral("ada@example.org")},
                                   {QStringLiteral("password"), QStringLiteral("s3cret!")}}}}}},
        200, &fair);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(products(r).size(), 2);
}

void tst_Agent::runsTheCorpusClassesThroughTheLlmPlanner_data()
{
    QTest::addColumn<QString>("cls");
    QTest::newRow("numbers: a German population column through the extraction tool")
        << QStringLiteral("numbers");
    QTest::newRow("pagination: a numbered pager through the extraction tool")
        << QStringLiteral("pagination");
    QTest::newRow("search: the page's search box, then the extraction tool")
        << QStringLiteral("search");
}

void tst_Agent::runsTheCorpusClassesThroughTheLlmPlanner()
{
    // The same classes of task through the LLM planner and a scripted model: the model's
    // tool calls run in the real browser, and what they read (coerced numbers, every
    // page, the searched results) is what the model is shown next.
    QFETCH(QString, cls);
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub-model")});
    QVERIFY(llm.ok());
    m_model.reset();
    QString url;
    QJsonObject schema = productsSchema();
    QJsonArray calls;
    QString seen; // what the model must be shown after the calls
    if (cls == QLatin1String("numbers")) {
        m_site.page("/llm-cities",
                    "<!doctype html><html lang=\"de\"><head><meta charset=\"utf-8\"><title>Städte"
                    "</title></head><body><table><thead><tr><th>City</th><th>Population</th></tr>"
                    "</thead><tbody><tr><td>Lisbon</td><td>1.234.567</td></tr></tbody></table>"
                    "</body></html>");
        url = m_site.url(QStringLiteral("/llm-cities"));
        schema = QJsonDocument::fromJson(
                     R"({"type":"array","items":{"type":"object","properties":{
                         "city":{"type":"string"},"population":{"type":"integer"}}}})")
                     .object();
        calls << toolCall(QStringLiteral("c1"), QStringLiteral("crawl_and_extract_from_tab"),
                          {{QStringLiteral("schema"), schema}});
        seen = QStringLiteral("1234567");
    } else if (cls == QLatin1String("pagination")) {
        m_site.route("/llm-paged", [](const FixtureRequest &r) {
            const int page = qMax(1, QUrlQuery(QUrl(QString::fromUtf8(r.path)).query())
                                         .queryItemValue(QStringLiteral("page"))
                                         .toInt());
            QString nav = QStringLiteral("<nav class=\"pagination\">");
            for (int p = 1; p <= 3; ++p)
                nav += p == page ? QStringLiteral("<span aria-current=\"page\">%1</span>").arg(p)
                                 : QStringLiteral("<a href=\"?page=%1\">%1</a>").arg(p);
            return FixtureResponse::html(htmlPage(
                QStringLiteral("Page %1").arg(page),
                QStringLiteral("<table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody>"
                               "<tr><td>Boat %1</td><td>%1.00</td></tr></tbody></table>%2")
                    .arg(page)
                    .arg(nav + QStringLiteral("</nav>"))));
        });
        url = m_site.url(QStringLiteral("/llm-paged"));
        calls << toolCall(QStringLiteral("c1"), QStringLiteral("crawl_and_extract_from_tab"),
                          {{QStringLiteral("schema"), schema},
                           {QStringLiteral("paginate"), true},
                           {QStringLiteral("maxPages"), 5}});
        seen = QStringLiteral("Boat 3");
    } else {
        url = m_site.url(QStringLiteral("/search"));
        calls << toolCall(QStringLiteral("c1"), QStringLiteral("act_on_tab"),
                          {{QStringLiteral("action"), QStringLiteral("search")},
                           {QStringLiteral("text"), QStringLiteral("kayak")}});
        calls << toolCall(QStringLiteral("c2"), QStringLiteral("crawl_and_extract_from_tab"),
                          {{QStringLiteral("schema"), schema}});
        seen = QStringLiteral("kayak Lite");
    }
    for (const QJsonValue &call : std::as_const(calls))
        m_model.answers << assistantCalls({call}, 1000);
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("done"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("Read it.")}})},
        500);
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Figure out the data on this site")},
               {QStringLiteral("urls"), QJsonArray{url}},
               {QStringLiteral("schema"), schema},
               {QStringLiteral("settings"),
                QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}},
              200, &llm);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r[QStringLiteral("metadata")][QStringLiteral("planner")].toString(),
             QStringLiteral("llm"));
    QCOMPARE(m_model.requests.size(), int(calls.size()) + 1);
    // The last request to the model carries the tool results it asked for.
    const QString last =
        QString::fromUtf8(QJsonDocument(m_model.requests.last()).toJson(QJsonDocument::Compact));
    QVERIFY2(last.contains(seen), qPrintable(last.right(1500)));
}

void tst_Agent::runsAnOpenEndedTaskThroughTheLlmPlanner()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub-model")});
    QVERIFY(llm.ok());
    m_model.reset();
    // Turn 1: a click on an element that does not exist; it fails.
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("act_on_tab"),
                  {{QStringLiteral("action"), QStringLiteral("click")},
                   {QStringLiteral("target"), QStringLiteral("e999")}})},
        1200);
    // Turn 2: the model reads the error and clicks by name instead.
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c2"), QStringLiteral("act_on_tab"),
                  {{QStringLiteral("action"), QStringLiteral("click")},
                   {QStringLiteral("target"), QStringLiteral("Show prices")}})},
        1500);
    // Turn 3: done.
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c3"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("The dinghy costs 900.")},
                   {QStringLiteral("json"),
                    QJsonObject{
                        {QStringLiteral("products"),
                         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Dinghy")},
                                                {QStringLiteral("price"), 900}}}}}}})},
        1300);
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("Figure out what the boats cost")},
               {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/prices"))}},
               {QStringLiteral("schema"), productsSchema()},
               {QStringLiteral("response"),
                QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}},
              200, &llm);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(
        r.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("planner")).toString(),
        QStringLiteral("llm"));
    QCOMPARE(names(products(r)), QStringList{QStringLiteral("Dinghy")});
    QCOMPARE(r.value(QStringLiteral("result")).toObject().value(QStringLiteral("text")).toString(),
             QStringLiteral("The dinghy costs 900."));
    const QJsonArray steps = r.value(QStringLiteral("steps")).toArray();
    QCOMPARE(steps.size(), 3); // open the page, the failed click, the retried click
    QCOMPARE(steps[1].toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("error"));
    QCOMPARE(steps[2].toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("success"));
    QCOMPARE(m_model.requests.size(), 3);
    const QJsonObject firstCall = m_model.requests[0];
    QCOMPARE(firstCall.value(QStringLiteral("model")).toString(), QStringLiteral("stub-model"));
    QStringList offered;
    for (const auto &t : firstCall.value(QStringLiteral("tools")).toArray())
        offered << t.toObject()
                       .value(QStringLiteral("function"))
                       .toObject()
                       .value(QStringLiteral("name"))
                       .toString();
    for (const char *t : {"act_on_tab", "crawl_and_extract_from_tab", "ask_user", "finish"})
        QVERIFY2(offered.contains(QLatin1String(t)), t);
    // The first turn sees the opened page; the second sees the failure of the first call.
    QVERIFY(QJsonDocument(firstCall).toJson().contains("Show prices"));
    const QJsonArray messages = m_model.requests[1].value(QStringLiteral("messages")).toArray();
    const QJsonObject toolMessage = messages.last().toObject();
    QCOMPARE(toolMessage.value(QStringLiteral("role")).toString(), QStringLiteral("tool"));
    QCOMPARE(toolMessage.value(QStringLiteral("tool_call_id")).toString(), QStringLiteral("c1"));
    QVERIFY(
        toolMessage.value(QStringLiteral("content")).toString().contains(QLatin1String("e999")));
    // 4,000 tokens at 1 credit per 1,000 are billed on top of the page.
    QVERIFY(r.value(QStringLiteral("usage"))
                .toObject()
                .value(QStringLiteral("creditsUsed"))
                .toDouble() >= 5.0);
    // settings.model overrides the configured model.
    m_model.answers << assistantCalls({toolCall(QStringLiteral("c4"), QStringLiteral("finish"),
                                                {{QStringLiteral("text"), QStringLiteral("ok")}})},
                                      200);
    agent({{QStringLiteral("input"), QStringLiteral("Say ok")},
           {QStringLiteral("settings"),
            QJsonObject{{QStringLiteral("model"), QStringLiteral("other-model")},
                        {QStringLiteral("planner"), QStringLiteral("llm")}}}},
          200, &llm);
    QCOMPARE(m_model.requests.last().value(QStringLiteral("model")).toString(),
             QStringLiteral("other-model"));
}

void tst_Agent::retriesAModelEndpointThatFails()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub")});
    QVERIFY(llm.ok());
    m_model.reset();
    m_model.failures << 503 << 500;
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("done")}})},
        300);
    const QJsonObject r = agent({{QStringLiteral("input"), QStringLiteral("Think about boats")},
                                 {QStringLiteral("settings"),
                                  QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}},
                                200, &llm);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(m_model.requests.size(), 3);
    // A client error is final: the run ends with it.
    m_model.reset();
    m_model.failures << 400;
    const QJsonObject bad =
        agent({{QStringLiteral("input"), QStringLiteral("Think")},
               {QStringLiteral("settings"),
                QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}},
              200, &llm);
    QCOMPARE(bad.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    QVERIFY(bad.value(QStringLiteral("error")).toString().contains(QLatin1String("400")));
    QCOMPARE(m_model.requests.size(), 1);
}

void tst_Agent::sendsImagesToTheModel()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site.url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub")});
    QVERIFY(llm.ok());
    m_model.reset();
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("a pixel")}})},
        300);
    const QJsonObject r =
        agent({{QStringLiteral("input"), QStringLiteral("What is in the picture?")},
               {QStringLiteral("image_urls"), QJsonArray{m_site.url(QStringLiteral("/image.png"))}},
               {QStringLiteral("settings"),
                QJsonObject{{QStringLiteral("planner"), QStringLiteral("llm")}}}},
              200, &llm);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray content = m_model.requests[0]
                                   .value(QStringLiteral("messages"))
                                   .toArray()[1]
                                   .toObject()
                                   .value(QStringLiteral("content"))
                                   .toArray();
    QCOMPARE(content.size(), 2);
    QCOMPARE(content[1].toObject().value(QStringLiteral("type")).toString(),
             QStringLiteral("image_url"));
    QVERIFY(content[1]
                .toObject()
                .value(QStringLiteral("image_url"))
                .toObject()
                .value(QStringLiteral("url"))
                .toString()
                .startsWith(QLatin1String("data:image/png;base64,iVBOR")));
}

PH_WEBENGINE_TEST_MAIN(tst_Agent)
#include "tst_agent.moc"
