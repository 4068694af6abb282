// The configuration MCP as an owner's AI uses it: the official MCP TypeScript SDK
// client (tests/mcp, @modelcontextprotocol/sdk) run by node against the real service.
#include "HttpClient.h"
#include "NodeScript.h"
#include "TestMain.h"
#include "TestService.h"

#include "sites/AnalyticsRepository.h"
#include "sites/ChangeRepository.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

class tst_ConfigMcp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void theSdkClientReadsValidatesAndProposes();

private:
    std::unique_ptr<TestService> m_ph;
};

void tst_ConfigMcp::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_ConfigMcp::cleanupTestCase()
{
    m_ph.reset();
}

void tst_ConfigMcp::theSdkClientReadsValidatesAndProposes()
{
    HttpClient owner = m_ph->client();
    const auto site = owner.post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Harbour")},
         {QStringLiteral("label"), QStringLiteral("embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("harbour.example")}}});
    QCOMPARE(site.status, 201);
    const QString siteId = site.json().value(QStringLiteral("siteId")).toString();
    const QString keyId = site.json()
                              .value(QStringLiteral("key"))
                              .toObject()
                              .value(QStringLiteral("keyId"))
                              .toString();
    const QString otherSiteId =
        owner
            .post(QStringLiteral("/generateSiteKey"),
                  {{QStringLiteral("siteName"), QStringLiteral("Elsewhere")},
                   {QStringLiteral("label"), QStringLiteral("embed")},
                   {QStringLiteral("allowedDomains"),
                    QJsonArray{QStringLiteral("elsewhere.example")}}})
            .json()
            .value(QStringLiteral("siteId"))
            .toString();
    QCOMPARE(
        owner
            .post(
                QStringLiteral("/upsertSiteConfig"),
                {{QStringLiteral("keyId"), keyId},
                 {QStringLiteral("siteConfig"),
                  QJsonObject{
                      {QStringLiteral("greeting"),
                       QJsonObject{
                           {QStringLiteral("text"), QStringLiteral("Welcome to the harbour")}}},
                      {QStringLiteral("shortcuts"),
                       QJsonArray{QJsonObject{
                           {QStringLiteral("id"), QStringLiteral("tour")},
                           {QStringLiteral("label"), QStringLiteral("Take the tour")},
                           {QStringLiteral("kind"), QStringLiteral("journey")},
                           {QStringLiteral("steps"),
                            QJsonArray{
                                QJsonObject{{QStringLiteral("title"), QStringLiteral("Docks")}},
                                QJsonObject{{QStringLiteral("title"), QStringLiteral("Shop")}}}}}}},
                      {QStringLiteral("knowledge"),
                       QJsonArray{
                           QJsonObject{{QStringLiteral("id"), QStringLiteral("hours")},
                                       {QStringLiteral("title"), QStringLiteral("Opening hours")},
                                       {QStringLiteral("body"), QStringLiteral("9 to 5")},
                                       {QStringLiteral("kind"), QStringLiteral("faq")}}}}}}})
            .status,
        200);
    auto &analytics = m_ph->service().sites().analytics();
    using C = sites::AnalyticsRepository::Collection;
    analytics.record(siteId, C::Visit, {{QStringLiteral("userId"), QStringLiteral("u1")}});
    analytics.record(siteId, C::Visit, {});
    analytics.record(siteId, C::Interaction,
                     {{QStringLiteral("summary"), QStringLiteral("asked")}});
    const QString key =
        owner.post(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), siteId}})
            .json()
            .value(QStringLiteral("key"))
            .toString();
    QVERIFY(key.startsWith(QLatin1String("ck_")));

    const NodeResult run =
        runNodeScript(QStringLiteral(PILOTHOUSE_MCP_TEST_DIR),
                      {QStringLiteral("config_mcp.mjs"),
                       m_ph->base() + QStringLiteral("/config/mcp"), key, siteId, otherSiteId},
                      120000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject result = run.result();
    QCOMPARE(result.value(QStringLiteral("ok")).toBool(), true);

    // What the client proposed is pending, by this Connect AI key, and nothing was applied.
    auto &changes = m_ph->service().sites().changes();
    for (const QString &field : {QStringLiteral("changeId"), QStringLiteral("journeyChangeId")}) {
        const auto change = changes.find(result.value(field).toString());
        QVERIFY(change);
        QCOMPARE(change->status, QStringLiteral("pending"));
        QCOMPARE(change->siteId, siteId);
        QVERIFY(change->author.startsWith(QLatin1String("connectKey:conn_")));
    }
    QCOMPARE(changes.pending(siteId, {}, 10).size(), 2);
    QCOMPARE(m_ph->service().sites().sites().config(siteId).version, 1);
    QCOMPARE(changes.pending(otherSiteId, {}, 10).size(), 0);
}

PH_WEBENGINE_TEST_MAIN(tst_ConfigMcp)
#include "tst_configmcp.moc"
