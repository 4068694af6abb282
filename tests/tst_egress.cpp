// The network policy end to end (docs/security.md): the real service, QtWebEngine pages
// behind the egress proxy, a "public" site (shop.example, a documentation address the
// test's resolver routes to a fixture server) and a private one on loopback, reached as
// 127.0.0.1 and as intranet.test. A key without the privateTargets grant must never
// reach the private site, nor any caller read a local file, by any route.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestResolver.h"
#include "TestService.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>

using namespace ph;
using namespace ph::test;

namespace {

FixtureResponse redirectTo(const QString &location)
{
    FixtureResponse r;
    r.status = 302;
    r.headers.append({QByteArray("Location"), location.toUtf8()});
    return r;
}

} // namespace

class tst_Egress : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    // The two reproductions of the security review.
    void crawlNeverReadsALocalFileThroughTheBridge();
    void agentNeverReadsALocalFileFollowingNextLinks();
    // 1. Schemes.
    void neverLoadsALocalFileByAnyRoute_data();
    void neverLoadsALocalFileByAnyRoute();
    void reportsANonHttpUrlOfTheCallerAsBlocked();
    // 2. Private targets by resolved address, on every hop.
    void reachesAPublicNameThroughTheProxy();
    void scrapeRefusesPrivateTargetsOnEveryHop_data();
    void scrapeRefusesPrivateTargetsOnEveryHop();
    void pageRequestsNeverReachAPrivateHost();
    void browserToolsRefusePrivateTargets_data();
    void browserToolsRefusePrivateTargets();
    void inputFetchesRefusePrivateTargetsOnEveryHop_data();
    void inputFetchesRefusePrivateTargetsOnEveryHop();
    void sheetRowsRefusePrivateTargets();
    void webhooksRefuseANameResolvingToAPrivateAddress();
    void ownerKeyReachesPrivateTargetsOnLoopback();
    void privateTargetsAreGrantedPerKey();
    void nobodyReachesPrivateTargetsWhenTheSwitchIsOff();
    // 6. Tenant isolation of fetches.
    void inputFetchesOfDifferentKeysShareNoCookies();

private:
    QString pub(const QString &path) const
    {
        return QStringLiteral("http://shop.example:%1%2").arg(m_public.port()).arg(path);
    }
    QString literalPrivate(const QString &path) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_private.port()).arg(path);
    }
    QString namedPrivate(const QString &path) const
    {
        return QStringLiteral("http://intranet.test:%1%2").arg(m_private.port()).arg(path);
    }
    int privateHits() const
    {
        int n = 0;
        for (const char *p : {"/secret", "/secret.png", "/secret.js", "/secret.css", "/secret.csv",
                              "/secret.txt", "/hook", "/frame", "/fetched"})
            n += m_private.hits(p);
        return n;
    }
    HttpResponse as(const QString &key, const QString &path, const QJsonObject &body)
    {
        HttpClient c(m_ph->base());
        c.setBearer(key);
        return c.post(path, body);
    }

    QTemporaryDir m_dir;
    QString m_secretUrl;
    QByteArray m_marker;
    FixtureServer m_public;
    FixtureServer m_private;
    std::shared_ptr<TestResolver> m_resolver = std::make_shared<TestResolver>();
    std::unique_ptr<TestService> m_ph;
    QString m_stranger; // a minted key without the privateTargets grant
};

void tst_Egress::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_marker = "TOPSECRET-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch());
    QFile secret(m_dir.filePath(QStringLiteral("secret.html")));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("<html><body><p>" + m_marker + "</p><a rel=\"next\" href=\"x\">Next</a>" +
                 "</body></html>");
    secret.close();
    m_secretUrl = QUrl::fromLocalFile(secret.fileName()).toString();

    QVERIFY(m_public.start());
    QVERIFY(m_private.start());
    const QString file = m_secretUrl;
    m_public.page("/p.html", htmlPage(QStringLiteral("Page one"),
                                      QStringLiteral("<h1>Page one</h1><p>first page</p>"
                                                     "<a rel=\"next\" href=\"%1\">Next</a>")
                                          .arg(file)));
    m_public.route("/redirect-file", [file](const FixtureRequest &) { return redirectTo(file); });
    m_public.page("/meta-file",
                  htmlPage(QStringLiteral("Meta"),
                           QStringLiteral("<meta http-equiv=\"refresh\" content=\"0;url="
                                          "%1\"><p>meta page</p>")
                               .arg(file)));
    m_public.page(
        "/script-file",
        htmlPage(QStringLiteral("Script"),
                 QStringLiteral("<p>script page</p><script>location = '%1';</script>").arg(file)));
    m_public.page("/iframe-file", htmlPage(QStringLiteral("Frame"),
                                           QStringLiteral("<p>frame page</p><iframe src=\"%1\">"
                                                          "</iframe>")
                                               .arg(file)));
    m_public.page("/link-file", htmlPage(QStringLiteral("Link"),
                                         QStringLiteral("<p>link page</p><a href=\"%1\">Open "
                                                        "secret</a>")
                                             .arg(file)));
    m_public.page("/form-file", htmlPage(QStringLiteral("Form"),
                                         QStringLiteral("<p>form page</p><form action=\"%1\">"
                                                        "<button>Send it</button></form>")
                                             .arg(file)));
    const quint16 inside = m_private.port();
    m_public.route("/redirect-private-literal", [inside](const FixtureRequest &) {
        return redirectTo(QStringLiteral("http://127.0.0.1:%1/secret").arg(inside));
    });
    m_public.route("/redirect-private-name", [inside](const FixtureRequest &) {
        return redirectTo(QStringLiteral("http://intranet.test:%1/secret").arg(inside));
    });
    m_public.route("/redirect-private-csv", [inside](const FixtureRequest &) {
        return redirectTo(QStringLiteral("http://intranet.test:%1/secret.csv").arg(inside));
    });
    m_public.route("/redirect-private-txt", [inside](const FixtureRequest &) {
        return redirectTo(QStringLiteral("http://127.0.0.1:%1/secret.txt").arg(inside));
    });
    m_public.route("/redirect-private-png", [inside](const FixtureRequest &) {
        return redirectTo(QStringLiteral("http://intranet.test:%1/secret.png").arg(inside));
    });
    QString embeds;
    for (const QString &host : {QStringLiteral("127.0.0.1"), QStringLiteral("intranet.test")}) {
        const QString base = QStringLiteral("http://%1:%2").arg(host).arg(inside);
        embeds += QStringLiteral("<img src=\"%1/secret.png\"><script src=\"%1/secret.js\">"
                                 "</script><link rel=\"stylesheet\" href=\"%1/secret.css\">"
                                 "<iframe src=\"%1/frame\"></iframe>"
                                 "<script>fetches.push(fetch('%1/fetched'));</script>")
                      .arg(base);
    }
    // Once every embed has settled (the load event waits for images, scripts, styles and
    // frames; allSettled for the fetches), the page marks itself: a scrape that waits for the
    // mark returns only after every private request the page makes has been made.
    m_public.page("/embeds-private",
                  htmlPage(QStringLiteral("Embeds"),
                           QStringLiteral("<p>embeds page</p><script>var fetches = [];</script>") +
                               embeds +
                               QStringLiteral("<script>addEventListener('load', function () {"
                                              "Promise.allSettled(fetches).then(function () {"
                                              "var p = document.createElement('p');"
                                              "p.id = 'settled'; p.textContent = 'embeds settled';"
                                              "document.body.appendChild(p); }); });</script>")));
    m_public.page("/next-private",
                  htmlPage(QStringLiteral("Listing"),
                           QStringLiteral("<p>listing</p><a rel=\"next\" href=\"http:"
                                          "//intranet.test:%1/secret\">Next</a>")
                               .arg(inside)));
    m_public.page("/link-private", htmlPage(QStringLiteral("Links"),
                                            QStringLiteral("<p>links</p><a href=\"http://"
                                                           "127.0.0.1:%1/secret\">Inside</a>")
                                                .arg(inside)));
    m_public.route("/data.csv", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers.append({QByteArray("Content-Type"), QByteArray("text/csv")});
        r.body = "name,url\nA,x\n";
        return r;
    });
    m_public.route("/cookie.csv", [](const FixtureRequest &req) {
        FixtureResponse r;
        r.headers.append({QByteArray("Content-Type"), QByteArray("text/csv")});
        r.headers.append({QByteArray("Set-Cookie"), QByteArray("tenant=first")});
        r.body = "cookie\n\"" + req.headers.value("cookie") + "\"\n";
        return r;
    });
    m_private.page("/secret", htmlPage(QStringLiteral("Inside"), QString::fromLatin1(m_marker)));
    for (const char *p :
         {"/secret.png", "/secret.js", "/secret.css", "/frame", "/fetched", "/secret.txt", "/hook"})
        m_private.page(p, m_marker);
    m_private.route("/secret.csv", [this](const FixtureRequest &) {
        FixtureResponse r;
        r.headers.append({QByteArray("Content-Type"), QByteArray("text/csv")});
        r.body = "secret\n" + m_marker + "\n";
        return r;
    });

    m_resolver->add(QStringLiteral("shop.example"), {QHostAddress(QStringLiteral("203.0.113.7"))});
    m_resolver->route(QHostAddress(QStringLiteral("203.0.113.7")), m_public.port());
    m_resolver->add(QStringLiteral("intranet.test"), {QHostAddress(QHostAddress::LocalHost)});

    m_ph = std::make_unique<TestService>(QStringList{}, QString(), nullptr, m_resolver);
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_stranger = m_ph->mintKey(1000, false);
    QVERIFY(!m_stranger.isEmpty());
}

void tst_Egress::cleanupTestCase()
{
    m_ph.reset();
}

void tst_Egress::crawlNeverReadsALocalFileThroughTheBridge()
{
    // The reported reproduction: the owner's key on a loopback bind, a loopback page
    // whose next link is a file: URL.
    m_private.page("/p.html", htmlPage(QStringLiteral("Page one"),
                                       QStringLiteral("<p>first page</p><a rel=\"next\" "
                                                      "href=\"%1\">Next</a>")
                                           .arg(m_secretUrl)));
    const auto r = m_ph->client().post(
        QStringLiteral("/mcp"),
        {{QStringLiteral("tool"), QStringLiteral("crawl")},
         {QStringLiteral("params"),
          QJsonObject{{QStringLiteral("url"), literalPrivate(QStringLiteral("/p.html"))}}}});
    QVERIFY2(!r.body.contains(m_marker), r.body.left(2000).constData());
    QVERIFY2(r.body.contains("BLOCKED"), r.body.left(2000).constData());
    QVERIFY2(r.body.contains("scheme 'file'"), r.body.left(2000).constData());
    QVERIFY(r.json().value(QStringLiteral("status")).toString() != QLatin1String("success"));
}

void tst_Egress::agentNeverReadsALocalFileFollowingNextLinks()
{
    const auto r = m_ph->client().post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"), QStringLiteral("Read every page, following the next links")},
         {QStringLiteral("urls"), QJsonArray{pub(QStringLiteral("/p.html"))}}});
    QVERIFY2(!r.body.contains(m_marker), r.body.left(2000).constData());
    QVERIFY2(r.body.contains("BLOCKED"), r.body.left(3000).constData());
    QVERIFY(r.json().value(QStringLiteral("status")).toString() != QLatin1String("success"));
}

void tst_Egress::neverLoadsALocalFileByAnyRoute_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QJsonObject>("params");
    QTest::addColumn<bool>("stepFails"); // an action of ours tried it: a typed step error
    auto scrape = [this](const QString &path) {
        return QJsonObject{{QStringLiteral("urls"), QJsonArray{pub(path)}}};
    };
    auto act = [this](const QString &path, const QString &target) {
        return QJsonObject{{QStringLiteral("url"), pub(path)},
                           {QStringLiteral("action"), QStringLiteral("click")},
                           {QStringLiteral("target"), target}};
    };
    QTest::newRow("a redirect to file:")
        << "scrape" << scrape(QStringLiteral("/redirect-file")) << true;
    QTest::newRow("a meta refresh to file:")
        << "scrape" << scrape(QStringLiteral("/meta-file")) << false;
    QTest::newRow("location = file: from page script")
        << "scrape" << scrape(QStringLiteral("/script-file")) << false;
    QTest::newRow("an iframe of a file:")
        << "scrape" << scrape(QStringLiteral("/iframe-file")) << false;
    QTest::newRow("a click on a link to file:")
        << "act" << act(QStringLiteral("/link-file"), QStringLiteral("Open secret")) << true;
    QTest::newRow("a form whose target is file:")
        << "act" << act(QStringLiteral("/form-file"), QStringLiteral("Send it")) << true;
    QTest::newRow("a crawl whose next link is file:")
        << "crawl" << QJsonObject{{QStringLiteral("url"), pub(QStringLiteral("/p.html"))}} << true;
}

void tst_Egress::neverLoadsALocalFileByAnyRoute()
{
    QFETCH(QString, tool);
    QFETCH(QJsonObject, params);
    QFETCH(bool, stepFails);
    const auto r =
        m_ph->client().post(QStringLiteral("/mcp"),
                            {{QStringLiteral("tool"), tool}, {QStringLiteral("params"), params}});
    QVERIFY2(r.status == 200 || r.status == 202, r.body.left(1000).constData());
    QVERIFY2(!r.body.contains(m_marker), r.body.left(2000).constData());
    QVERIFY2(!r.body.contains("\"finalUrl\":\"file:"), r.body.left(2000).constData());
    QVERIFY2(!r.body.contains("\"url\":\"file:"), r.body.left(2000).constData());
    if (stepFails)
        QVERIFY2(r.body.contains("BLOCKED"), r.body.left(2000).constData());
}

void tst_Egress::reportsANonHttpUrlOfTheCallerAsBlocked()
{
    // A redirect to file: is a typed error of that URL, never a page.
    const auto r = m_ph->client().post(
        QStringLiteral("/scrape"),
        {{QStringLiteral("urls"), QJsonArray{pub(QStringLiteral("/redirect-file"))}}});
    QCOMPARE(r.status, 200);
    const QJsonObject result = r.json().value(QStringLiteral("results")).toArray().at(0).toObject();
    QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    QCOMPARE(
        result.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
        QStringLiteral("BLOCKED"));
}

void tst_Egress::reachesAPublicNameThroughTheProxy()
{
    // shop.example exists only in the test's resolver: the page loads only because the
    // browser's connection went through the egress proxy, which resolved it.
    const auto r = as(m_stranger, QStringLiteral("/scrape"),
                      {{QStringLiteral("urls"), QJsonArray{pub(QStringLiteral("/p.html"))}}});
    QCOMPARE(r.status, 200);
    QVERIFY2(r.body.contains("first page"), r.body.left(1500).constData());
}

void tst_Egress::scrapeRefusesPrivateTargetsOnEveryHop_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::newRow("a literal loopback URL")
        << literalPrivate(QStringLiteral("/secret")) << 400 << "PRIVATE_TARGET";
    QTest::newRow("a name that resolves to loopback")
        << namedPrivate(QStringLiteral("/secret")) << 200 << "PRIVATE_TARGET";
    QTest::newRow("a public page redirecting to a loopback address")
        << pub(QStringLiteral("/redirect-private-literal")) << 200 << "BLOCKED";
    QTest::newRow("a public page redirecting to a name that resolves to loopback")
        << pub(QStringLiteral("/redirect-private-name")) << 200 << "BLOCKED";
}

void tst_Egress::scrapeRefusesPrivateTargetsOnEveryHop()
{
    QFETCH(QString, url);
    QFETCH(int, status);
    QFETCH(QString, code);
    const int before = privateHits();
    const auto r =
        as(m_stranger, QStringLiteral("/scrape"), {{QStringLiteral("urls"), QJsonArray{url}}});
    QVERIFY2(r.status == status, r.body.left(1000).constData());
    QVERIFY2(r.body.contains(code.toUtf8()), r.body.left(1500).constData());
    QVERIFY(!r.body.contains(m_marker));
    QCOMPARE(privateHits(), before);
}

void tst_Egress::pageRequestsNeverReachAPrivateHost()
{
    // Images, scripts, styles, frames and fetch() of a public page, to a loopback address
    // and to a name resolving to one: none arrives.
    const int before = privateHits();
    const auto r =
        as(m_stranger, QStringLiteral("/scrape"),
           {
               {QStringLiteral("urls"), QJsonArray{pub(QStringLiteral("/embeds-private"))}},
               {QStringLiteral("waitForSelector"), QStringLiteral("#settled")},
           });
    QCOMPARE(r.status, 200);
    QVERIFY2(r.body.contains("embeds page"), r.body.left(1500).constData());
    // The mark is set after every embed settled: a request that reached the private host was
    // counted there before it was answered, so the count below is final, not a guess.
    QVERIFY2(r.body.contains("embeds settled"), r.body.left(1500).constData());
    QCOMPARE(privateHits(), before);
}

void tst_Egress::browserToolsRefusePrivateTargets_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonObject>("body");
    QTest::newRow("/agent on a name resolving to loopback")
        << "/agent"
        << QJsonObject{
               {QStringLiteral("input"), QStringLiteral("Read the page")},
               {QStringLiteral("urls"), QJsonArray{namedPrivate(QStringLiteral("/secret"))}}};
    QTest::newRow("/agent following a next link to a private name")
        << "/agent"
        << QJsonObject{{QStringLiteral("input"),
                        QStringLiteral("Read every page, following the next links")},
                       {QStringLiteral("urls"), QJsonArray{pub(QStringLiteral("/next-private"))}}};
    QTest::newRow("/agent clicking a link to a loopback address")
        << "/agent"
        << QJsonObject{{QStringLiteral("input"), QStringLiteral("Click Inside")},
                       {QStringLiteral("urls"), QJsonArray{pub(QStringLiteral("/link-private"))}}};
    QTest::newRow("the bridge's crawl to a private next link")
        << "/mcp"
        << QJsonObject{
               {QStringLiteral("tool"), QStringLiteral("crawl")},
               {QStringLiteral("params"),
                QJsonObject{{QStringLiteral("url"), pub(QStringLiteral("/next-private"))}}}};
    QTest::newRow("the bridge's act navigating to a private name")
        << "/mcp"
        << QJsonObject{
               {QStringLiteral("tool"), QStringLiteral("act")},
               {QStringLiteral("params"),
                QJsonObject{{QStringLiteral("url"), pub(QStringLiteral("/p.html"))},
                            {QStringLiteral("action"), QStringLiteral("navigate")},
                            {QStringLiteral("text"), namedPrivate(QStringLiteral("/secret"))},
                            {QStringLiteral("target"), namedPrivate(QStringLiteral("/secret"))}}}};
    QTest::newRow("the bridge's scrape of a redirect to loopback")
        << "/mcp"
        << QJsonObject{
               {QStringLiteral("tool"), QStringLiteral("scrape")},
               {QStringLiteral("params"),
                QJsonObject{{QStringLiteral("tab_urls"),
                             QJsonArray{pub(QStringLiteral("/redirect-private-literal"))}}}}};
}

void tst_Egress::browserToolsRefusePrivateTargets()
{
    QFETCH(QString, path);
    QFETCH(QJsonObject, body);
    const int before = privateHits();
    const auto r = as(m_stranger, path, body);
    QVERIFY2(!r.body.contains(m_marker), r.body.left(2000).constData());
    QCOMPARE(privateHits(), before);
}

void tst_Egress::inputFetchesRefusePrivateTargetsOnEveryHop_data()
{
    QTest::addColumn<QJsonObject>("body");
    const QJsonArray url = {pub(QStringLiteral("/p.html"))};
    auto withInput = [url](const QString &key, const QJsonValue &value) {
        return QJsonObject{{QStringLiteral("input"), QStringLiteral("Read the page")},
                           {QStringLiteral("urls"), url},
                           {key, value}};
    };
    QTest::newRow("dataInputs[].url naming a private host")
        << withInput(QStringLiteral("dataInputs"),
                     QJsonArray{QJsonObject{
                         {QStringLiteral("url"), namedPrivate(QStringLiteral("/secret.csv"))}}});
    QTest::newRow("dataInputs[].url redirecting to a private host")
        << withInput(QStringLiteral("dataInputs"),
                     QJsonArray{QJsonObject{
                         {QStringLiteral("url"), pub(QStringLiteral("/redirect-private-csv"))}}});
    QTest::newRow("file_urls redirecting to a loopback address") << withInput(
        QStringLiteral("file_urls"), QJsonArray{pub(QStringLiteral("/redirect-private-txt"))});
    QTest::newRow("image_urls redirecting to a private host") << withInput(
        QStringLiteral("image_urls"), QJsonArray{pub(QStringLiteral("/redirect-private-png"))});
}

void tst_Egress::inputFetchesRefusePrivateTargetsOnEveryHop()
{
    QFETCH(QJsonObject, body);
    const int before = privateHits();
    const auto r = as(m_stranger, QStringLiteral("/agent"), body);
    QVERIFY2(r.status == 400 || r.json().value(QStringLiteral("status")).toString() != "success" ||
                 r.body.contains("warnings"),
             r.body.left(1500).constData());
    QVERIFY2(!r.body.contains(m_marker), r.body.left(1500).constData());
    QCOMPARE(privateHits(), before);
}

void tst_Egress::sheetRowsRefusePrivateTargets()
{
    const int before = privateHits();
    const QByteArray csv = "name,url\nInside," + namedPrivate(QStringLiteral("/secret")).toUtf8() +
                           "\nRedirect," + pub(QStringLiteral("/redirect-private-name")).toUtf8() +
                           "\n";
    const auto r = as(
        m_stranger, QStringLiteral("/agent"),
        {{QStringLiteral("input"), QStringLiteral("For each row, open the url and read the page")},
         {QStringLiteral("dataInputs"),
          QJsonArray{QJsonObject{{QStringLiteral("inline"), QString::fromUtf8(csv)},
                                 {QStringLiteral("format"), QStringLiteral("csv")}}}},
         {QStringLiteral("tools"), QJsonArray{QStringLiteral("sheets_workflow")}}});
    QVERIFY2(!r.body.contains(m_marker), r.body.left(2000).constData());
    QCOMPARE(privateHits(), before);
}

void tst_Egress::webhooksRefuseANameResolvingToAPrivateAddress()
{
    // A name is accepted when the subscription is made (it is not a literal private
    // host) and judged by its addresses at every attempt.
    const int before = m_private.hits("/hook");
    const auto r = as(m_stranger, QStringLiteral("/webhooks/test"),
                      {{QStringLiteral("url"),
                        QStringLiteral("https://intranet.test:%1/hook").arg(m_private.port())}});
    QVERIFY2(r.status == 202 || r.status == 200, r.body.constData());
    HttpClient c(m_ph->base());
    c.setBearer(m_stranger);
    QTRY_VERIFY_WITH_TIMEOUT(c.get(QStringLiteral("/webhooks/deliveries?status=failed"))
                                 .body.contains("private address"),
                             10000);
    QCOMPARE(m_private.hits("/hook"), before);
}

void tst_Egress::ownerKeyReachesPrivateTargetsOnLoopback()
{
    const auto r = m_ph->client().post(
        QStringLiteral("/scrape"),
        {{QStringLiteral("urls"), QJsonArray{namedPrivate(QStringLiteral("/secret")),
                                             pub(QStringLiteral("/redirect-private-literal"))}}});
    QCOMPARE(r.status, 200);
    const QJsonArray results = r.json().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 2);
    for (const QJsonValue &result : results) {
        QCOMPARE(result.toObject().value(QStringLiteral("status")).toString(),
                 QStringLiteral("success"));
        QVERIFY(result.toObject()
                    .value(QStringLiteral("text"))
                    .toString()
                    .contains(QString::fromLatin1(m_marker)));
    }
}

void tst_Egress::privateTargetsAreGrantedPerKey()
{
    const QString granted = m_ph->mintKey(100, true);
    const auto r =
        as(granted, QStringLiteral("/scrape"),
           {{QStringLiteral("urls"), QJsonArray{namedPrivate(QStringLiteral("/secret"))}}});
    QCOMPARE(r.status, 200);
    QVERIFY2(r.body.contains(m_marker), r.body.left(1500).constData());
    // The capability can be granted and taken back by the owner only.
    const auto self = as(
        granted, QStringLiteral("/updateApiKeyCapabilities"),
        {{QStringLiteral("keyId"), QStringLiteral("key_x")},
         {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("privateTargets"), true}}}});
    QVERIFY(self.status == 401 || self.status == 403);
}

void tst_Egress::nobodyReachesPrivateTargetsWhenTheSwitchIsOff()
{
    TestService strict({QStringLiteral("network.allowPrivateTargets=false")}, QString(), nullptr,
                       m_resolver);
    QVERIFY(strict.ok());
    const int before = privateHits();
    const auto r = strict.client().post(
        QStringLiteral("/scrape"),
        {{QStringLiteral("urls"), QJsonArray{namedPrivate(QStringLiteral("/secret")),
                                             pub(QStringLiteral("/redirect-private-name"))}}});
    QCOMPARE(r.status, 200);
    QVERIFY(!r.body.contains(m_marker));
    QCOMPARE(privateHits(), before);
}

void tst_Egress::inputFetchesOfDifferentKeysShareNoCookies()
{
    // Both keys fetch the same URL, which sets a cookie; the second key's fetch must not
    // carry the first key's cookie (and neither may a second run of the first key).
    const QString other = m_ph->mintKey(100, false);
    auto fetchCookie = [this](const QString &key) {
        return as(
            key, QStringLiteral("/agent"),
            {{QStringLiteral("input"), QStringLiteral("Read the sheet")},
             {QStringLiteral("dataInputs"),
              QJsonArray{QJsonObject{{QStringLiteral("url"), pub(QStringLiteral("/cookie.csv"))},
                                     {QStringLiteral("format"), QStringLiteral("csv")}}}}});
    };
    QCOMPARE(fetchCookie(m_stranger).status, 200);
    const auto second = fetchCookie(other);
    QCOMPARE(second.status, 200);
    const auto requests = m_public.requests("/cookie.csv");
    QVERIFY(requests.size() >= 2);
    for (const FixtureRequest &req : requests)
        QVERIFY2(!req.headers.contains("cookie"), req.headers.value("cookie").constData());
}

PH_WEBENGINE_TEST_MAIN(tst_Egress)
#include "tst_egress.moc"
