// The Firecrawl-compatible API (docs/api/firecrawl.md) as Firecrawl's own clients use it:
// @mendable/firecrawl-js and firecrawl-mcp (driven by the MCP SDK client), from
// tests/firecrawl, against the real service and a fixture site with robots.txt,
// sitemaps and a SearXNG-shaped search endpoint, all on loopback. Then the auth matrix
// of every /firecrawl route and the typed errors, over plain HTTP.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/Settings.h"
#include "http/HttpServer.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

namespace {

QByteArray article()
{
    QString text;
    for (int i = 0; i < 6; ++i)
        text += QStringLiteral("<p>Harbor text: the pilot boards the ship at the outer buoy and "
                               "brings her in through the channel, paragraph %1.</p>")
                    .arg(i);
    return text.toUtf8();
}

QStringList urlsOf(const QJsonArray &links)
{
    QStringList out;
    for (const QJsonValue &l : links)
        out << (l.isString() ? l.toString() : l.toObject().value(QStringLiteral("url")).toString());
    return out;
}

} // namespace

class tst_Firecrawl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void theSdkScrapesMapsAndSearches();
    void theMcpServerScrapesAndMaps();
    void routesAnswerFirecrawlsAuthShapes_data();
    void routesAnswerFirecrawlsAuthShapes();
    void theMatrixCoversEveryFirecrawlRoute();
    void refusesWhatItCannotDoByField_data();
    void refusesWhatItCannotDoByField();
    void searchWithoutSearxngSaysHowToConfigureIt();

private:
    std::unique_ptr<FixtureServer> m_site;
    std::unique_ptr<TestService> m_ph;
    QString m_api;
};

void tst_Firecrawl::initTestCase()
{
    m_site = std::make_unique<FixtureServer>();
    QVERIFY(m_site->start());
    FixtureServer &site = *m_site;
    const QString base = site.url(QString());
    site.page("/page.html",
              QStringLiteral("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                             "<title>Harbor</title><meta name=\"description\" content=\"Pilots "
                             "and ships\"></head><body><nav><a href=\"/a.html\">Alpha</a> "
                             "<a href=\"/b.html\">Bravo</a> <a href=\"/private/hidden.html\">"
                             "Hidden</a></nav><article><h1>Harbor</h1>%1</article></body></html>")
                  .arg(QString::fromUtf8(article()))
                  .toUtf8());
    site.page("/shop.html",
              htmlPage(QStringLiteral("Shop"),
                       QStringLiteral("<table><thead><tr><th>Name</th><th>Price</th></tr></thead>"
                                      "<tbody><tr><td>Rope</td><td>12.50</td></tr><tr><td>Fender"
                                      "</td><td>24.00</td></tr></tbody></table>")));
    site.page("/a.html", htmlPage(QStringLiteral("Alpha"), QStringLiteral("<p>Alpha page</p>")));
    site.page("/b.html", htmlPage(QStringLiteral("Bravo"), QStringLiteral("<p>Bravo page</p>")));
    site.respond(
        "/robots.txt", 200,
        ("User-agent: *\nDisallow: /private\nSitemap: " + base + "/sitemap-index.xml\n").toUtf8());
    site.respond("/sitemap-index.xml", 200,
                 ("<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/"
                  "sitemap/0.9\"><sitemap><loc>" +
                  base + "/sitemap-pages.xml</loc></sitemap></sitemapindex>")
                     .toUtf8());
    site.respond("/sitemap-pages.xml", 200,
                 ("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/"
                  "sitemap/0.9\"><url><loc>" +
                  base + "/from-sitemap.html</loc></url><url><loc>" + base +
                  "/private/secret.html</loc></url></urlset>")
                     .toUtf8());
    site.route("/searxng/search", [base](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "application/json"}};
        r.body = QJsonDocument(
                     QJsonObject{
                         {QStringLiteral("query"), QStringLiteral("harbor")},
                         {QStringLiteral("results"),
                          QJsonArray{QJsonObject{{QStringLiteral("url"), base + "/page.html"},
                                                 {QStringLiteral("title"), "Harbor"},
                                                 {QStringLiteral("content"), "Pilots and ships"}},
                                     QJsonObject{{QStringLiteral("url"), base + "/a.html"},
                                                 {QStringLiteral("title"), "Alpha"},
                                                 {QStringLiteral("content"), "Alpha page"}},
                                     QJsonObject{{QStringLiteral("url"), base + "/b.html"},
                                                 {QStringLiteral("title"), "Bravo"},
                                                 {QStringLiteral("content"), "Bravo page"}}}}})
                     .toJson(QJsonDocument::Compact);
        return r;
    });
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_api = m_ph->base() + QStringLiteral("/firecrawl");
    // As an operator sets it (PATCH /settings), so a test can take it away again.
    const QString problem = m_ph->service().settings().set(SettingKeys::searchSearxngUrl,
                                                           base + QStringLiteral("/searxng"));
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void tst_Firecrawl::theSdkScrapesMapsAndSearches()
{
    const QString base = m_site->url(QString());
    const NodeResult run =
        runNodeScript(QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
                      {QStringLiteral("firecrawl_sdk.mjs"), m_api, m_ph->ownerKey(), base}, 240000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject r = run.result();
    const QByteArray all = QJsonDocument(r).toJson(QJsonDocument::Compact);

    // scrape, every served format, and Firecrawl's metadata.
    const QJsonObject scrape = r.value(QStringLiteral("scrape")).toObject();
    QVERIFY2(scrape.value(QStringLiteral("markdown")).toString().contains(u"Harbor text"),
             all.constData());
    QVERIFY(scrape.value(QStringLiteral("html")).toString().contains(u"<article>"));
    QVERIFY(scrape.value(QStringLiteral("rawHtml")).toString().contains(u"<title>Harbor"));
    QVERIFY(urlsOf(scrape.value(QStringLiteral("links")).toArray()).contains(base + "/a.html"));
    const QJsonObject meta = scrape.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(meta.value(QStringLiteral("title")).toString(), QStringLiteral("Harbor"));
    QCOMPARE(meta.value(QStringLiteral("language")).toString(), QStringLiteral("en"));
    QCOMPARE(meta.value(QStringLiteral("description")).toString(),
             QStringLiteral("Pilots and ships"));
    QCOMPARE(meta.value(QStringLiteral("statusCode")).toInt(), 200);
    QCOMPARE(meta.value(QStringLiteral("sourceURL")).toString(), base + "/page.html");
    QVERIFY(!meta.value(QStringLiteral("scrapeId")).toString().isEmpty());

    // maxAge: the same request again comes from the cache, the page not loaded again.
    const QJsonObject cached = r.value(QStringLiteral("cached")).toObject();
    QCOMPARE(cached[QStringLiteral("metadata")][QStringLiteral("cacheState")].toString(),
             QStringLiteral("hit"));
    QCOMPARE(cached.value(QStringLiteral("markdown")), scrape.value(QStringLiteral("markdown")));

    // map: the page's links and the sitemaps (through robots.txt's Sitemap line and the
    // index), without what robots.txt disallows.
    const QStringList mapped = urlsOf(r[QStringLiteral("map")][QStringLiteral("links")].toArray());
    QVERIFY2(mapped.contains(base + "/a.html"), all.constData());
    QVERIFY2(mapped.contains(base + "/from-sitemap.html"), all.constData());
    QVERIFY(!mapped.contains(base + "/private/secret.html"));
    QVERIFY(!mapped.contains(base + "/private/hidden.html"));
    QCOMPARE(urlsOf(r[QStringLiteral("mapSearch")][QStringLiteral("links")].toArray()),
             QStringList{base + "/from-sitemap.html"});

    // search: SearXNG's results, limited, each scraped as scrapeOptions asked.
    const QJsonArray web = r[QStringLiteral("search")][QStringLiteral("web")].toArray();
    QCOMPARE(web.size(), 2);
    QCOMPARE(web.at(0)[QStringLiteral("url")].toString(), base + "/page.html");
    QCOMPARE(web.at(0)[QStringLiteral("title")].toString(), QStringLiteral("Harbor"));
    QVERIFY(web.at(0)[QStringLiteral("markdown")].toString().contains(u"Harbor text"));
    QVERIFY(web.at(1)[QStringLiteral("markdown")].toString().contains(u"Alpha page"));

    // Errors as the SDK surfaces them: Firecrawl's shapes and statuses.
    const QJsonObject badKey = r.value(QStringLiteral("badKey")).toObject();
    QVERIFY(badKey.value(QStringLiteral("thrown")).toBool());
    QCOMPARE(badKey.value(QStringLiteral("status")).toInt(), 401);
    QVERIFY2(badKey.value(QStringLiteral("message")).toString().startsWith(u"Unauthorized"),
             all.constData());
    const QJsonObject badField = r.value(QStringLiteral("badField")).toObject();
    QCOMPARE(badField.value(QStringLiteral("status")).toInt(), 400);
    QVERIFY2(badField.value(QStringLiteral("message")).toString().contains(u"waitFor"),
             all.constData());
    const QJsonObject shot = r.value(QStringLiteral("screenshot")).toObject();
    QCOMPARE(shot.value(QStringLiteral("status")).toInt(), 400);
    QVERIFY(shot.value(QStringLiteral("message")).toString().contains(u"formats[0]"));

    // json: the page's data shaped into the schema by an agent run (the rule planner here).
    const QJsonArray products = r[QStringLiteral("json")][QStringLiteral("json")].toArray();
    QVERIFY2(products.size() == 2,
             QJsonDocument(r[QStringLiteral("json")].toObject()).toJson().constData());
    QCOMPARE(products.at(0)[QStringLiteral("name")].toString(), QStringLiteral("Rope"));
    QCOMPARE(products.at(1)[QStringLiteral("price")].toDouble(), 24.0);

    // The v1 aliases, through the SDK's v1 client.
    const QJsonObject v1 = r.value(QStringLiteral("v1scrape")).toObject();
    QVERIFY2(v1.value(QStringLiteral("markdown")).toString().contains(u"Harbor text"),
             all.constData());
    QVERIFY(v1.value(QStringLiteral("links")).toArray().contains(QJsonValue(base + "/b.html")));
    const QJsonArray v1links = r[QStringLiteral("v1map")][QStringLiteral("links")].toArray();
    QVERIFY(!v1links.isEmpty() && v1links.first().isString());
    QVERIFY(v1links.contains(QJsonValue(base + "/from-sitemap.html")));
}

void tst_Firecrawl::theMcpServerScrapesAndMaps()
{
    const QString page = m_site->url(QStringLiteral("/page.html"));
    const NodeResult run =
        runNodeScript(QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
                      {QStringLiteral("firecrawl_mcp.mjs"), m_api, m_ph->ownerKey(), page}, 240000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject r = run.result();
    const QByteArray all = QJsonDocument(r).toJson(QJsonDocument::Compact);
    QVERIFY2(!r.contains(QStringLiteral("error")), all.constData());
    const QStringList tools = r.value(QStringLiteral("tools")).toVariant().toStringList();
    QVERIFY(tools.contains(QStringLiteral("firecrawl_scrape")));
    QVERIFY(tools.contains(QStringLiteral("firecrawl_map")));
    QVERIFY2(!r[QStringLiteral("scrape")][QStringLiteral("isError")].toBool(), all.constData());
    QVERIFY2(
        r[QStringLiteral("scrape")][QStringLiteral("text")].toString().contains(u"Harbor text"),
        all.constData());
    QVERIFY2(!r[QStringLiteral("map")][QStringLiteral("isError")].toBool(), all.constData());
    QVERIFY2(
        r[QStringLiteral("map")][QStringLiteral("text")].toString().contains(u"from-sitemap.html"),
        all.constData());
}

// Who may call each route: no token, an empty Bearer, a key that does not exist (401 in
// Firecrawl's shape); a key without credits (402); a key whose cloudScrape capability is
// off (403); the answer is Firecrawl's {success:false, error} every time.
void tst_Firecrawl::routesAnswerFirecrawlsAuthShapes_data()
{
    QTest::addColumn<QString>("route");
    QTest::addColumn<QString>("caller");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("errorStart");
    for (const char *route :
         {"/v2/scrape", "/v1/scrape", "/v2/map", "/v1/map", "/v2/search", "/v1/search"}) {
        const auto row = [&](const char *who, const char *caller, int status, const char *start) {
            QTest::newRow(
                qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(route), QLatin1String(who))))
                << QString::fromLatin1(route) << QString::fromLatin1(caller) << status
                << QString::fromLatin1(start);
        };
        row("refuses a request without a token", "none", 401, "Unauthorized");
        row("refuses an empty Bearer token", "empty", 401, "Unauthorized");
        row("refuses a key that does not exist", "wrong", 401, "Unauthorized");
        row("refuses a key without credits", "broke", 402, "Insufficient credits");
        row("refuses a key without the cloudScrape capability", "noScrape", 403, "");
    }
}

void tst_Firecrawl::routesAnswerFirecrawlsAuthShapes()
{
    QFETCH(QString, route);
    QFETCH(QString, caller);
    QFETCH(int, status);
    QFETCH(QString, errorStart);
    HttpClient owner = m_ph->client();
    QString bearer;
    if (caller == QLatin1String("wrong"))
        bearer = QStringLiteral("pk_live_not_a_key_of_this_service_000000");
    if (caller == QLatin1String("broke") || caller == QLatin1String("noScrape")) {
        const auto minted =
            owner.post(QStringLiteral("/keys"),
                       {{QStringLiteral("label"), caller},
                        {QStringLiteral("balance"), caller == QLatin1String("broke") ? 0 : 100}});
        QVERIFY2(minted.status == 201 || minted.status == 200, minted.body.constData());
        bearer = minted.json().value(QStringLiteral("key")).toString();
        const QJsonObject caps{
            {QStringLiteral("privateTargets"), true},
            {QStringLiteral("cloudScrape"), caller != QLatin1String("noScrape")}};
        const auto set = owner.post(
            QStringLiteral("/updateApiKeyCapabilities"),
            {{QStringLiteral("keyId"), minted.json().value(QStringLiteral("id")).toString()},
             {QStringLiteral("capabilities"), caps}});
        QVERIFY2(set.status == 200, set.body.constData());
    }
    HttpClient::Headers headers;
    if (caller == QLatin1String("empty"))
        headers << qMakePair(QByteArray("Authorization"), QByteArray("Bearer "));
    else if (!bearer.isEmpty())
        headers << qMakePair(QByteArray("Authorization"), ("Bearer " + bearer).toUtf8());
    const QJsonObject body{{QStringLiteral("url"), m_site->url(QStringLiteral("/a.html"))},
                           {QStringLiteral("query"), QStringLiteral("harbor")}};
    const HttpResponse r =
        HttpClient(m_ph->base())
            .send("POST", QStringLiteral("/firecrawl") + route, QJsonDocument(body).toJson(),
                  headers << qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    QCOMPARE(r.status, status);
    const QJsonObject json = r.json();
    QCOMPARE(json.value(QStringLiteral("success")), QJsonValue(false));
    QVERIFY2(json.value(QStringLiteral("error")).isString(), r.body.constData());
    QVERIFY2(json.value(QStringLiteral("error")).toString().startsWith(errorStart),
             r.body.constData());
}

void tst_Firecrawl::theMatrixCoversEveryFirecrawlRoute()
{
    // Crawl, batch scrape and the webhook secret have their matrix in tst_firecrawlcrawl.
    QStringList routed;
    for (const http::Route &route : m_ph->service().http().routes()) {
        const QString &p = route.pattern;
        if (p.startsWith(QLatin1String("/firecrawl/")) && !p.contains(QLatin1String("/crawl")) &&
            !p.contains(QLatin1String("/batch/")) && !p.contains(QLatin1String("/webhook/")))
            routed << QString::fromLatin1(route.method) + QLatin1Char(' ') + p;
    }
    routed.sort();
    QCOMPARE(routed, (QStringList{"POST /firecrawl/v1/map", "POST /firecrawl/v1/scrape",
                                  "POST /firecrawl/v1/search", "POST /firecrawl/v2/map",
                                  "POST /firecrawl/v2/scrape", "POST /firecrawl/v2/search"}));
}

// What is malformed, and what Pilothouse does not do, is a 400 naming the field, in
// Firecrawl's shape {success:false, code:"BAD_REQUEST", error, details:[{path, …}]}.
void tst_Firecrawl::refusesWhatItCannotDoByField_data()
{
    QTest::addColumn<QString>("route");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses a scrape without a url") << "/v2/scrape" << QByteArray("{}") << "url";
    QTest::newRow("refuses a url of another scheme")
        << "/v2/scrape" << QByteArray(R"({"url":"file:///etc/passwd"})") << "url";
    QTest::newRow("refuses an unknown format")
        << "/v2/scrape" << QByteArray(R"({"url":"http://a.example","formats":["pdfx"]})")
        << "formats[0]";
    QTest::newRow("refuses a json format with neither prompt nor schema")
        << "/v2/scrape" << QByteArray(R"({"url":"http://a.example","formats":[{"type":"json"}]})")
        << "formats[0]";
    QTest::newRow("refuses a click action rather than skipping it")
        << "/v2/scrape"
        << QByteArray(R"({"url":"http://a.example","actions":[{"type":"click","selector":"a"}]})")
        << "actions[0].type";
    QTest::newRow("refuses includeTags it cannot apply")
        << "/v2/scrape" << QByteArray(R"({"url":"http://a.example","includeTags":["main"]})")
        << "includeTags";
    QTest::newRow("refuses a map limit over 30000")
        << "/v2/map" << QByteArray(R"({"url":"http://a.example","limit":30001})") << "limit";
    QTest::newRow("refuses a sitemap mode it does not know")
        << "/v2/map" << QByteArray(R"({"url":"http://a.example","sitemap":"always"})") << "sitemap";
    QTest::newRow("refuses a search without a query")
        << "/v2/search" << QByteArray(R"({"limit":3})") << "query";
    QTest::newRow("refuses a search scrape format by its full path")
        << "/v2/search" << QByteArray(R"({"query":"q","scrapeOptions":{"formats":["screenshot"]}})")
        << "scrapeOptions.formats[0]";
}

void tst_Firecrawl::refusesWhatItCannotDoByField()
{
    QFETCH(QString, route);
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    const HttpResponse r = m_ph->client().send(
        "POST", QStringLiteral("/firecrawl") + route, body,
        {qMakePair(QByteArray("Content-Type"), QByteArray("application/json"))});
    QCOMPARE(r.status, 400);
    const QJsonObject json = r.json();
    QCOMPARE(json.value(QStringLiteral("success")), QJsonValue(false));
    QCOMPARE(json.value(QStringLiteral("code")).toString(), QStringLiteral("BAD_REQUEST"));
    QVERIFY2(json.value(QStringLiteral("error"))
                 .toString()
                 .startsWith(QStringLiteral("Bad Request: %1: ").arg(field)),
             r.body.constData());
    QVERIFY(
        json.value(QStringLiteral("details")).toArray().first()[QStringLiteral("path")].isArray());
}

void tst_Firecrawl::searchWithoutSearxngSaysHowToConfigureIt()
{
    ScopedSetting none(*m_ph, SettingKeys::searchSearxngUrl, QString());
    QVERIFY2(none.error.isEmpty(), qPrintable(none.error));
    const HttpResponse r =
        m_ph->client().post(QStringLiteral("/firecrawl/v2/search"),
                            {{QStringLiteral("query"), QStringLiteral("harbor")}});
    QCOMPARE(r.status, 503);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("SEARCH_NOT_CONFIGURED"));
    QVERIFY(r.json().value(QStringLiteral("error")).toString().contains(u"search.searxngUrl"));
}

PH_WEBENGINE_TEST_MAIN(tst_Firecrawl)
#include "tst_firecrawl.moc"
