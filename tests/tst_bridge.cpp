// The browser bridge (POST /mcp, plain JSON), saved tools, recordings and trigger URLs,
// end to end: the real service, QtWebEngine pages, fixture pages and a webhook receiver
// served by the test on loopback. The MCP face with the official SDK client is in
// tst_bridgemcp.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

QJsonValue resultJson(const QJsonObject &r)
{
    return r.value(QStringLiteral("result")).toObject().value(QStringLiteral("json"));
}

QString resultText(const QJsonObject &r)
{
    return r.value(QStringLiteral("result")).toObject().value(QStringLiteral("text")).toString();
}

const char *kProductsSchema = R"({"type":"array","items":{"type":"object",
    "properties":{"name":{"type":"string"},"price":{"type":"number"}}}})";

} // namespace

class tst_Bridge : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void runsEachCloudToolFromPlainJson_data();
    void runsEachCloudToolFromPlainJson();
    void refusesBadBridgeRequests_data();
    void refusesBadBridgeRequests();
    void answersDeviceToolsWith503AndAFailedCallback();
    void answers202WhenTheRunOutlastsTheWindow();
    void managesSavedTools();
    void refusesBadSavedTools_data();
    void refusesBadSavedTools();
    void runsSavedToolsAsUserTools();
    void keepsEveryRunAsARecordingToReplay();
    void firesTriggersOfEachKind();
    void revokesTriggersAndKeepsThemToTheirKey();

private:
    HttpResponse bridge(const QJsonObject &body, TestService *service = nullptr);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
};

void tst_Bridge::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/shop",
                htmlPage(QStringLiteral("Shop"),
                         QStringLiteral("<h1>Harbour Supplies</h1><table><thead><tr><th>Name</th>"
                                        "<th>Price</th></tr></thead><tbody><tr><td>Rope</td>"
                                        "<td>12.50</td></tr><tr><td>Fender</td><td>24.00</td></tr>"
                                        "</tbody></table>")));
    for (int p = 1; p <= 2; ++p)
        m_site.page(
            QStringLiteral("/list%1").arg(p).toUtf8(),
            htmlPage(QStringLiteral("List %1").arg(p),
                     QStringLiteral("<table><thead><tr><th>Name</th><th>Price</th></tr>"
                                    "</thead><tbody><tr><td>Item %1</td><td>%1.00</td></tr>"
                                    "</tbody></table>%2")
                         .arg(p)
                         .arg(p == 1 ? QStringLiteral("<a rel=\"next\" href=\"/list2\">Next</a>")
                                     : QString())));
    m_site.page(
        "/form",
        htmlPage(QStringLiteral("Form"),
                 QStringLiteral("<button onclick=\"document.getElementById('d').textContent="
                                "'Details shown'\">Show details</button><p id=\"d\"></p>"
                                "<label for=\"n\">Name</label><input id=\"n\">"
                                "<button onclick=\"document.getElementById('out').textContent="
                                "'Saved '+document.getElementById('n').value\">Save</button>"
                                "<p id=\"out\"></p>")));
    m_site.route("/hook", [](const FixtureRequest &) {
        FixtureResponse r;
        r.body = "ok";
        return r;
    });
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_Bridge::cleanupTestCase()
{
    m_ph.reset();
}

void tst_Bridge::init()
{
    // Each test counts its own callbacks.
    m_site.route("/hook", [](const FixtureRequest &) {
        FixtureResponse r;
        r.body = "ok";
        return r;
    });
}

HttpResponse tst_Bridge::bridge(const QJsonObject &body, TestService *service)
{
    HttpClient c = (service ? service : m_ph.get())->client();
    return c.post(QStringLiteral("/mcp"), body);
}

void tst_Bridge::runsEachCloudToolFromPlainJson_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("expect"); // text the answer must hold

    const QString shop = m_site.url(QStringLiteral("/shop"));
    const QJsonObject schema = parse(kProductsSchema);
    QTest::newRow("agent") << QJsonObject{{QStringLiteral("tool"), QStringLiteral("agent")},
                                          {QStringLiteral("params"),
                                           QJsonObject{{QStringLiteral("input"),
                                                        QStringLiteral("List the products")},
                                                       {QStringLiteral("urls"), QJsonArray{shop}},
                                                       {QStringLiteral("schema"), schema}}}}
                           << "\"name\":\"Fender\"";
    QTest::newRow("planner takes user_input and tab_urls")
        << QJsonObject{{QStringLiteral("tool"), QStringLiteral("planner")},
                       {QStringLiteral("params"),
                        QJsonObject{{QStringLiteral("user_input"),
                                     QStringLiteral("Get every product with its price")},
                                    {QStringLiteral("tab_urls"), QJsonArray{shop}},
                                    {QStringLiteral("schema"), schema}}}}
        << "\"price\":12.5";
    QTest::newRow("extract")
        << QJsonObject{{QStringLiteral("tool"), QStringLiteral("extract")},
                       {QStringLiteral("params"),
                        QJsonObject{{QStringLiteral("user_input"), QStringLiteral("the products")},
                                    {QStringLiteral("tab_urls"), QJsonArray{shop}},
                                    {QStringLiteral("schema"), schema}}}}
        << "\"name\":\"Rope\"";
    QTest::newRow("scrape") << QJsonObject{{QStringLiteral("tool"), QStringLiteral("scrape")},
                                           {QStringLiteral("params"),
                                            QJsonObject{
                                                {QStringLiteral("tab_urls"), QJsonArray{shop}}}}}
                            << "Harbour Supplies";
    QTest::newRow("act")
        << QJsonObject{{QStringLiteral("tool"), QStringLiteral("act")},
                       {QStringLiteral("params"),
                        QJsonObject{{QStringLiteral("url"), m_site.url(QStringLiteral("/form"))},
                                    {QStringLiteral("action"), QStringLiteral("click")},
                                    {QStringLiteral("target"), QStringLiteral("Show details")}}}}
        << "Details shown";
    QTest::newRow("crawl follows the next link")
        << QJsonObject{{QStringLiteral("tool"), QStringLiteral("crawl")},
                       {QStringLiteral("params"),
                        QJsonObject{{QStringLiteral("url"), m_site.url(QStringLiteral("/list1"))},
                                    {QStringLiteral("schema"), schema}}}}
        << "\"name\":\"Item 2\"";
}

void tst_Bridge::runsEachCloudToolFromPlainJson()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, expect);
    const auto r = bridge(request);
    QVERIFY2(r.status == 200, r.body.left(1500).constData());
    const QJsonObject body = r.json();
    QCOMPARE(body.value(QStringLiteral("tool")).toString(),
             request.value(QStringLiteral("tool")).toString());
    QVERIFY(body.value(QStringLiteral("creditsUsed")).toDouble() > 0);
    QVERIFY2(r.body.contains(expect.toUtf8()), r.body.left(3000).constData());
    if (request.value(QStringLiteral("tool")).toString() != QLatin1String("scrape")) {
        QCOMPARE(body.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
        QVERIFY(body.value(QStringLiteral("trajectoryId")).toString().startsWith(u"traj_"));
    }
}

void tst_Bridge::refusesBadBridgeRequests_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("no tool") << QByteArray(R"({"params":{}})") << 400 << "MISSING_FIELD"
                             << "tool";
    QTest::newRow("no params") << QByteArray(R"({"tool":"agent"})") << 400 << "MISSING_FIELD"
                               << "params";
    QTest::newRow("an unknown tool")
        << QByteArray(R"({"tool":"teleport","params":{}})") << 400 << "INVALID_FIELD"
        << "tool";
    QTest::newRow("planner without user_input")
        << QByteArray(R"({"tool":"planner","params":{"tab_urls":["http://a.example/"]}})") << 400
        << "INVALID_FIELD"
        << "params.user_input";
    QTest::newRow("a file: URL in tab_urls")
        << QByteArray(
               R"({"tool":"extract","params":{"user_input":"x","tab_urls":["file:///etc/passwd"]}})")
        << 400 << "UNSUPPORTED_SCHEME"
        << "params.tab_urls[0]";
    QTest::newRow("act with an unknown action")
        << QByteArray(R"({"tool":"act","params":{"action":"teleport"}})") << 400 << "INVALID_FIELD"
        << "params.action";
    QTest::newRow("crawl without a url")
        << QByteArray(R"({"tool":"crawl","params":{}})") << 400 << "MISSING_FIELD"
        << "params.url";
    QTest::newRow("a saved tool that does not exist")
        << QByteArray(R"({"tool":"user_nothing","params":{}})") << 404 << "TOOL_NOT_FOUND"
        << "tool";
    QTest::newRow("an http callback to a public host")
        << QByteArray(
               R"({"tool":"agent","params":{"input":"x"},"webhookUrl":"http://hooks.example/x"})")
        << 400 << "INVALID_FIELD"
        << "webhookUrl";
}

void tst_Bridge::refusesBadBridgeRequests()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, field);
    HttpClient c = m_ph->client();
    const auto r =
        c.send("POST", QStringLiteral("/mcp"), body, {{"Content-Type", "application/json"}});
    QVERIFY2(r.status == status, r.body.constData());
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
}

void tst_Bridge::answersDeviceToolsWith503AndAFailedCallback()
{
    for (const char *tool : {"get_browser_tabs", "execute_javascript"}) {
        const auto r = bridge({{QStringLiteral("tool"), QLatin1String(tool)},
                               {QStringLiteral("params"),
                                QJsonObject{{QStringLiteral("code"), QStringLiteral("1")}}}});
        QCOMPARE(r.status, 503);
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("DEVICE_UNAVAILABLE"));
    }
    // target: device on a tool that could run in the cloud, with a callback.
    const int before = m_site.hits("/hook");
    const auto r = bridge(
        {{QStringLiteral("tool"), QStringLiteral("agent")},
         {QStringLiteral("target"), QStringLiteral("device")},
         {QStringLiteral("params"), QJsonObject{{QStringLiteral("input"), QStringLiteral("hi")}}},
         {QStringLiteral("webhookUrl"), m_site.url(QStringLiteral("/hook"))},
         {QStringLiteral("webhookMetadata"),
          QJsonObject{{QStringLiteral("flow"), QStringLiteral("n8n-42")}}}});
    QCOMPARE(r.status, 503);
    QTRY_COMPARE_WITH_TIMEOUT(m_site.hits("/hook"), before + 1, 10000);
    const QJsonObject payload =
        QJsonDocument::fromJson(m_site.requests("/hook").last().body).object();
    QCOMPARE(payload.value(QStringLiteral("event")).toString(), QStringLiteral("workflow.failed"));
    QCOMPARE(payload.value(QStringLiteral("success")).toBool(true), false);
    const QJsonObject error = payload.value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("DEVICE_UNAVAILABLE"));
    QVERIFY(!error.value(QStringLiteral("message")).toString().isEmpty());
    QCOMPARE(payload.value(QStringLiteral("metadata"))
                 .toObject()
                 .value(QStringLiteral("tool"))
                 .toString(),
             QStringLiteral("agent"));
    // A deviceId that is not connected is the same.
    QCOMPARE(bridge({{QStringLiteral("tool"), QStringLiteral("scrape")},
                     {QStringLiteral("deviceId"), QStringLiteral("laptop-1")},
                     {QStringLiteral("params"), QJsonObject{}}})
                 .status,
             503);
}

void tst_Bridge::answers202WhenTheRunOutlastsTheWindow()
{
    TestService quick({QStringLiteral("bridge.syncWindowMs=200")});
    QVERIFY(quick.ok());
    const int before = m_site.hits("/hook");
    const auto r = bridge(
        {{QStringLiteral("tool"), QStringLiteral("agent")},
         {QStringLiteral("params"),
          QJsonObject{
              {QStringLiteral("input"), QStringLiteral("wait 2 seconds, then list the products")},
              {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
              {QStringLiteral("schema"), parse(kProductsSchema)}}},
         {QStringLiteral("webhookUrl"), m_site.url(QStringLiteral("/hook"))},
         {QStringLiteral("webhookMetadata"),
          QJsonObject{{QStringLiteral("flow"), QStringLiteral("n8n-42")}}}},
        &quick);
    QVERIFY2(r.status == 202, r.body.constData());
    const QJsonObject accepted = r.json();
    QCOMPARE(accepted.value(QStringLiteral("status")).toString(), QStringLiteral("executing"));
    const QString trajectory = accepted.value(QStringLiteral("trajectoryId")).toString();
    QVERIFY(trajectory.startsWith(u"traj_"));
    QVERIFY(accepted.contains(QStringLiteral("creditsUsed")));
    // The outcome: on GET /agent/{id} and on the callback, with the bridge's tool.
    HttpClient c = quick.client();
    const auto done = c.get(QStringLiteral("/agent/%1").arg(trajectory), {{"Prefer", "wait=20"}});
    QCOMPARE(done.status, 200);
    QCOMPARE(done.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QTRY_COMPARE_WITH_TIMEOUT(m_site.hits("/hook"), before + 1, 10000);
    const QJsonObject payload =
        QJsonDocument::fromJson(m_site.requests("/hook").last().body).object();
    QCOMPARE(payload.value(QStringLiteral("event")).toString(),
             QStringLiteral("workflow.completed"));
    QCOMPARE(payload.value(QStringLiteral("metadata"))
                 .toObject()
                 .value(QStringLiteral("tool"))
                 .toString(),
             QStringLiteral("agent"));
    const QJsonObject original = payload.value(QStringLiteral("originalRequest")).toObject();
    QCOMPARE(original.value(QStringLiteral("tool")).toString(), QStringLiteral("agent"));
    QCOMPARE(original.value(QStringLiteral("params"))
                 .toObject()
                 .value(QStringLiteral("input"))
                 .toString(),
             QStringLiteral("wait 2 seconds, then list the products"));
    QCOMPARE(original.value(QStringLiteral("webhookMetadata"))
                 .toObject()
                 .value(QStringLiteral("flow"))
                 .toString(),
             QStringLiteral("n8n-42"));
    QCOMPARE(payload.value(QStringLiteral("data"))
                 .toObject()
                 .value(QStringLiteral("extractedData"))
                 .toArray()
                 .size(),
             2); // the two products of result.json
}

void tst_Bridge::managesSavedTools()
{
    HttpClient c = m_ph->client();
    const QJsonObject subroutine = parse(R"({"name":"crud_demo","description":"Reads a page",
        "parameters":{"type":"object","properties":{"page":{"type":"string"}},"required":["page"]},
        "steps":[{"tool":"act_on_tab","args":{"action":"navigate","url":"{{page}}"}},
                 {"tool":"crawl_and_extract_from_tab","args":{}}]})");
    auto created = c.post(QStringLiteral("/tools"), subroutine);
    QVERIFY2(created.status == 201, created.body.constData());
    const QJsonObject tool = created.json().value(QStringLiteral("tool")).toObject();
    QCOMPARE(tool.value(QStringLiteral("kind")).toString(), QStringLiteral("subroutine"));
    QCOMPARE(tool.value(QStringLiteral("mcpName")).toString(), QStringLiteral("user_crud_demo"));
    // A second one of the same name: 409, and the first is untouched.
    QCOMPARE(c.post(QStringLiteral("/tools"), subroutine).status, 409);
    const auto listed = c.get(QStringLiteral("/tools"));
    QVERIFY(listed.body.contains("\"crud_demo\""));
    // PUT replaces it, here with a JavaScript tool.
    const auto replaced = c.send(
        "PUT", QStringLiteral("/tools/crud_demo"),
        QJsonDocument(parse(R"({"code":"return document.title;","url":"http://127.0.0.1:1/"})"))
            .toJson(),
        {{"Content-Type", "application/json"}});
    QVERIFY2(replaced.status == 200, replaced.body.constData());
    const QJsonObject now =
        c.get(QStringLiteral("/tools/crud_demo")).json().value(QStringLiteral("tool")).toObject();
    QCOMPARE(now.value(QStringLiteral("kind")).toString(), QStringLiteral("javascript"));
    QCOMPARE(now.value(QStringLiteral("id")), tool.value(QStringLiteral("id")));
    QCOMPARE(c.send("DELETE", QStringLiteral("/tools/crud_demo")).status, 200);
    QCOMPARE(c.get(QStringLiteral("/tools/crud_demo")).status, 404);
    QCOMPARE(c.send("DELETE", QStringLiteral("/tools/crud_demo")).status, 404);
    // Another key has its own library.
    HttpClient other(m_ph->base());
    other.setBearer(m_ph->mintKey(100));
    QCOMPARE(other.post(QStringLiteral("/tools"), subroutine).status, 201);
    QCOMPARE(c.get(QStringLiteral("/tools/crud_demo")).status, 404);
}

void tst_Bridge::refusesBadSavedTools_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");
    QTest::newRow("a name with capitals")
        << QByteArray(
               R"({"name":"Shop","steps":[{"tool":"act_on_tab","args":{"action":"scroll"}}]})")
        << "name";
    QTest::newRow("steps and code at once")
        << QByteArray(R"({"name":"x","code":"return 1","url":"http://a.example/","steps":[]})")
        << "body";
    QTest::newRow("a placeholder that is not a parameter")
        << QByteArray(
               R"({"name":"x","steps":[{"tool":"act_on_tab","args":{"action":"navigate","url":"{{where}}"}}]})")
        << "steps[0].args";
    QTest::newRow("a step tool that is not allowed")
        << QByteArray(R"({"name":"x","steps":[{"tool":"generate_pdfs","args":{}}]})")
        << "steps[0].tool";
    QTest::newRow("a JavaScript tool without a page")
        << QByteArray(R"({"name":"x","code":"return 1"})") << "url";
    QTest::newRow("a JavaScript tool on a file: page")
        << QByteArray(R"({"name":"x","code":"return 1","url":"file:///etc/passwd"})") << "url";
    QTest::newRow("a parameter of an unknown type")
        << QByteArray(
               R"({"name":"x","parameters":{"properties":{"p":{"type":"date"}}},"code":"return 1","url":"http://a.example/"})")
        << "parameters.properties.p.type";
    QTest::newRow("a recording that does not exist")
        << QByteArray(R"({"name":"x","fromRecording":"traj_nope"})") << "fromRecording";
}

void tst_Bridge::refusesBadSavedTools()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    HttpClient c = m_ph->client();
    const auto r =
        c.send("POST", QStringLiteral("/tools"), body, {{"Content-Type", "application/json"}});
    QVERIFY2(r.status == 400 || r.status == 404, r.body.constData());
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
    QCOMPARE(c.get(QStringLiteral("/tools/x")).status, 404); // nothing was stored
}

void tst_Bridge::runsSavedToolsAsUserTools()
{
    HttpClient c = m_ph->client();
    QCOMPARE(c.post(QStringLiteral("/tools"),
                    parse(QStringLiteral(R"({"name":"prices","description":"Prices on a page",
        "parameters":{"type":"object","properties":{"page":{"type":"string"}},"required":["page"]},
        "steps":[{"tool":"act_on_tab","args":{"action":"navigate","url":"{{page}}"}},
                 {"tool":"crawl_and_extract_from_tab","args":{"schema":%1}}]})")
                              .arg(QLatin1String(kProductsSchema))
                              .toUtf8()
                              .constData()))
                 .status,
             201);
    QCOMPARE(c.post(QStringLiteral("/tools"),
                    {{QStringLiteral("name"), QStringLiteral("save_name")},
                     {QStringLiteral("code"),
                      QStringLiteral("document.getElementById('n').value = params.name;"
                                     "document.querySelectorAll('button')[1].click();"
                                     "return {saved: document.getElementById('out').textContent,"
                                     " times: params.times * 2};")},
                     {QStringLiteral("url"), m_site.url(QStringLiteral("/form"))},
                     {QStringLiteral("parameters"),
                      parse(R"({"type":"object","properties":{"name":{"type":"string"},
                                "times":{"type":"integer","default":21}},"required":["name"]})")}})
                 .status,
             201);
    const auto prices =
        bridge({{QStringLiteral("tool"), QStringLiteral("user_prices")},
                {QStringLiteral("params"),
                 QJsonObject{{QStringLiteral("page"), m_site.url(QStringLiteral("/shop"))}}}});
    QVERIFY2(prices.status == 200, prices.body.constData());
    QCOMPARE(resultJson(prices.json()).toArray().size(), 2);
    QVERIFY(prices.json().value(QStringLiteral("creditsUsed")).toDouble() >= 1.0);
    const auto saved = bridge(
        {{QStringLiteral("tool"), QStringLiteral("user_save_name")},
         {QStringLiteral("target"), QStringLiteral("cloud")},
         {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("Ada")}}}});
    QVERIFY2(saved.status == 200, saved.body.constData());
    QCOMPARE(resultJson(saved.json()).toObject(), parse(R"({"saved":"Saved Ada","times":42})"));
    // Arguments are checked against the tool's parameters.
    const auto missing = bridge({{QStringLiteral("tool"), QStringLiteral("user_save_name")},
                                 {QStringLiteral("params"), QJsonObject{}}});
    QCOMPARE(missing.status, 400);
    QCOMPARE(missing.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("params.name"));
    // A script that throws ends the run with its message.
    QCOMPARE(c.post(QStringLiteral("/tools"),
                    {{QStringLiteral("name"), QStringLiteral("thrower")},
                     {QStringLiteral("code"), QStringLiteral("throw new Error('no cart here');")},
                     {QStringLiteral("url"), m_site.url(QStringLiteral("/form"))}})
                 .status,
             201);
    const auto thrown = bridge({{QStringLiteral("tool"), QStringLiteral("user_thrower")},
                                {QStringLiteral("params"), QJsonObject{}}});
    QCOMPARE(thrown.status, 200);
    QCOMPARE(thrown.json().value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    QVERIFY(thrown.json().value(QStringLiteral("error")).toString().contains(u"no cart here"));
}

void tst_Bridge::keepsEveryRunAsARecordingToReplay()
{
    HttpClient c = m_ph->client();
    const auto first =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"),
                 QStringLiteral("type \"Grace\" into \"Name\", then click \"Save\"")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/form"))}}});
    QCOMPARE(first.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QString id = first.json().value(QStringLiteral("trajectoryId")).toString();
    // The run is a recording.
    const auto recording = c.get(QStringLiteral("/recordings/%1").arg(id));
    QCOMPARE(recording.status, 200);
    QCOMPARE(recording.json().value(QStringLiteral("steps")).toArray().size(), 3);
    QVERIFY(c.get(QStringLiteral("/recordings")).body.contains(id.toUtf8()));
    // recording_id on /agent: the steps are replayed, then the task reads the page.
    const auto replayed = c.post(QStringLiteral("/agent"),
                                 {{QStringLiteral("input"), QStringLiteral("Read the page")},
                                  {QStringLiteral("recording_id"), id}});
    QVERIFY2(resultText(replayed.json()).contains(u"Saved Grace"), replayed.body.constData());
    // replay_workflow on the bridge, by its URL.
    const auto again =
        bridge({{QStringLiteral("tool"), QStringLiteral("replay_workflow")},
                {QStringLiteral("params"),
                 QJsonObject{{QStringLiteral("url"),
                              m_ph->base() + QStringLiteral("/recordings/") + id}}}});
    QVERIFY2(again.status == 200, again.body.constData());
    QVERIFY(resultText(again.json()).contains(u"Saved Grace"));
    // A subroutine made from the recording runs the same steps.
    const auto tool =
        c.post(QStringLiteral("/tools"), {{QStringLiteral("name"), QStringLiteral("save_grace")},
                                          {QStringLiteral("fromRecording"), id}});
    QVERIFY2(tool.status == 201, tool.body.constData());
    QCOMPARE(tool.json()
                 .value(QStringLiteral("tool"))
                 .toObject()
                 .value(QStringLiteral("steps"))
                 .toArray()
                 .size(),
             3);
    QCOMPARE(bridge({{QStringLiteral("tool"), QStringLiteral("user_save_grace")},
                     {QStringLiteral("params"), QJsonObject{}}})
                 .json()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("success"));
    // Another key's recording does not exist for this one.
    HttpClient other(m_ph->base());
    other.setBearer(m_ph->mintKey(100));
    QCOMPARE(other.get(QStringLiteral("/recordings/%1").arg(id)).status, 404);
    const auto foreign =
        other.post(QStringLiteral("/agent"), {{QStringLiteral("input"), QStringLiteral("Read")},
                                              {QStringLiteral("recording_id"), id}});
    QCOMPARE(foreign.status, 404);
    QCOMPARE(foreign.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("recording_id"));
}

void tst_Bridge::firesTriggersOfEachKind()
{
    HttpClient c = m_ph->client();
    QCOMPARE(c.post(QStringLiteral("/tools"),
                    {{QStringLiteral("name"), QStringLiteral("title_of")},
                     {QStringLiteral("code"),
                      QStringLiteral("return document.title + ' / ' + params.suffix;")},
                     {QStringLiteral("url"), m_site.url(QStringLiteral("/shop"))}})
                 .status,
             201);
    // A saved tool: the body is its parameters.
    auto made =
        c.post(QStringLiteral("/triggers"), {{QStringLiteral("label"), QStringLiteral("title")},
                                             {QStringLiteral("tool"), QStringLiteral("title_of")}});
    QCOMPARE(made.status, 201);
    QJsonObject trigger = made.json().value(QStringLiteral("trigger")).toObject();
    const QString url = trigger.value(QStringLiteral("url")).toString();
    QVERIFY(url.startsWith(m_ph->base() + QStringLiteral("/mcp/v1/webhooks/trigger/trg_")));
    QVERIFY(trigger.value(QStringLiteral("id")).toString().size() >= 32);
    const auto fired = c.post(url, {{QStringLiteral("suffix"), QStringLiteral("fired")}});
    QVERIFY2(fired.status == 200, fired.body.constData());
    QCOMPARE(resultJson(fired.json()).toString(), QStringLiteral("Shop / fired"));
    QCOMPARE(fired.json().value(QStringLiteral("triggerId")), trigger.value(QStringLiteral("id")));

    // A past run: the same request again, visiting the page again.
    const auto past =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("List the products")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                {QStringLiteral("schema"), parse(kProductsSchema)}});
    const QString pastId = past.json().value(QStringLiteral("trajectoryId")).toString();
    made = c.post(QStringLiteral("/triggers"), {{QStringLiteral("trajectoryId"), pastId}});
    QCOMPARE(made.status, 201);
    const int visits = m_site.hits("/shop");
    const auto rerun = c.post(made.json()
                                  .value(QStringLiteral("trigger"))
                                  .toObject()
                                  .value(QStringLiteral("url"))
                                  .toString(),
                              QJsonObject());
    QVERIFY2(rerun.status == 200, rerun.body.constData());
    QCOMPARE(resultJson(rerun.json()), resultJson(past.json()));
    QVERIFY(rerun.json().value(QStringLiteral("trajectoryId")).toString() != pastId);
    QCOMPARE(m_site.hits("/shop"), visits + 1);

    // A prompt: its text, with the body's input appended; the plain path works too.
    made = c.post(QStringLiteral("/triggers"),
                  {{QStringLiteral("prompt"), QStringLiteral("List the products")},
                   {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
                   {QStringLiteral("schema"), parse(kProductsSchema)}});
    QCOMPARE(made.status, 201);
    const QString promptId = made.json()
                                 .value(QStringLiteral("trigger"))
                                 .toObject()
                                 .value(QStringLiteral("id"))
                                 .toString();
    const auto prompted =
        c.post(QStringLiteral("/v1/webhooks/trigger/%1").arg(promptId),
               {{QStringLiteral("input"), QStringLiteral("Only the cheap ones.")}});
    QVERIFY2(prompted.status == 200, prompted.body.constData());
    QCOMPARE(resultJson(prompted.json()).toArray().size(), 2);
    const QString runId = prompted.json().value(QStringLiteral("trajectoryId")).toString();
    QCOMPARE(c.get(QStringLiteral("/recordings/%1").arg(runId))
                 .json()
                 .value(QStringLiteral("task"))
                 .toString(),
             QStringLiteral("List the products\n\nOnly the cheap ones."));
    // Firing is counted.
    const QJsonObject listedTrigger = c.get(QStringLiteral("/triggers/%1").arg(promptId))
                                          .json()
                                          .value(QStringLiteral("trigger"))
                                          .toObject();
    QCOMPARE(listedTrigger.value(QStringLiteral("fireCount")).toInt(), 1);
    // Bad triggers.
    QCOMPARE(c.post(QStringLiteral("/triggers"), {{QStringLiteral("tool"), QStringLiteral("nope")}})
                 .json()
                 .value(QStringLiteral("code"))
                 .toString(),
             QStringLiteral("TOOL_NOT_FOUND"));
    QCOMPARE(
        c.post(QStringLiteral("/triggers"), {{QStringLiteral("prompt"), QStringLiteral("x")},
                                             {QStringLiteral("tool"), QStringLiteral("title_of")}})
            .json()
            .value(QStringLiteral("field"))
            .toString(),
        QStringLiteral("body"));
}

void tst_Bridge::revokesTriggersAndKeepsThemToTheirKey()
{
    HttpClient c = m_ph->client();
    const auto made =
        c.post(QStringLiteral("/triggers"),
               {{QStringLiteral("prompt"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}}});
    QCOMPARE(made.status, 201);
    const QJsonObject trigger = made.json().value(QStringLiteral("trigger")).toObject();
    const QString url = trigger.value(QStringLiteral("url")).toString();
    const QString id = trigger.value(QStringLiteral("id")).toString();
    // Without a key: 401; another (non-owner) key: 404, as if it did not exist.
    HttpClient anonymous(m_ph->base());
    QCOMPARE(anonymous.post(url, QJsonObject()).status, 401);
    HttpClient wrong(m_ph->base());
    wrong.setBearer(QStringLiteral("phk_not_a_key"));
    QCOMPARE(wrong.post(url, QJsonObject()).status, 401);
    HttpClient other(m_ph->base());
    other.setBearer(m_ph->mintKey(100));
    QCOMPARE(other.post(url, QJsonObject()).status, 404);
    QCOMPARE(other.send("DELETE", QStringLiteral("/triggers/%1").arg(id)).status, 404);
    QVERIFY(!other.get(QStringLiteral("/triggers")).body.contains(id.toUtf8()));
    // Revoked: 404 from then on, and listed as inactive.
    const auto revoked = c.send("DELETE", QStringLiteral("/triggers/%1").arg(id));
    QCOMPARE(revoked.status, 200);
    QCOMPARE(revoked.json()
                 .value(QStringLiteral("trigger"))
                 .toObject()
                 .value(QStringLiteral("active"))
                 .toBool(true),
             false);
    const auto after = c.post(url, QJsonObject());
    QCOMPARE(after.status, 404);
    QCOMPARE(after.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("TRIGGER_NOT_FOUND"));
    QVERIFY(c.get(QStringLiteral("/triggers")).body.contains(id.toUtf8()));
}

PH_WEBENGINE_TEST_MAIN(tst_Bridge)
#include "tst_bridge.moc"
