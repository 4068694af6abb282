// The Firecrawl-compatible API's request readers, documents and error bodies
// (server/firecrawl: FirecrawlScrape, MapJob's readMapRequest and selectLinks, Searxng,
// ScrapeCache, FirecrawlErrors), without a service.
#include "firecrawl/ExtractRequest.h"
#include "firecrawl/FirecrawlErrors.h"
#include "firecrawl/FirecrawlScrape.h"
#include "firecrawl/MapJob.h"
#include "firecrawl/ScrapeCache.h"
#include "firecrawl/Searxng.h"

#include "core/Clock.h"
#include "core/DomainError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace ph;
using namespace ph::firecrawl;

namespace {

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

class tst_FirecrawlRequests : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusesScrapesByField_data();
    void refusesScrapesByField();
    void readsScrapeOptionsIntoAScrape();
    void readsTheJsonFormatIntoAnAgentRequest();
    void readsActionsIntoPageSteps();
    void readsTagFiltersIntoThePageWork();
    void readsHeadersAndMobileIntoThePageWork();
    void refusesExtractsByField_data();
    void refusesExtractsByField();
    void readsAnExtractIntoOneRunPerPage();
    void readsAnAgentJobIntoOneRun();
    void mergesThePagesExtracts_data();
    void mergesThePagesExtracts();
    void readsV1FormatsAsStrings();
    void readsScreenshotsIntoThePageWork_data();
    void readsScreenshotsIntoThePageWork();
    void makesFirecrawlsDocument();
    void answersAPageErrorByKind_data();
    void answersAPageErrorByKind();
    void shapesErrorsAsFirecrawlDoes_data();
    void shapesErrorsAsFirecrawlDoes();
    void readsMapRequests();
    void selectsMapLinks_data();
    void selectsMapLinks();
    void readsSearxngAnswers();
    void cachesPerKeyWithinMaxAge();
};

void tst_FirecrawlRequests::refusesScrapesByField_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("code");
    QTest::newRow("refuses a missing url") << QByteArray("{}") << "url"
                                           << "MISSING_FIELD";
    QTest::newRow("refuses a mailto url") << QByteArray(R"({"url":"mailto:a@b.example"})") << "url"
                                          << "INVALID_FIELD";
    QTest::newRow("refuses a summary, which Pilothouse does not write")
        << QByteArray(R"({"url":"a.example","formats":["markdown",{"type":"summary"}]})")
        << "formats[1]"
        << "UNSUPPORTED_FORMAT";
    QTest::newRow("refuses two screenshot formats")
        << QByteArray(R"({"url":"a.example","formats":["screenshot",{"type":"screenshot"}]})")
        << "formats[1]"
        << "INVALID_FIELD";
    QTest::newRow("refuses a screenshot quality over 100")
        << QByteArray(R"({"url":"a.example","formats":[{"type":"screenshot","quality":101}]})")
        << "formats[0].quality"
        << "INVALID_FIELD";
    QTest::newRow("refuses a json format with neither prompt nor schema")
        << QByteArray(R"({"url":"a.example","formats":[{"type":"json","schema":{}}]})")
        << "formats[0]"
        << "INVALID_FIELD";
    QTest::newRow("refuses a format it does not know")
        << QByteArray(R"({"url":"a.example","formats":["pdfx"]})") << "formats[0]"
        << "INVALID_FIELD";
    QTest::newRow("refuses a pdf action, which the engine does not print")
        << QByteArray(R"({"url":"a.example","actions":[{"type":"wait","milliseconds":5},
                      {"type":"pdf"}]})")
        << "actions[1].type"
        << "UNSUPPORTED_ACTION";
    QTest::newRow("refuses an action type Firecrawl does not have")
        << QByteArray(R"({"url":"a.example","actions":[{"type":"hover","selector":"a"}]})")
        << "actions[0].type"
        << "INVALID_FIELD";
    QTest::newRow("refuses a click without a selector")
        << QByteArray(R"({"url":"a.example","actions":[{"type":"click"}]})")
        << "actions[0].selector"
        << "MISSING_FIELD";
    QTest::newRow("refuses a scroll in a direction Firecrawl does not have")
        << QByteArray(R"({"url":"a.example","actions":[{"type":"scroll","direction":"left"}]})")
        << "actions[0].direction"
        << "INVALID_FIELD";
    QTest::newRow("refuses an empty includeTags selector")
        << QByteArray(R"({"url":"a.example","includeTags":["main"," "]})") << "includeTags[1]"
        << "INVALID_FIELD";
    QTest::newRow("refuses waits of actions over half the timeout")
        << QByteArray(R"({"url":"a.example","timeout":4000,"actions":[{"type":"click",
                      "selector":"a"},{"type":"wait","milliseconds":3000}]})")
        << "waitFor"
        << "INVALID_FIELD";
    QTest::newRow("refuses a wait with both milliseconds and selector")
        << QByteArray(R"({"url":"a.example","actions":[{"type":"wait","milliseconds":5,
                      "selector":"a"}]})")
        << "actions[0]"
        << "INVALID_FIELD";
    QTest::newRow("refuses waits over a minute in all")
        << QByteArray(R"({"url":"a.example","waitFor":40000,"actions":[{"type":"wait",
                      "milliseconds":30000}]})")
        << "actions"
        << "INVALID_FIELD";
    QTest::newRow("refuses a waitFor over half the timeout")
        << QByteArray(R"({"url":"a.example","waitFor":3000,"timeout":5000})") << "waitFor"
        << "INVALID_FIELD";
    QTest::newRow("refuses a Host header, which is the connection's")
        << QByteArray(R"({"url":"a.example","headers":{"X-A":"1","Host":"b.example"}})")
        << "headers.Host"
        << "INVALID_HEADER";
    QTest::newRow("refuses a Proxy-Authorization header, which is the egress's")
        << QByteArray(R"({"url":"a.example","headers":{"proxy-authorization":"Basic eA=="}})")
        << "headers.proxy-authorization"
        << "INVALID_HEADER";
    QTest::newRow("refuses a hop-by-hop header")
        << QByteArray(R"({"url":"a.example","headers":{"Transfer-Encoding":"chunked"}})")
        << "headers.Transfer-Encoding"
        << "INVALID_HEADER";
    QTest::newRow("refuses a header value that would split the request")
        << QByteArray(R"({"url":"a.example","headers":{"X-A":"1\r\nX-B: 2"}})") << "headers.X-A"
        << "INVALID_HEADER";
    QTest::newRow("refuses a header name that is not a token")
        << QByteArray(R"({"url":"a.example","headers":{"X A":"1"}})") << "headers.X A"
        << "INVALID_HEADER";
    QTest::newRow("refuses a header value that is not a string")
        << QByteArray(R"({"url":"a.example","headers":{"X-A":1}})") << "headers.X-A"
        << "INVALID_FIELD";
    QTest::newRow("refuses a negative maxAge")
        << QByteArray(R"({"url":"a.example","maxAge":-1})") << "maxAge"
        << "INVALID_FIELD";
}

void tst_FirecrawlRequests::refusesScrapesByField()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    QFETCH(QString, code);
    try {
        readScrapeRequest(QJsonDocument::fromJson(body).object(), ApiVersion::V2, QString(), true,
                          {QStringLiteral("markdown")});
        QFAIL("accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), field);
        QCOMPARE(e.code(), code);
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
    }
}

void tst_FirecrawlRequests::readsScrapeOptionsIntoAScrape()
{
    const ScrapeRequest r = readScrapeRequest(
        object(R"({"url":"a.example/p?q=1","formats":[{"type":"markdown"},"rawHtml","links"],
                   "waitFor":200,"actions":[{"type":"wait","milliseconds":300},
                   {"type":"wait","selector":".done"}],"timeout":10000,"maxAge":60000,
                   "onlyMainContent":false,"origin":"js-sdk","integration":"n8n",
                   "someFutureKey":{"x":1}})"),
        ApiVersion::V2, QString(), true, {QStringLiteral("markdown")});
    QCOMPARE(r.url, QUrl(QStringLiteral("http://a.example/p?q=1")));
    QCOMPARE(r.formats, (QStringList{"markdown", "rawHtml", "links"}));
    QCOMPARE(r.waitMs, 500);
    QCOMPARE(r.waitForSelector, QStringLiteral(".done"));
    QCOMPARE(r.timeoutMs, 9500);
    QCOMPARE(r.maxAgeMs, qint64(60000));
    QCOMPARE(r.warnings.size(), 1); // onlyMainContent:false is said, not hidden
    const QJsonObject cloud = r.cloudRequest({r.url});
    QCOMPARE(cloud.value(QStringLiteral("formats")).toArray(),
             (QJsonArray{"markdown", "html", "links"}));
    QCOMPARE(cloud.value(QStringLiteral("waitMs")).toInt(), 500);
    QCOMPARE(cloud.value(QStringLiteral("waitForSelector")).toString(), QStringLiteral(".done"));
    QCOMPARE(cloud.value(QStringLiteral("timeoutMs")).toInt(), 9500);
    QCOMPARE(cloud.value(QStringLiteral("urls")).toArray(), (QJsonArray{"http://a.example/p?q=1"}));

    // Inside scrapeOptions, fields are named by their path; no formats: nothing scraped.
    const ScrapeRequest none =
        readScrapeRequest(object("{}"), ApiVersion::V2, QStringLiteral("scrapeOptions"), false, {});
    QVERIFY(none.formats.isEmpty());
    try {
        readScrapeRequest(object(R"({"waitFor":"soon"})"), ApiVersion::V2,
                          QStringLiteral("scrapeOptions"), false, {});
        QFAIL("accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), QStringLiteral("scrapeOptions.waitFor"));
    }
}

void tst_FirecrawlRequests::readsTheJsonFormatIntoAnAgentRequest()
{
    const ScrapeRequest v2 = readScrapeRequest(
        object(R"({"url":"a.example/shop","formats":["markdown",{"type":"json","prompt":"List them",
                   "schema":{"type":"array"}}]})"),
        ApiVersion::V2, QString(), true, {});
    QVERIFY(v2.json);
    QCOMPARE(v2.formats, QStringList{"markdown"});
    const QJsonObject agent = v2.agentRequest();
    QCOMPARE(agent.value(QStringLiteral("input")).toString(), QStringLiteral("List them"));
    QCOMPARE(agent.value(QStringLiteral("urls")).toArray(), (QJsonArray{"http://a.example/shop"}));
    QCOMPARE(agent[QStringLiteral("schema")][QStringLiteral("type")].toString(),
             QStringLiteral("array"));
    const ScrapeRequest v1 = readScrapeRequest(
        object(
            R"({"url":"a.example","formats":["json"],"jsonOptions":{"schema":{"type":"object"}}})"),
        ApiVersion::V1, QString(), true, {});
    QVERIFY(v1.json);
    QVERIFY(v1.agentRequest().value(QStringLiteral("input")).toString().contains(u"schema"));
    QVERIFY(v1.cacheKey() !=
            readScrapeRequest(object(R"({"url":"a.example"})"), ApiVersion::V1, QString(), true, {})
                .cacheKey());
    // After actions, a schema's json is read in the page they left; a prompt alone is the
    // model's run on the page as it loads, and the document says so.
    const ScrapeRequest acted = readScrapeRequest(
        object(R"({"url":"a.example","formats":[{"type":"json","schema":{"type":"object"}}],
                   "actions":[{"type":"click","selector":"#go"}]})"),
        ApiVersion::V2, QString(), true, {});
    QCOMPARE(acted.page.extractSchema.value(QStringLiteral("type")).toString(),
             QStringLiteral("object"));
    QVERIFY(acted.warnings.isEmpty());
    const ScrapeRequest prompted =
        readScrapeRequest(object(R"({"url":"a.example","formats":[{"type":"json","prompt":"p"}],
                   "actions":[{"type":"click","selector":"#go"}]})"),
                          ApiVersion::V2, QString(), true, {});
    QVERIFY(prompted.page.extractSchema.isEmpty());
    QVERIFY(prompted.warnings.join(u' ').contains(u"as it loads"));
    QVERIFY(v2.page.extractSchema.isEmpty()); // no actions: the agent run, as before
    try {
        readSearchRequest(object(R"({"query":"q","scrapeOptions":{"formats":[{"type":"json",
                                   "prompt":"p"}]}})"),
                          ApiVersion::V2);
        QFAIL("a search took the json format it would not serve");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("UNSUPPORTED_FORMAT"));
    }
}

void tst_FirecrawlRequests::readsV1FormatsAsStrings()
{
    try {
        readScrapeRequest(object(R"({"url":"a.example","formats":[{"type":"markdown"}]})"),
                          ApiVersion::V1, QString(), true, {});
        QFAIL("v1 took a format object");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), QStringLiteral("formats[0]"));
    }
    // v1's screenshot@fullPage is the whole page's picture.
    const ScrapeRequest full =
        readScrapeRequest(object(R"({"url":"a.example","formats":["screenshot@fullPage"]})"),
                          ApiVersion::V1, QString(), true, {});
    QCOMPARE(full.formats, QStringList{QStringLiteral("screenshot")});
    QCOMPARE(full.page.screenshot, cloud::PageWork::Shot::FullPage);
}

void tst_FirecrawlRequests::readsScreenshotsIntoThePageWork_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("shot");
    QTest::addColumn<int>("steps");
    QTest::addColumn<bool>("fullStep");
    using S = cloud::PageWork::Shot;
    QTest::newRow("takes the viewport for the screenshot format")
        << QByteArray(R"({"url":"a.example","formats":["markdown","screenshot"]})")
        << int(S::Viewport) << 0 << false;
    QTest::newRow("takes the whole page for v2's fullPage object")
        << QByteArray(R"({"url":"a.example","formats":[{"type":"screenshot","fullPage":true,
                      "quality":80}]})")
        << int(S::FullPage) << 0 << false;
    QTest::newRow("takes no picture without the format")
        << QByteArray(R"({"url":"a.example","formats":["markdown"]})") << int(S::None) << 0
        << false;
    QTest::newRow("makes the screenshot action a step of its own, in order")
        << QByteArray(R"({"url":"a.example","actions":[{"type":"click","selector":"#go"},
                      {"type":"screenshot","fullPage":true}]})")
        << int(S::None) << 2 << true;
}

void tst_FirecrawlRequests::readsScreenshotsIntoThePageWork()
{
    QFETCH(QByteArray, body);
    QFETCH(int, shot);
    QFETCH(int, steps);
    QFETCH(bool, fullStep);
    const ScrapeRequest r = readScrapeRequest(object(body), ApiVersion::V2, QString(), true,
                                              {QStringLiteral("markdown")});
    QCOMPARE(int(r.page.screenshot), shot);
    QCOMPARE(r.formats.contains(QStringLiteral("screenshot")), shot != 0);
    QCOMPARE(int(r.page.steps.size()), steps);
    QCOMPARE(r.page.isEmpty(), shot == 0 && steps == 0);
    if (steps > 0) {
        QCOMPARE(r.page.steps.last().kind, cloud::PageStep::Kind::Screenshot);
        QCOMPARE(r.page.steps.last().all, fullStep);
        QCOMPARE(r.page.steps.last().field, QStringLiteral("actions[1]"));
        QVERIFY(r.hasActions);
    }
    QCOMPARE(r.takesPictures(), shot != 0 || steps != 0);
    // A picture is part of what the cache tells apart.
    const ScrapeRequest plain = readScrapeRequest(object(R"({"url":"a.example"})"), ApiVersion::V2,
                                                  QString(), true, {QStringLiteral("markdown")});
    QCOMPARE(plain.cacheKey() == r.cacheKey(), shot == 0 && steps == 0);
}

void tst_FirecrawlRequests::makesFirecrawlsDocument()
{
    ScrapeRequest r;
    r.formats = {QStringLiteral("markdown"), QStringLiteral("rawHtml"), QStringLiteral("links")};
    QJsonObject result{{QStringLiteral("url"), QStringLiteral("http://a.example/")},
                       {QStringLiteral("finalUrl"), QStringLiteral("http://a.example/x")},
                       {QStringLiteral("httpStatus"), 404},
                       {QStringLiteral("title"), QStringLiteral("T")},
                       {QStringLiteral("lang"), QStringLiteral("de")},
                       {QStringLiteral("contentType"), QStringLiteral("text/html")},
                       {QStringLiteral("markdown"), QStringLiteral("Title T")},
                       {QStringLiteral("html"), QStringLiteral("<html></html>")},
                       {QStringLiteral("status"), QStringLiteral("error")}};
    result.insert(
        QStringLiteral("links"),
        QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("l1")},
                               {QStringLiteral("href"), QStringLiteral("http://a.example/y")},
                               {QStringLiteral("text"), QStringLiteral("Y")}}});
    result.insert(
        QStringLiteral("error"),
        QJsonObject{{QStringLiteral("code"), QStringLiteral("HTTP_STATUS")},
                    {QStringLiteral("message"), QStringLiteral("the server answered 404")}});
    QVERIFY(hasPage(result));
    const QJsonObject doc = documentFor(result, r, QStringLiteral("req_1"));
    QCOMPARE(doc.value(QStringLiteral("markdown")).toString(), QStringLiteral("Title T"));
    QCOMPARE(doc.value(QStringLiteral("rawHtml")).toString(), QStringLiteral("<html></html>"));
    QVERIFY(!doc.contains(QStringLiteral("html")));
    QCOMPARE(doc.value(QStringLiteral("links")).toArray(), (QJsonArray{"http://a.example/y"}));
    const QJsonObject meta = doc.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(meta.value(QStringLiteral("title")).toString(), QStringLiteral("T"));
    QCOMPARE(meta.value(QStringLiteral("language")).toString(), QStringLiteral("de"));
    const QString source = QString::fromLatin1("http://a.example/");
    QCOMPARE(meta.value(QStringLiteral("sourceURL")).toString(), source);
    QCOMPARE(meta.value(QStringLiteral("url")).toString(), QStringLiteral("http://a.example/x"));
    QCOMPARE(meta.value(QStringLiteral("statusCode")).toInt(), 404);
    QCOMPARE(meta.value(QStringLiteral("scrapeId")).toString(), QStringLiteral("req_1"));
    QCOMPARE(meta.value(QStringLiteral("error")).toString(),
             QStringLiteral("the server answered 404"));
    const QJsonObject unloaded =
        object(R"({"url":"http://a.example/","error":{"code":"DNS_FAILURE"}})");
    QVERIFY(!hasPage(unloaded));
    const QJsonObject pdf =
        object(R"({"contentType":"application/pdf","error":{"code":"NON_HTML"}})");
    QVERIFY(!hasPage(pdf));
}

void tst_FirecrawlRequests::answersAPageErrorByKind_data()
{
    QTest::addColumn<QString>("pageCode");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("code");
    using K = DomainError::Kind;
    QTest::newRow("refuses a blocked target as forbidden")
        << "BLOCKED" << int(K::Forbidden) << "BLOCKED";
    QTest::newRow("answers a timeout as Firecrawl's SCRAPE_TIMEOUT")
        << "TIMEOUT" << int(K::Timeout) << "SCRAPE_TIMEOUT";
    QTest::newRow("answers a full pool as busy") << "BUSY" << int(K::TooManyRequests) << "BUSY";
    QTest::newRow("keeps the code of a page that could not load")
        << "DNS_FAILURE" << int(K::Internal) << "DNS_FAILURE";
}

void tst_FirecrawlRequests::answersAPageErrorByKind()
{
    QFETCH(QString, pageCode);
    QFETCH(int, kind);
    QFETCH(QString, code);
    const DomainError e = pageError(QJsonObject{
        {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), pageCode},
                                              {QStringLiteral("message"), QStringLiteral("m")}}}});
    QCOMPARE(int(e.kind()), kind);
    QCOMPARE(e.code(), code);
}

void tst_FirecrawlRequests::shapesErrorsAsFirecrawlDoes_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("error");
    using K = DomainError::Kind;
    QTest::newRow("names the field of a bad request") << int(K::Invalid) << "BAD_REQUEST"
                                                      << "Bad Request: formats[0]: why";
    QTest::newRow("says Unauthorized for a missing key") << int(K::Unauthenticated) << "C"
                                                         << "Unauthorized: why";
    QTest::newRow("says Insufficient credits without credits")
        << int(K::PaymentRequired) << "C"
        << "Insufficient credits to perform this request. why (ask the Pilothouse owner for more "
           "credits).";
    QTest::newRow("says Rate limit exceeded when busy")
        << int(K::TooManyRequests) << "C"
        << "Rate limit exceeded: why. Retry after 3 seconds.";
    QTest::newRow("keeps a page's code on a 500") << int(K::Internal) << "C"
                                                  << "why";
}

void tst_FirecrawlRequests::shapesErrorsAsFirecrawlDoes()
{
    QFETCH(int, kind);
    QFETCH(QString, code);
    QFETCH(QString, error);
    DomainError e(DomainError::Kind(kind), QStringLiteral("C"), QStringLiteral("why"),
                  QStringLiteral("formats[0]"));
    e.withRetryAfter(3);
    const QJsonObject body = errorEnvelope(e, QStringLiteral("req_9"));
    QCOMPARE(body.value(QStringLiteral("success")), QJsonValue(false));
    QCOMPARE(body.value(QStringLiteral("code")).toString(), code);
    QCOMPARE(body.value(QStringLiteral("error")).toString(), error);
    QCOMPARE(body.value(QStringLiteral("requestId")).toString(), QStringLiteral("req_9"));
    if (DomainError::Kind(kind) == DomainError::Kind::Invalid)
        QCOMPARE(body[QStringLiteral("details")][0][QStringLiteral("path")].toArray(),
                 (QJsonArray{"formats", 0}));
    QCOMPARE(fieldPath(QStringLiteral("scrapeOptions.actions[2].type")),
             (QJsonArray{"scrapeOptions", "actions", 2, "type"}));
}

void tst_FirecrawlRequests::readsMapRequests()
{
    const MapRequest r = readMapRequest(object(
        R"({"url":"https://a.example","search":"docs","includeSubdomains":false,
            "ignoreQueryParameters":false,"limit":7,"sitemap":"only","origin":"mcp"})"));
    QCOMPARE(r.url, QUrl(QStringLiteral("https://a.example")));
    QCOMPARE(r.search, QStringLiteral("docs"));
    QVERIFY(!r.includeSubdomains);
    QVERIFY(!r.ignoreQueryParameters);
    QCOMPARE(r.limit, 7);
    QCOMPARE(r.sitemap, MapRequest::Sitemaps::Only);
    QCOMPARE(readMapRequest(object(R"({"url":"a.example","ignoreSitemap":true})")).sitemap,
             MapRequest::Sitemaps::Skip);
    const MapRequest defaults = readMapRequest(object(R"({"url":"a.example"})"));
    QCOMPARE(defaults.limit, 5000);
    QVERIFY(defaults.includeSubdomains && defaults.ignoreQueryParameters);
}

void tst_FirecrawlRequests::selectsMapLinks_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<QStringList>("candidates");
    QTest::addColumn<QStringList>("expected");
    const QStringList links = {"https://www.a.example/one#top", "https://docs.a.example/two?x=1",
                               "https://b.example/three",       "mailto:x@a.example",
                               "https://a.example/private/p",   "https://a.example/one"};
    QTest::newRow("keeps the site and its subdomains, each once, the start first")
        << QByteArray(R"({"url":"https://a.example/"})") << links
        << QStringList{"https://a.example/", "https://www.a.example/one",
                       "https://docs.a.example/two", "https://a.example/one"};
    QTest::newRow("keeps the site alone without subdomains")
        << QByteArray(R"({"url":"https://a.example/","includeSubdomains":false})") << links
        << QStringList{"https://a.example/", "https://www.a.example/one", "https://a.example/one"};
    QTest::newRow("keeps queries when asked")
        << QByteArray(R"({"url":"https://a.example/","ignoreQueryParameters":false,
                          "search":"two"})")
        << links << QStringList{"https://docs.a.example/two?x=1"};
    QTest::newRow("stops at the limit")
        << QByteArray(R"({"url":"https://a.example/","limit":2})") << links
        << QStringList{"https://a.example/", "https://www.a.example/one"};
}

void tst_FirecrawlRequests::selectsMapLinks()
{
    QFETCH(QByteArray, request);
    QFETCH(QStringList, candidates);
    QFETCH(QStringList, expected);
    QList<MapLink> in;
    for (const QString &c : candidates)
        in.append({c, QString()});
    const RobotsTxt robots = RobotsTxt::parse("User-agent: *\nDisallow: /private\n", "pilothouse");
    QStringList out;
    for (const MapLink &l :
         selectLinks(readMapRequest(QJsonDocument::fromJson(request).object()), in, &robots))
        out << l.url;
    QCOMPARE(out, expected);
}

void tst_FirecrawlRequests::readsSearxngAnswers()
{
    const QUrl searxng(QStringLiteral("http://127.0.0.1:8888/sx"));
    const QString query =
        searxngQuery(searxng, QStringLiteral("a b"), QStringLiteral("en")).toString();
    const QString expected =
        QStringLiteral("http://127.0.0.1:8888/sx/search?q=a b&format=json&language=en");
    QCOMPARE(query, expected);
    QString problem;
    const QList<SearchHit> hits = readSearxng(
        R"({"results":[{"url":"https://a.example/1","title":"One","content":"first"},
                       {"url":"javascript:void 0","title":"x"},
                       {"url":"https://a.example/1","title":"again"},
                       {"url":"https://a.example/2","title":"Two"},
                       {"url":"https://a.example/3","title":"Three"}]})",
        2, &problem);
    QVERIFY(problem.isEmpty());
    QCOMPARE(hits.size(), 2);
    QCOMPARE(hits.at(0).url, QStringLiteral("https://a.example/1"));
    QCOMPARE(hits.at(0).description, QStringLiteral("first"));
    QCOMPARE(hits.at(1).url, QStringLiteral("https://a.example/2"));
    readSearxng("<html>not json</html>", 5, &problem);
    QVERIFY(problem.contains(u"json format"));

    const SearchRequest s =
        readSearchRequest(object(R"({"query":"q","limit":3,"sources":["web","news"],"tbs":"qdr:d",
                   "scrapeOptions":{"formats":["markdown"]}})"),
                          ApiVersion::V2);
    QCOMPARE(s.limit, 3);
    QCOMPARE(s.scrape.formats, QStringList{"markdown"});
    QCOMPARE(s.warnings.size(), 2); // news and tbs are said to be left out
}

void tst_FirecrawlRequests::cachesPerKeyWithinMaxAge()
{
    ManualClock clock(1'000'000);
    ScrapeCache cache(clock, 2);
    cache.store(QStringLiteral("k1"), QStringLiteral("r1"), {{QStringLiteral("n"), 1}});
    clock.advance(1000);
    QVERIFY(cache.find(QStringLiteral("k1"), QStringLiteral("r1"), 1000).has_value());
    QVERIFY(!cache.find(QStringLiteral("k1"), QStringLiteral("r1"), 999).has_value());
    QVERIFY(!cache.find(QStringLiteral("k1"), QStringLiteral("r1"), 0).has_value());
    QVERIFY(!cache.find(QStringLiteral("k2"), QStringLiteral("r1"), 5000).has_value());
    cache.store(QStringLiteral("k1"), QStringLiteral("r2"), {});
    cache.store(QStringLiteral("k1"), QStringLiteral("r3"), {});
    QCOMPARE(cache.size(QStringLiteral("k1")), 2); // the oldest went
    QVERIFY(!cache.find(QStringLiteral("k1"), QStringLiteral("r1"), 5000).has_value());
    cache.setCapacity(0);
    QCOMPARE(cache.size(QStringLiteral("k1")), 0);
}

void tst_FirecrawlRequests::readsActionsIntoPageSteps()
{
    using K = cloud::PageStep::Kind;
    const ScrapeRequest r =
        readScrapeRequest(object(R"({"url":"a.example","waitFor":100,"actions":[
            {"type":"wait","milliseconds":200},{"type":"click","selector":"#go","all":true},
            {"type":"write","text":"pilot"},{"type":"press","key":"Enter"},
            {"type":"wait","selector":".done"},{"type":"scroll","selector":"main"},
            {"type":"scrape"},{"type":"executeJavascript","script":"document.title"}]})"),
                          ApiVersion::V2, QString(), true, {QStringLiteral("markdown")});
    // With an action besides waits, every action is a step, in order; waitFor stays the
    // load's pause.
    QVERIFY(r.hasActions);
    QCOMPARE(r.waitMs, 100);
    QVERIFY(r.waitForSelector.isEmpty());
    QCOMPARE(r.actionWaitMs, 200);
    const QList<cloud::PageStep> &steps = r.page.steps;
    QCOMPARE(steps.size(), 8);
    QCOMPARE(steps.at(0).kind, K::Pause);
    QCOMPARE(steps.at(0).ms, 200);
    QCOMPARE(steps.at(1).kind, K::Click);
    QCOMPARE(steps.at(1).selector, QStringLiteral("#go"));
    QVERIFY(steps.at(1).all);
    QCOMPARE(steps.at(2).kind, K::Write);
    QCOMPARE(steps.at(2).text, QStringLiteral("pilot"));
    QCOMPARE(steps.at(3).kind, K::Press);
    QCOMPARE(steps.at(3).text, QStringLiteral("Enter"));
    QCOMPARE(steps.at(4).kind, K::WaitFor);
    QCOMPARE(steps.at(5).kind, K::Scroll);
    QCOMPARE(steps.at(5).text, QStringLiteral("down")); // Firecrawl's default
    QCOMPARE(steps.at(6).kind, K::Snapshot);
    QCOMPARE(steps.at(7).kind, K::Script);
    QCOMPARE(steps.at(7).field, QStringLiteral("actions[7]"));
    QVERIFY(r.page.runsScripts());
    // The steps are part of what the cache tells apart.
    const ScrapeRequest plain =
        readScrapeRequest(object(R"({"url":"a.example","waitFor":100})"), ApiVersion::V2, QString(),
                          true, {QStringLiteral("markdown")});
    QVERIFY(plain.cacheKey() != r.cacheKey());
    QVERIFY(!plain.page.runsScripts());
}

void tst_FirecrawlRequests::readsHeadersAndMobileIntoThePageWork()
{
    const ScrapeRequest r =
        readScrapeRequest(object(R"({"url":"a.example","mobile":true,"headers":{"X-Pilot":"Ada",
                   "Cookie":"session=1"}})"),
                          ApiVersion::V2, QString(), true, {QStringLiteral("markdown")});
    QCOMPARE(r.page.headers.size(), 2);
    QVERIFY(r.page.headers.contains(qMakePair(QByteArray("X-Pilot"), QByteArray("Ada"))));
    QVERIFY(r.page.mobile);
    // Headers and mobile are no step: the page loads on the cheap path, a phone's on the
    // chromium engine.
    QVERIFY(r.page.isEmpty());
    QCOMPARE(r.cloudRequest({r.url})[QStringLiteral("browser")][QStringLiteral("engine")],
             QJsonValue(QStringLiteral("chromium")));
    // Another header value is another document, and the key keeps no secret in clear.
    const ScrapeRequest other =
        readScrapeRequest(object(R"({"url":"a.example","mobile":true,"headers":{"X-Pilot":"Bo",
                   "Cookie":"session=1"}})"),
                          ApiVersion::V2, QString(), true, {QStringLiteral("markdown")});
    QVERIFY(other.cacheKey() != r.cacheKey());
    QVERIFY(!r.cacheKey().contains(u"session=1"));
}

void tst_FirecrawlRequests::readsTagFiltersIntoThePageWork()
{
    const ScrapeRequest r =
        readScrapeRequest(object(R"({"url":"a.example","includeTags":["article",".price"],
                   "excludeTags":["nav"]})"),
                          ApiVersion::V2, QString(), true, {QStringLiteral("markdown")});
    QCOMPARE(r.page.includeTags, (QStringList{"article", ".price"}));
    QCOMPARE(r.page.excludeTags, QStringList{"nav"});
    QVERIFY(!r.hasActions);
    QVERIFY(!r.page.isEmpty());
}

void tst_FirecrawlRequests::refusesExtractsByField_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("agent");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("code");
    QTest::newRow("refuses an extract without urls, which would need web search")
        << QByteArray(R"({"prompt":"p"})") << false << "urls"
        << "UNSUPPORTED_OPTION";
    QTest::newRow("refuses a wildcard url rather than crawling quietly")
        << QByteArray(R"({"urls":["a.example/blog/*"],"prompt":"p"})") << false << "urls[0]"
        << "UNSUPPORTED_OPTION";
    QTest::newRow("refuses an extract with neither prompt nor schema")
        << QByteArray(R"({"urls":["a.example"]})") << false << "prompt"
        << "INVALID_FIELD";
    QTest::newRow("refuses web search")
        << QByteArray(R"({"urls":["a.example"],"prompt":"p","enableWebSearch":true})") << false
        << "enableWebSearch"
        << "UNSUPPORTED_OPTION";
    QTest::newRow("refuses an extract url of another scheme")
        << QByteArray(R"({"urls":["ftp://a.example/x"],"prompt":"p"})") << false << "urls[0]"
        << "INVALID_FIELD";
    QTest::newRow("refuses an agent without a prompt")
        << QByteArray(R"({"urls":["a.example"]})") << true << "prompt"
        << "MISSING_FIELD";
    QTest::newRow("refuses an agent model it cannot choose")
        << QByteArray(R"({"prompt":"p","model":"spark-1-pro"})") << true << "model"
        << "UNSUPPORTED_OPTION";
    QTest::newRow("refuses an agent spending cap it cannot keep")
        << QByteArray(R"({"prompt":"p","maxCredits":5})") << true << "maxCredits"
        << "UNSUPPORTED_OPTION";
    QTest::newRow("refuses the chat mode")
        << QByteArray(R"({"prompt":"p","mode":"chat"})") << true << "mode"
        << "UNSUPPORTED_OPTION";
}

void tst_FirecrawlRequests::refusesExtractsByField()
{
    QFETCH(QByteArray, body);
    QFETCH(bool, agent);
    QFETCH(QString, field);
    QFETCH(QString, code);
    try {
        if (agent)
            readAgentJobRequest(QJsonDocument::fromJson(body).object());
        else
            readExtractRequest(QJsonDocument::fromJson(body).object());
        QFAIL("accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), field);
        QCOMPARE(e.code(), code);
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
    }
}

void tst_FirecrawlRequests::readsAnExtractIntoOneRunPerPage()
{
    const ExtractRequest r = readExtractRequest(
        object(R"({"urls":["a.example/one","https://b.example/two"],"prompt":"the prices",
                   "systemPrompt":"Be exact.","schema":{"type":"object"},"origin":"js-sdk",
                   "ignoreInvalidURLs":true,"showSources":false})"));
    QCOMPARE(r.urls.size(), 2);
    QCOMPARE(r.urls.at(0), QUrl(QStringLiteral("http://a.example/one")));
    QVERIFY(r.prompt.startsWith(u"Be exact."));
    QVERIFY(r.prompt.endsWith(u"the prices"));
    const QJsonObject run = r.agentRequest(r.urls.at(1));
    QCOMPARE(run.value(QStringLiteral("urls")).toArray(), QJsonArray{"https://b.example/two"});
    QCOMPARE(run.value(QStringLiteral("schema")).toObject(),
             (QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}));
    QCOMPARE(run.value(QStringLiteral("input")).toString(), r.prompt);
}

void tst_FirecrawlRequests::readsAnAgentJobIntoOneRun()
{
    const AgentJobRequest r = readAgentJobRequest(
        object(R"({"prompt":"find the pilots","urls":["a.example"],"mode":"extract",
                   "integration":"sdk","strictConstrainToURLs":false})"));
    const QJsonObject run = r.agentRequest();
    QCOMPARE(run.value(QStringLiteral("input")).toString(), QStringLiteral("find the pilots"));
    QCOMPARE(run.value(QStringLiteral("urls")).toArray(), QJsonArray{"http://a.example"});
    QVERIFY(!run.contains(QStringLiteral("schema")));
    // Without urls the run gets none (its planner says it has no page).
    QVERIFY(!readAgentJobRequest(object(R"({"prompt":"p"})"))
                 .agentRequest()
                 .contains(QStringLiteral("urls")));
}

void tst_FirecrawlRequests::mergesThePagesExtracts_data()
{
    QTest::addColumn<QByteArray>("first");
    QTest::addColumn<QByteArray>("second");
    QTest::addColumn<QByteArray>("merged");
    QTest::newRow("joins two lists")
        << QByteArray("[1,2]") << QByteArray("[3]") << QByteArray("[1,2,3]");
    QTest::newRow("joins the lists inside two objects and keeps the first value")
        << QByteArray(R"({"items":[1],"name":"a"})")
        << QByteArray(R"({"items":[2],"name":"b","more":true})")
        << QByteArray(R"({"items":[1,2],"name":"a","more":true})");
    QTest::newRow("fills an empty value from the next page")
        << QByteArray(R"({"name":"","price":null})") << QByteArray(R"({"name":"b","price":3})")
        << QByteArray(R"({"name":"b","price":3})");
    QTest::newRow("takes the next page's data when the first had none")
        << QByteArray("null") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":1})");
}

void tst_FirecrawlRequests::mergesThePagesExtracts()
{
    QFETCH(QByteArray, first);
    QFETCH(QByteArray, second);
    QFETCH(QByteArray, merged);
    const auto value = [](const QByteArray &json) {
        return QJsonDocument::fromJson("[" + json + "]").array().first();
    };
    QCOMPARE(mergeExtracted(value(first), value(second)), value(merged));
}

QTEST_GUILESS_MAIN(tst_FirecrawlRequests)
#include "tst_firecrawlrequests.moc"
