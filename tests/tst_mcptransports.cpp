// Both MCP transport generations against the running service, each through its real SDK
// client (tests/mcp/transports_mcp.mjs): @modelcontextprotocol/sdk 1.32.2 on the 2025
// session transport and @modelcontextprotocol/client 2.4.0 on the 2026-07-28 stateless
// one, calling the same tool: the configuration MCP's list_sites and the browser
// bridge's scrape of a fixture page.
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

PH_WEBENGINE_TEST_MAIN(tst_McpTransports)
#include "tst_mcptransports.moc"
