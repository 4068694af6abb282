// The Firecrawl-compatible API (docs/api/firecrawl.md) as Firecrawl's own clients use it:
// @mendable/firecrawl-js and firecrawl-mcp (driven by the MCP SDK client), from
// tests/firecrawl, against the real service and a fixture site with robots.txt,
// sitemaps and a SearXNG-shaped search endpoint, all on loopback. Then the auth matrix
// of every /firecrawl route and the typed errors, over plain HTTP.
#include "Engines.h"
#include "FixtureServer.h"
#include "HttpClient.h"
#include "ModelStub.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "http/HttpServer.h"

#include <QDateTime>
#include <QImage>
#include <QJsonArray>
#include <QUrlQuery>

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
    void theSdkDrivesPagesWithActionsAndTagFilters();
    void theSdkTakesScreenshotsOnBothEngines();
    void theSdkRunsExtractAndAgentJobsToTheirEnd();
    void anAgentJobRunsOnTheConfiguredModel();
    void routesAnswerFirecrawlsAuthShapes_data();
    void routesAnswerFirecrawlsAuthShapes();
    void theMatrixCoversEveryFirecrawlRoute();
    void refusesWhatItCannotDoByField_data();
    void refusesWhatItCannotDoByField();
    void searchWithoutSearxngSaysHowToConfigureIt();

private:
    // A user key of the owner's, with privateTargets (the fixtures are on loopback) and
    // the capabilities `caps` adds.
    QString mintKey(const QString &label, const QJsonObject &caps = {});
    // The picture a screenshot link serves, fetched without a key (the link is the
    // credential); null when it is not a PNG.
    QImage fetchPicture(const QString &link, QByteArray *problem);

    std::unique_ptr<FixtureServer> m_site;
    ModelScript m_model;
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
    site.page("/shop2.html",
              htmlPage(QStringLiteral("Shop two"),
                       QStringLiteral("<table><thead><tr><th>Name</th><th>Price</th></tr></thead>"
                                      "<tbody><tr><td>Anchor</td><td>80.00</td></tr></tbody>"
                                      "</table>")));
    // A page that changes when it is used: a name field and a button that greets, a form
    // whose Enter says what was searched; a story between a menu and an advert.
    site.page(
        "/form.html",
        htmlPage(QStringLiteral("Quay form"),
                 QStringLiteral("<nav id=\"menu\"><a href=\"/a.html\">Menu link</a></nav><main>"
                                "<article id=\"story\"><h1>Story</h1><p>Keep this paragraph about "
                                "tugboats.</p></article><aside class=\"ads\">Buy a boat now</aside>"
                                "<input id=\"name\" placeholder=\"Name\"><button id=\"go\" "
                                "onclick=\"document.getElementById('out').textContent='Hello '+"
                                "document.getElementById('name').value\">Go</button>"
                                "<div id=\"out\">nobody yet</div><form id=\"f\" onsubmit=\""
                                "event.preventDefault();var p=document.getElementById('pressed');"
                                "p.textContent='submitted '+this.q.value;p.className='done'\">"
                                "<input name=\"q\" id=\"q\"></form><div id=\"pressed\">not "
                                "submitted</div></main>")));
    m_model.serveOn(site);
    // Says which header came with the page's request.
    site.route("/headers.html", [](const FixtureRequest &req) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "text/html; charset=utf-8"}};
        r.body = "<!doctype html><html><head><title>Headers</title></head><body><p>pilot "
                 "header " +
                 req.headers.value("x-pilot", "none") + ", cookie " +
                 req.headers.value("cookie", "none") + "</p></body></html>";
        return r;
    });
    // Says what the page sees of its device (a phone's page is as wide as its viewport
    // only with the viewport meta tag; without it a phone lays pages out 980 px wide).
    site.page("/device.html",
              "<!doctype html><html><head><meta name=\"viewport\" content=\"width=device-"
              "width\"><title>Device</title></head><body><p id=\"d\">unknown</p><script>"
              "document.getElementById('d').textContent='width '+window.innerWidth+(/Mobile/"
              ".test(navigator.userAgent)?' mobile agent':' desktop agent');</script></body>"
              "</html>");
    // A cart whose button adds a row: json read after the click sees it.
    site.page("/cart.html",
              htmlPage(QStringLiteral("Cart"),
                       QStringLiteral("<table><thead><tr><th>Name</th><th>Price</th></tr></thead>"
                                      "<tbody id=\"rows\"><tr><td>Rope</td><td>12.50</td></tr>"
                                      "</tbody></table><button id=\"add\" onclick=\"document."
                                      "getElementById('rows').insertAdjacentHTML('beforeend',"
                                      "'<tr><td>Anchor</td><td>80.00</td></tr>')\">Add</button>")));
    // A page three screens tall: its full-page picture is taller than the viewport.
    site.page("/long.html",
              htmlPage(QStringLiteral("Long"),
                       QStringLiteral("<h1>Long harbor wall</h1><div style=\"height:2400px;"
                                      "background:#3366cc\">blue water</div><p>The end of "
                                      "the wall</p>")));
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
    // A format Pilothouse does not write (summary) is refused by name, never left out.
    const QJsonObject unserved = r.value(QStringLiteral("unserved")).toObject();
    QCOMPARE(unserved.value(QStringLiteral("status")).toInt(), 400);
    QVERIFY(unserved.value(QStringLiteral("message")).toString().contains(u"formats[0]"));

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
    // The tool's actions reach the page: the form was filled in before it was read.
    QVERIFY2(!r[QStringLiteral("actions")][QStringLiteral("isError")].toBool(), all.constData());
    QVERIFY2(r[QStringLiteral("actions")][QStringLiteral("text")].toString().contains(u"Hello Ada"),
             all.constData());
    QVERIFY2(!r[QStringLiteral("map")][QStringLiteral("isError")].toBool(), all.constData());
    QVERIFY2(
        r[QStringLiteral("map")][QStringLiteral("text")].toString().contains(u"from-sitemap.html"),
        all.constData());
}

QString tst_Firecrawl::mintKey(const QString &label, const QJsonObject &caps)
{
    HttpClient owner = m_ph->client();
    const auto minted = owner.post(QStringLiteral("/keys"), {{QStringLiteral("label"), label},
                                                             {QStringLiteral("balance"), 100}});
    if (minted.status != 201 && minted.status != 200)
        return {};
    QJsonObject all{{QStringLiteral("privateTargets"), true}};
    for (auto it = caps.begin(); it != caps.end(); ++it)
        all.insert(it.key(), it.value());
    const auto set =
        owner.post(QStringLiteral("/updateApiKeyCapabilities"),
                   {{QStringLiteral("keyId"), minted.json().value(QStringLiteral("id")).toString()},
                    {QStringLiteral("capabilities"), all}});
    return set.status == 200 ? minted.json().value(QStringLiteral("key")).toString() : QString();
}

void tst_Firecrawl::theSdkDrivesPagesWithActionsAndTagFilters()
{
    const QString plain = mintKey(QStringLiteral("no scripts"));
    const QString scripts =
        mintKey(QStringLiteral("scripts"), {{QStringLiteral("pageScripts"), true}});
    QVERIFY(!plain.isEmpty() && !scripts.isEmpty());
    const NodeResult run = runNodeScript(QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
                                         {QStringLiteral("firecrawl_actions.mjs"), m_api,
                                          m_ph->ownerKey(), plain, scripts, m_site->url({})},
                                         240000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject r = run.result();
    const QByteArray all = QJsonDocument(r).toJson(QJsonDocument::Compact);

    // click, write, click, press: the page changed, and the document is the changed page.
    const QJsonObject acted = r.value(QStringLiteral("actions")).toObject();
    const QString markdown = acted.value(QStringLiteral("markdown")).toString();
    QVERIFY2(markdown.contains(u"Hello Ada"), all.constData());
    QVERIFY2(markdown.contains(u"submitted tug"), all.constData());
    QVERIFY(!markdown.contains(u"nobody yet"));
    // The scrape action's snapshot, in Firecrawl's data.actions.
    const QJsonArray scrapes =
        acted[QStringLiteral("actions")][QStringLiteral("scrapes")].toArray();
    QCOMPARE(scrapes.size(), 1);
    QVERIFY(scrapes.at(0)[QStringLiteral("html")].toString().contains(u"Hello Ada"));
    QCOMPARE(scrapes.at(0)[QStringLiteral("url")].toString(), m_site->url("/form.html"));

    // executeJavascript: the owner may; each script's value comes back in order.
    const QJsonObject script = r.value(QStringLiteral("script")).toObject();
    const QJsonArray returns =
        script[QStringLiteral("actions")][QStringLiteral("javascriptReturns")].toArray();
    QVERIFY2(returns.size() == 2, all.constData());
    QCOMPARE(returns.at(0)[QStringLiteral("type")].toString(), QStringLiteral("number"));
    QCOMPARE(returns.at(0)[QStringLiteral("value")].toInt(), 42);
    QCOMPARE(returns.at(1)[QStringLiteral("value")].toString(), QStringLiteral("Quay form"));
    QVERIFY(script.value(QStringLiteral("markdown")).toString().contains(u"set by script"));
    // A key without pageScripts is refused, naming the action, before any page loads; a
    // key the owner granted it runs its script.
    const QJsonObject refused = r.value(QStringLiteral("scriptRefused")).toObject();
    QCOMPARE(refused.value(QStringLiteral("status")).toInt(), 403);
    QCOMPARE(refused.value(QStringLiteral("code")).toString(),
             QStringLiteral("SCRIPTS_NOT_ALLOWED"));
    QVERIFY2(refused.value(QStringLiteral("message")).toString().contains(u"actions[1]"),
             all.constData());
    // The same grant for the pages a search scrapes.
    const QJsonObject inSearch = r.value(QStringLiteral("scriptInSearch")).toObject();
    QCOMPARE(inSearch.value(QStringLiteral("status")).toInt(), 403);
    QVERIFY2(
        inSearch.value(QStringLiteral("message")).toString().contains(u"scrapeOptions.actions[0]"),
        all.constData());
    const QJsonArray granted = r[QStringLiteral("scriptGranted")][QStringLiteral("actions")]
                                [QStringLiteral("javascriptReturns")]
                                    .toArray();
    QVERIFY2(granted.size() == 1, all.constData());
    QCOMPARE(granted.at(0)[QStringLiteral("value")].toString(), QStringLiteral("Story"));

    // A selector that matches nothing is Firecrawl's action error naming the action.
    const QJsonObject missing = r.value(QStringLiteral("missingSelector")).toObject();
    QVERIFY(missing.value(QStringLiteral("thrown")).toBool());
    QCOMPARE(missing.value(QStringLiteral("code")).toString(),
             QStringLiteral("SCRAPE_ACTION_ERROR"));
    QVERIFY2(missing.value(QStringLiteral("message")).toString().contains(u"actions[0]"),
             all.constData());
    QVERIFY(missing.value(QStringLiteral("message")).toString().contains(u"#nope"));
    const QJsonObject lost = r.value(QStringLiteral("writeWithoutFocus")).toObject();
    QCOMPARE(lost.value(QStringLiteral("code")).toString(), QStringLiteral("SCRAPE_ACTION_ERROR"));

    // includeTags keeps only the story; excludeTags drops the advert and the menu.
    const QJsonObject included = r.value(QStringLiteral("includeTags")).toObject();
    QVERIFY2(included.value(QStringLiteral("markdown")).toString().contains(u"tugboats"),
             all.constData());
    for (const char *gone : {"Buy a boat", "Menu link", "nobody yet"}) {
        QVERIFY2(
            !included.value(QStringLiteral("markdown")).toString().contains(QLatin1String(gone)),
            all.constData());
        QVERIFY(!included.value(QStringLiteral("html")).toString().contains(QLatin1String(gone)));
    }
    // includeTags naming the body keeps the whole body.
    const QString body = r[QStringLiteral("includeBody")][QStringLiteral("html")].toString();
    QVERIFY2(body.contains(u"tugboats") && body.contains(u"Menu link"), all.constData());
    const QString excluded = r[QStringLiteral("excludeTags")][QStringLiteral("html")].toString();
    QVERIFY2(excluded.contains(u"tugboats") && excluded.contains(u"nobody yet"), all.constData());
    QVERIFY(!excluded.contains(u"Buy a boat"));
    QVERIFY(!excluded.contains(u"Menu link"));
    // headers reach the page's server with its request.
    const QString headed = r[QStringLiteral("headers")][QStringLiteral("markdown")].toString();
    QVERIFY2(headed.contains(u"pilot header Ada, cookie session=1"),
             QJsonDocument(r.value(QStringLiteral("headers")).toObject()).toJson().constData());
    // mobile: the page sees a phone (on the chromium engine, where there is one).
    const QJsonObject mobile = r.value(QStringLiteral("mobile")).toObject();
    if (chromiumInstalled()) {
        QVERIFY2(
            mobile.value(QStringLiteral("markdown")).toString().contains(u"width 390 mobile agent"),
            QJsonDocument(mobile).toJson().constData());
        QCOMPARE(mobile[QStringLiteral("metadata")][QStringLiteral("mobile")], QJsonValue(true));
    }
    const QJsonObject badSelector = r.value(QStringLiteral("badSelector")).toObject();
    QCOMPARE(badSelector.value(QStringLiteral("status")).toInt(), 400);
    QVERIFY2(badSelector.value(QStringLiteral("message")).toString().contains(u"excludeTags"),
             all.constData());
}

QImage tst_Firecrawl::fetchPicture(const QString &link, QByteArray *problem)
{
    HttpClient anonymous(m_ph->base());
    const HttpResponse r = anonymous.send("GET", link, QByteArray());
    if (r.status != 200) {
        *problem = "HTTP " + QByteArray::number(r.status) + ": " + r.body;
        return {};
    }
    QImage image = QImage::fromData(r.body, "PNG");
    if (image.isNull())
        *problem = "not a PNG: " + r.header("content-type");
    return image;
}

// The screenshot format (viewport, full page) and action, on each engine: links served
// by Pilothouse that fetch PNGs of the page, and refused once altered or expired.
void tst_Firecrawl::theSdkTakesScreenshotsOnBothEngines()
{
    QStringList engines{QStringLiteral("qtwebengine")};
    if (chromiumInstalled())
        engines << QStringLiteral("chromium");
    for (const QString &engine : std::as_const(engines)) {
        ScopedSetting use(*m_ph, SettingKeys::browserEngine, engine);
        QVERIFY2(use.error.isEmpty(), qPrintable(use.error));
        (void)QTest::qWaitFor([this] { return m_ph->service().pool().stats().standby > 0; }, 30000);
        const NodeResult run = runNodeScript(
            QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
            {QStringLiteral("firecrawl_screenshots.mjs"), m_api, m_ph->ownerKey(), m_site->url({})},
            240000);
        QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
        const QJsonObject r = run.result();
        const QByteArray all = engine.toUtf8() + ": " + QJsonDocument(r).toJson();
        QByteArray problem;

        // The format: the viewport's picture, the page's other formats beside it.
        const QString viewportLink =
            r[QStringLiteral("viewport")][QStringLiteral("screenshot")].toString();
        QVERIFY2(viewportLink.startsWith(m_ph->base() + QStringLiteral("/storage/")),
                 all.constData());
        QVERIFY(r[QStringLiteral("viewport")][QStringLiteral("markdown")].toString().contains(
            u"Long harbor wall"));
        const QImage viewport = fetchPicture(viewportLink, &problem);
        QVERIFY2(!viewport.isNull(), problem.constData());
        QCOMPARE(viewport.size(), QSize(1280, 800));
        // Blue water fills the page below the heading, as the page shows it.
        const QColor water = viewport.pixelColor(640, 700);
        QVERIFY2(water.blue() > 150 && water.red() < 100, qPrintable(water.name()));

        // fullPage: the whole page, taller than the viewport, as wide.
        const QImage full = fetchPicture(
            r[QStringLiteral("fullPage")][QStringLiteral("screenshot")].toString(), &problem);
        QVERIFY2(!full.isNull(), (problem + all).constData());
        QCOMPARE(full.width(), 1280);
        QVERIFY2(full.height() >= 2400, qPrintable(QString::number(full.height())));

        // The action: a picture at each screenshot action, in order, in actions.screenshots.
        const QJsonObject acted = r.value(QStringLiteral("action")).toObject();
        QVERIFY2(acted.value(QStringLiteral("markdown")).toString().contains(u"Hello Ada"),
                 all.constData());
        const QJsonArray shots =
            acted[QStringLiteral("actions")][QStringLiteral("screenshots")].toArray();
        QVERIFY2(shots.size() == 2, all.constData());
        const QImage first = fetchPicture(shots.at(0).toString(), &problem);
        QVERIFY2(!first.isNull(), problem.constData());
        QCOMPARE(first.size(), QSize(1280, 800));
        QVERIFY(!fetchPicture(shots.at(1).toString(), &problem).isNull());
        QVERIFY(shots.at(0).toString() != shots.at(1).toString());

        // The link is the credential: altered, or past its time, it is refused.
        QString altered = viewportLink;
        altered.chop(1);
        altered += viewportLink.endsWith(u'0') ? u'1' : u'0';
        HttpClient anonymous(m_ph->base());
        const HttpResponse forged = anonymous.send("GET", altered, QByteArray());
        QCOMPARE(forged.status, 403);
        QCOMPARE(forged.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("LINK_INVALID"));
        const QString id = QUrl(viewportLink).path().section(u'/', -1);
        const QString expired = m_ph->base() + m_ph->service().store().objects().signedPath(
                                                   id, QDateTime::currentMSecsSinceEpoch() - 1);
        QCOMPARE(anonymous.send("GET", expired, QByteArray()).status, 403);

        // json after actions: the schema's data is read from the page the click changed.
        const QJsonArray rows =
            r[QStringLiteral("jsonAfterActions")][QStringLiteral("json")].toArray();
        QVERIFY2(rows.size() == 2, all.constData());
        QCOMPARE(rows.at(0)[QStringLiteral("name")].toString(), QStringLiteral("Rope"));
        QCOMPARE(rows.at(1)[QStringLiteral("name")].toString(), QStringLiteral("Anchor"));
        QCOMPARE(rows.at(1)[QStringLiteral("price")].toDouble(), 80.0);
        // A crawl's json: each page's data in its document.
        const QJsonObject crawl = r.value(QStringLiteral("crawlJson")).toObject();
        QCOMPARE(crawl.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
        const QJsonArray pages = crawl.value(QStringLiteral("json")).toArray();
        QVERIFY2(pages.size() == 1, all.constData());
        QVERIFY2(pages.at(0).toArray().size() == 2, all.constData());
        QCOMPARE(pages.at(0)[1][QStringLiteral("name")].toString(), QStringLiteral("Fender"));
    }
}

void tst_Firecrawl::theSdkRunsExtractAndAgentJobsToTheirEnd()
{
    const NodeResult run =
        runNodeScript(QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
                      {QStringLiteral("firecrawl_extract.mjs"), m_api, m_ph->ownerKey(),
                       m_site->url({}), QStringLiteral("rule")},
                      240000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject r = run.result();
    const QByteArray all = QJsonDocument(r).toJson(QJsonDocument::Compact);

    // extract: one run per page (the rule planner), the pages' lists joined.
    const QJsonObject extract = r.value(QStringLiteral("extract")).toObject();
    QCOMPARE(extract.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const QJsonArray items = extract.value(QStringLiteral("data")).toArray();
    QVERIFY2(items.size() == 3, all.constData());
    QCOMPARE(items.at(0)[QStringLiteral("name")].toString(), QStringLiteral("Rope"));
    QCOMPARE(items.at(2)[QStringLiteral("name")].toString(), QStringLiteral("Anchor"));
    QCOMPARE(items.at(2)[QStringLiteral("price")].toDouble(), 80.0);
    QVERIFY(extract.value(QStringLiteral("creditsUsed")).toDouble() > 0);

    // agent: one /agent run, polled by the SDK through GET /v2/agent/{id}.
    const QJsonObject agent = r.value(QStringLiteral("agent")).toObject();
    QCOMPARE(agent.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(agent.value(QStringLiteral("data")).toArray().size(), 2);

    // What is not served says so in Firecrawl's shape.
    const QJsonObject wildcard = r.value(QStringLiteral("wildcard")).toObject();
    QCOMPARE(wildcard.value(QStringLiteral("status")).toInt(), 400);
    QVERIFY2(wildcard.value(QStringLiteral("message")).toString().contains(u"urls[0]"),
             all.constData());
    QVERIFY(wildcard.value(QStringLiteral("message")).toString().contains(u"wildcard"));
    const QJsonObject unknown = r.value(QStringLiteral("unknownJob")).toObject();
    QCOMPARE(unknown.value(QStringLiteral("status")).toInt(), 404);
    QVERIFY(unknown.value(QStringLiteral("message")).toString().contains(u"restart"));
    const QJsonObject model = r.value(QStringLiteral("model")).toObject();
    QCOMPARE(model.value(QStringLiteral("status")).toInt(), 400);
    QVERIFY(model.value(QStringLiteral("message")).toString().contains(u"model"));
}

void tst_Firecrawl::anAgentJobRunsOnTheConfiguredModel()
{
    TestService llm({QStringLiteral("llm.baseUrl=%1").arg(m_site->url(QStringLiteral("/v1"))),
                     QStringLiteral("llm.model=stub")});
    QVERIFY2(llm.ok(), qPrintable(llm.error()));
    m_model.reset();
    m_model.answers << assistantCalls(
        {toolCall(QStringLiteral("c1"), QStringLiteral("finish"),
                  {{QStringLiteral("text"), QStringLiteral("Captain Nemo is on duty.")},
                   {QStringLiteral("json"),
                    QJsonObject{{QStringLiteral("pilot"), QStringLiteral("Nemo")}}}})},
        120);
    const NodeResult run = runNodeScript(QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
                                         {QStringLiteral("firecrawl_extract.mjs"),
                                          llm.base() + QStringLiteral("/firecrawl"), llm.ownerKey(),
                                          m_site->url({}), QStringLiteral("model")},
                                         240000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject agent = run.result().value(QStringLiteral("agent")).toObject();
    const QByteArray all = QJsonDocument(agent).toJson(QJsonDocument::Compact);
    QCOMPARE(agent.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(agent[QStringLiteral("data")][QStringLiteral("pilot")].toString(),
             QStringLiteral("Nemo"));
    // The model was asked, with the prompt.
    QVERIFY2(!m_model.requests.isEmpty(), all.constData());
    QVERIFY(QJsonDocument(m_model.requests.first()).toJson().contains("pilot is on duty"));
}

// Who may call each route: no token, an empty Bearer, a key that does not exist (401 in
// Firecrawl's shape); a key without credits (402); a key whose cloudScrape capability is
// off (403); the answer is Firecrawl's {success:false, error} every time.
void tst_Firecrawl::routesAnswerFirecrawlsAuthShapes_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("route");
    QTest::addColumn<QString>("caller");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("errorStart");
    struct Routed
    {
        const char *method;
        const char *route;
        const char *capability; // the key capability it needs
        bool spends;            // a key without credits is refused with 402
    };
    const Routed routes[] = {{"POST", "/v2/scrape", "cloudScrape", true},
                             {"POST", "/v1/scrape", "cloudScrape", true},
                             {"POST", "/v2/map", "cloudScrape", true},
                             {"POST", "/v1/map", "cloudScrape", true},
                             {"POST", "/v2/search", "cloudScrape", true},
                             {"POST", "/v1/search", "cloudScrape", true},
                             {"POST", "/v2/extract", "cloudAgent", true},
                             {"POST", "/v1/extract", "cloudAgent", true},
                             {"GET", "/v2/extract/fcx_none", "cloudAgent", false},
                             {"GET", "/v1/extract/fcx_none", "cloudAgent", false},
                             {"POST", "/v2/agent", "cloudAgent", true},
                             {"GET", "/v2/agent/traj_none", "cloudAgent", false},
                             {"DELETE", "/v2/agent/traj_none", "cloudAgent", false}};
    for (const Routed &r : routes) {
        const auto row = [&](const char *who, const QString &caller, int status,
                             const char *start) {
            QTest::newRow(qPrintable(
                QStringLiteral("%1 %2 %3")
                    .arg(QLatin1String(r.method), QLatin1String(r.route), QLatin1String(who))))
                << QByteArray(r.method) << QString::fromLatin1(r.route) << caller << status
                << QString::fromLatin1(start);
        };
        row("refuses a request without a token", QStringLiteral("none"), 401, "Unauthorized");
        row("refuses an empty Bearer token", QStringLiteral("empty"), 401, "Unauthorized");
        row("refuses a key that does not exist", QStringLiteral("wrong"), 401, "Unauthorized");
        if (r.spends)
            row("refuses a key without credits", QStringLiteral("broke"), 402,
                "Insufficient credits");
        row("refuses a key without the capability it needs",
            QStringLiteral("no:") + QLatin1String(r.capability), 403, "");
    }
}

void tst_Firecrawl::routesAnswerFirecrawlsAuthShapes()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, route);
    QFETCH(QString, caller);
    QFETCH(int, status);
    QFETCH(QString, errorStart);
    HttpClient owner = m_ph->client();
    QString bearer;
    if (caller == QLatin1String("wrong"))
        bearer = QStringLiteral("pk_live_not_a_key_of_this_service_000000");
    if (caller == QLatin1String("broke") || caller.startsWith(QLatin1String("no:"))) {
        const auto minted =
            owner.post(QStringLiteral("/keys"),
                       {{QStringLiteral("label"), caller},
                        {QStringLiteral("balance"), caller == QLatin1String("broke") ? 0 : 100}});
        QVERIFY2(minted.status == 201 || minted.status == 200, minted.body.constData());
        bearer = minted.json().value(QStringLiteral("key")).toString();
        QJsonObject caps{{QStringLiteral("privateTargets"), true}};
        if (caller.startsWith(QLatin1String("no:")))
            caps.insert(caller.mid(3), false);
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
    // A body every POST route takes, so what decides is who calls.
    const QString page = m_site->url(QStringLiteral("/a.html"));
    const QJsonObject body{{QStringLiteral("url"), page},
                           {QStringLiteral("urls"), QJsonArray{page}},
                           {QStringLiteral("prompt"), QStringLiteral("List the pages")},
                           {QStringLiteral("query"), QStringLiteral("harbor")}};
    const HttpResponse r =
        HttpClient(m_ph->base())
            .send(method, QStringLiteral("/firecrawl") + route,
                  method == "POST" ? QJsonDocument(body).toJson() : QByteArray(),
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
    QCOMPARE(routed, (QStringList{"DELETE /firecrawl/v2/agent/{id}",
                                  "GET /firecrawl/v1/extract/{id}", "GET /firecrawl/v2/agent/{id}",
                                  "GET /firecrawl/v2/extract/{id}", "POST /firecrawl/v1/extract",
                                  "POST /firecrawl/v1/map", "POST /firecrawl/v1/scrape",
                                  "POST /firecrawl/v1/search", "POST /firecrawl/v2/agent",
                                  "POST /firecrawl/v2/extract", "POST /firecrawl/v2/map",
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
    QTest::newRow("refuses a pdf action rather than skipping it")
        << "/v2/scrape" << QByteArray(R"({"url":"http://a.example","actions":[{"type":"pdf"}]})")
        << "actions[0].type";
    QTest::newRow("refuses a Proxy-Authorization header, which is the egress's")
        << "/v2/scrape"
        << QByteArray(R"({"url":"http://a.example","headers":{"Proxy-Authorization":"x"}})")
        << "headers.Proxy-Authorization";
    QTest::newRow("refuses an extract of a wildcard")
        << "/v2/extract" << QByteArray(R"({"urls":["http://a.example/*"],"prompt":"p"})")
        << "urls[0]";
    QTest::newRow("refuses an agent without a prompt")
        << "/v2/agent" << QByteArray(R"({"urls":["http://a.example"]})") << "prompt";
    QTest::newRow("refuses a map limit over 30000")
        << "/v2/map" << QByteArray(R"({"url":"http://a.example","limit":30001})") << "limit";
    QTest::newRow("refuses a sitemap mode it does not know")
        << "/v2/map" << QByteArray(R"({"url":"http://a.example","sitemap":"always"})") << "sitemap";
    QTest::newRow("refuses a search without a query")
        << "/v2/search" << QByteArray(R"({"limit":3})") << "query";
    QTest::newRow("refuses a search scrape format by its full path")
        << "/v2/search" << QByteArray(R"({"query":"q","scrapeOptions":{"formats":["summary"]}})")
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
