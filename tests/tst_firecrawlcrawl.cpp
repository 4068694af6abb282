// Crawls and batch scrapes of the Firecrawl-compatible API (docs/api/firecrawl.md#crawl)
// as Firecrawl's own clients use them: @mendable/firecrawl-js and firecrawl-mcp (driven by
// the MCP SDK client), from tests/firecrawl, against the real service and a fixture site
// with robots.txt and a sitemap on loopback. A crawl webhook verified as Firecrawl
// documents it, a crawl that survives a restart, and the auth matrix of every crawl route.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "http/HttpServer.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QMessageAuthenticationCode>
#include <QTemporaryDir>

using namespace ph;
using namespace ph::test;

namespace {

QByteArray linked(const QString &title, const QStringList &hrefs)
{
    QString body = QStringLiteral("<h1>%1</h1><p>%1 text for the crawl.</p>").arg(title);
    for (const QString &h : hrefs)
        body += QStringLiteral("<a href=\"%1\">%1</a> ").arg(h);
    return htmlPage(title, body);
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

} // namespace

class tst_FirecrawlCrawl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void theSdkCrawlsPagesAndBatchScrapes();
    void aCrawlWebhookIsSignedAsFirecrawlSignsIt();
    void theMcpServerCrawlsAndReadsTheStatus();
    void aCrawlResumesAfterARestart();
    void crawlRoutesAnswerFirecrawlsAuthShapes_data();
    void crawlRoutesAnswerFirecrawlsAuthShapes();
    void theMatrixCoversEveryCrawlRoute();

private:
    QString path(const QString &p) const { return m_site->url(p); }

    std::unique_ptr<FixtureServer> m_site;
    std::unique_ptr<TestService> m_ph;
    QString m_api;
    QJsonObject m_sdk; // what firecrawl_crawl.mjs gave
    QString m_batchId; // an owner's batch scrape, for the auth matrix
};

void tst_FirecrawlCrawl::initTestCase()
{
    m_site = std::make_unique<FixtureServer>();
    QVERIFY(m_site->start());
    FixtureServer &site = *m_site;
    const QString base = site.url(QString());
    site.page("/docs/index.html",
              linked(QStringLiteral("Index"),
                     {QStringLiteral("a.html"), QStringLiteral("b.html"),
                      QStringLiteral("skip.html"), QStringLiteral("../outside.html"),
                      QStringLiteral("private/p.html"), QStringLiteral("mailto:x@y.example"),
                      QStringLiteral("http://localhost:1/docs/dead.html")}));
    site.page("/docs/a.html", linked(QStringLiteral("Alpha"),
                                     {QStringLiteral("c.html"), QStringLiteral("index.html#top")}));
    site.page("/docs/b.html", linked(QStringLiteral("Bravo"), {QStringLiteral("/docs/c.html")}));
    site.page("/docs/c.html", linked(QStringLiteral("Charlie"), {}));
    site.page("/docs/skip.html", linked(QStringLiteral("Skipped"), {}));
    site.page("/docs/from-sitemap.html", linked(QStringLiteral("Mapped"), {}));
    site.page("/docs/private/p.html", linked(QStringLiteral("Private"), {}));
    site.page("/outside.html", linked(QStringLiteral("Outside"), {}));
    site.respond(
        "/robots.txt", 200,
        ("User-agent: *\nDisallow: /docs/private\nSitemap: " + base + "/sitemap.xml\n").toUtf8());
    site.respond("/sitemap.xml", 200,
                 ("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/"
                  "sitemap/0.9\"><url><loc>" +
                  base + "/docs/from-sitemap.html</loc></url></urlset>")
                     .toUtf8());
    site.respond("/hook", 200, "ok");
    // One document per status page: every client must follow `next` to see them all.
    m_ph =
        std::make_unique<TestService>(QStringList{QStringLiteral("firecrawl.statusPageBytes=1")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_api = m_ph->base() + QStringLiteral("/firecrawl");
    const NodeResult run = runNodeScript(QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
                                         {QStringLiteral("firecrawl_crawl.mjs"), m_api,
                                          m_ph->ownerKey(), base, base + QStringLiteral("/hook")},
                                         300000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    m_sdk = run.result();
    const HttpResponse batch =
        m_ph->client().post(QStringLiteral("/firecrawl/v2/batch/scrape"),
                            {{QStringLiteral("urls"), QJsonArray{path("/docs/c.html")}}});
    QCOMPARE(batch.status, 200);
    m_batchId = batch.json().value(QStringLiteral("id")).toString();
}

void tst_FirecrawlCrawl::theSdkCrawlsPagesAndBatchScrapes()
{
    const QByteArray all = QJsonDocument(m_sdk).toJson(QJsonDocument::Compact);
    // The whole crawl: the start, its links under /docs/ and the sitemap's page; not the
    // excluded one, not the one outside the start's path, not what robots.txt disallows,
    // not the other host's. The SDK gathered them through every `next`.
    const QJsonObject crawl = m_sdk.value(QStringLiteral("crawl")).toObject();
    QCOMPARE(crawl.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QStringList urls = strings(crawl.value(QStringLiteral("urls")));
    urls.sort();
    QCOMPARE(urls, (QStringList{path("/docs/a.html"), path("/docs/b.html"), path("/docs/c.html"),
                                path("/docs/from-sitemap.html"), path("/docs/index.html")}));
    QCOMPARE(crawl.value(QStringLiteral("completed")).toInt(), 5);
    QCOMPARE(crawl.value(QStringLiteral("total")).toInt(), 5);
    QVERIFY2(crawl.value(QStringLiteral("creditsUsed")).toDouble() > 0, all.constData());
    QVERIFY(!crawl.value(QStringLiteral("expiresAt")).toString().isEmpty());
    QVERIFY2(strings(crawl.value(QStringLiteral("markdown"))).join(u' ').contains(u"Charlie text"),
             all.constData());

    // By hand: one document per page, each `next` absolute, the last page without one.
    const QJsonObject paged = m_sdk.value(QStringLiteral("paged")).toObject();
    QCOMPARE(paged.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QCOMPARE(paged.value(QStringLiteral("pages")).toArray(), (QJsonArray{1, 1, 1}));
    const QString id = paged.value(QStringLiteral("id")).toString();
    QCOMPARE(paged.value(QStringLiteral("url")).toString(),
             m_api + QStringLiteral("/v2/crawl/") + id);
    const QJsonArray nexts = paged.value(QStringLiteral("nexts")).toArray();
    QCOMPARE(nexts.size(), 3);
    QCOMPARE(nexts.at(0).toString(), m_api + QStringLiteral("/v2/crawl/%1?skip=1").arg(id));
    QCOMPARE(nexts.at(1).toString(), m_api + QStringLiteral("/v2/crawl/%1?skip=2").arg(id));
    QVERIFY(nexts.at(2).isNull());

    // maxDiscoveryDepth 1: the start's links, not theirs.
    QStringList depth = strings(m_sdk[QStringLiteral("depth")][QStringLiteral("urls")]);
    depth.sort();
    QCOMPARE(depth, (QStringList{path("/docs/a.html"), path("/docs/b.html"),
                                 path("/docs/index.html"), path("/docs/skip.html")}));
    // includePaths and limit: the start (always loaded) and one page that matches.
    QCOMPARE(strings(m_sdk[QStringLiteral("include")][QStringLiteral("urls")]),
             (QStringList{path("/docs/index.html"), path("/docs/b.html")}));

    // The errors endpoint: the page that could not load, and what robots.txt kept out.
    const QJsonObject errors = m_sdk.value(QStringLiteral("errors")).toObject();
    const QJsonArray failed = errors.value(QStringLiteral("errors")).toArray();
    QVERIFY2(failed.size() == 1, all.constData());
    QCOMPARE(failed.at(0)[QStringLiteral("url")].toString(),
             QStringLiteral("http://localhost:1/docs/dead.html"));
    QVERIFY(!failed.at(0)[QStringLiteral("error")].toString().isEmpty());
    QVERIFY(!failed.at(0)[QStringLiteral("id")].toString().isEmpty());
    QCOMPARE(strings(errors.value(QStringLiteral("robotsBlocked"))),
             QStringList{path("/docs/private/p.html")});

    // Cancel: listed as active while it runs, then cancelled.
    const QJsonObject cancel = m_sdk.value(QStringLiteral("cancel")).toObject();
    QVERIFY2(cancel.value(QStringLiteral("cancelled")).toBool(), all.constData());
    QVERIFY(cancel.value(QStringLiteral("listed")).toBool());
    QCOMPARE(cancel.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));

    // A batch scrape: the valid URLs, the invalid one left out as asked.
    const QJsonObject batch = m_sdk.value(QStringLiteral("batch")).toObject();
    QCOMPARE(batch.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    QStringList batched = strings(batch.value(QStringLiteral("urls")));
    batched.sort();
    QCOMPARE(batched, (QStringList{path("/docs/a.html"), path("/docs/b.html")}));
    QVERIFY(strings(batch.value(QStringLiteral("markdown"))).join(u' ').contains(u"Bravo text"));

    // Another key's crawl, or none: Firecrawl's 404.
    const QJsonObject unknown = m_sdk.value(QStringLiteral("unknown")).toObject();
    QVERIFY(unknown.value(QStringLiteral("thrown")).toBool());
    QCOMPARE(unknown.value(QStringLiteral("status")).toInt(), 404);
}

// Firecrawl's documented check: X-Firecrawl-Signature is "sha256=" and the hex
// HMAC-SHA256 of the raw body under the webhook secret.
void tst_FirecrawlCrawl::aCrawlWebhookIsSignedAsFirecrawlSignsIt()
{
    const QJsonObject hooked = m_sdk.value(QStringLiteral("hooked")).toObject();
    QCOMPARE(hooked.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
    const HttpResponse s = m_ph->client().get(QStringLiteral("/firecrawl/v2/webhook/secret"));
    QCOMPARE(s.status, 200);
    const QByteArray secret = s.json().value(QStringLiteral("secret")).toString().toUtf8();
    QCOMPARE(secret.size(), 64);
    QTRY_VERIFY_WITH_TIMEOUT(m_site->hits("/hook") >= 3, 30000);
    QStringList types;
    for (const FixtureRequest &r : m_site->requests("/hook")) {
        const QByteArray header = r.headers.value("x-firecrawl-signature");
        QVERIFY2(header.startsWith("sha256="), header.constData());
        const QByteArray expected =
            QMessageAuthenticationCode::hash(r.body, secret, QCryptographicHash::Sha256).toHex();
        QCOMPARE(header.mid(7), expected);
        const QJsonObject body = QJsonDocument::fromJson(r.body).object();
        types << body.value(QStringLiteral("type")).toString();
        QCOMPARE(body.value(QStringLiteral("id")).toString(),
                 hooked.value(QStringLiteral("id")).toString());
        QCOMPARE(body[QStringLiteral("metadata")][QStringLiteral("run")].toString(),
                 QStringLiteral("pilothouse-test"));
        if (body.value(QStringLiteral("type")) == QLatin1String("crawl.page")) {
            QCOMPARE(body.value(QStringLiteral("success")), QJsonValue(true));
            QVERIFY(body[QStringLiteral("data")][0][QStringLiteral("markdown")].toString().contains(
                u"Alpha text"));
        }
    }
    // Deliveries go out side by side: their order on arrival is not fixed.
    types.sort();
    QCOMPARE(types, (QStringList{QStringLiteral("crawl.completed"), QStringLiteral("crawl.page"),
                                 QStringLiteral("crawl.started")}));
    // A forged body does not pass.
    const FixtureRequest first = m_site->requests("/hook").first();
    QVERIFY(QMessageAuthenticationCode::hash(first.body + " ", secret, QCryptographicHash::Sha256)
                .toHex() != first.headers.value("x-firecrawl-signature").mid(7));
    // The deliveries are the durable queue's, listed with the others.
    const HttpResponse deliveries = m_ph->client().get(QStringLiteral("/webhooks/deliveries"));
    QVERIFY2(deliveries.body.contains("crawl.completed"), deliveries.body.left(2000).constData());
}

void tst_FirecrawlCrawl::theMcpServerCrawlsAndReadsTheStatus()
{
    const NodeResult run = runNodeScript(QStringLiteral(PILOTHOUSE_FIRECRAWL_TEST_DIR),
                                         {QStringLiteral("firecrawl_mcp_crawl.mjs"), m_api,
                                          m_ph->ownerKey(), path("/docs/index.html")},
                                         240000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject r = run.result();
    const QByteArray all = QJsonDocument(r).toJson(QJsonDocument::Compact);
    QVERIFY2(!r.contains(QStringLiteral("error")), all.constData());
    const QStringList tools = strings(r.value(QStringLiteral("tools")));
    QVERIFY(tools.contains(QStringLiteral("firecrawl_crawl")));
    QVERIFY(tools.contains(QStringLiteral("firecrawl_check_crawl_status")));
    QVERIFY2(!r[QStringLiteral("crawl")][QStringLiteral("isError")].toBool(), all.constData());
    QVERIFY2(r[QStringLiteral("crawl")][QStringLiteral("text")].toString().contains(u"completed"),
             all.constData());
    QVERIFY2(!r.value(QStringLiteral("id")).toString().isEmpty(), all.constData());
    const QString status = r[QStringLiteral("status")][QStringLiteral("text")].toString();
    QVERIFY2(status.contains(u"completed") && status.contains(u"Alpha text"), all.constData());
}

// A crawl with a delay between pages, its service stopped after the first page and started
// again on the same data: it goes on from its stored frontier to the end.
void tst_FirecrawlCrawl::aCrawlResumesAfterARestart()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    QString id;
    {
        TestService first({}, data.path());
        QVERIFY2(first.ok(), qPrintable(first.error()));
        const HttpResponse started =
            first.client().post(QStringLiteral("/firecrawl/v2/crawl"),
                                {{QStringLiteral("url"), path("/docs/index.html")},
                                 {QStringLiteral("limit"), 4},
                                 {QStringLiteral("sitemap"), QStringLiteral("skip")},
                                 {QStringLiteral("delay"), 1}});
        QCOMPARE(started.status, 200);
        id = started.json().value(QStringLiteral("id")).toString();
        const QString status = QStringLiteral("/firecrawl/v2/crawl/") + id;
        QTRY_VERIFY_WITH_TIMEOUT(
            first.client().get(status).json().value(QStringLiteral("completed")).toInt() >= 1,
            60000);
        QCOMPARE(first.client().get(status).json().value(QStringLiteral("status")).toString(),
                 QStringLiteral("scraping"));
    }
    TestService second({}, data.path());
    QVERIFY2(second.ok(), qPrintable(second.error()));
    const QString status = QStringLiteral("/firecrawl/v2/crawl/") + id;
    QTRY_COMPARE_WITH_TIMEOUT(
        second.client().get(status).json().value(QStringLiteral("status")).toString(),
        QStringLiteral("completed"), 90000);
    const QJsonObject done = second.client().get(status).json();
    QCOMPARE(done.value(QStringLiteral("total")).toInt(), 4);
    QCOMPARE(done.value(QStringLiteral("completed")).toInt(), 4);
    QStringList urls;
    for (const QJsonValue &d : done.value(QStringLiteral("data")).toArray())
        urls << d[QStringLiteral("metadata")][QStringLiteral("sourceURL")].toString();
    urls.removeDuplicates();
    QCOMPARE(urls.size(), 4);
}

// Who may call each crawl route: no token, an empty Bearer, an unknown key (401 in
// Firecrawl's shape); a key whose cloudScrape capability is off (403); a key without
// credits may not start one (402); another key does not see the owner's crawl (404).
void tst_FirecrawlCrawl::crawlRoutesAnswerFirecrawlsAuthShapes_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QString>("route");
    QTest::addColumn<QString>("caller");
    QTest::addColumn<int>("status");
    const QList<QPair<QByteArray, QString>> routes = {{"POST", "/v2/crawl"},
                                                      {"POST", "/v1/crawl"},
                                                      {"GET", "/v2/crawl/active"},
                                                      {"GET", "/v1/crawl/active"},
                                                      {"GET", "/v2/crawl/{crawl}"},
                                                      {"GET", "/v1/crawl/{crawl}"},
                                                      {"DELETE", "/v2/crawl/{crawl}"},
                                                      {"DELETE", "/v1/crawl/{crawl}"},
                                                      {"GET", "/v2/crawl/{crawl}/errors"},
                                                      {"GET", "/v1/crawl/{crawl}/errors"},
                                                      {"POST", "/v2/batch/scrape"},
                                                      {"POST", "/v1/batch/scrape"},
                                                      {"GET", "/v2/batch/scrape/{batch}"},
                                                      {"GET", "/v1/batch/scrape/{batch}"},
                                                      {"DELETE", "/v2/batch/scrape/{batch}"},
                                                      {"DELETE", "/v1/batch/scrape/{batch}"},
                                                      {"GET", "/v2/batch/scrape/{batch}/errors"},
                                                      {"GET", "/v1/batch/scrape/{batch}/errors"},
                                                      {"GET", "/v2/webhook/secret"}};
    for (const auto &[method, route] : routes) {
        const auto row = [&](const char *who, const char *caller, int status) {
            QTest::newRow(
                qPrintable(QStringLiteral("%1 %2 %3")
                               .arg(QString::fromLatin1(method), route, QLatin1String(who))))
                << method << route << QString::fromLatin1(caller) << status;
        };
        row("refuses a request without a token", "none", 401);
        row("refuses an empty Bearer token", "empty", 401);
        row("refuses a key that does not exist", "wrong", 401);
        row("refuses a key without the cloudScrape capability", "noScrape", 403);
        if (method == "POST") {
            row("refuses a key without credits", "broke", 402);
            row("refuses page scripts to a key without the pageScripts capability", "scripts", 403);
        }
        if (route.contains(u'{'))
            row("hides the owner's job from another key", "other", 404);
    }
}

void tst_FirecrawlCrawl::crawlRoutesAnswerFirecrawlsAuthShapes()
{
    QFETCH(QByteArray, method);
    QFETCH(QString, route);
    QFETCH(QString, caller);
    QFETCH(int, status);
    HttpClient owner = m_ph->client();
    // The owner's finished jobs from the SDK run.
    route.replace(QStringLiteral("{crawl}"),
                  m_sdk[QStringLiteral("paged")][QStringLiteral("id")].toString());
    route.replace(QStringLiteral("{batch}"), m_batchId);
    QString bearer;
    if (caller == QLatin1String("wrong"))
        bearer = QStringLiteral("pk_live_not_a_key_of_this_service_000000");
    if (caller == QLatin1String("broke") || caller == QLatin1String("noScrape") ||
        caller == QLatin1String("other") || caller == QLatin1String("scripts")) {
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
    HttpClient::Headers headers{
        qMakePair(QByteArray("Content-Type"), QByteArray("application/json"))};
    if (caller == QLatin1String("empty"))
        headers << qMakePair(QByteArray("Authorization"), QByteArray("Bearer "));
    else if (!bearer.isEmpty())
        headers << qMakePair(QByteArray("Authorization"), ("Bearer " + bearer).toUtf8());
    QJsonObject body{{QStringLiteral("url"), path("/docs/c.html")},
                     {QStringLiteral("urls"), QJsonArray{path("/docs/c.html")}},
                     {QStringLiteral("limit"), 1}};
    if (caller == QLatin1String("scripts")) {
        // A crawl's scrapeOptions, a batch's own fields: the same grant as a scrape's.
        const QJsonArray actions{QJsonObject{{QStringLiteral("type"), "executeJavascript"},
                                             {QStringLiteral("script"), "1"}}};
        body.insert(QStringLiteral("scrapeOptions"),
                    QJsonObject{{QStringLiteral("actions"), actions}});
        body.insert(QStringLiteral("actions"), actions);
    }
    const HttpResponse r =
        HttpClient(m_ph->base())
            .send(method, QStringLiteral("/firecrawl") + route,
                  method == "POST" ? QJsonDocument(body).toJson() : QByteArray(), headers);
    QVERIFY2(r.status == status, r.body.constData());
    const QJsonObject json = r.json();
    QCOMPARE(json.value(QStringLiteral("success")), QJsonValue(false));
    QVERIFY2(json.value(QStringLiteral("error")).isString(), r.body.constData());
    // Never another key's data, nor the secret.
    QVERIFY(!r.body.contains("markdown"));
    QVERIFY(!json.contains(QStringLiteral("secret")));
}

void tst_FirecrawlCrawl::theMatrixCoversEveryCrawlRoute()
{
    QStringList routed;
    for (const http::Route &route : m_ph->service().http().routes()) {
        const QString &p = route.pattern;
        if (p.startsWith(QLatin1String("/firecrawl/")) &&
            (p.contains(QLatin1String("/crawl")) || p.contains(QLatin1String("/batch/")) ||
             p.contains(QLatin1String("/webhook/"))))
            routed << QString::fromLatin1(route.method) + QLatin1Char(' ') + p;
    }
    routed.sort();
    QStringList covered;
    for (const QString &v : {QStringLiteral("v1"), QStringLiteral("v2")}) {
        for (const QString &root : {QStringLiteral("/firecrawl/%1/crawl").arg(v),
                                    QStringLiteral("/firecrawl/%1/batch/scrape").arg(v)}) {
            covered << "POST " + root << "GET " + root + "/{id}"
                    << "DELETE " + root + "/{id}"
                    << "GET " + root + "/{id}/errors";
        }
        covered << QStringLiteral("GET /firecrawl/%1/crawl/active").arg(v);
    }
    covered << QStringLiteral("GET /firecrawl/v2/webhook/secret");
    covered.sort();
    QCOMPARE(routed, covered);
}

PH_WEBENGINE_TEST_MAIN(tst_FirecrawlCrawl)
#include "tst_firecrawlcrawl.moc"
