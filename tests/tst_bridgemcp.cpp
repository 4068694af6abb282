// The browser bridge's MCP face as an MCP client uses it: the official MCP TypeScript SDK
// client (tests/mcp/bridge_mcp.mjs) run by node against the real service, with a saved
// tool listed as user_<name> and a fixture page served by the test.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

class tst_BridgeMcp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theSdkClientListsAndCallsTools();
};

void tst_BridgeMcp::theSdkClientListsAndCallsTools()
{
    FixtureServer site;
    QVERIFY(site.start());
    site.page("/shop",
              "<!doctype html><html><head><meta charset=\"utf-8\"><title>Shop</title></head><body>"
              "<table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody><tr><td>Rope</td>"
              "<td>12.50</td></tr><tr><td>Fender</td><td>24.00</td></tr></tbody></table></body>"
              "</html>");
    TestService ph;
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    HttpClient owner = ph.client();
    const auto created =
        owner.post(QStringLiteral("/tools"),
                   QJsonDocument::fromJson(R"({"name":"prices","description":"Prices on a page",
            "parameters":{"type":"object","properties":{"page":{"type":"string"}},"required":["page"]},
            "steps":[{"tool":"act_on_tab","args":{"action":"navigate","url":"{{page}}"}},
                     {"tool":"crawl_and_extract_from_tab","args":{"schema":{"type":"array",
                       "items":{"type":"object","properties":{"name":{"type":"string"},
                       "price":{"type":"number"}}}}}}]})")
                       .object());
    QVERIFY2(created.status == 201, created.body.constData());

    const NodeResult run =
        runNodeScript(QStringLiteral(PILOTHOUSE_MCP_TEST_DIR),
                      {QStringLiteral("bridge_mcp.mjs"), ph.base() + QStringLiteral("/mcp"),
                       ph.ownerKey(), site.url(QStringLiteral("/shop"))},
                      180000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject result = run.result();
    QCOMPARE(result.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(result.value(QStringLiteral("scrapeTitle")).toString(), QStringLiteral("Shop"));
    // The SDK ended its session; the page was visited by both calls.
    QCOMPARE(site.hits("/shop"), 2);
}

PH_WEBENGINE_TEST_MAIN(tst_BridgeMcp)
#include "tst_bridgemcp.moc"
