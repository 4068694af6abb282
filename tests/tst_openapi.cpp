// The API description: GET /openapi.json lists every route the server holds, with the
// credential and capability of its route table, passes a real OpenAPI validator, and
// real answers of the service match the schemas it gives them.
#include "FakeSessionBrowser.h"
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "http/HttpServer.h"
#include "http/OpenApi.h"
#include "sessions/SessionService.h"

#include <QJsonArray>
#include <QTemporaryDir>

using namespace ph;
using namespace ph::test;

class tst_OpenApi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void servesTheDocumentWithoutACredential();
    void describesEveryRoutedPath();
    void reportsARouteWithoutADescription();
    void reportsADescriptionWithoutARoute();
    void takesCredentialsFromTheRouteTable_data();
    void takesCredentialsFromTheRouteTable();
    void givesEveryRouteTheOneErrorEnvelope();
    void passesTheOpenApiValidator();
    void realAnswersMatchTheirSchemas();

private:
    QJsonObject document();
    // Calls the service and records the answer as a sample for the schema check.
    HttpResponse call(const QByteArray &method, const QString &path, const QString &pattern,
                      const QJsonObject &body = {}, const QString &key = {});

    std::unique_ptr<TestService> m_ph;
    FixtureServer m_site;
    QJsonArray m_samples;
    QTemporaryDir m_tmp;
};

void tst_OpenApi::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    QVERIFY(m_site.start());
    m_site.page("/page.html",
                "<html><head><title>Described</title></head><body><h1>Hello</h1></body></html>");
}

void tst_OpenApi::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_OpenApi::document()
{
    const HttpResponse r = HttpClient(m_ph->base()).get(QStringLiteral("/openapi.json"));
    r.expectStatus({200}, __FILE__, __LINE__);
    return r.json();
}

HttpResponse tst_OpenApi::call(const QByteArray &method, const QString &path,
                               const QString &pattern, const QJsonObject &body, const QString &key)
{
    HttpClient c(m_ph->base());
    c.setBearer(key.isEmpty() ? m_ph->ownerKey() : key);
    const HttpResponse r = c.send(method, path,
                                  method == "GET" || method == "DELETE"
                                      ? QByteArray()
                                      : QJsonDocument(body).toJson(QJsonDocument::Compact),
                                  {{"Content-Type", "application/json"}});
    m_samples.append(
        QJsonObject{{QStringLiteral("method"), QString::fromLatin1(method)},
                    {QStringLiteral("path"), pattern},
                    {QStringLiteral("status"), r.status},
                    {QStringLiteral("body"), QJsonDocument::fromJson(r.body).object()}});
    return r;
}

void tst_OpenApi::servesTheDocumentWithoutACredential()
{
    const HttpResponse r = HttpClient(m_ph->base()).get(QStringLiteral("/openapi.json"));
    QCOMPARE(r.status, 200);
    QVERIFY(r.header("content-type").startsWith("application/json"));
    const QJsonObject doc = r.json();
    QCOMPARE(doc.value(QStringLiteral("openapi")).toString(), QStringLiteral("3.1.0"));
    QVERIFY(doc.value(QStringLiteral("paths")).toObject().contains(QStringLiteral("/scrape")));
}

void tst_OpenApi::describesEveryRoutedPath()
{
    const QList<http::Route> routes = m_ph->service().http().routes();
    QVERIFY(routes.size() > 50);
    const http::OpenApi::Result result = http::OpenApi::describe(routes);
    QVERIFY2(result.problems.isEmpty(), qPrintable(result.problems.join(QLatin1Char('\n'))));
    QVERIFY2(result.undocumented.isEmpty(),
             qPrintable(QStringLiteral("routed without a description in resources/api/paths/: ") +
                        result.undocumented.join(QStringLiteral(", "))));
    QVERIFY2(result.stale.isEmpty(), qPrintable(QStringLiteral("described but not routed: ") +
                                                result.stale.join(QStringLiteral(", "))));

    // And the served document holds each of them under its method.
    const QJsonObject paths = document().value(QStringLiteral("paths")).toObject();
    for (const http::Route &route : routes) {
        const QJsonObject op = paths.value(route.pattern)
                                   .toObject()
                                   .value(QString::fromLatin1(route.method).toLower())
                                   .toObject();
        QVERIFY2(op.contains(QStringLiteral("summary")), qPrintable(http::OpenApi::key(route)));
        QVERIFY2(op.contains(QStringLiteral("responses")), qPrintable(http::OpenApi::key(route)));
    }
}

void tst_OpenApi::reportsARouteWithoutADescription()
{
    QList<http::Route> routes = m_ph->service().http().routes();
    routes.append(http::Route{"POST",
                              QStringLiteral("/no/description/{here}"),
                              http::AuthPolicy::ApiKey,
                              [](http::Exchange &) {},
                              nullptr,
                              {}});
    const http::OpenApi::Result result = http::OpenApi::describe(routes);
    QCOMPARE(result.undocumented, QStringList{QStringLiteral("POST /no/description/{here}")});
    // Still in the document, with what the table knows: its parameter and credential.
    const QJsonObject op =
        result
            .document[QStringLiteral("paths")][QStringLiteral("/no/description/{here}")]
                     [QStringLiteral("post")]
            .toObject();
    QCOMPARE(op[QStringLiteral("parameters")][0][QStringLiteral("name")].toString(),
             QStringLiteral("here"));
    QCOMPARE(op[QStringLiteral("x-pilothouse-auth")].toString(), QStringLiteral("apiKey"));
}

void tst_OpenApi::reportsADescriptionWithoutARoute()
{
    const QJsonObject base{{QStringLiteral("openapi"), QStringLiteral("3.1.0")}};
    const QJsonObject area{
        {QStringLiteral("routes"),
         QJsonObject{{QStringLiteral("GET /gone"),
                      QJsonObject{{QStringLiteral("summary"), QStringLiteral("removed")}}}}}};
    QJsonObject optionalArea = area;
    optionalArea.insert(QStringLiteral("optional"), true);
    QCOMPARE(http::OpenApi::build({}, base, {area}).stale,
             QStringList{QStringLiteral("GET /gone")});
    QVERIFY(http::OpenApi::build({}, base, {optionalArea}).stale.isEmpty());
}

void tst_OpenApi::takesCredentialsFromTheRouteTable_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("auth");
    QTest::addColumn<QStringList>("schemes");
    QTest::newRow("the health check needs no credential") << "/health"
                                                          << "get"
                                                          << "public" << QStringList{};
    QTest::newRow("scrape takes any API key, as a bearer or in x-api-key")
        << "/scrape"
        << "post"
        << "apiKey" << QStringList{"apiKey", "apiKeyHeader"};
    QTest::newRow("key management takes the owner's key only")
        << "/keys"
        << "post"
        << "owner" << QStringList{"ownerKey"};
    QTest::newRow("workspace calls take the owner's key or an ID token")
        << "/generateSiteKey"
        << "post"
        << "workspace" << QStringList{"ownerKey", "idToken"};
    QTest::newRow("the configuration REST also takes a Connect AI key")
        << "/config/v1/sites/{siteId}/config"
        << "get"
        << "siteAgent" << QStringList{"ownerKey", "idToken", "connectKey"};
    QTest::newRow("the document itself needs no credential") << "/openapi.json"
                                                             << "get"
                                                             << "public" << QStringList{};
}

void tst_OpenApi::takesCredentialsFromTheRouteTable()
{
    QFETCH(QString, path);
    QFETCH(QString, method);
    QFETCH(QString, auth);
    QFETCH(QStringList, schemes);
    const QJsonObject op = document()[QStringLiteral("paths")][path][method].toObject();
    QVERIFY2(!op.isEmpty(), qPrintable(path));
    QCOMPARE(op[QStringLiteral("x-pilothouse-auth")].toString(), auth);
    QStringList got;
    for (const QJsonValue &requirement : op[QStringLiteral("security")].toArray())
        got << requirement.toObject().keys();
    QCOMPARE(got, schemes);
    if (auth != QLatin1String("public"))
        QVERIFY(op[QStringLiteral("responses")].toObject().contains(QStringLiteral("401")));
}

void tst_OpenApi::givesEveryRouteTheOneErrorEnvelope()
{
    const QJsonObject doc = document();
    const QJsonObject paths = doc[QStringLiteral("paths")].toObject();
    for (auto p = paths.begin(); p != paths.end(); ++p) {
        const QJsonObject item = p.value().toObject();
        for (auto m = item.begin(); m != item.end(); ++m) {
            const QJsonObject responses = m.value()[QStringLiteral("responses")].toObject();
            // The Firecrawl-compatible routes answer in Firecrawl's envelope, described as
            // such (docs/api/firecrawl.md#errors); every other route in the one envelope.
            if (p.key().startsWith(QLatin1String("/firecrawl/"))) {
                QCOMPARE(responses[QStringLiteral("500")][QStringLiteral("content")][QStringLiteral(
                             "application/json")][QStringLiteral("schema")][QStringLiteral("$ref")]
                             .toString(),
                         QStringLiteral("#/components/schemas/FirecrawlError"));
                continue;
            }
            QCOMPARE(responses[QStringLiteral("500")][QStringLiteral("$ref")].toString(),
                     QStringLiteral("#/components/responses/Error"));
        }
    }
    const QJsonObject error =
        doc[QStringLiteral("components")][QStringLiteral("schemas")][QStringLiteral("Error")]
            .toObject();
    QStringList required;
    for (const QJsonValue &v : error[QStringLiteral("required")].toArray())
        required << v.toString();
    QCOMPARE(required, (QStringList{"success", "error", "code", "requestId"}));
}

void tst_OpenApi::passesTheOpenApiValidator()
{
    const QString path = m_tmp.filePath(QStringLiteral("openapi.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(document()).toJson());
    f.close();
    const NodeResult run = runNodeScript(QStringLiteral(PILOTHOUSE_OPENAPI_TEST_DIR),
                                         {QStringLiteral("validate.mjs"), path}, 60000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    QCOMPARE(run.result()[QStringLiteral("valid")].toBool(), true);
}

void tst_OpenApi::realAnswersMatchTheirSchemas()
{
    // System.
    call("GET", QStringLiteral("/health"), QStringLiteral("/health"));
    call("GET", QStringLiteral("/settings"), QStringLiteral("/settings"));
    call("PATCH", QStringLiteral("/settings"), QStringLiteral("/settings"),
         {{QStringLiteral("no.such.setting"), 1}});
    const HttpResponse minted = call(
        "POST", QStringLiteral("/keys"), QStringLiteral("/keys"),
        {{QStringLiteral("label"), QStringLiteral("described")}, {QStringLiteral("balance"), 50}});
    QCOMPARE(minted.status, 201);
    const QString keyId = minted.json()[QStringLiteral("id")].toString();
    const QString userKey = minted.json()[QStringLiteral("key")].toString();
    call("GET", QStringLiteral("/keys"), QStringLiteral("/keys"));
    call("PATCH", QStringLiteral("/keys/") + keyId, QStringLiteral("/keys/{id}"),
         {{QStringLiteral("balance"), 40}});
    call("GET", QStringLiteral("/usage"), QStringLiteral("/usage"), {}, userKey);
    call("GET", QStringLiteral("/keys"), QStringLiteral("/keys"), {}, userKey); // 403

    // Cloud.
    call("POST", QStringLiteral("/scrape"), QStringLiteral("/scrape"),
         {{QStringLiteral("urls"), 42}});
    // A key that may reach the loopback fixture.
    const HttpResponse scraped =
        call("POST", QStringLiteral("/scrape"), QStringLiteral("/scrape"),
             {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/page.html"))}}},
             m_ph->mintKey(100));
    QCOMPARE(scraped.status, 200);
    call("GET", QStringLiteral("/agent/no-such-run"), QStringLiteral("/agent/{trajectoryId}"));
    // The Firecrawl-compatible API answers in Firecrawl's shapes, described as such.
    call("POST", QStringLiteral("/firecrawl/v2/scrape"), QStringLiteral("/firecrawl/v2/scrape"),
         {{QStringLiteral("url"), 42}});
    const HttpResponse firecrawled =
        call("POST", QStringLiteral("/firecrawl/v2/scrape"), QStringLiteral("/firecrawl/v2/scrape"),
             {{QStringLiteral("url"), m_site.url(QStringLiteral("/page.html"))},
              {QStringLiteral("formats"),
               QJsonArray{QStringLiteral("markdown"), QStringLiteral("links")}}},
             m_ph->mintKey(100));
    QCOMPARE(firecrawled.status, 200);
    call("POST", QStringLiteral("/firecrawl/v1/map"), QStringLiteral("/firecrawl/v1/map"),
         {{QStringLiteral("url"), m_site.url(QStringLiteral("/page.html"))},
          {QStringLiteral("sitemap"), QStringLiteral("skip")}});
    call("POST", QStringLiteral("/firecrawl/v2/search"), QStringLiteral("/firecrawl/v2/search"),
         {{QStringLiteral("query"), QStringLiteral("described")}}); // 503: no SearXNG
    // Live views: a token that is not valid is the one 403 envelope.
    call("GET", QStringLiteral("/live/no-such-run?token=1.2.3"),
         QStringLiteral("/live/{trajectoryId}"));
    call("POST", QStringLiteral("/live/no-such-run/input?token=1.2.3"),
         QStringLiteral("/live/{trajectoryId}/input"),
         {{QStringLiteral("type"), QStringLiteral("key")}});

    // Browser bridge library and webhooks.
    call("GET", QStringLiteral("/tools"), QStringLiteral("/tools"));
    call("GET", QStringLiteral("/triggers"), QStringLiteral("/triggers"));
    call("GET", QStringLiteral("/recordings"), QStringLiteral("/recordings"));
    call("GET", QStringLiteral("/webhooks/deliveries"), QStringLiteral("/webhooks/deliveries"));

    // Browser sessions, on a fake session browser (no Chromium needed here).
    m_ph->service().sessions().setBrowserFactory(
        [](const SessionBrowserSpec &spec) { return std::make_unique<FakeSessionBrowser>(spec); });
    const HttpResponse session =
        call("POST", QStringLiteral("/sessions"), QStringLiteral("/sessions"),
             {{QStringLiteral("profile"), QStringLiteral("described")}});
    QCOMPARE(session.status, 201);
    const QString sessionId = session.json()[QStringLiteral("id")].toString();
    const QString cdp = session.json()[QStringLiteral("cdpHttpUrl")].toString();
    call("POST", QStringLiteral("/sessions"), QStringLiteral("/sessions"),
         {{QStringLiteral("engine"), QStringLiteral("qtwebengine")}});
    call("GET", QStringLiteral("/sessions"), QStringLiteral("/sessions"));
    call("GET", QStringLiteral("/sessions/") + sessionId, QStringLiteral("/sessions/{id}"));
    call("GET", QStringLiteral("/sessions/profiles"), QStringLiteral("/sessions/profiles"));
    call("GET", cdp.mid(cdp.indexOf(QStringLiteral("/cdp/"))) + QStringLiteral("/json/version"),
         QStringLiteral("/cdp/{token}/json/version"));
    call("GET", QStringLiteral("/cdp/cdp_wrong/json"), QStringLiteral("/cdp/{token}/json"));
    call("GET", QStringLiteral("/cdp/cdp_wrong/json/list"),
         QStringLiteral("/cdp/{token}/json/list"));
    call("DELETE", QStringLiteral("/sessions/") + sessionId, QStringLiteral("/sessions/{id}"));
    QTRY_COMPARE(m_ph->service().sessions().liveCount(), 0);
    call("DELETE", QStringLiteral("/sessions/profiles/described"),
         QStringLiteral("/sessions/profiles/{name}"));

    // Sites.
    const HttpResponse site =
        call("POST", QStringLiteral("/generateSiteKey"), QStringLiteral("/generateSiteKey"),
             {{QStringLiteral("siteName"), QStringLiteral("Described Shop")},
              {QStringLiteral("label"), QStringLiteral("embed")},
              {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("shop.example")}}});
    QCOMPARE(site.status, 201);
    call("POST", QStringLiteral("/listSiteKeys"), QStringLiteral("/listSiteKeys"));
    call("POST", QStringLiteral("/generateSiteKey"), QStringLiteral("/generateSiteKey"),
         {{QStringLiteral("siteName"), 7}});
    call("GET", QStringLiteral("/config/v1/sites"), QStringLiteral("/config/v1/sites"));
    call("POST", QStringLiteral("/getSiteConfig"), QStringLiteral("/getSiteConfig"),
         {{QStringLiteral("keyId"),
           site.json()[QStringLiteral("key")][QStringLiteral("keyId")].toString()}});

    // A2W: a browser run (nothing executes), read back, and a page on no enabled site.
    call("POST", QStringLiteral("/generateSiteKey"), QStringLiteral("/generateSiteKey"),
         {{QStringLiteral("siteName"), QStringLiteral("Loopback Shop")},
          {QStringLiteral("label"), QStringLiteral("embed")},
          {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}});
    m_ph->allowBrowserHandoffs(); // browser runs are off by default
    const HttpResponse a2w =
        call("POST", QStringLiteral("/v2/a2w/runs"), QStringLiteral("/v2/a2w/runs"),
             {{QStringLiteral("url"), m_site.url(QStringLiteral("/page.html"))},
              {QStringLiteral("prompt"), QStringLiteral("Read the page")},
              {QStringLiteral("execution"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("browser")}}}});
    QCOMPARE(a2w.status, 201);
    const QString runUrl = a2w.json()[QStringLiteral("run")].toString();
    call("GET", runUrl.mid(m_ph->base().size()), QStringLiteral("/v2/a2w/runs/{id}"));
    call("POST", QStringLiteral("/v2/a2w/runs"), QStringLiteral("/v2/a2w/runs"),
         {{QStringLiteral("url"), QStringLiteral("http://nowhere.invalid/")},
          {QStringLiteral("prompt"), QStringLiteral("x")}});
    const QString workflowUrl = a2w.json()[QStringLiteral("workflow")].toString();
    call("GET", workflowUrl.mid(m_ph->base().size()), QStringLiteral("/v2/a2w/workflows/{id}"));
    const QString id = a2w.json()[QStringLiteral("id")].toString();
    call("POST",
         QStringLiteral("/v2/a2w/runs/%1/handoffs?access=%2")
             .arg(id, runUrl.section(QStringLiteral("access="), 1)),
         QStringLiteral("/v2/a2w/runs/{id}/handoffs"),
         {{QStringLiteral("url"), m_site.url(QStringLiteral("/page.html"))},
          {QStringLiteral("prompt"), QStringLiteral("Read it")}}); // 403: no handoffs taken
    call("GET", QStringLiteral("/v2/a2w/capabilities?host=127.0.0.1"),
         QStringLiteral("/v2/a2w/capabilities"));
    // v1 tasks on the same runs.
    const HttpResponse task =
        call("POST", QStringLiteral("/v1/tasks"), QStringLiteral("/v1/tasks"),
             {{QStringLiteral("targetUrl"), m_site.url(QStringLiteral("/page.html"))},
              {QStringLiteral("prompt"), QStringLiteral("Read the page")},
              {QStringLiteral("execution"),
               QJsonObject{{QStringLiteral("mode"), QStringLiteral("browser")}}}});
    QCOMPARE(task.status, 201);
    call("GET", task.json()[QStringLiteral("task")].toString().mid(m_ph->base().size()),
         QStringLiteral("/v1/tasks/{id}"));
    call("GET", task.json()[QStringLiteral("workflow")].toString().mid(m_ph->base().size()),
         QStringLiteral("/v1/workflows/{id}"));
    call("POST", QStringLiteral("/v1/tasks"), QStringLiteral("/v1/tasks"),
         {{QStringLiteral("url"), m_site.url(QStringLiteral("/page.html"))}});

    // Any route: an unknown path's answer is the same envelope.
    call("DELETE", QStringLiteral("/keys/no-such-key"), QStringLiteral("/keys/{id}"));

    const QString docPath = m_tmp.filePath(QStringLiteral("doc.json"));
    const QString samplesPath = m_tmp.filePath(QStringLiteral("samples.json"));
    QFile doc(docPath);
    QVERIFY(doc.open(QIODevice::WriteOnly));
    doc.write(QJsonDocument(document()).toJson());
    doc.close();
    QFile samples(samplesPath);
    QVERIFY(samples.open(QIODevice::WriteOnly));
    samples.write(QJsonDocument(m_samples).toJson());
    samples.close();

    const NodeResult run =
        runNodeScript(QStringLiteral(PILOTHOUSE_OPENAPI_TEST_DIR),
                      {QStringLiteral("validate.mjs"), docPath, samplesPath}, 60000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    QCOMPARE(run.result()[QStringLiteral("checked")].toInt(), int(m_samples.size()));
}

PH_WEBENGINE_TEST_MAIN(tst_OpenApi)
#include "tst_openapi.moc"
