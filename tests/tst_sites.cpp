// The sites area through the real service: site keys, configuration, Connect AI keys,
// the configuration REST surface, proposals, analytics and site deletion.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/Store.h"
#include "sites/AnalyticsRepository.h"
#include "sites/ChangeRepository.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"

#include <QFile>
#include <QJsonArray>

using namespace ph;
using namespace ph::test;
using Collection = sites::AnalyticsRepository::Collection;

class tst_Sites : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void generatesASiteKeyAndItsSite();
    void refusesBadKeyRequests_data();
    void refusesBadKeyRequests();
    void expiresKeysAfterTtlDays();
    void updatesPolicyAndDisablesKeys();
    void rotationInvalidatesTheOldKeyAtOnce();
    void upsertsSiteConfigWithDefaults();
    void refusesBadSiteConfig_data();
    void refusesBadSiteConfig();
    void updatesApiKeyCapabilities();
    void refusesTheNinthConnectKey();
    void revokesAndRotatesConnectKeys();
    void scopesAConnectKeyToItsSite();
    void redactsReadsForTheOwnersAi();
    void proposalsAreIdempotentAndReportDroppedPaths();
    void appliesAProposalAndRecordsWho();
    void discardsAProposal();
    void reValidatesOnApply();
    void onlyTheOwnerAppliesOrDiscards();
    void draftsAJourney();
    void validatesWithoutWriting();
    void readsJourneysAndBriefs();
    void ingestsAnalyticsWithHashedJoinKeys();
    void keepsWebhookSecretsUnlessReplaced();
    void deletesASiteButKeepsItsHistory();
    void storesNoSecretInClear();

private:
    HttpResponse owner(const QString &path, const QJsonObject &body);
    HttpResponse as(const QString &key, const QByteArray &method, const QString &path,
                    const QJsonObject &body = {});
    QJsonObject newSite(const QString &name);
    QString connectKey(const QString &siteId);

    std::unique_ptr<TestService> m_ph;
    QStringList m_secrets; // every secret minted here, for storesNoSecretInClear
};

void tst_Sites::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_Sites::cleanupTestCase()
{
    m_ph.reset();
}

HttpResponse tst_Sites::owner(const QString &path, const QJsonObject &body)
{
    return m_ph->client().post(path, body);
}

HttpResponse tst_Sites::as(const QString &key, const QByteArray &method, const QString &path,
                           const QJsonObject &body)
{
    HttpClient c(m_ph->base());
    c.setBearer(key);
    return c.send(method, path,
                  method == "GET" ? QByteArray()
                                  : QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QJsonObject tst_Sites::newSite(const QString &name)
{
    const auto r =
        owner(QStringLiteral("/generateSiteKey"),
              {{QStringLiteral("siteName"), name},
               {QStringLiteral("label"), QStringLiteral("embed")},
               {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("example.com")}}});
    [&] { QCOMPARE(r.status, 201); }();
    return r.json();
}

QString tst_Sites::connectKey(const QString &siteId)
{
    const auto r = owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), siteId}});
    [&] { QCOMPARE(r.status, 201); }();
    const QString key = r.json().value(QStringLiteral("key")).toString();
    m_secrets.append(key);
    return key;
}

void tst_Sites::generatesASiteKeyAndItsSite()
{
    const auto r = owner(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Harbour Supplies")},
         {QStringLiteral("label"), QStringLiteral("production embed")},
         {QStringLiteral("allowedDomains"),
          QJsonArray{QStringLiteral("Harbour.example"), QStringLiteral("*.shop.harbour.example"),
                     QStringLiteral("https://harbour.example/x")}},
         {QStringLiteral("environment"), QStringLiteral("development")},
         {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("cloudScrape"), true}}},
         {QStringLiteral("sitePolicy"),
          QJsonObject{{QStringLiteral("domainScopeMode"), QStringLiteral("exact_host")},
                      {QStringLiteral("cloudSandboxEnabled"), true}}}});
    QCOMPARE(r.status, 201);
    const QJsonObject body = r.json();
    QVERIFY(body.value(QStringLiteral("siteCreated")).toBool());
    const QJsonObject key = body.value(QStringLiteral("key")).toObject();
    const QString pk = key.value(QStringLiteral("publicKey")).toString();
    QVERIFY(pk.startsWith(QLatin1String("pk_site_")));
    QCOMPARE(
        key.value(QStringLiteral("allowedDomains")).toArray(),
        (QJsonArray{QStringLiteral("harbour.example"), QStringLiteral("*.shop.harbour.example")}));
    QCOMPARE(key.value(QStringLiteral("environment")).toString(), QStringLiteral("development"));
    QCOMPARE(key.value(QStringLiteral("ttlDays")).toInt(), 0);
    QVERIFY(key.value(QStringLiteral("expiresAt")).isNull());
    const QJsonObject caps = key.value(QStringLiteral("capabilities")).toObject();
    QCOMPARE(caps.value(QStringLiteral("cloudScrape")).toBool(), true);
    QCOMPARE(caps.value(QStringLiteral("embed")).toBool(), true); // default kept
    const QJsonObject policy = key.value(QStringLiteral("sitePolicy")).toObject();
    QCOMPARE(policy.value(QStringLiteral("domainScopeMode")).toString(),
             QStringLiteral("exact_host"));
    QCOMPARE(policy.value(QStringLiteral("siteMode")).toString(), QStringLiteral("live"));

    // The key as later surfaces see it: usable, and deciding by its own policy.
    const auto stored = m_ph->service().sites().sites().findUsableKeyByPublicKey(pk);
    QVERIFY(stored);
    const qint64 now = m_ph->service().clock().nowMs();
    QVERIFY(stored->allowsUrl(QStringLiteral("https://harbour.example/"), now));
    QVERIFY(!stored->allowsUrl(QStringLiteral("https://www.harbour.example/"), now)); // exact_host
    QVERIFY(stored->allowsUrl(QStringLiteral("https://a.shop.harbour.example/"), now));
    QVERIFY(stored->capability(QStringLiteral("cloudScrape")));

    // A second key for the same site by name reuses the site.
    const auto again = owner(QStringLiteral("/generateSiteKey"),
                             {{QStringLiteral("siteName"), QStringLiteral("Harbour Supplies")},
                              {QStringLiteral("label"), QStringLiteral("staging")},
                              {QStringLiteral("allowedDomains"),
                               QJsonArray{QStringLiteral("staging.harbour.example")}}});
    QCOMPARE(again.status, 201);
    QCOMPARE(again.json().value(QStringLiteral("siteId")), body.value(QStringLiteral("siteId")));
    QCOMPARE(again.json().value(QStringLiteral("siteCreated")).toBool(), false);
    const auto list = owner(QStringLiteral("/listSiteKeys"), {});
    QCOMPARE(list.status, 200);
    bool found = false;
    for (const QJsonValue &s : list.json().value(QStringLiteral("sites")).toArray()) {
        if (s.toObject().value(QStringLiteral("siteId")) == body.value(QStringLiteral("siteId"))) {
            QCOMPARE(s.toObject().value(QStringLiteral("keys")).toArray().size(), 2);
            found = true;
        }
    }
    QVERIFY(found);
}

void tst_Sites::refusesBadKeyRequests_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");
    const QJsonObject ok{
        {QStringLiteral("siteName"), QStringLiteral("Refusals")},
        {QStringLiteral("label"), QStringLiteral("k")},
        {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("example.com")}}};
    auto with = [&](const QString &key, const QJsonValue &v) {
        QJsonObject o = ok;
        if (v.isUndefined())
            o.remove(key);
        else
            o.insert(key, v);
        return o;
    };
    QTest::newRow("refuses a key without a label")
        << with(QStringLiteral("label"), QJsonValue::Undefined) << 400 << "label";
    QTest::newRow("refuses a key without allowed domains")
        << with(QStringLiteral("allowedDomains"), QJsonValue::Undefined) << 400 << "allowedDomains";
    QTest::newRow("refuses an empty list of allowed domains")
        << with(QStringLiteral("allowedDomains"), QJsonArray()) << 400 << "allowedDomains";
    QTest::newRow("refuses a public suffix as an allowed domain")
        << with(QStringLiteral("allowedDomains"),
                QJsonArray{QStringLiteral("ok.example"), QStringLiteral("co.uk")})
        << 400 << "allowedDomains[1]";
    QTest::newRow("refuses a key without siteId or siteName")
        << with(QStringLiteral("siteName"), QJsonValue::Undefined) << 400 << "siteId";
    QTest::newRow("refuses siteId and siteName together")
        << with(QStringLiteral("siteId"), QStringLiteral("site_x")) << 400 << "siteName";
    QTest::newRow("refuses an unknown site id")
        << QJsonObject{{QStringLiteral("siteId"), QStringLiteral("site_unknown")},
                       {QStringLiteral("label"), QStringLiteral("k")},
                       {QStringLiteral("allowedDomains"),
                        QJsonArray{QStringLiteral("example.com")}}}
        << 404 << "siteId";
    QTest::newRow("refuses an unknown capability")
        << with(QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("teleport"), true}})
        << 400 << "capabilities.teleport";
    QTest::newRow("refuses a capability that is not a boolean")
        << with(QStringLiteral("capabilities"),
                QJsonObject{{QStringLiteral("embed"), QStringLiteral("yes")}})
        << 400 << "capabilities.embed";
    QTest::newRow("refuses an unknown site policy field")
        << with(QStringLiteral("sitePolicy"), QJsonObject{{QStringLiteral("colour"), 1}}) << 400
        << "sitePolicy.colour";
    QTest::newRow("refuses an unknown domain scope mode")
        << with(QStringLiteral("sitePolicy"),
                QJsonObject{{QStringLiteral("domainScopeMode"), QStringLiteral("tld")}})
        << 400 << "sitePolicy.domainScopeMode";
    QTest::newRow("refuses an unknown environment")
        << with(QStringLiteral("environment"), QStringLiteral("staging")) << 400 << "environment";
    QTest::newRow("refuses negative ttlDays")
        << with(QStringLiteral("ttlDays"), -1) << 400 << "ttlDays";
    QTest::newRow("refuses an unknown top-level field")
        << with(QStringLiteral("colour"), QStringLiteral("red")) << 400 << "colour";
}

void tst_Sites::refusesBadKeyRequests()
{
    QFETCH(QJsonObject, body);
    QFETCH(int, status);
    QFETCH(QString, field);
    const auto r = owner(QStringLiteral("/generateSiteKey"), body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
    QVERIFY(!r.json().value(QStringLiteral("code")).toString().isEmpty());
}

void tst_Sites::expiresKeysAfterTtlDays()
{
    const auto r =
        owner(QStringLiteral("/generateSiteKey"),
              {{QStringLiteral("siteName"), QStringLiteral("Short lived")},
               {QStringLiteral("label"), QStringLiteral("week")},
               {QStringLiteral("ttlDays"), 7},
               {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("example.net")}}});
    QCOMPARE(r.status, 201);
    const QJsonObject key = r.json().value(QStringLiteral("key")).toObject();
    QVERIFY(!key.value(QStringLiteral("expiresAt")).isNull());
    const auto stored =
        m_ph->service().sites().sites().findKey(key.value(QStringLiteral("keyId")).toString());
    QVERIFY(stored && stored->expiresAt);
    QCOMPARE(*stored->expiresAt - stored->createdAt, qint64(7) * 86'400'000);
    QVERIFY(stored->isUsable(stored->createdAt + qint64(7) * 86'400'000 - 1));
    QVERIFY(!stored->isUsable(*stored->expiresAt));
    QVERIFY(!stored->allowsUrl(QStringLiteral("https://example.net/"), *stored->expiresAt + 1));
}

void tst_Sites::updatesPolicyAndDisablesKeys()
{
    const QJsonObject site = newSite(QStringLiteral("Policy site"));
    const QJsonObject key = site.value(QStringLiteral("key")).toObject();
    const QString keyId = key.value(QStringLiteral("keyId")).toString();
    const QString pk = key.value(QStringLiteral("publicKey")).toString();
    auto r =
        owner(QStringLiteral("/updateSiteKeyPolicy"),
              {{QStringLiteral("keyId"), keyId},
               {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("=app.example.org")}},
               {QStringLiteral("sitePolicy"),
                QJsonObject{{QStringLiteral("cloudSandboxEnabled"), true}}}});
    QCOMPARE(r.status, 200);
    const QJsonObject updated = r.json().value(QStringLiteral("key")).toObject();
    QCOMPARE(updated.value(QStringLiteral("allowedDomains")).toArray(),
             QJsonArray{QStringLiteral("=app.example.org")});
    const QJsonObject policy = updated.value(QStringLiteral("sitePolicy")).toObject();
    QCOMPARE(policy.value(QStringLiteral("cloudSandboxEnabled")).toBool(), true);
    QCOMPARE(policy.value(QStringLiteral("domainScopeMode")).toString(),
             QStringLiteral("registrable_domain")); // partial: the rest is kept
    QVERIFY(m_ph->service().sites().sites().findUsableKeyByPublicKey(pk));

    r = owner(QStringLiteral("/updateSiteKeyPolicy"),
              {{QStringLiteral("keyId"), keyId}, {QStringLiteral("active"), false}});
    QCOMPARE(r.status, 200);
    QCOMPARE(
        r.json().value(QStringLiteral("key")).toObject().value(QStringLiteral("active")).toBool(),
        false);
    QVERIFY(!m_ph->service().sites().sites().findUsableKeyByPublicKey(pk));
    r = owner(QStringLiteral("/updateSiteKeyPolicy"),
              {{QStringLiteral("keyId"), keyId},
               {QStringLiteral("siteId"), QStringLiteral("site_other")},
               {QStringLiteral("active"), true}});
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("keyId"));
}

void tst_Sites::rotationInvalidatesTheOldKeyAtOnce()
{
    const QJsonObject site = newSite(QStringLiteral("Rotation site"));
    const QJsonObject key = site.value(QStringLiteral("key")).toObject();
    const QString oldPk = key.value(QStringLiteral("publicKey")).toString();
    const auto r = owner(QStringLiteral("/rotateSiteKey"),
                         {{QStringLiteral("keyId"), key.value(QStringLiteral("keyId"))},
                          {QStringLiteral("label"), QStringLiteral("rotated")}});
    QCOMPARE(r.status, 200);
    const QJsonObject rotated = r.json().value(QStringLiteral("key")).toObject();
    const QString newPk = rotated.value(QStringLiteral("publicKey")).toString();
    QVERIFY(newPk.startsWith(QLatin1String("pk_site_")));
    QVERIFY(newPk != oldPk);
    QCOMPARE(rotated.value(QStringLiteral("label")).toString(), QStringLiteral("rotated"));
    QVERIFY(!rotated.value(QStringLiteral("rotatedAt")).isNull());
    QVERIFY(!m_ph->service().sites().sites().findUsableKeyByPublicKey(oldPk));
    QVERIFY(m_ph->service().sites().sites().findUsableKeyByPublicKey(newPk));
}

void tst_Sites::upsertsSiteConfigWithDefaults()
{
    const QJsonObject site = newSite(QStringLiteral("Config site"));
    const QString keyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    auto r = owner(QStringLiteral("/getSiteConfig"), {{QStringLiteral("keyId"), keyId}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("version")).toInt(), 0);
    QCOMPARE(r.json().value(QStringLiteral("siteConfig")).toObject(), QJsonObject());
    const QJsonObject defaults = r.json().value(QStringLiteral("effective")).toObject();
    QCOMPARE(defaults.value(QStringLiteral("experience"))
                 .toObject()
                 .value(QStringLiteral("anchor"))
                 .toString(),
             QStringLiteral("bottom-center"));
    QCOMPARE(defaults.value(QStringLiteral("experience"))
                 .toObject()
                 .value(QStringLiteral("liveActionMode"))
                 .toString(),
             QStringLiteral("transparent"));
    QCOMPARE(defaults.value(QStringLiteral("pageConfig"))
                 .toObject()
                 .value(QStringLiteral("disableAutoScroll"))
                 .toBool(),
             true);

    const QJsonObject config{
        {QStringLiteral("businessType"), QStringLiteral("ecommerce")},
        {QStringLiteral("greeting"), QJsonObject{{QStringLiteral("text"), QStringLiteral("Ahoy")},
                                                 {QStringLiteral("delay"), 1500}}},
        {QStringLiteral("voice"), QJsonObject{{QStringLiteral("enabled"), true},
                                              {QStringLiteral("language"), QStringLiteral("en-GB")},
                                              {QStringLiteral("autoStopMs"), 900}}},
        {QStringLiteral("experience"),
         QJsonObject{{QStringLiteral("anchor"), QStringLiteral("bottom-right")}}},
        {QStringLiteral("pageConfig"),
         QJsonObject{{QStringLiteral("adaptiveSettleMaxWaitMs"), 2500}}},
        {QStringLiteral("analytics"),
         QJsonObject{{QStringLiteral("enabled"), true},
                     {QStringLiteral("consent"),
                      QJsonObject{{QStringLiteral("provider"), QStringLiteral("wix")},
                                  {QStringLiteral("category"), QStringLiteral("analytics")}}}}},
        {QStringLiteral("shortcuts"),
         QJsonArray{
             QJsonObject{{QStringLiteral("id"), QStringLiteral("track-order")},
                         {QStringLiteral("label"), QStringLiteral("Track my order")},
                         {QStringLiteral("prompt"), QStringLiteral("Find my last order")}}}}};
    r = owner(QStringLiteral("/upsertSiteConfig"),
              {{QStringLiteral("keyId"), keyId}, {QStringLiteral("siteConfig"), config}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(r.json().value(QStringLiteral("siteConfig")).toObject(), config);
    const QJsonObject effective = r.json().value(QStringLiteral("effective")).toObject();
    const QJsonObject experience = effective.value(QStringLiteral("experience")).toObject();
    QCOMPARE(experience.value(QStringLiteral("anchor")).toString(), QStringLiteral("bottom-right"));
    QCOMPARE(experience.value(QStringLiteral("liveCardCount")).toInt(),
             3); // default under a set field
    QCOMPARE(effective.value(QStringLiteral("pageConfig"))
                 .toObject()
                 .value(QStringLiteral("disableAutoScroll"))
                 .toBool(),
             true);

    // Absent fields stay; null clears one back to its default.
    r = owner(QStringLiteral("/upsertSiteConfig"),
              {{QStringLiteral("keyId"), keyId},
               {QStringLiteral("siteConfig"),
                QJsonObject{{QStringLiteral("voice"), QJsonValue()},
                            {QStringLiteral("businessType"), QStringLiteral("saas")}}}});
    QCOMPARE(r.status, 200);
    const QJsonObject stored = r.json().value(QStringLiteral("siteConfig")).toObject();
    QVERIFY(!stored.contains(QStringLiteral("voice")));
    QCOMPARE(stored.value(QStringLiteral("businessType")).toString(), QStringLiteral("saas"));
    QCOMPARE(stored.value(QStringLiteral("greeting")), config.value(QStringLiteral("greeting")));
    QCOMPARE(r.json()
                 .value(QStringLiteral("effective"))
                 .toObject()
                 .value(QStringLiteral("voice"))
                 .toObject()
                 .value(QStringLiteral("enabled"))
                 .toBool(),
             false);
    QCOMPARE(r.json().value(QStringLiteral("version")).toInt(), 2);
}

void tst_Sites::refusesBadSiteConfig_data()
{
    QTest::addColumn<QJsonObject>("siteConfig");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses an unknown top-level field")
        << QJsonObject{{QStringLiteral("colour"), QStringLiteral("red")}} << "UNKNOWN_FIELD"
        << "siteConfig.colour";
    QTest::newRow("refuses an unknown nested field")
        << QJsonObject{{QStringLiteral("greeting"), QJsonObject{{QStringLiteral("sparkle"), true}}}}
        << "UNKNOWN_FIELD"
        << "siteConfig.greeting.sparkle";
    QTest::newRow("refuses a number out of range")
        << QJsonObject{{QStringLiteral("voice"), QJsonObject{{QStringLiteral("autoStopMs"), 5}}}}
        << "INVALID_FIELD"
        << "siteConfig.voice.autoStopMs";
    QTest::newRow("refuses a wrong type")
        << QJsonObject{{QStringLiteral("pageConfig"),
                        QJsonObject{{QStringLiteral("disableAutoScroll"), QStringLiteral("no")}}}}
        << "INVALID_FIELD"
        << "siteConfig.pageConfig.disableAutoScroll";
    QTest::newRow("refuses an unknown business type")
        << QJsonObject{{QStringLiteral("businessType"), QStringLiteral("pirate")}}
        << "INVALID_FIELD"
        << "siteConfig.businessType";
    QTest::newRow("refuses a shortcut without a label")
        << QJsonObject{{QStringLiteral("shortcuts"),
                        QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("a")}}}}}
        << "MISSING_FIELD"
        << "siteConfig.shortcuts[0].label";
    QTest::newRow("refuses two shortcuts with one id")
        << QJsonObject{{QStringLiteral("shortcuts"),
                        QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("a")},
                                               {QStringLiteral("label"), QStringLiteral("A")}},
                                   QJsonObject{{QStringLiteral("id"), QStringLiteral("a")},
                                               {QStringLiteral("label"), QStringLiteral("B")}}}}}
        << "DUPLICATE_ID"
        << "siteConfig.shortcuts[1].id";
    QTest::newRow("refuses a consent provider other than wix")
        << QJsonObject{{QStringLiteral("analytics"),
                        QJsonObject{
                            {QStringLiteral("consent"),
                             QJsonObject{
                                 {QStringLiteral("provider"), QStringLiteral("other")},
                                 {QStringLiteral("category"), QStringLiteral("analytics")}}}}}}
        << "INVALID_FIELD"
        << "siteConfig.analytics.consent.provider";
    QTest::newRow("refuses a manifest URL that is not http")
        << QJsonObject{{QStringLiteral("agentDiscovery"),
                        QJsonObject{{QStringLiteral("siteManifestUrl"),
                                     QStringLiteral("ftp://x.example/m")}}}}
        << "INVALID_FIELD"
        << "siteConfig.agentDiscovery.siteManifestUrl";
    QTest::newRow("refuses a knowledge entry of an unknown kind")
        << QJsonObject{{QStringLiteral("knowledge"),
                        QJsonArray{
                            QJsonObject{{QStringLiteral("id"), QStringLiteral("k")},
                                        {QStringLiteral("title"), QStringLiteral("T")},
                                        {QStringLiteral("body"), QStringLiteral("B")},
                                        {QStringLiteral("kind"), QStringLiteral("gossip")}}}}}
        << "INVALID_FIELD"
        << "siteConfig.knowledge[0].kind";
}

void tst_Sites::refusesBadSiteConfig()
{
    QFETCH(QJsonObject, siteConfig);
    QFETCH(QString, code);
    QFETCH(QString, field);
    static QString keyId;
    if (keyId.isEmpty())
        keyId = newSite(QStringLiteral("Bad config site"))
                    .value(QStringLiteral("key"))
                    .toObject()
                    .value(QStringLiteral("keyId"))
                    .toString();
    const auto r =
        owner(QStringLiteral("/upsertSiteConfig"),
              {{QStringLiteral("keyId"), keyId}, {QStringLiteral("siteConfig"), siteConfig}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
    // Nothing was written.
    const auto get = owner(QStringLiteral("/getSiteConfig"), {{QStringLiteral("keyId"), keyId}});
    QCOMPARE(get.json().value(QStringLiteral("version")).toInt(), 0);
}

void tst_Sites::updatesApiKeyCapabilities()
{
    const QJsonObject site = newSite(QStringLiteral("Caps site"));
    const QString siteKeyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    auto r = owner(QStringLiteral("/updateApiKeyCapabilities"),
                   {{QStringLiteral("keyId"), siteKeyId},
                    {QStringLiteral("capabilities"),
                     QJsonObject{{QStringLiteral("externalWebContextScrape"), true},
                                 {QStringLiteral("embed"), false}}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("keyType")).toString(), QStringLiteral("site"));
    const auto stored = m_ph->service().sites().sites().findKey(siteKeyId);
    QVERIFY(stored->capability(QStringLiteral("externalWebContextScrape")));
    QVERIFY(!stored->capability(QStringLiteral("embed")));
    QVERIFY(stored->capability(QStringLiteral("cloudAgent"))); // untouched by the patch

    const QString userKey = m_ph->mintKey(10);
    const QString userKeyId = m_ph->service().store().apiKeys().findBySecret(userKey)->id;
    r = owner(
        QStringLiteral("/updateApiKeyCapabilities"),
        {{QStringLiteral("keyId"), userKeyId},
         {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("cloudScrape"), false}}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("keyType")).toString(), QStringLiteral("user"));
    QCOMPARE(m_ph->service()
                 .sites()
                 .sites()
                 .apiKeyCapabilities(userKeyId)
                 ->value(QStringLiteral("cloudScrape"))
                 .toBool(),
             false);
    // The capability is enforced: /scrape is refused before the body is read, while
    // /agent (cloudAgent still on) reaches its own validation.
    r = as(userKey, "POST", QStringLiteral("/scrape"), {});
    QCOMPARE(r.status, 403);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("CAPABILITY_DISABLED"));
    r = as(userKey, "POST", QStringLiteral("/agent"), {});
    QCOMPARE(r.status, 400);
    r = owner(
        QStringLiteral("/updateApiKeyCapabilities"),
        {{QStringLiteral("keyId"), userKeyId},
         {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("cloudScrape"), true},
                                                      {QStringLiteral("cloudAgent"), false}}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(as(userKey, "POST", QStringLiteral("/scrape"), {}).status, 400);
    QCOMPARE(as(userKey, "POST", QStringLiteral("/execute"), {}).status, 403);
    // The owner's key carries no capabilities and is never refused.
    QCOMPARE(owner(QStringLiteral("/agent"), {}).status, 400);

    const QString ownerKeyId = m_ph->service().store().apiKeys().findBySecret(m_ph->ownerKey())->id;
    r = owner(
        QStringLiteral("/updateApiKeyCapabilities"),
        {{QStringLiteral("keyId"), ownerKeyId},
         {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("cloudScrape"), false}}}});
    QCOMPARE(r.status, 400);
    r = owner(
        QStringLiteral("/updateApiKeyCapabilities"),
        {{QStringLiteral("keyId"), QStringLiteral("key_nope")},
         {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("cloudScrape"), false}}}});
    QCOMPARE(r.status, 404);
    r = owner(QStringLiteral("/updateApiKeyCapabilities"),
              {{QStringLiteral("keyId"), siteKeyId},
               {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("embed"), 1}}}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("capabilities.embed"));
}

void tst_Sites::refusesTheNinthConnectKey()
{
    const QString siteId =
        newSite(QStringLiteral("Eight connections")).value(QStringLiteral("siteId")).toString();
    for (int i = 0; i < 8; ++i) {
        const auto r = owner(QStringLiteral("/createConnectKey"),
                             {{QStringLiteral("siteId"), siteId},
                              {QStringLiteral("label"), QStringLiteral("agent %1").arg(i)}});
        QCOMPARE(r.status, 201);
        const QString key = r.json().value(QStringLiteral("key")).toString();
        QVERIFY(key.startsWith(QLatin1String("ck_")));
        m_secrets.append(key);
        QCOMPARE(r.json().value(QStringLiteral("activeConnectKeys")).toInt(), i + 1);
    }
    const auto ninth =
        owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), siteId}});
    QCOMPARE(ninth.status, 409);
    QCOMPARE(ninth.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("CONNECT_KEY_LIMIT"));
    QCOMPARE(ninth.json()
                 .value(QStringLiteral("details"))
                 .toObject()
                 .value(QStringLiteral("limit"))
                 .toInt(),
             8);
    QVERIFY(!ninth.body.contains("ck_"));
    const auto list =
        owner(QStringLiteral("/listConnectKeys"), {{QStringLiteral("siteId"), siteId}});
    QCOMPARE(list.json().value(QStringLiteral("connectKeys")).toArray().size(), 8);
    QCOMPARE(list.json().value(QStringLiteral("activeConnectKeys")).toInt(), 8);
    // Another site is not limited by this one.
    const QString other =
        newSite(QStringLiteral("Ninth elsewhere")).value(QStringLiteral("siteId")).toString();
    QCOMPARE(owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), other}}).status,
             201);
    // Revoking one makes room for one.
    const QString first = list.json()
                              .value(QStringLiteral("connectKeys"))
                              .toArray()
                              .at(0)
                              .toObject()
                              .value(QStringLiteral("keyId"))
                              .toString();
    QCOMPARE(owner(QStringLiteral("/revokeConnectKey"), {{QStringLiteral("keyId"), first}}).status,
             200);
    const auto again =
        owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), siteId}});
    QCOMPARE(again.status, 201);
    m_secrets.append(again.json().value(QStringLiteral("key")).toString());
    QCOMPARE(
        owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), siteId}}).status,
        409);
}

void tst_Sites::revokesAndRotatesConnectKeys()
{
    const QString siteId =
        newSite(QStringLiteral("Revocation site")).value(QStringLiteral("siteId")).toString();
    const auto created =
        owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), siteId}});
    const QString key = created.json().value(QStringLiteral("key")).toString();
    const QString keyId = created.json()
                              .value(QStringLiteral("connectKey"))
                              .toObject()
                              .value(QStringLiteral("keyId"))
                              .toString();
    m_secrets.append(key);
    const QString sitesPath = QStringLiteral("/config/v1/sites");
    QCOMPARE(as(key, "GET", sitesPath).status, 200);
    // The list never shows the secret, only its prefix.
    const auto list =
        owner(QStringLiteral("/listConnectKeys"), {{QStringLiteral("siteId"), siteId}});
    QVERIFY(!list.body.contains(key.toUtf8()));
    QCOMPARE(list.json()
                 .value(QStringLiteral("connectKeys"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("prefix"))
                 .toString(),
             key.left(10));

    const auto rotated =
        owner(QStringLiteral("/rotateConnectKey"), {{QStringLiteral("keyId"), keyId}});
    QCOMPARE(rotated.status, 201);
    const QString next = rotated.json().value(QStringLiteral("key")).toString();
    m_secrets.append(next);
    QVERIFY(next != key);
    QCOMPARE(as(key, "GET", sitesPath).status, 401);
    QCOMPARE(as(next, "GET", sitesPath).status, 200);

    const QString nextId = rotated.json()
                               .value(QStringLiteral("connectKey"))
                               .toObject()
                               .value(QStringLiteral("keyId"))
                               .toString();
    QCOMPARE(owner(QStringLiteral("/revokeConnectKey"), {{QStringLiteral("keyId"), nextId}}).status,
             200);
    const auto denied = as(next, "GET", sitesPath);
    QCOMPARE(denied.status, 401);
    QCOMPARE(denied.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("INVALID_CONNECT_KEY"));
    QCOMPARE(owner(QStringLiteral("/revokeConnectKey"),
                   {{QStringLiteral("keyId"), QStringLiteral("conn_nope")}})
                 .status,
             404);
}

void tst_Sites::scopesAConnectKeyToItsSite()
{
    const QString mine =
        newSite(QStringLiteral("Scoped mine")).value(QStringLiteral("siteId")).toString();
    const QString theirs =
        newSite(QStringLiteral("Scoped theirs")).value(QStringLiteral("siteId")).toString();
    const QString key = connectKey(mine);
    const auto sites = as(key, "GET", QStringLiteral("/config/v1/sites"));
    QCOMPARE(sites.status, 200);
    const QJsonArray list = sites.json().value(QStringLiteral("sites")).toArray();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.at(0).toObject().value(QStringLiteral("siteId")).toString(), mine);
    QCOMPARE(as(key, "GET", QStringLiteral("/config/v1/sites/%1/config").arg(mine)).status, 200);
    // Another site, existing or not, is 404 alike: ids cannot be probed.
    const auto other = as(key, "GET", QStringLiteral("/config/v1/sites/%1/config").arg(theirs));
    const auto missing =
        as(key, "GET", QStringLiteral("/config/v1/sites/site_doesnotexist/config"));
    QCOMPARE(other.status, 404);
    QCOMPARE(missing.status, 404);
    QCOMPARE(other.json().value(QStringLiteral("code")),
             missing.json().value(QStringLiteral("code")));
    QCOMPARE(as(key, "POST", QStringLiteral("/config/v1/sites/%1/changes").arg(theirs),
                {{QStringLiteral("patch"),
                  QJsonObject{{QStringLiteral("businessType"), QStringLiteral("saas")}}},
                 {QStringLiteral("title"), QStringLiteral("t")},
                 {QStringLiteral("clientRequestId"), QStringLiteral("x")}})
                 .status,
             404);
    // The owner sees both.
    const auto all = m_ph->client().get(QStringLiteral("/config/v1/sites"));
    QVERIFY(all.json().value(QStringLiteral("sites")).toArray().size() >= 2);
}

void tst_Sites::redactsReadsForTheOwnersAi()
{
    const QJsonObject site = newSite(QStringLiteral("Redaction site"));
    const QString siteId = site.value(QStringLiteral("siteId")).toString();
    const QString keyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    const QString manifest = QStringLiteral(
        "https://owner:hunter2pass@cdn.example.com/manifest.json?token=sekrit-token-123&v=2");
    QCOMPARE(owner(QStringLiteral("/upsertSiteConfig"),
                   {{QStringLiteral("keyId"), keyId},
                    {QStringLiteral("siteConfig"),
                     QJsonObject{{QStringLiteral("agentDiscovery"),
                                  QJsonObject{{QStringLiteral("siteManifestUrl"), manifest}}}}}})
                 .status,
             200);
    const QString key = connectKey(siteId);
    const auto r = as(
        key, "GET", QStringLiteral("/config/v1/sites/%1/config?fields=agentDiscovery").arg(siteId));
    QCOMPARE(r.status, 200);
    QVERIFY(!r.body.contains("sekrit-token-123"));
    QVERIFY(!r.body.contains("hunter2pass"));
    const QJsonObject config = r.json().value(QStringLiteral("config")).toObject();
    QCOMPARE(config.keys(), QStringList{QStringLiteral("agentDiscovery")});
    QCOMPARE(config.value(QStringLiteral("agentDiscovery"))
                 .toObject()
                 .value(QStringLiteral("siteManifestUrl"))
                 .toString(),
             QStringLiteral("https://cdn.example.com/manifest.json?v=2"));
    // The owner's own read shows what the owner stored.
    const auto mine = owner(QStringLiteral("/getSiteConfig"), {{QStringLiteral("keyId"), keyId}});
    QVERIFY(mine.body.contains("sekrit-token-123"));
    const auto bad =
        as(key, "GET", QStringLiteral("/config/v1/sites/%1/config?fields=colour").arg(siteId));
    QCOMPARE(bad.status, 400);
    QCOMPARE(bad.json().value(QStringLiteral("field")).toString(), QStringLiteral("fields[0]"));
}

void tst_Sites::proposalsAreIdempotentAndReportDroppedPaths()
{
    const QString siteId =
        newSite(QStringLiteral("Proposal site")).value(QStringLiteral("siteId")).toString();
    const QString key = connectKey(siteId);
    const QString path = QStringLiteral("/config/v1/sites/%1/changes").arg(siteId);
    const QJsonObject body{
        {QStringLiteral("patch"),
         QJsonObject{
             {QStringLiteral("greeting"),
              QJsonObject{{QStringLiteral("text"), QStringLiteral("Welcome aboard")},
                          {QStringLiteral("sparkle"), true}}},
             {QStringLiteral("colour"), QStringLiteral("teal")},
             {QStringLiteral("aiAccess"), QJsonObject{{QStringLiteral("enabled"), false}}},
             {QStringLiteral("knowledge"),
              QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("returns")},
                                     {QStringLiteral("title"), QStringLiteral("Returns")},
                                     {QStringLiteral("body"), QStringLiteral("30 days, free.")},
                                     {QStringLiteral("kind"), QStringLiteral("policy")}}}}}},
        {QStringLiteral("title"), QStringLiteral("Friendlier greeting")},
        {QStringLiteral("description"),
         QStringLiteral("Visitors respond better to a warm welcome.")},
        {QStringLiteral("clientRequestId"), QStringLiteral("req-42")}};
    const auto first = as(key, "POST", path, body);
    QCOMPARE(first.status, 201);
    const QJsonObject change = first.json();
    const QString changeId = change.value(QStringLiteral("changeId")).toString();
    QVERIFY(changeId.startsWith(QLatin1String("chg_")));
    QCOMPARE(change.value(QStringLiteral("status")).toString(), QStringLiteral("pending"));
    QVERIFY(change.value(QStringLiteral("reviewUrl"))
                .toString()
                .endsWith(QStringLiteral("/review/changes/") + changeId));
    QStringList dropped;
    for (const QJsonValue &d : change.value(QStringLiteral("droppedPaths")).toArray())
        dropped.append(d.toString());
    dropped.sort();
    QCOMPARE(dropped, (QStringList{QStringLiteral("patch.aiAccess"), QStringLiteral("patch.colour"),
                                   QStringLiteral("patch.greeting.sparkle")}));
    const QJsonObject patch = change.value(QStringLiteral("patch")).toObject();
    QCOMPARE(patch.keys(), (QStringList{QStringLiteral("greeting"), QStringLiteral("knowledge")}));

    // A retry with the same clientRequestId returns the same change, even with another body.
    QJsonObject retryBody = body;
    retryBody.insert(QStringLiteral("title"), QStringLiteral("Retried"));
    const auto retry = as(key, "POST", path, retryBody);
    QCOMPARE(retry.status, 200);
    QCOMPARE(retry.json().value(QStringLiteral("changeId")).toString(), changeId);
    QCOMPARE(retry.json().value(QStringLiteral("title")).toString(),
             QStringLiteral("Friendlier greeting"));
    QCOMPARE(retry.json().value(QStringLiteral("replayed")).toBool(), true);
    auto pending = as(key, "GET", path);
    QCOMPARE(pending.json().value(QStringLiteral("changes")).toArray().size(), 1);

    QJsonObject other = body;
    other.insert(QStringLiteral("clientRequestId"), QStringLiteral("req-43"));
    const auto second = as(key, "POST", path, other);
    QCOMPARE(second.status, 201);
    QVERIFY(second.json().value(QStringLiteral("changeId")).toString() != changeId);
    pending = as(key, "GET", path + QStringLiteral("?limit=1"));
    QCOMPARE(pending.json().value(QStringLiteral("changes")).toArray().size(), 1);
    const QString cursor = pending.json().value(QStringLiteral("nextCursor")).toString();
    QCOMPARE(cursor, changeId);
    pending = as(key, "GET", path + QStringLiteral("?limit=1&cursor=") + cursor);
    QCOMPARE(pending.json()
                 .value(QStringLiteral("changes"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("changeId")),
             second.json().value(QStringLiteral("changeId")));
    QVERIFY(pending.json().value(QStringLiteral("nextCursor")).isNull());

    // Nothing was applied by proposing.
    QCOMPARE(m_ph->service().sites().sites().config(siteId).version, 0);

    const auto empty = as(key, "POST", path,
                          {{QStringLiteral("patch"), QJsonObject{{QStringLiteral("colour"), 1}}},
                           {QStringLiteral("title"), QStringLiteral("Nothing")},
                           {QStringLiteral("clientRequestId"), QStringLiteral("req-44")}});
    QCOMPARE(empty.status, 400);
    QCOMPARE(empty.json().value(QStringLiteral("code")).toString(), QStringLiteral("EMPTY_PATCH"));
    const auto invalid = as(
        key, "POST", path,
        {{QStringLiteral("patch"),
          QJsonObject{{QStringLiteral("voice"), QJsonObject{{QStringLiteral("autoStopMs"), -3}}}}},
         {QStringLiteral("title"), QStringLiteral("Bad")},
         {QStringLiteral("clientRequestId"), QStringLiteral("req-45")}});
    QCOMPARE(invalid.status, 400);
    QCOMPARE(invalid.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("patch.voice.autoStopMs"));
    const auto noId = as(key, "POST", path,
                         {{QStringLiteral("patch"),
                           QJsonObject{{QStringLiteral("businessType"), QStringLiteral("saas")}}},
                          {QStringLiteral("title"), QStringLiteral("No id")}});
    QCOMPARE(noId.status, 400);
    QCOMPARE(noId.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("clientRequestId"));
}

void tst_Sites::appliesAProposalAndRecordsWho()
{
    const QJsonObject site = newSite(QStringLiteral("Apply site"));
    const QString siteId = site.value(QStringLiteral("siteId")).toString();
    const QString keyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    QCOMPARE(owner(QStringLiteral("/upsertSiteConfig"),
                   {{QStringLiteral("keyId"), keyId},
                    {QStringLiteral("siteConfig"),
                     QJsonObject{{QStringLiteral("businessType"), QStringLiteral("ecommerce")},
                                 {QStringLiteral("knowledge"),
                                  QJsonArray{QJsonObject{
                                      {QStringLiteral("id"), QStringLiteral("shipping")},
                                      {QStringLiteral("title"), QStringLiteral("Shipping")},
                                      {QStringLiteral("body"), QStringLiteral("2 days")},
                                      {QStringLiteral("kind"), QStringLiteral("policy")}}}}}}})
                 .status,
             200);
    const QString key = connectKey(siteId);
    const auto proposed =
        as(key, "POST", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId),
           {{QStringLiteral("patch"),
             QJsonObject{
                 {QStringLiteral("greeting"),
                  QJsonObject{{QStringLiteral("text"), QStringLiteral("Hello!")}}},
                 {QStringLiteral("knowledge"),
                  QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("returns")},
                                         {QStringLiteral("title"), QStringLiteral("Returns")},
                                         {QStringLiteral("body"), QStringLiteral("30 days")},
                                         {QStringLiteral("kind"), QStringLiteral("policy")}}}}}},
            {QStringLiteral("title"), QStringLiteral("Greeting and returns")},
            {QStringLiteral("clientRequestId"), QStringLiteral("apply-1")}});
    QCOMPARE(proposed.status, 201);
    const QString changeId = proposed.json().value(QStringLiteral("changeId")).toString();

    const auto review = m_ph->client().get(QStringLiteral("/review/changes/") + changeId);
    QCOMPARE(review.status, 200);
    QCOMPARE(review.json()
                 .value(QStringLiteral("preview"))
                 .toObject()
                 .value(QStringLiteral("knowledge"))
                 .toArray()
                 .size(),
             2);

    const auto applied = owner(QStringLiteral("/applyConfigChange"),
                               {{QStringLiteral("changeId"), changeId},
                                {QStringLiteral("note"), QStringLiteral("looks good")}});
    QCOMPARE(applied.status, 200);
    const QJsonObject change = applied.json().value(QStringLiteral("change")).toObject();
    QCOMPARE(change.value(QStringLiteral("status")).toString(), QStringLiteral("applied"));
    const QString ownerKeyId = m_ph->service().store().apiKeys().findBySecret(m_ph->ownerKey())->id;
    QCOMPARE(change.value(QStringLiteral("decidedBy")).toString(),
             QStringLiteral("apiKey:") + ownerKeyId);
    QVERIFY(!change.value(QStringLiteral("decidedAt")).toString().isEmpty());
    QCOMPARE(change.value(QStringLiteral("appliedVersion")).toInt(), 2);
    QCOMPARE(change.value(QStringLiteral("decisionNote")).toString(), QStringLiteral("looks good"));

    const auto record = m_ph->service().sites().sites().config(siteId);
    QCOMPARE(record.version, 2);
    QCOMPARE(record.updatedBy, QStringLiteral("apiKey:") + ownerKeyId);
    QCOMPARE(record.config.value(QStringLiteral("greeting"))
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("Hello!"));
    // Knowledge items are merged by id, not replaced.
    QCOMPARE(record.config.value(QStringLiteral("knowledge")).toArray().size(), 2);
    QCOMPARE(record.config.value(QStringLiteral("businessType")).toString(),
             QStringLiteral("ecommerce"));

    const auto twice =
        owner(QStringLiteral("/applyConfigChange"), {{QStringLiteral("changeId"), changeId}});
    QCOMPARE(twice.status, 409);
    QCOMPARE(twice.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("CHANGE_NOT_PENDING"));
    QCOMPARE(owner(QStringLiteral("/applyConfigChange"),
                   {{QStringLiteral("changeId"), QStringLiteral("chg_nope")}})
                 .status,
             404);
    // An applied change leaves the pending list.
    const auto pending = as(key, "GET", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId));
    QCOMPARE(pending.json().value(QStringLiteral("changes")).toArray().size(), 0);
}

void tst_Sites::discardsAProposal()
{
    const QString siteId =
        newSite(QStringLiteral("Discard site")).value(QStringLiteral("siteId")).toString();
    const QString key = connectKey(siteId);
    const auto proposed =
        as(key, "POST", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId),
           {{QStringLiteral("patch"),
             QJsonObject{{QStringLiteral("businessType"), QStringLiteral("media")}}},
            {QStringLiteral("title"), QStringLiteral("Media")},
            {QStringLiteral("clientRequestId"), QStringLiteral("discard-1")}});
    const QString changeId = proposed.json().value(QStringLiteral("changeId")).toString();
    const auto discarded = owner(QStringLiteral("/discardConfigChange"),
                                 {{QStringLiteral("changeId"), changeId},
                                  {QStringLiteral("reason"), QStringLiteral("not us")}});
    QCOMPARE(discarded.status, 200);
    QCOMPARE(discarded.json()
                 .value(QStringLiteral("change"))
                 .toObject()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("discarded"));
    QCOMPARE(m_ph->service().sites().sites().config(siteId).version, 0);
    QCOMPARE(owner(QStringLiteral("/applyConfigChange"), {{QStringLiteral("changeId"), changeId}})
                 .status,
             409);
    QCOMPARE(owner(QStringLiteral("/discardConfigChange"), {{QStringLiteral("changeId"), changeId}})
                 .status,
             409);
    // The same clientRequestId still names the discarded change: no second proposal.
    const auto retry = as(key, "POST", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId),
                          {{QStringLiteral("patch"),
                            QJsonObject{{QStringLiteral("businessType"), QStringLiteral("media")}}},
                           {QStringLiteral("title"), QStringLiteral("Media")},
                           {QStringLiteral("clientRequestId"), QStringLiteral("discard-1")}});
    QCOMPARE(retry.json().value(QStringLiteral("changeId")).toString(), changeId);
    QCOMPARE(retry.json().value(QStringLiteral("status")).toString(), QStringLiteral("discarded"));
}

void tst_Sites::reValidatesOnApply()
{
    const QJsonObject site = newSite(QStringLiteral("Revalidation site"));
    const QString siteId = site.value(QStringLiteral("siteId")).toString();
    const QString keyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    const QString key = connectKey(siteId);
    const auto proposed = as(
        key, "POST", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId),
        {{QStringLiteral("patch"),
          QJsonObject{{QStringLiteral("shortcuts"),
                       QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("new-one")},
                                              {QStringLiteral("label"), QStringLiteral("New")}}}}}},
         {QStringLiteral("title"), QStringLiteral("One more shortcut")},
         {QStringLiteral("clientRequestId"), QStringLiteral("reval-1")}});
    QCOMPARE(proposed.status, 201);
    // Meanwhile the owner fills the site up to the shortcut limit.
    QJsonArray full;
    for (int i = 0; i < 100; ++i)
        full.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("s%1").arg(i)},
                                {QStringLiteral("label"), QStringLiteral("S%1").arg(i)}});
    QCOMPARE(
        owner(QStringLiteral("/upsertSiteConfig"),
              {{QStringLiteral("keyId"), keyId},
               {QStringLiteral("siteConfig"), QJsonObject{{QStringLiteral("shortcuts"), full}}}})
            .status,
        200);
    const auto applied =
        owner(QStringLiteral("/applyConfigChange"),
              {{QStringLiteral("changeId"), proposed.json().value(QStringLiteral("changeId"))}});
    QCOMPARE(applied.status, 409);
    QCOMPARE(applied.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("CHANGE_CONFLICT"));
    QCOMPARE(applied.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("patch.shortcuts"));
    QCOMPARE(m_ph->service()
                 .sites()
                 .sites()
                 .config(siteId)
                 .config.value(QStringLiteral("shortcuts"))
                 .toArray()
                 .size(),
             100);
}

void tst_Sites::onlyTheOwnerAppliesOrDiscards()
{
    const QString siteId =
        newSite(QStringLiteral("Owner only site")).value(QStringLiteral("siteId")).toString();
    const QString key = connectKey(siteId);
    const auto proposed =
        as(key, "POST", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId),
           {{QStringLiteral("patch"),
             QJsonObject{{QStringLiteral("businessType"), QStringLiteral("saas")}}},
            {QStringLiteral("title"), QStringLiteral("SaaS")},
            {QStringLiteral("clientRequestId"), QStringLiteral("own-1")}});
    const QString changeId = proposed.json().value(QStringLiteral("changeId")).toString();
    for (const QString &call :
         {QStringLiteral("/applyConfigChange"), QStringLiteral("/discardConfigChange")}) {
        const auto r = as(key, "POST", call, {{QStringLiteral("changeId"), changeId}});
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("FORBIDDEN"));
    }
    QCOMPARE(m_ph->service().sites().changes().find(changeId)->status, QStringLiteral("pending"));
    QCOMPARE(as(key, "GET", QStringLiteral("/review/changes/") + changeId).status, 403);
}

void tst_Sites::draftsAJourney()
{
    // draft_journey is exercised end to end by tst_configmcp; here: its effect on apply.
    const QString siteId =
        newSite(QStringLiteral("Journey draft site")).value(QStringLiteral("siteId")).toString();
    const QString key = connectKey(siteId);
    const auto proposed =
        as(key, "POST", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId),
           {{QStringLiteral("patch"),
             QJsonObject{
                 {QStringLiteral("shortcuts"),
                  QJsonArray{QJsonObject{
                      {QStringLiteral("id"), QStringLiteral("onboard")},
                      {QStringLiteral("label"), QStringLiteral("Get started")},
                      {QStringLiteral("kind"), QStringLiteral("journey")},
                      {QStringLiteral("steps"),
                       QJsonArray{
                           QJsonObject{{QStringLiteral("title"), QStringLiteral("Sign up")}},
                           QJsonObject{{QStringLiteral("title"), QStringLiteral("Verify")}}}}}}}}},
            {QStringLiteral("title"), QStringLiteral("Onboarding")},
            {QStringLiteral("clientRequestId"), QStringLiteral("journey-1")}});
    QCOMPARE(proposed.status, 201);
    QCOMPARE(
        owner(QStringLiteral("/applyConfigChange"),
              {{QStringLiteral("changeId"), proposed.json().value(QStringLiteral("changeId"))}})
            .status,
        200);
    const auto journeys =
        as(key, "GET", QStringLiteral("/config/v1/sites/%1/journeys").arg(siteId));
    QCOMPARE(journeys.json()
                 .value(QStringLiteral("journeys"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("stepCount"))
                 .toInt(),
             2);
}

void tst_Sites::validatesWithoutWriting()
{
    const QString siteId =
        newSite(QStringLiteral("Validate site")).value(QStringLiteral("siteId")).toString();
    const QString key = connectKey(siteId);
    auto r = as(key, "POST", QStringLiteral("/config/v1/validate"),
                {{QStringLiteral("siteId"), siteId},
                 {QStringLiteral("patch"),
                  QJsonObject{{QStringLiteral("greeting"),
                               QJsonObject{{QStringLiteral("text"), QStringLiteral("  Hi  ")}}},
                              {QStringLiteral("colour"), 1}}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("valid")).toBool(), true);
    QCOMPARE(r.json().value(QStringLiteral("droppedPaths")).toArray(),
             QJsonArray{QStringLiteral("patch.colour")});
    QCOMPARE(r.json()
                 .value(QStringLiteral("patch"))
                 .toObject()
                 .value(QStringLiteral("greeting"))
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("Hi")); // normalised
    r = as(key, "POST", QStringLiteral("/config/v1/validate"),
           {{QStringLiteral("patch"),
             QJsonObject{{QStringLiteral("voice"), QJsonObject{{QStringLiteral("language"),
                                                                QStringLiteral("not a tag")}}}}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("valid")).toBool(), false);
    QCOMPARE(r.json()
                 .value(QStringLiteral("errors"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("field"))
                 .toString(),
             QStringLiteral("patch.voice.language"));
    QCOMPARE(m_ph->service().sites().sites().config(siteId).version, 0);
    const auto pending = as(key, "GET", QStringLiteral("/config/v1/sites/%1/changes").arg(siteId));
    QCOMPARE(pending.json().value(QStringLiteral("changes")).toArray().size(), 0);
}

void tst_Sites::readsJourneysAndBriefs()
{
    const QJsonObject site = newSite(QStringLiteral("Brief site"));
    const QString siteId = site.value(QStringLiteral("siteId")).toString();
    const QString keyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    QCOMPARE(
        owner(QStringLiteral("/upsertSiteConfig"),
              {{QStringLiteral("keyId"), keyId},
               {QStringLiteral("siteConfig"),
                QJsonObject{
                    {QStringLiteral("businessType"), QStringLiteral("education")},
                    {QStringLiteral("shortcuts"),
                     QJsonArray{
                         QJsonObject{{QStringLiteral("id"), QStringLiteral("enrol")},
                                     {QStringLiteral("label"), QStringLiteral("Enrol")},
                                     {QStringLiteral("kind"), QStringLiteral("journey")},
                                     {QStringLiteral("steps"),
                                      QJsonArray{QJsonObject{{QStringLiteral("title"),
                                                              QStringLiteral("Pick a course")}}}}},
                         QJsonObject{{QStringLiteral("id"), QStringLiteral("faq")},
                                     {QStringLiteral("label"), QStringLiteral("FAQ")}}}},
                    {QStringLiteral("knowledge"),
                     QJsonArray{QJsonObject{
                         {QStringLiteral("id"), QStringLiteral("fees")},
                         {QStringLiteral("title"), QStringLiteral("Fees")},
                         {QStringLiteral("body"), QStringLiteral("Fees are due monthly.")},
                         {QStringLiteral("kind"), QStringLiteral("faq")}}}}}}})
            .status,
        200);
    const QString key = connectKey(siteId);
    auto r = as(key, "GET", QStringLiteral("/config/v1/sites/%1/journeys").arg(siteId));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("journeys")).toArray().size(), 1);
    r = as(key, "GET", QStringLiteral("/config/v1/sites/%1/journeys/enrol").arg(siteId));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json()
                 .value(QStringLiteral("journey"))
                 .toObject()
                 .value(QStringLiteral("steps"))
                 .toArray()
                 .size(),
             1);
    r = as(key, "GET", QStringLiteral("/config/v1/sites/%1/journeys/faq").arg(siteId));
    QCOMPARE(r.status, 404); // a plain shortcut is not a journey
    for (const QString &section : {QStringLiteral("journeys"), QStringLiteral("knowledge"),
                                   QStringLiteral("appearance"), QStringLiteral("audience")}) {
        r = as(key, "GET", QStringLiteral("/config/v1/sites/%1/briefs/%2").arg(siteId, section));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("section")).toString(), section);
        QVERIFY(!r.json().value(QStringLiteral("summary")).toString().isEmpty());
    }
    r = as(key, "GET", QStringLiteral("/config/v1/sites/%1/briefs/knowledge").arg(siteId));
    QCOMPARE(r.json()
                 .value(QStringLiteral("brief"))
                 .toObject()
                 .value(QStringLiteral("byKind"))
                 .toObject()
                 .value(QStringLiteral("faq"))
                 .toInt(),
             1);
    r = as(key, "GET", QStringLiteral("/config/v1/sites/%1/briefs/secrets").arg(siteId));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("section"));
}

void tst_Sites::ingestsAnalyticsWithHashedJoinKeys()
{
    const QJsonObject site = newSite(QStringLiteral("Analytics site"));
    const QString siteId = site.value(QStringLiteral("siteId")).toString();
    auto &analytics = m_ph->service().sites().analytics();
    const qint64 now = m_ph->service().clock().nowMs();
    analytics.record(siteId, Collection::Visit,
                     {{QStringLiteral("userId"), QStringLiteral("alice@example.com")},
                      {QStringLiteral("landingUrl"), QStringLiteral("https://example.com/")}});
    analytics.record(siteId, Collection::Visit,
                     {{QStringLiteral("occurredAt"), double(now - 3 * 86'400'000LL)}});
    analytics.record(siteId, Collection::Visit,
                     {{QStringLiteral("occurredAt"), double(now - 20 * 86'400'000LL)}});
    const QString interaction = analytics.record(
        siteId, Collection::Interaction,
        {{QStringLiteral("userId"), QStringLiteral("alice@example.com")},
         {QStringLiteral("accountId"), QStringLiteral("acct-991")},
         {QStringLiteral("kind"), QStringLiteral("run")},
         {QStringLiteral("converted"), true},
         {QStringLiteral("summary"), QStringLiteral("Found the order")},
         {QStringLiteral("trajectory"),
          QJsonArray{QJsonObject{{QStringLiteral("step"), 1},
                                 {QStringLiteral("tool"), QStringLiteral("act")}}}}});
    analytics.record(siteId, Collection::Review, {{QStringLiteral("rating"), 5}});

    auto r = owner(QStringLiteral("/listAnalytics"),
                   {{QStringLiteral("siteId"), siteId},
                    {QStringLiteral("collection"), QStringLiteral("analytics_interactions")}});
    QCOMPARE(r.status, 200);
    QVERIFY(!r.body.contains("alice@example.com"));
    QVERIFY(!r.body.contains("acct-991"));
    QVERIFY(!r.body.contains("trajectory")); // hydrated only by the detail call
    const QJsonObject doc = r.json().value(QStringLiteral("documents")).toArray().at(0).toObject();
    QCOMPARE(doc.value(QStringLiteral("userKey")).toString(),
             analytics.joinKey(siteId, QStringLiteral("uk"), QStringLiteral("alice@example.com")));
    QVERIFY(doc.value(QStringLiteral("userKey")).toString().startsWith(QLatin1String("uk_")));
    QVERIFY(doc.value(QStringLiteral("accountKey")).toString().startsWith(QLatin1String("ak_")));

    r = owner(QStringLiteral("/getAnalyticsInteractionDetail"),
              {{QStringLiteral("siteId"), siteId}, {QStringLiteral("interactionId"), interaction}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json()
                 .value(QStringLiteral("interaction"))
                 .toObject()
                 .value(QStringLiteral("trajectory"))
                 .toArray()
                 .size(),
             1);
    QCOMPARE(owner(QStringLiteral("/getAnalyticsInteractionDetail"),
                   {{QStringLiteral("siteId"), siteId},
                    {QStringLiteral("interactionId"), QStringLiteral("int_nope")}})
                 .status,
             404);
    QCOMPARE(owner(QStringLiteral("/getAnalyticsInteractionDetail"),
                   {{QStringLiteral("siteId"), siteId}})
                 .json()
                 .value(QStringLiteral("field"))
                 .toString(),
             QStringLiteral("interactionId"));

    // Aggregates: 7 days see two visits, 30 days three; the owner's AI sees counts only.
    const QString key = connectKey(siteId);
    r = as(key, "GET",
           QStringLiteral("/config/v1/sites/%1/analytics/summary?range=7d").arg(siteId));
    QCOMPARE(r.status, 200);
    QJsonObject totals = r.json().value(QStringLiteral("totals")).toObject();
    QCOMPARE(totals.value(QStringLiteral("visits")).toInt(), 2);
    QCOMPARE(totals.value(QStringLiteral("interactions")).toInt(), 1);
    QCOMPARE(totals.value(QStringLiteral("conversions")).toInt(), 1);
    QCOMPARE(totals.value(QStringLiteral("reviews")).toInt(), 1);
    QVERIFY(!r.body.contains("uk_"));
    r = as(key, "GET",
           QStringLiteral("/config/v1/sites/%1/analytics/summary?range=30d").arg(siteId));
    QCOMPARE(
        r.json().value(QStringLiteral("totals")).toObject().value(QStringLiteral("visits")).toInt(),
        3);
    QCOMPARE(as(key, "GET",
                QStringLiteral("/config/v1/sites/%1/analytics/summary?range=90d").arg(siteId))
                 .status,
             400);

    r = owner(QStringLiteral("/listAnalytics"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("collection"), QStringLiteral("analytics_profiles")}});
    QCOMPARE(r.json().value(QStringLiteral("documents")).toArray().size(),
             2); // identity and account
    r = owner(QStringLiteral("/listAnalytics"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("collection"), QStringLiteral("analytics_visits")},
               {QStringLiteral("limit"), 2}});
    QCOMPARE(r.json().value(QStringLiteral("documents")).toArray().size(), 2);
    const QString cursor = r.json().value(QStringLiteral("nextCursor")).toString();
    QVERIFY(!cursor.isEmpty());
    r = owner(QStringLiteral("/listAnalytics"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("collection"), QStringLiteral("analytics_visits")},
               {QStringLiteral("limit"), 2},
               {QStringLiteral("cursor"), cursor}});
    QCOMPARE(r.json().value(QStringLiteral("documents")).toArray().size(), 1);
    r = owner(QStringLiteral("/listAnalytics"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("collection"), QStringLiteral("analytics_daily")}});
    QCOMPARE(r.json().value(QStringLiteral("documents")).toArray().size(), 3);
    for (const QString &c : sites::AnalyticsRepository::readableCollections()) {
        r = owner(QStringLiteral("/listAnalytics"),
                  {{QStringLiteral("siteId"), siteId}, {QStringLiteral("collection"), c}});
        QCOMPARE(r.status, 200);
        QVERIFY(!r.body.contains("join_key_salt") && !r.body.contains("salt"));
    }
    r = owner(QStringLiteral("/listAnalytics"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("collection"), QStringLiteral("analytics_events")}});
    QCOMPARE(r.status, 400); // raw events are backend-only
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("collection"));

    // A site that opts in to personal data keeps the raw ids beside the join keys.
    const QString keyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    QCOMPARE(owner(QStringLiteral("/upsertSiteConfig"),
                   {{QStringLiteral("keyId"), keyId},
                    {QStringLiteral("siteConfig"),
                     QJsonObject{{QStringLiteral("analytics"),
                                  QJsonObject{{QStringLiteral("displayPersonalData"), true}}}}}})
                 .status,
             200);
    analytics.record(siteId, Collection::Interview,
                     {{QStringLiteral("userId"), QStringLiteral("bob@example.com")},
                      {QStringLiteral("answer"), QStringLiteral("Great")}});
    r = owner(QStringLiteral("/listAnalytics"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("collection"), QStringLiteral("analytics_interviews")}});
    QCOMPARE(r.json()
                 .value(QStringLiteral("documents"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("userId"))
                 .toString(),
             QStringLiteral("bob@example.com"));
}

void tst_Sites::keepsWebhookSecretsUnlessReplaced()
{
    const QString siteId =
        newSite(QStringLiteral("Webhook site")).value(QStringLiteral("siteId")).toString();
    const QString secret = QStringLiteral("whsec_first-secret-value-123");
    m_secrets.append(secret);
    auto r =
        owner(QStringLiteral("/upsertAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("enabled"), true},
               {QStringLiteral("interviewQuestions"),
                QJsonArray{QStringLiteral("What brought you here?")}},
               {QStringLiteral("webhooks"),
                QJsonArray{QJsonObject{
                    {QStringLiteral("url"), QStringLiteral("https://hooks.example.com/pilothouse")},
                    {QStringLiteral("events"), QJsonArray{QStringLiteral("review.created")}},
                    {QStringLiteral("secret"), secret}}}}});
    QCOMPARE(r.status, 200);
    QVERIFY(!r.body.contains(secret.toUtf8()));
    QJsonObject hook = r.json().value(QStringLiteral("webhooks")).toArray().at(0).toObject();
    const QString hookId = hook.value(QStringLiteral("id")).toString();
    QCOMPARE(hook.value(QStringLiteral("hasSecret")).toBool(), true);
    QCOMPARE(hook.value(QStringLiteral("secret")).toString(), QStringLiteral("********"));
    auto &analytics = m_ph->service().sites().analytics();
    QCOMPARE(analytics.webhookSecret(siteId, hookId), secret);

    r = owner(QStringLiteral("/getAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), siteId}});
    QCOMPARE(r.status, 200);
    QVERIFY(!r.body.contains(secret.toUtf8()));
    QCOMPARE(r.json().value(QStringLiteral("interviewQuestions")).toArray().size(), 1);

    // Edited without a secret (or with the mask echoed back): the secret is kept.
    r = owner(QStringLiteral("/upsertAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("webhooks"),
                QJsonArray{QJsonObject{
                    {QStringLiteral("id"), hookId},
                    {QStringLiteral("url"), QStringLiteral("https://hooks.example.com/v2")},
                    {QStringLiteral("secret"), QStringLiteral("********")}}}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(analytics.webhookSecret(siteId, hookId), secret);
    QCOMPARE(r.json().value(QStringLiteral("enabled")).toBool(), true); // untouched
    r = owner(QStringLiteral("/upsertAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("webhooks"),
                QJsonArray{QJsonObject{
                    {QStringLiteral("id"), hookId},
                    {QStringLiteral("url"), QStringLiteral("https://hooks.example.com/v3")}}}}});
    QCOMPARE(analytics.webhookSecret(siteId, hookId), secret);
    // Replaced explicitly.
    const QString replacement = QStringLiteral("whsec_second-secret-value-456");
    m_secrets.append(replacement);
    r = owner(QStringLiteral("/upsertAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("webhooks"),
                QJsonArray{QJsonObject{
                    {QStringLiteral("id"), hookId},
                    {QStringLiteral("url"), QStringLiteral("https://hooks.example.com/v3")},
                    {QStringLiteral("secret"), replacement}}}}});
    QVERIFY(!r.body.contains(replacement.toUtf8()));
    QCOMPARE(analytics.webhookSecret(siteId, hookId), replacement);
    // Removed with null.
    r = owner(QStringLiteral("/upsertAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("webhooks"),
                QJsonArray{QJsonObject{
                    {QStringLiteral("id"), hookId},
                    {QStringLiteral("url"), QStringLiteral("https://hooks.example.com/v3")},
                    {QStringLiteral("secret"), QJsonValue()}}}}});
    QCOMPARE(r.json()
                 .value(QStringLiteral("webhooks"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("hasSecret"))
                 .toBool(),
             false);
    QCOMPARE(analytics.webhookSecret(siteId, hookId), QString());

    r = owner(
        QStringLiteral("/upsertAnalyticsNotificationSettings"),
        {{QStringLiteral("siteId"), siteId},
         {QStringLiteral("webhooks"),
          QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("wh_nope")},
                                 {QStringLiteral("url"), QStringLiteral("https://x.example/")}}}}});
    QCOMPARE(r.status, 404);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("webhooks[0].id"));
    r = owner(QStringLiteral("/upsertAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("webhooks"),
                QJsonArray{QJsonObject{
                    {QStringLiteral("url"), QStringLiteral("https://x.example/")},
                    {QStringLiteral("events"), QJsonArray{QStringLiteral("everything")}}}}}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("webhooks[0].events[0]"));

    r = owner(QStringLiteral("/upsertAnalyticsQuestions"),
              {{QStringLiteral("siteId"), siteId},
               {QStringLiteral("interviewQuestions"),
                QJsonArray{QStringLiteral("Q1?"), QStringLiteral("Q2?")}}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("interviewQuestions")).toArray().size(), 2);
    QCOMPARE(
        owner(QStringLiteral("/upsertAnalyticsQuestions"), {{QStringLiteral("siteId"), siteId}})
            .json()
            .value(QStringLiteral("field"))
            .toString(),
        QStringLiteral("interviewQuestions"));
    QCOMPARE(owner(QStringLiteral("/upsertAnalyticsQuestions"),
                   {{QStringLiteral("siteId"), siteId},
                    {QStringLiteral("interviewQuestions"), QJsonArray{QStringLiteral(" ")}}})
                 .json()
                 .value(QStringLiteral("field"))
                 .toString(),
             QStringLiteral("interviewQuestions[0]"));
}

void tst_Sites::deletesASiteButKeepsItsHistory()
{
    const QJsonObject site = newSite(QStringLiteral("Deleted site"));
    const QString siteId = site.value(QStringLiteral("siteId")).toString();
    const QString pk =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("publicKey")).toString();
    const QString keyId =
        site.value(QStringLiteral("key")).toObject().value(QStringLiteral("keyId")).toString();
    QCOMPARE(owner(QStringLiteral("/upsertSiteConfig"),
                   {{QStringLiteral("keyId"), keyId},
                    {QStringLiteral("siteConfig"),
                     QJsonObject{{QStringLiteral("businessType"), QStringLiteral("saas")}}}})
                 .status,
             200);
    const QString key = connectKey(siteId);
    QCOMPARE(owner(QStringLiteral("/upsertAnalyticsQuestions"),
                   {{QStringLiteral("siteId"), siteId},
                    {QStringLiteral("interviewQuestions"), QJsonArray{QStringLiteral("Why?")}}})
                 .status,
             200);
    m_ph->service().sites().analytics().record(siteId, Collection::Visit, {});
    m_ph->service().sites().analytics().record(siteId, Collection::Note,
                                               {{QStringLiteral("body"), QStringLiteral("n")}});

    const auto r = owner(QStringLiteral("/deleteSite"), {{QStringLiteral("siteId"), siteId}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json()
                 .value(QStringLiteral("removed"))
                 .toObject()
                 .value(QStringLiteral("siteKeys"))
                 .toInt(),
             1);
    QVERIFY(!m_ph->service().sites().sites().findSite(siteId));
    QVERIFY(!m_ph->service().sites().sites().findKey(keyId));
    QVERIFY(!m_ph->service().sites().sites().findUsableKeyByPublicKey(pk));
    QCOMPARE(m_ph->service().sites().sites().config(siteId).version, 0);
    QCOMPARE(as(key, "GET", QStringLiteral("/config/v1/sites")).status, 401);
    QVERIFY(m_ph->service().sites().analytics().questions(siteId).isEmpty());
    QCOMPARE(owner(QStringLiteral("/getSiteConfig"), {{QStringLiteral("keyId"), keyId}}).status,
             404);
    QCOMPARE(owner(QStringLiteral("/getAnalyticsNotificationSettings"),
                   {{QStringLiteral("siteId"), siteId}})
                 .status,
             404);
    // History stays readable by the owner.
    for (const QString &c :
         {QStringLiteral("analytics_visits"), QStringLiteral("analytics_notes"),
          QStringLiteral("analytics_daily"), QStringLiteral("analytics_sites")}) {
        const auto kept =
            owner(QStringLiteral("/listAnalytics"),
                  {{QStringLiteral("siteId"), siteId}, {QStringLiteral("collection"), c}});
        QCOMPARE(kept.status, 200);
        QCOMPARE(kept.json().value(QStringLiteral("documents")).toArray().size(), 1);
    }
    const auto siteDoc = owner(QStringLiteral("/listAnalytics"),
                               {{QStringLiteral("siteId"), siteId},
                                {QStringLiteral("collection"), QStringLiteral("analytics_sites")}});
    QVERIFY(!siteDoc.json()
                 .value(QStringLiteral("documents"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("siteDeletedAt"))
                 .isNull());
    QCOMPARE(owner(QStringLiteral("/listAnalytics"),
                   {{QStringLiteral("siteId"), siteId},
                    {QStringLiteral("collection"), QStringLiteral("analytics_questions")}})
                 .json()
                 .value(QStringLiteral("documents"))
                 .toArray()
                 .size(),
             0);
    QCOMPARE(owner(QStringLiteral("/deleteSite"), {{QStringLiteral("siteId"), siteId}}).status,
             404);
}

void tst_Sites::storesNoSecretInClear()
{
    QVERIFY(m_secrets.size() > 5);
    // The main file and the write-ahead log together hold everything written so far.
    QByteArray all;
    for (const QString &name :
         {QStringLiteral("pilothouse.db"), QStringLiteral("pilothouse.db-wal")}) {
        QFile f(m_ph->dataDir() + QLatin1Char('/') + name);
        if (f.open(QIODevice::ReadOnly))
            all += f.readAll();
    }
    QVERIFY(all.size() > 10000);
    for (const QString &secret : std::as_const(m_secrets))
        QVERIFY2(!all.contains(secret.toUtf8()), qPrintable(secret.left(6)));
}

PH_WEBENGINE_TEST_MAIN(tst_Sites)
#include "tst_sites.moc"
