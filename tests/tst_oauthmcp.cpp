// OAuth sign-in for MCP clients end to end: the official MCP TypeScript SDK client and its
// OAuthClientProvider (tests/mcp/oauth_mcp.mjs) against the real service on loopback. The
// script drives the consent page over HTTP, calls scrape with its access token, refreshes,
// sees its /mcp token refused on /config/mcp and refused everywhere after revocation.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyRepository.h"
#include "core/Store.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

class tst_OAuthMcp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theSdkClientSignsInCallsRefreshesAndIsRefusedAfterRevocation();
};

void tst_OAuthMcp::theSdkClientSignsInCallsRefreshesAndIsRefusedAfterRevocation()
{
    FixtureServer site;
    QVERIFY(site.start());
    site.page("/shop", "<!doctype html><html><head><meta charset=\"utf-8\"><title>Shop</title>"
                       "</head><body><p>Rope 12.50</p></body></html>");
    TestService ph;
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    // The client acts as a user key, not as the owner.
    const QString secret = ph.mintKey(100);
    const auto key = ph.service().store().apiKeys().findBySecret(secret);
    QVERIFY(key.has_value());

    const NodeResult run = runNodeScript(QStringLiteral(PILOTHOUSE_MCP_TEST_DIR),
                                         {QStringLiteral("oauth_mcp.mjs"), ph.base(), ph.ownerKey(),
                                          key->id, site.url(QStringLiteral("/shop"))},
                                         180000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject result = run.result();
    QCOMPARE(result.value(QStringLiteral("scrapeTitle")).toString(), QStringLiteral("Shop"));
    QCOMPARE(site.hits("/shop"), 1);

    // The owner sees the grant: the client's name, the key it acted as, revoked.
    const auto grants = ph.client().get(QStringLiteral("/oauth/grants"));
    QCOMPARE(grants.status, 200);
    const QJsonArray list = grants.json().value(QStringLiteral("grants")).toArray();
    QCOMPARE(list.size(), 1);
    const QJsonObject grant = list.first().toObject();
    QCOMPARE(grant.value(QStringLiteral("clientName")).toString(),
             QStringLiteral("SDK test client"));
    QCOMPARE(grant.value(QStringLiteral("clientId")).toString(),
             result.value(QStringLiteral("clientId")).toString());
    QCOMPARE(grant.value(QStringLiteral("keyId")).toString(), key->id);
    QCOMPARE(grant.value(QStringLiteral("resource")).toString(),
             ph.base() + QStringLiteral("/mcp"));
    QCOMPARE(grant.value(QStringLiteral("active")).toBool(true), false);
    QVERIFY(!grant.value(QStringLiteral("lastUsedAt")).toString().isEmpty());
    // No token is stored in clear.
    QVERIFY(!grants.body.contains("pho_at_"));
}

PH_WEBENGINE_TEST_MAIN(tst_OAuthMcp)
#include "tst_oauthmcp.moc"
