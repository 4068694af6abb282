// Both MCP transport generations against the running service, each through its real SDK
// client (tests/mcp/transports_mcp.mjs): @modelcontextprotocol/sdk 1.32.2 on the 2025
// session transport and @modelcontextprotocol/client 2.4.0 on the 2026-07-28 stateless
// one, calling the same tool: the configuration MCP's list_sites and the browser
// bridge's scrape of a fixture page. Then the bridge's bounded snapshot of a big page,
// for plain JSON and stateless MCP callers: within the budget, scope honoured, the
// continuation bringing the rest.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

class tst_McpTransports : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bothGenerationsCallTheConfigurationTool();
    void bothGenerationsCallTheBridgesScrape();
    void boundsTheSnapshotOfABigPage();

private:
    static NodeResult run(const QString &url, const QString &key, const QString &tool,
                          const QJsonObject &arguments);
};

NodeResult tst_McpTransports::run(const QString &url, const QString &key, const QString &tool,
                                  const QJsonObject &arguments)
{
    return runNodeScript(
        QStringLiteral(PILOTHOUSE_MCP_TEST_DIR),
        {QStringLiteral("transports_mcp.mjs"), url, key, tool,
         QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))},
        240000);
}

void tst_McpTransports::bothGenerationsCallTheConfigurationTool()
{
    TestService ph;
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    const auto site = ph.client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Two eras")},
         {QStringLiteral("label"), QStringLiteral("k")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("example.com")}}});
    QCOMPARE(site.status, 201);
    const QString siteId = site.json().value(QStringLiteral("siteId")).toString();
    const QString key =
        ph.client()
            .post(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), siteId}})
            .json()
            .value(QStringLiteral("key"))
            .toString();
    const NodeResult r =
        run(ph.base() + QStringLiteral("/config/mcp"), key, QStringLiteral("list_sites"), {});
    QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
    const QJsonObject result = r.result();
    QCOMPARE(result.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(result.value(QStringLiteral("stateless"))
                 .toObject()
                 .value(QStringLiteral("sites"))
                 .toArray(),
             QJsonArray{siteId});
    QVERIFY(result.value(QStringLiteral("statelessMethods"))
                .toArray()
                .contains(QJsonValue(QStringLiteral("server/discover"))));
}

void tst_McpTransports::bothGenerationsCallTheBridgesScrape()
{
    FixtureServer fixture;
    QVERIFY(fixture.start());
    fixture.page("/harbour", "<!doctype html><html><head><meta charset=\"utf-8\"><title>Harbour"
                             "</title></head><body><h1>Moorings</h1><p>Berth 4 is free.</p>"
                             "</body></html>");
    TestService ph;
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    const NodeResult r =
        run(ph.base() + QStringLiteral("/mcp"), ph.ownerKey(), QStringLiteral("scrape"),
            {{QStringLiteral("urls"), QJsonArray{fixture.url(QStringLiteral("/harbour"))}}});
    QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
    const QJsonObject stateless = r.result().value(QStringLiteral("stateless")).toObject();
    QCOMPARE(stateless.value(QStringLiteral("titles")).toArray(),
             QJsonArray{QStringLiteral("Harbour")});
    // Each generation read the page itself.
    QCOMPARE(fixture.hits("/harbour"), 2);
}

void tst_McpTransports::boundsTheSnapshotOfABigPage()
{
    QByteArray html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Big</title>"
                      "</head><body>";
    for (int i = 0; i < 60; ++i)
        html += "<h2>Section " + QByteArray::number(i) + "</h2><p>Paragraph " +
                QByteArray::number(i) + " " + QByteArray(200, char('a' + i % 26)) +
                "</p><a href=\"/more/" + QByteArray::number(i) + "\">More " +
                QByteArray::number(i) + "</a>";
    html += "<section id=\"prices\"><h2>Prices</h2><p>Rope 12.50</p></section></body></html>";
    FixtureServer fixture;
    QVERIFY(fixture.start());
    fixture.page("/big", html);
    TestService ph;
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    HttpClient c = ph.client();
    const QString url = fixture.url(QStringLiteral("/big"));
    auto scrape = [&](const QJsonObject &extra) {
        QJsonObject params{{QStringLiteral("urls"), QJsonArray{url}},
                           {QStringLiteral("formats"), QJsonArray{QStringLiteral("ariaSnapshot")}}};
        for (auto it = extra.begin(); it != extra.end(); ++it)
            params.insert(it.key(), it.value());
        return c.post(QStringLiteral("/mcp"), {{QStringLiteral("tool"), QStringLiteral("scrape")},
                                               {QStringLiteral("params"), params}});
    };

    // Within the budget, every heading and link first, then the rest by cursor.
    QJsonObject extra{{QStringLiteral("maxChars"), 6000}};
    QStringList lines;
    int calls = 0;
    for (;;) {
        const auto r = scrape(extra);
        QVERIFY2(r.status == 200, r.body.constData());
        const QString aria = r.json()
                                 .value(QStringLiteral("results"))
                                 .toArray()
                                 .at(0)
                                 .toObject()
                                 .value(QStringLiteral("ariaSnapshot"))
                                 .toString();
        QVERIFY(aria.size() <= 6000);
        if (calls++ == 0) {
            QVERIFY2(aria.contains(QLatin1String("Section 59")), qPrintable(aria.left(300)));
            QVERIFY(aria.contains(QLatin1String("More 59")));
            QVERIFY(!aria.contains(QLatin1String("Paragraph 59")));
        }
        lines << aria.split(QLatin1Char('\n'));
        const QString cursor = r.json()
                                   .value(QStringLiteral("truncation"))
                                   .toObject()
                                   .value(QStringLiteral("cursor"))
                                   .toString();
        if (cursor.isEmpty())
            break;
        QVERIFY(calls < 20);
        extra.insert(QStringLiteral("cursor"), cursor);
    }
    QVERIFY(calls > 2);
    for (int i = 0; i < 60; ++i)
        QVERIFY2(lines.filter(QStringLiteral("Paragraph %1 ").arg(i)).size() == 1,
                 qPrintable(QStringLiteral("paragraph %1").arg(i)));

    // scope reads only what the selector matches, text and tree alike.
    const auto scoped =
        scrape({{QStringLiteral("scope"), QStringLiteral("#prices")},
                {QStringLiteral("formats"),
                 QJsonArray{QStringLiteral("ariaSnapshot"), QStringLiteral("text")}}});
    QVERIFY2(scoped.status == 200, scoped.body.constData());
    const QJsonObject page =
        scoped.json().value(QStringLiteral("results")).toArray().at(0).toObject();
    QVERIFY(
        page.value(QStringLiteral("ariaSnapshot")).toString().contains(QLatin1String("Prices")));
    QVERIFY(!page.value(QStringLiteral("ariaSnapshot"))
                 .toString()
                 .contains(QLatin1String("Section 1")));
    QCOMPARE(page.value(QStringLiteral("text")).toString().trimmed(),
             QStringLiteral("Prices\n\nRope 12.50"));

    // act's snapshot after its step covers only what scope matches.
    const auto acted =
        c.post(QStringLiteral("/mcp"),
               {{QStringLiteral("tool"), QStringLiteral("act")},
                {QStringLiteral("params"),
                 QJsonObject{{QStringLiteral("url"), url},
                             {QStringLiteral("action"), QStringLiteral("scroll")},
                             {QStringLiteral("direction"), QStringLiteral("top")},
                             {QStringLiteral("scope"), QStringLiteral("#prices")}}}});
    QVERIFY2(acted.status == 200, acted.body.constData());
    const QString actAria = acted.json()
                                .value(QStringLiteral("result"))
                                .toObject()
                                .value(QStringLiteral("json"))
                                .toObject()
                                .value(QStringLiteral("ariaSnapshot"))
                                .toString();
    QVERIFY2(actAria.contains(QLatin1String("Prices")), acted.body.left(600).constData());
    QVERIFY(!actAria.contains(QLatin1String("Section 1")));

    // A stateless MCP caller gets the same bounded answer.
    const QJsonObject call{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("id"), 1},
        {QStringLiteral("method"), QStringLiteral("tools/call")},
        {QStringLiteral("params"),
         QJsonObject{
             {QStringLiteral("name"), QStringLiteral("scrape")},
             {QStringLiteral("arguments"),
              QJsonObject{{QStringLiteral("urls"), QJsonArray{url}},
                          {QStringLiteral("formats"), QJsonArray{QStringLiteral("ariaSnapshot")}},
                          {QStringLiteral("maxChars"), 6000}}},
             {QStringLiteral("_meta"),
              QJsonObject{{QStringLiteral("io.modelcontextprotocol/protocolVersion"),
                           QStringLiteral("2026-07-28")},
                          {QStringLiteral("io.modelcontextprotocol/clientCapabilities"),
                           QJsonObject()}}}}}};
    const auto mcp =
        c.send("POST", QStringLiteral("/mcp"), QJsonDocument(call).toJson(QJsonDocument::Compact),
               {{"Accept", "application/json, text/event-stream"},
                {"MCP-Protocol-Version", "2026-07-28"},
                {"Mcp-Method", "tools/call"},
                {"Mcp-Name", "scrape"}});
    QVERIFY2(mcp.status == 200, mcp.body.constData());
    const QJsonObject content = mcp.json()
                                    .value(QStringLiteral("result"))
                                    .toObject()
                                    .value(QStringLiteral("structuredContent"))
                                    .toObject();
    QVERIFY(content.value(QStringLiteral("results"))
                .toArray()
                .at(0)
                .toObject()
                .value(QStringLiteral("ariaSnapshot"))
                .toString()
                .size() <= 6000);
    QVERIFY(!content.value(QStringLiteral("truncation"))
                 .toObject()
                 .value(QStringLiteral("cursor"))
                 .toString()
                 .isEmpty());
}

PH_WEBENGINE_TEST_MAIN(tst_McpTransports)
#include "tst_mcptransports.moc"
