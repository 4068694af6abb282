// The authorisation matrix of the sites area: every endpoint of issue 5 against every
// kind of credential, with the status each cell must get, and no secret in any body.
#include "HttpClient.h"
#include "TestIdp.h"
#include "TestMain.h"
#include "TestService.h"

#include "http/Route.h"
#include "sites/AnalyticsRepository.h"
#include "sites/SitesArea.h"

#include <QJsonArray>

#include <functional>

using namespace ph;
using namespace ph::test;

namespace {

enum Credential {
    NoCredential,
    WrongApiKey,
    OtherUsersApiKey,
    OwnerApiKey,
    ValidIdToken,
    ExpiredIdToken,
    OtherAudienceIdToken,
    ConnectKeyOfThisSite,
    ConnectKeyOfAnotherSite,
    CredentialCount
};

const char *credentialName(int c)
{
    static const char *names[] = {"no credential",
                                  "a wrong API key",
                                  "the API key of another (non-owner) user",
                                  "the owner's API key",
                                  "a valid ID token",
                                  "an expired ID token",
                                  "an ID token of another audience",
                                  "a Connect AI key of this site",
                                  "a Connect AI key of another site"};
    return names[c];
}

struct Call
{
    QByteArray method;
    QString path;
    QJsonObject body;
};

struct Endpoint
{
    QString name;
    std::function<Call()> make; // builds the request, creating what it needs first
    QList<int> expected;        // one status per Credential
};

const QString kAudience = QStringLiteral("pilothouse-matrix");

} // namespace

class tst_SiteAuthMatrix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void answers_data();
    void answers();
    void coversEveryEndpointOfTheArea();

private:
    HttpResponse owner(const QString &path, const QJsonObject &body);
    QString newSite();
    QString newProposal();
    QString credential(int c) const;

    std::unique_ptr<TestIdp> m_idp;
    std::unique_ptr<TestService> m_ph;
    QList<Endpoint> m_endpoints;
    QStringList m_secrets;
    QString m_siteA, m_keyA, m_siteB, m_connectA, m_connectB, m_userKey, m_interaction;
    QString m_valid, m_expired, m_otherAudience;
    int m_counter = 0;
};

HttpResponse tst_SiteAuthMatrix::owner(const QString &path, const QJsonObject &body)
{
    return m_ph->client().post(path, body);
}

QString tst_SiteAuthMatrix::newSite()
{
    return owner(QStringLiteral("/generateSiteKey"),
                 {{QStringLiteral("siteName"), QStringLiteral("matrix site %1").arg(++m_counter)},
                  {QStringLiteral("label"), QStringLiteral("k")},
                  {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("example.com")}}})
        .json()
        .value(QStringLiteral("siteId"))
        .toString();
}

QString tst_SiteAuthMatrix::newProposal()
{
    return owner(
               QStringLiteral("/config/v1/sites/%1/changes").arg(m_siteA),
               {{QStringLiteral("patch"),
                 QJsonObject{{QStringLiteral("businessType"), QStringLiteral("media")}}},
                {QStringLiteral("title"), QStringLiteral("p")},
                {QStringLiteral("clientRequestId"), QStringLiteral("fixture-%1").arg(++m_counter)}})
        .json()
        .value(QStringLiteral("changeId"))
        .toString();
}

QString tst_SiteAuthMatrix::credential(int c) const
{
    switch (c) {
    case WrongApiKey:
        return QStringLiteral("phk_thisIsNotAKeyOfThisServiceAtAll0000");
    case OtherUsersApiKey:
        return m_userKey;
    case OwnerApiKey:
        return m_ph->ownerKey();
    case ValidIdToken:
        return m_valid;
    case ExpiredIdToken:
        return m_expired;
    case OtherAudienceIdToken:
        return m_otherAudience;
    case ConnectKeyOfThisSite:
        return m_connectA;
    case ConnectKeyOfAnotherSite:
        return m_connectB;
    default:
        return {};
    }
}

void tst_SiteAuthMatrix::initTestCase()
{
    m_idp = std::make_unique<TestIdp>();
    QVERIFY(m_idp->ok());
    m_ph = std::make_unique<TestService>(
        QStringList{QStringLiteral("auth.oidc.issuer=") + m_idp->issuer(),
                    QStringLiteral("auth.oidc.audience=") + kAudience,
                    QStringLiteral("auth.oidc.owners=owner-1")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));

    const auto siteA =
        owner(QStringLiteral("/generateSiteKey"),
              {{QStringLiteral("siteName"), QStringLiteral("Site A")},
               {QStringLiteral("label"), QStringLiteral("a")},
               {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("a.example")}}});
    QCOMPARE(siteA.status, 201);
    m_siteA = siteA.json().value(QStringLiteral("siteId")).toString();
    m_keyA = siteA.json()
                 .value(QStringLiteral("key"))
                 .toObject()
                 .value(QStringLiteral("keyId"))
                 .toString();
    m_siteB = newSite();
    m_connectA = owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), m_siteA}})
                     .json()
                     .value(QStringLiteral("key"))
                     .toString();
    m_connectB = owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), m_siteB}})
                     .json()
                     .value(QStringLiteral("key"))
                     .toString();
    m_userKey = m_ph->mintKey(100);
    QVERIFY(m_connectA.startsWith(QLatin1String("ck_")) &&
            m_connectB.startsWith(QLatin1String("ck_")));
    QVERIFY(m_userKey.startsWith(QLatin1String("phk_")));
    QCOMPARE(owner(QStringLiteral("/upsertSiteConfig"),
                   {{QStringLiteral("keyId"), m_keyA},
                    {QStringLiteral("siteConfig"),
                     QJsonObject{{QStringLiteral("shortcuts"),
                                  QJsonArray{QJsonObject{
                                      {QStringLiteral("id"), QStringLiteral("tour")},
                                      {QStringLiteral("label"), QStringLiteral("Tour")},
                                      {QStringLiteral("kind"), QStringLiteral("journey")}}}}}}})
                 .status,
             200);
    const QString webhookSecret = QStringLiteral("whsec_matrix-secret-never-echoed");
    QCOMPARE(owner(QStringLiteral("/upsertAnalyticsNotificationSettings"),
                   {{QStringLiteral("siteId"), m_siteA},
                    {QStringLiteral("webhooks"),
                     QJsonArray{QJsonObject{
                         {QStringLiteral("url"), QStringLiteral("https://hooks.example.com/")},
                         {QStringLiteral("secret"), webhookSecret}}}}})
                 .status,
             200);
    m_interaction = m_ph->service().sites().analytics().record(
        m_siteA, sites::AnalyticsRepository::Collection::Interaction,
        {{QStringLiteral("summary"), QStringLiteral("x")},
         {QStringLiteral("trajectory"), QJsonArray{1, 2}}});

    const qint64 now = QDateTime::currentSecsSinceEpoch();
    m_valid = m_idp->sign(m_idp->claims(kAudience));
    QJsonObject expired = m_idp->claims(kAudience);
    expired.insert(QStringLiteral("exp"), double(now - 7200));
    m_expired = m_idp->sign(expired, TestIdp::Alg::ES256);
    m_otherAudience = m_idp->sign(m_idp->claims(QStringLiteral("another-app")));
    m_secrets = {m_ph->ownerKey(), m_userKey, m_connectA,      m_connectB,
                 m_valid,          m_expired, m_otherAudience, webhookSecret};

    const int S = 200;
    auto workspace = [](int ok) { return QList<int>{401, 401, 403, ok, ok, 401, 401, 403, 403}; };
    auto siteScoped = [](int ok) { return QList<int>{401, 401, 403, ok, ok, 401, 401, ok, 404}; };
    auto unscoped = [](int ok) { return QList<int>{401, 401, 403, ok, ok, 401, 401, ok, ok}; };
    auto post = [](const QString &path, const QJsonObject &body) -> std::function<Call()> {
        return [path, body] { return Call{"POST", path, body}; };
    };
    auto get = [](const QString &path) -> std::function<Call()> {
        return [path] { return Call{"GET", path, {}}; };
    };
    const QString a = m_siteA;
    const QString cfg = QStringLiteral("/config/v1/sites/") + a;

    m_endpoints = {
        {QStringLiteral("POST /generateSiteKey"),
         [this] {
             return Call{
                 "POST",
                 QStringLiteral("/generateSiteKey"),
                 {{QStringLiteral("siteName"), QStringLiteral("generated %1").arg(++m_counter)},
                  {QStringLiteral("label"), QStringLiteral("k")},
                  {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("example.org")}}}};
         },
         workspace(201)},
        {QStringLiteral("POST /listSiteKeys"), post(QStringLiteral("/listSiteKeys"), {}),
         workspace(S)},
        {QStringLiteral("POST /updateSiteKeyPolicy"),
         post(QStringLiteral("/updateSiteKeyPolicy"),
              {{QStringLiteral("keyId"), m_keyA}, {QStringLiteral("active"), true}}),
         workspace(S)},
        {QStringLiteral("POST /rotateSiteKey"),
         post(QStringLiteral("/rotateSiteKey"), {{QStringLiteral("keyId"), m_keyA}}), workspace(S)},
        {QStringLiteral("POST /generateSiteSecret"),
         post(QStringLiteral("/generateSiteSecret"), {{QStringLiteral("keyId"), m_keyA}}),
         workspace(201)},
        {QStringLiteral("POST /deleteSite"),
         [this] {
             return Call{
                 "POST", QStringLiteral("/deleteSite"), {{QStringLiteral("siteId"), newSite()}}};
         },
         workspace(S)},
        {QStringLiteral("POST /getSiteConfig"),
         post(QStringLiteral("/getSiteConfig"), {{QStringLiteral("keyId"), m_keyA}}), workspace(S)},
        {QStringLiteral("POST /upsertSiteConfig"),
         post(QStringLiteral("/upsertSiteConfig"),
              {{QStringLiteral("keyId"), m_keyA},
               {QStringLiteral("siteConfig"),
                QJsonObject{{QStringLiteral("businessType"), QStringLiteral("saas")}}}}),
         workspace(S)},
        {QStringLiteral("POST /updateApiKeyCapabilities"),
         post(QStringLiteral("/updateApiKeyCapabilities"),
              {{QStringLiteral("keyId"), m_keyA},
               {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("embed"), true}}}}),
         workspace(S)},
        {QStringLiteral("POST /getSitePrivateHosts"),
         post(QStringLiteral("/getSitePrivateHosts"), {{QStringLiteral("siteId"), m_siteA}}),
         workspace(S)},
        {QStringLiteral("POST /updateSitePrivateHosts"),
         post(
             QStringLiteral("/updateSitePrivateHosts"),
             {{QStringLiteral("siteId"), m_siteA}, {QStringLiteral("privateHosts"), QJsonArray()}}),
         workspace(S)},
        {QStringLiteral("POST /createConnectKey"),
         [this] {
             return Call{"POST",
                         QStringLiteral("/createConnectKey"),
                         {{QStringLiteral("siteId"), newSite()}}};
         },
         workspace(201)},
        {QStringLiteral("POST /listConnectKeys"),
         post(QStringLiteral("/listConnectKeys"), {{QStringLiteral("siteId"), a}}), workspace(S)},
        {QStringLiteral("POST /revokeConnectKey"),
         [this] {
             const QString id =
                 owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), newSite()}})
                     .json()
                     .value(QStringLiteral("connectKey"))
                     .toObject()
                     .value(QStringLiteral("keyId"))
                     .toString();
             return Call{
                 "POST", QStringLiteral("/revokeConnectKey"), {{QStringLiteral("keyId"), id}}};
         },
         workspace(S)},
        {QStringLiteral("POST /rotateConnectKey"),
         [this] {
             const QString id =
                 owner(QStringLiteral("/createConnectKey"), {{QStringLiteral("siteId"), newSite()}})
                     .json()
                     .value(QStringLiteral("connectKey"))
                     .toObject()
                     .value(QStringLiteral("keyId"))
                     .toString();
             return Call{
                 "POST", QStringLiteral("/rotateConnectKey"), {{QStringLiteral("keyId"), id}}};
         },
         workspace(201)},
        {QStringLiteral("POST /applyConfigChange"),
         [this] {
             return Call{"POST",
                         QStringLiteral("/applyConfigChange"),
                         {{QStringLiteral("changeId"), newProposal()}}};
         },
         workspace(S)},
        {QStringLiteral("POST /discardConfigChange"),
         [this] {
             return Call{"POST",
                         QStringLiteral("/discardConfigChange"),
                         {{QStringLiteral("changeId"), newProposal()}}};
         },
         workspace(S)},
        {QStringLiteral("GET /review/changes/{changeId}"),
         [this] {
             return Call{"GET", QStringLiteral("/review/changes/") + newProposal(), {}};
         },
         workspace(S)},
        {QStringLiteral("POST /listAnalytics"),
         post(QStringLiteral("/listAnalytics"),
              {{QStringLiteral("siteId"), a},
               {QStringLiteral("collection"), QStringLiteral("analytics_interactions")}}),
         workspace(S)},
        {QStringLiteral("POST /getAnalyticsInteractionDetail"),
         post(QStringLiteral("/getAnalyticsInteractionDetail"),
              {{QStringLiteral("siteId"), a}, {QStringLiteral("interactionId"), m_interaction}}),
         workspace(S)},
        {QStringLiteral("POST /getAnalyticsNotificationSettings"),
         post(QStringLiteral("/getAnalyticsNotificationSettings"), {{QStringLiteral("siteId"), a}}),
         workspace(S)},
        {QStringLiteral("POST /upsertAnalyticsNotificationSettings"),
         post(QStringLiteral("/upsertAnalyticsNotificationSettings"),
              {{QStringLiteral("siteId"), a}, {QStringLiteral("enabled"), true}}),
         workspace(S)},
        {QStringLiteral("POST /upsertAnalyticsQuestions"),
         post(QStringLiteral("/upsertAnalyticsQuestions"),
              {{QStringLiteral("siteId"), a},
               {QStringLiteral("interviewQuestions"), QJsonArray{QStringLiteral("Why?")}}}),
         workspace(S)},
        {QStringLiteral("GET /config/v1/sites"), get(QStringLiteral("/config/v1/sites")),
         unscoped(S)},
        {QStringLiteral("GET /config/v1/sites/{siteId}/config"),
         get(cfg + QStringLiteral("/config?fields=greeting")), siteScoped(S)},
        {QStringLiteral("GET /config/v1/sites/{siteId}/journeys"),
         get(cfg + QStringLiteral("/journeys")), siteScoped(S)},
        {QStringLiteral("GET /config/v1/sites/{siteId}/journeys/{journeyId}"),
         get(cfg + QStringLiteral("/journeys/tour")), siteScoped(S)},
        {QStringLiteral("GET /config/v1/sites/{siteId}/analytics/summary"),
         get(cfg + QStringLiteral("/analytics/summary?range=30d")), siteScoped(S)},
        {QStringLiteral("GET /config/v1/sites/{siteId}/changes"),
         get(cfg + QStringLiteral("/changes")), siteScoped(S)},
        {QStringLiteral("POST /config/v1/sites/{siteId}/changes"),
         [this, cfg] {
             return Call{
                 "POST",
                 cfg + QStringLiteral("/changes"),
                 {{QStringLiteral("patch"),
                   QJsonObject{{QStringLiteral("businessType"), QStringLiteral("saas")}}},
                  {QStringLiteral("title"), QStringLiteral("t")},
                  {QStringLiteral("clientRequestId"), QStringLiteral("cell-%1").arg(++m_counter)}}};
         },
         siteScoped(201)},
        {QStringLiteral("GET /config/v1/sites/{siteId}/briefs/{section}"),
         get(cfg + QStringLiteral("/briefs/audience")), siteScoped(S)},
        {QStringLiteral("POST /config/v1/validate"),
         post(QStringLiteral("/config/v1/validate"),
              {{QStringLiteral("patch"),
                QJsonObject{{QStringLiteral("businessType"), QStringLiteral("saas")}}}}),
         unscoped(S)},
        {QStringLiteral("POST /config/mcp"),
         post(QStringLiteral("/config/mcp"),
              {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
               {QStringLiteral("id"), 1},
               {QStringLiteral("method"), QStringLiteral("initialize")},
               {QStringLiteral("params"),
                QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                            {QStringLiteral("capabilities"), QJsonObject()},
                            {QStringLiteral("clientInfo"),
                             QJsonObject{{QStringLiteral("name"), QStringLiteral("m")},
                                         {QStringLiteral("version"), QStringLiteral("1")}}}}}}),
         unscoped(S)},
    };
}

void tst_SiteAuthMatrix::cleanupTestCase()
{
    m_ph.reset();
    m_idp.reset();
}

void tst_SiteAuthMatrix::answers_data()
{
    QTest::addColumn<int>("endpoint");
    QTest::addColumn<int>("credential");
    for (int e = 0; e < m_endpoints.size(); ++e) {
        for (int c = 0; c < CredentialCount; ++c) {
            const QByteArray name =
                QStringLiteral("%1 with %2 answers %3")
                    .arg(m_endpoints.at(e).name, QLatin1String(credentialName(c)))
                    .arg(m_endpoints.at(e).expected.at(c))
                    .toUtf8();
            QTest::newRow(name.constData()) << e << c;
        }
    }
}

void tst_SiteAuthMatrix::answers()
{
    QFETCH(int, endpoint);
    QFETCH(int, credential);
    const Endpoint &e = m_endpoints.at(endpoint);
    const Call call = e.make();
    HttpClient client(m_ph->base());
    client.setBearer(this->credential(credential));
    const QByteArray body = call.method == "GET"
                                ? QByteArray()
                                : QJsonDocument(call.body).toJson(QJsonDocument::Compact);
    HttpClient::Headers headers;
    if (call.path.endsWith(QLatin1String("/mcp")))
        headers.append(
            qMakePair(QByteArray("Accept"), QByteArray("application/json, text/event-stream")));
    const auto r = client.send(call.method, call.path, body, headers);
    QVERIFY2(r.status == e.expected.at(credential),
             qPrintable(QStringLiteral("%1 got %2: %3")
                            .arg(e.name)
                            .arg(r.status)
                            .arg(QString::fromUtf8(r.body.left(300)))));
    for (const QString &secret : std::as_const(m_secrets))
        QVERIFY2(!r.body.contains(secret.toUtf8()), "a secret appeared in the response body");
    if (r.status >= 400 && !call.path.endsWith(QLatin1String("/mcp"))) {
        QVERIFY(!r.json().value(QStringLiteral("code")).toString().isEmpty());
        QCOMPARE(r.json().value(QStringLiteral("success")).toBool(true), false);
    }
}

void tst_SiteAuthMatrix::coversEveryEndpointOfTheArea()
{
    // Every route the sites area serves has a row above (the MCP path once, for POST).
    QStringList covered;
    for (const Endpoint &e : std::as_const(m_endpoints))
        covered.append(e.name);
    int routes = 0;
    for (http::Controller *c : m_ph->service().sites().controllers()) {
        for (const http::Route &r : c->routes()) {
            if (r.pattern.endsWith(QLatin1String("/mcp")) && r.method != "POST")
                continue; // GET (405) and DELETE are covered by tst_mcpserver
            ++routes;
            const QString name = QString::fromLatin1(r.method) + QLatin1Char(' ') + r.pattern;
            QVERIFY2(covered.contains(name), qPrintable(name));
        }
    }
    QCOMPARE(routes, int(m_endpoints.size()));
}

PH_WEBENGINE_TEST_MAIN(tst_SiteAuthMatrix)
#include "tst_siteauthmatrix.moc"
