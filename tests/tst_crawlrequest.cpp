// The crawl and batch scrape readers of the Firecrawl-compatible API, the crawl's scope
// (which discovered URLs it follows) and the status answer's paging
// (server/firecrawl/CrawlRequest), without a service.
#include "firecrawl/CrawlRequest.h"

#include "core/DomainError.h"
#include "net/NetworkPolicy.h"

#include <QJsonDocument>
#include <QtTest>

using namespace ph;
using namespace ph::firecrawl;

namespace {

QJsonObject object(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

EgressGrant privateGrant()
{
    EgressGrant g;
    g.privateTargets = true;
    return g;
}

} // namespace

class tst_CrawlRequest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusesCrawlsByField_data();
    void refusesCrawlsByField();
    void readsACrawlAsFirecrawlNamesIt();
    void readsABatchWithItsScrapeFieldsAtTheTop();
    void readsTheJsonFormatIntoEachPagesExtraction();
    void followsOnlyWhatTheScopeAdmits_data();
    void followsOnlyWhatTheScopeAdmits();
    void normalizesLinksAsTheCrawlCountsThem_data();
    void normalizesLinksAsTheCrawlCountsThem();
    void pagesDocumentsByBytesAndCount_data();
    void pagesDocumentsByBytesAndCount();
};

void tst_CrawlRequest::refusesCrawlsByField_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("batch");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses a crawl without a url") << QByteArray("{}") << false << "url";
    QTest::newRow("refuses an includePaths entry that is no regular expression")
        << QByteArray(R"({"url":"a.example","includePaths":["/ok","(open"]})") << false
        << "includePaths[1]";
    QTest::newRow("refuses a limit of zero")
        << QByteArray(R"({"url":"a.example","limit":0})") << false << "limit";
    QTest::newRow("refuses a sitemap mode it does not know")
        << QByteArray(R"({"url":"a.example","sitemap":"always"})") << false << "sitemap";
    QTest::newRow("refuses a webhook that is a file URL")
        << QByteArray(R"({"url":"a.example","webhook":"file:///etc/passwd"})") << false
        << "webhook";
    QTest::newRow("refuses a webhook event Firecrawl does not send")
        << QByteArray(R"({"url":"a.example","webhook":{"url":"https://h.example","events":["x"]}})")
        << false << "webhook.events[0]";
    QTest::newRow("refuses a webhook header that forges the signature")
        << QByteArray(R"({"url":"a.example","webhook":{"url":"https://h.example",)"
                      R"("headers":{"X-Firecrawl-Signature":"sha256=0"}}})")
        << false << "webhook.headers.X-Firecrawl-Signature";
    QTest::newRow("refuses a json format without a schema in a crawl's scrapeOptions")
        << QByteArray(R"({"url":"a.example","scrapeOptions":{"formats":[{"type":"json",)"
                      R"("prompt":"p"}]}})")
        << false << "scrapeOptions.formats";
    QTest::newRow("refuses a batch without urls") << QByteArray("{}") << true << "urls";
    QTest::newRow("refuses an invalid batch URL unless told to ignore it")
        << QByteArray(R"({"urls":["a.example","mailto:x@y.example"]})") << true << "urls[1]";
    QTest::newRow("refuses a batch whose URLs are all invalid even when ignoring them")
        << QByteArray(R"({"urls":["mailto:x@y.example"],"ignoreInvalidURLs":true})") << true
        << "urls";
}

void tst_CrawlRequest::refusesCrawlsByField()
{
    QFETCH(QByteArray, body);
    QFETCH(bool, batch);
    QFETCH(QString, field);
    try {
        if (batch)
            readBatchRequest(object(body), ApiVersion::V2, privateGrant());
        else
            readCrawlRequest(object(body), ApiVersion::V2, privateGrant());
        QFAIL("accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), field);
        QCOMPARE(e.kind(), DomainError::Kind::Invalid);
    }
}

void tst_CrawlRequest::readsACrawlAsFirecrawlNamesIt()
{
    const CrawlRequest r = readCrawlRequest(
        object(R"({"url":"docs.example/guide/","includePaths":["^/guide/a"],"limit":5,)"
               R"("maxDiscoveryDepth":2,"sitemap":"skip","crawlEntireDomain":true,"delay":1.5,)"
               R"("maxConcurrency":3,"origin":"sdk","scrapeOptions":{"formats":["html"]},)"
               R"("webhook":{"url":"https://hooks.example/in","metadata":{"run":7},)"
               R"("events":["page","completed"]}})"),
        ApiVersion::V2, EgressGrant());
    QCOMPARE(r.url, QUrl(QStringLiteral("http://docs.example/guide/")));
    QCOMPARE(r.includePaths, QStringList{QStringLiteral("^/guide/a")});
    QCOMPARE(r.limit, 5);
    QCOMPARE(r.maxDepth, 2);
    QCOMPARE(r.sitemap, CrawlRequest::Sitemaps::Skip);
    QVERIFY(r.crawlEntireDomain);
    QCOMPARE(r.delaySeconds, 1.5);
    QCOMPARE(r.maxConcurrency, 3);
    QCOMPARE(r.scrape.formats, QStringList{QStringLiteral("html")});
    QCOMPARE(r.webhook.url, QStringLiteral("https://hooks.example/in"));
    QCOMPARE(r.webhook.metadata.value(QStringLiteral("run")).toInt(), 7);
    QCOMPARE(r.webhookEvents(),
             (QStringList{QStringLiteral("crawl.page"), QStringLiteral("crawl.completed")}));
    // v1: maxDepth and ignoreSitemap.
    const CrawlRequest v1 =
        readCrawlRequest(object(R"({"url":"a.example","maxDepth":1,"ignoreSitemap":true})"),
                         ApiVersion::V1, EgressGrant());
    QCOMPARE(v1.maxDepth, 1);
    QCOMPARE(v1.sitemap, CrawlRequest::Sitemaps::Skip);
}

void tst_CrawlRequest::readsABatchWithItsScrapeFieldsAtTheTop()
{
    const CrawlRequest r = readBatchRequest(
        object(R"({"urls":["a.example/1","a.example/1","mailto:x@y.example","a.example/2"],)"
               R"("ignoreInvalidURLs":true,"formats":["links"],"webhook":"https://h.example/"})"),
        ApiVersion::V2, EgressGrant());
    QCOMPARE(r.kind, CrawlRequest::Kind::Batch);
    QCOMPARE(r.urls.size(), 2);
    QCOMPARE(r.invalidUrls, QStringList{QStringLiteral("mailto:x@y.example")});
    QCOMPARE(r.scrape.formats, QStringList{QStringLiteral("links")});
    QCOMPARE(r.webhookEvents().first(), QStringLiteral("batch_scrape.started"));
    QCOMPARE(r.webhookEvents().size(), 4);
}

void tst_CrawlRequest::readsTheJsonFormatIntoEachPagesExtraction()
{
    // A crawl's json: each page read by its schema, in the page.
    const CrawlRequest crawl = readCrawlRequest(
        object(R"({"url":"a.example","scrapeOptions":{"formats":[{"type":"json",)"
               R"("schema":{"type":"object","properties":{"name":{"type":"string"}}}}]}})"),
        ApiVersion::V2, EgressGrant());
    QVERIFY(crawl.scrape.json);
    QCOMPARE(crawl.scrape.page.extractSchema.value(QStringLiteral("type")).toString(),
             QStringLiteral("object"));
    QVERIFY(!crawl.scrape.page.isEmpty());
    const CrawlRequest batch =
        readBatchRequest(object(R"({"urls":["a.example/1"],"formats":["markdown",{"type":"json",)"
                                R"("schema":{"type":"array"}}]})"),
                         ApiVersion::V2, EgressGrant());
    QCOMPARE(batch.scrape.page.extractSchema.value(QStringLiteral("type")).toString(),
             QStringLiteral("array"));
    QCOMPARE(batch.scrape.formats, QStringList{QStringLiteral("markdown")});
}

void tst_CrawlRequest::followsOnlyWhatTheScopeAdmits_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("url");
    QTest::addColumn<int>("depth");
    QTest::addColumn<bool>("followed");
    const QByteArray plain = R"({"url":"http://site.example/docs/"})";
    QTest::newRow("follows a page under the start's path")
        << plain << "http://site.example/docs/a" << 1 << true;
    QTest::newRow("follows the www. form of the start's host")
        << plain << "http://www.site.example/docs/a" << 1 << true;
    QTest::newRow("leaves a sibling path without crawlEntireDomain")
        << plain << "http://site.example/blog/a" << 1 << false;
    QTest::newRow("follows a sibling path with crawlEntireDomain")
        << QByteArray(R"({"url":"http://site.example/docs/","crawlEntireDomain":true})")
        << "http://site.example/blog/a" << 1 << true;
    QTest::newRow("leaves a subdomain without allowSubdomains")
        << plain << "http://api.site.example/docs/a" << 1 << false;
    QTest::newRow("follows a subdomain with allowSubdomains")
        << QByteArray(R"({"url":"http://site.example/docs/","allowSubdomains":true})")
        << "http://api.site.example/docs/a" << 1 << true;
    QTest::newRow("leaves another site without allowExternalLinks")
        << plain << "http://other.example/docs/a" << 1 << false;
    QTest::newRow("follows another site with allowExternalLinks")
        << QByteArray(R"({"url":"http://site.example/docs/","allowExternalLinks":true})")
        << "http://other.example/x" << 1 << true;
    QTest::newRow("leaves a path includePaths does not match")
        << QByteArray(R"({"url":"http://site.example/","includePaths":["^/docs/"]})")
        << "http://site.example/blog/a" << 1 << false;
    QTest::newRow("follows a path includePaths matches")
        << QByteArray(R"({"url":"http://site.example/","includePaths":["^/docs/"]})")
        << "http://site.example/docs/a" << 1 << true;
    QTest::newRow("leaves a path excludePaths matches")
        << QByteArray(R"({"url":"http://site.example/","excludePaths":["private"]})")
        << "http://site.example/private/a" << 1 << false;
    QTest::newRow("matches the patterns on the path, not the query")
        << QByteArray(R"({"url":"http://site.example/","excludePaths":["secret"]})")
        << "http://site.example/a?secret=1" << 1 << true;
    QTest::newRow("matches the patterns on the whole URL with regexOnFullURL")
        << QByteArray(R"({"url":"http://site.example/","excludePaths":["secret"],)"
                      R"("regexOnFullURL":true})")
        << "http://site.example/a?secret=1" << 1 << false;
    QTest::newRow("leaves a page deeper than maxDiscoveryDepth")
        << QByteArray(R"({"url":"http://site.example/","maxDiscoveryDepth":1})")
        << "http://site.example/a" << 2 << false;
    QTest::newRow("follows a page at maxDiscoveryDepth")
        << QByteArray(R"({"url":"http://site.example/","maxDiscoveryDepth":1})")
        << "http://site.example/a" << 1 << true;
}

void tst_CrawlRequest::followsOnlyWhatTheScopeAdmits()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, url);
    QFETCH(int, depth);
    QFETCH(bool, followed);
    const CrawlScope scope(readCrawlRequest(object(body), ApiVersion::V2, EgressGrant()));
    const QString why = scope.refusal(QUrl(url), depth);
    QVERIFY2(why.isEmpty() == followed, qPrintable(why));
}

void tst_CrawlRequest::normalizesLinksAsTheCrawlCountsThem_data()
{
    QTest::addColumn<bool>("dropQuery");
    QTest::addColumn<QString>("href");
    QTest::addColumn<QString>("expected");
    QTest::newRow("resolves a relative link against the page") << false << "../b.html"
                                                               << "http://site.example/b.html";
    QTest::newRow("drops the fragment") << false << "/c.html#top"
                                        << "http://site.example/c.html";
    QTest::newRow("keeps the query by default") << false << "/d?x=1"
                                                << "http://site.example/d?x=1";
    QTest::newRow("drops the query with ignoreQueryParameters") << true << "/d?x=1"
                                                                << "http://site.example/d";
    QTest::newRow("gives a mailto link no URL") << false << "mailto:a@site.example"
                                                << "";
    QTest::newRow("gives a javascript link no URL") << false << "javascript:void(0)"
                                                    << "";
}

void tst_CrawlRequest::normalizesLinksAsTheCrawlCountsThem()
{
    QFETCH(bool, dropQuery);
    QFETCH(QString, href);
    QFETCH(QString, expected);
    QJsonObject body{{QStringLiteral("url"), QStringLiteral("http://site.example/a/page.html")},
                     {QStringLiteral("ignoreQueryParameters"), dropQuery}};
    const CrawlScope scope(readCrawlRequest(body, ApiVersion::V2, EgressGrant()));
    const QUrl url =
        scope.normalized(href, QUrl(QStringLiteral("http://site.example/a/page.html")));
    QCOMPARE(url.toString(), expected);
}

void tst_CrawlRequest::pagesDocumentsByBytesAndCount_data()
{
    QTest::addColumn<QList<qint64>>("sizes");
    QTest::addColumn<qint64>("maxBytes");
    QTest::addColumn<int>("maxCount");
    QTest::addColumn<int>("expected");
    QTest::newRow("holds every document that fits")
        << QList<qint64>{10, 10, 10} << qint64(100) << 100 << 3;
    QTest::newRow("leaves the document that passes the byte limit for the next page")
        << QList<qint64>{40, 40, 40} << qint64(100) << 100 << 2;
    QTest::newRow("holds one document even when it alone passes the limit")
        << QList<qint64>{500, 10} << qint64(100) << 100 << 1;
    QTest::newRow("holds at most the count asked for")
        << QList<qint64>{1, 1, 1, 1} << qint64(100) << 2 << 2;
    QTest::newRow("holds nothing when there is nothing")
        << QList<qint64>{} << qint64(100) << 10 << 0;
}

void tst_CrawlRequest::pagesDocumentsByBytesAndCount()
{
    QFETCH(QList<qint64>, sizes);
    QFETCH(qint64, maxBytes);
    QFETCH(int, maxCount);
    QFETCH(int, expected);
    QCOMPARE(documentsInPage(sizes, maxBytes, maxCount), expected);
}

QTEST_GUILESS_MAIN(tst_CrawlRequest)
#include "tst_crawlrequest.moc"
