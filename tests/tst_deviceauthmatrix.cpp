// The authorisation matrix of devices (issue 32) and of their credential kind, the device
// token: every device route against API keys, device tokens and an OAuth access token,
// with the status each cell must get and no token in any body; a device token opens no
// route that takes an API key (every one in the route table, as Bearer and as x-api-key);
// only a live device token opens /devices/socket. Then how often a pairing code may be
// tried: 429 RATE_LIMITED with Retry-After per client address, and the pending codes
// withdrawn after ClaimLimiter::kWrongCodes wrong ones. A manual clock moves the minutes.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "devices/ClaimLimiter.h"
#include "devices/DeviceService.h"
#include "http/HttpServer.h"
#include "http/Route.h"
#include "oauth/ClientDirectory.h"
#include "oauth/FormBody.h"
#include "oauth/OAuthService.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QUrlQuery>
#include <QWebSocket>

#include <functional>

using namespace ph;
using namespace ph::test;

namespace {

enum Credential {
    NoCredential,
    WrongApiKey,
    OwnerApiKey,
    UserApiKey,
    OtherUserApiKey,
    DeviceToken,
    RevokedDeviceToken,
    OAuthAccessToken,
    CredentialCount
};

const char *credentialName(int c)
{
    static const char *names[] = {
        "no credential",          "a wrong API key",
        "the owner's API key",    "the API key the device is paired to",
        "another user's API key", "a device token",
        "a revoked device token", "an OAuth access token for /mcp acting as the device's key"};
    return names[c];
}

struct Endpoint
{
    QString name;
    QByteArray method;
    std::function<QString()> path; // made per call (a fresh device to revoke)
    QByteArray body;
    QList<int> expected; // one status per Credential
};

const QString kVerifier = QStringLiteral("dBjftJeZ4CVP-mJ92K9TzNwWb2vsqKt3E3xJVHtmz-Y");
const QString kChallenge = QStringLiteral("csdw-HxZzQ3VJEB2Tt70wa-FiJggKhtKcMgxFQfRVCA");
const QString kRedirect = QStringLiteral("http://127.0.0.1:9/cb");
constexpr qint64 kMinute = 60 * 1000;

// The extension's end of /devices/socket, saying hello with `token`.
struct Socket
{
    QWebSocket socket;
    bool welcomed = false;
    bool open(const QString &base, const QString &token)
    {
        QUrl url(base);
        url.setScheme(QStringLiteral("ws"));
        url.setPath(QStringLiteral("/devices/socket"));
        QObject::connect(&socket, &QWebSocket::textMessageReceived, [this](const QString &t) {
            welcomed = welcomed || t.contains(QLatin1String("\"welcome\""));
        });
        QSignalSpy connected(&socket, &QWebSocket::connected);
        socket.open(url);
        if (!connected.wait(10000))
            return false;
        socket.sendTextMessage(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("hello")},
                                      {QStringLiteral("token"), token}})
                .toJson(QJsonDocument::Compact)));
        return true;
    }
};

} // namespace

class tst_DeviceAuthMatrix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void answers_data();
    void answers();
    void coversEveryDeviceRoute();
    void aDeviceTokenOpensNoRouteThatTakesAnApiKey();
    void onlyALiveDeviceTokenOpensTheSocket_data();
    void onlyALiveDeviceTokenOpensTheSocket();
    void limitsClaimsPerClientAddress();
    void withdrawsPendingCodesAfterTooManyWrongOnes_data();
    void withdrawsPendingCodesAfterTooManyWrongOnes();

private:
    QString credential(int c) const;
    // A device of the user's key, paired in-process (no claim over HTTP).
    devices::DeviceService::Claimed newDevice();
    QString accessTokenFor(const QString &keyId);
    HttpResponse claimOverHttp(const QString &code, const QString &from = {});

    ManualClock m_clock{1'800'000'000'000};
    std::unique_ptr<TestService> m_ph;
    QList<Endpoint> m_endpoints;
    QString m_userKey, m_userKeyId, m_otherKey, m_deviceToken, m_revokedToken, m_accessToken;
};

devices::DeviceService::Claimed tst_DeviceAuthMatrix::newDevice()
{
    devices::DeviceService &d = m_ph->service().devices();
    Principal user;
    user.kind = Principal::Kind::ApiKey;
    user.keyId = m_userKeyId;
    // In-process claims count too: a fresh minute for each.
    m_clock.advance(kMinute);
    return d.claim(d.pair(user).code, QStringLiteral("matrix"), QStringLiteral("1"));
}

QString tst_DeviceAuthMatrix::accessTokenFor(const QString &keyId)
{
    oauth::OAuthService &oauth = m_ph->service().oauth();
    const QString clientId =
        oauth
            .registerClient({{QStringLiteral("client_name"), QStringLiteral("matrix")},
                             {QStringLiteral("redirect_uris"), QJsonArray{kRedirect}}})
            .value(QStringLiteral("client_id"))
            .toString();
    const auto client = oauth.clients().known(clientId);
    const QHash<QString, QString> query{
        {QStringLiteral("response_type"), QStringLiteral("code")},
        {QStringLiteral("redirect_uri"), kRedirect},
        {QStringLiteral("code_challenge"), kChallenge},
        {QStringLiteral("code_challenge_method"), QStringLiteral("S256")},
        {QStringLiteral("resource"), m_ph->base() + QStringLiteral("/mcp")}};
    const auto &consent = oauth.beginConsent(oauth.checkAuthorize(query, *client));
    const QString id = consent.id;
    oauth.signIn(oauth.consent(id, consent.csrf), m_ph->ownerKey());
    const QUrlQuery back{QUrl(oauth.approve(id, keyId))};
    oauth::FormBody form;
    form.fields = {
        {QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
        {QStringLiteral("code"), back.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded)},
        {QStringLiteral("client_id"), clientId},
        {QStringLiteral("redirect_uri"), kRedirect},
        {QStringLiteral("code_verifier"), kVerifier}};
    return oauth.token(form).value(QStringLiteral("access_token")).toString();
}

void tst_DeviceAuthMatrix::initTestCase()
{
    m_ph = std::make_unique<TestService>(QStringList{}, QString(), &m_clock);
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    ApiKeyService &keys = m_ph->service().keyService();
    ApiKeyService::NewKey user;
    user.label = QStringLiteral("device user");
    const auto minted = keys.mint(user);
    m_userKey = minted.secret;
    m_userKeyId = minted.key.id;
    user.label = QStringLiteral("another user");
    m_otherKey = keys.mint(user).secret;
    m_deviceToken = newDevice().token;
    const auto revoked = newDevice();
    m_revokedToken = revoked.token;
    Principal owner;
    owner.kind = Principal::Kind::ApiKey;
    owner.keyId = keys.activeOwnerId();
    owner.owner = true;
    m_ph->service().devices().revoke(owner, revoked.deviceId);
    m_accessToken = accessTokenFor(m_userKeyId);
    QVERIFY(!m_accessToken.isEmpty());

    const auto fixed = [](const QString &p) { return [p] { return p; }; };
    //            none wrong owner user other device revoked oauth
    m_endpoints = {
        {QStringLiteral("POST /devices/pair"),
         "POST",
         fixed(QStringLiteral("/devices/pair")),
         "{}",
         {401, 401, 201, 201, 201, 401, 401, 401}},
        // Public: the code is the credential; one presented that is not valid is still 401.
        {QStringLiteral("POST /devices/claim with an unknown code"),
         "POST",
         fixed(QStringLiteral("/devices/claim")),
         R"({"code":"ABCD-EFGH"})",
         {400, 401, 400, 400, 400, 401, 401, 401}},
        {QStringLiteral("GET /devices"),
         "GET",
         fixed(QStringLiteral("/devices")),
         {},
         {401, 401, 200, 200, 200, 401, 401, 401}},
        {QStringLiteral("DELETE /devices/{id} of the user's device"),
         "DELETE",
         [this] { return QStringLiteral("/devices/") + newDevice().deviceId; },
         {},
         {401, 401, 200, 200, 404, 401, 401, 401}},
        {QStringLiteral("PUT /devices/scripts/{keyId} of the user's key"),
         "PUT",
         [this] { return QStringLiteral("/devices/scripts/") + m_userKeyId; },
         R"({"allowed":false})",
         {401, 401, 200, 403, 403, 401, 401, 401}},
        {QStringLiteral("GET /keys"),
         "GET",
         fixed(QStringLiteral("/keys")),
         {},
         {401, 401, 200, 403, 403, 401, 401, 401}},
    };
}

void tst_DeviceAuthMatrix::cleanupTestCase()
{
    m_ph.reset();
}

QString tst_DeviceAuthMatrix::credential(int c) const
{
    switch (c) {
    case WrongApiKey:
        return QStringLiteral("ph_live_notAKeyOfThisServer0000000000000000");
    case OwnerApiKey:
        return m_ph->ownerKey();
    case UserApiKey:
        return m_userKey;
    case OtherUserApiKey:
        return m_otherKey;
    case DeviceToken:
        return m_deviceToken;
    case RevokedDeviceToken:
        return m_revokedToken;
    case OAuthAccessToken:
        return m_accessToken;
    default:
        return {};
    }
}

HttpResponse tst_DeviceAuthMatrix::claimOverHttp(const QString &code, const QString &from)
{
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("code"), code}}).toJson();
    const HttpClient::Headers json{{QByteArray("Content-Type"), QByteArray("application/json")}};
    if (from.isEmpty())
        return HttpClient(m_ph->base()).send("POST", QStringLiteral("/devices/claim"), body, json);
    return HttpClient::sendFrom(from, "POST", QUrl(m_ph->base() + QStringLiteral("/devices/claim")),
                                body, json);
}

void tst_DeviceAuthMatrix::answers_data()
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

void tst_DeviceAuthMatrix::answers()
{
    QFETCH(int, endpoint);
    QFETCH(int, credential);
    const Endpoint &e = m_endpoints.at(endpoint);
    // Each cell in a minute of its own: the claim limits are not what this checks.
    m_clock.advance(kMinute);
    const QString path = e.path();
    HttpClient client(m_ph->base());
    client.setBearer(this->credential(credential));
    HttpClient::Headers headers;
    if (!e.body.isEmpty())
        headers.append({QByteArray("Content-Type"), QByteArray("application/json")});
    const auto r = client.send(e.method, path, e.body, headers);
    QVERIFY2(r.status == e.expected.at(credential),
             qPrintable(QStringLiteral("%1 got %2: %3")
                            .arg(e.name)
                            .arg(r.status)
                            .arg(QString::fromUtf8(r.body.left(300)))));
    for (const QString &secret : {m_deviceToken, m_revokedToken, m_accessToken, m_userKey})
        QVERIFY2(!r.body.contains(secret.toUtf8()), "a credential appeared in the response body");
}

void tst_DeviceAuthMatrix::coversEveryDeviceRoute()
{
    QStringList routed;
    for (const http::Route &route : m_ph->service().http().routes()) {
        if (route.pattern.startsWith(QLatin1String("/devices")))
            routed << QString::fromLatin1(route.method) + QLatin1Char(' ') + route.pattern;
    }
    QStringList covered;
    for (const Endpoint &e : std::as_const(m_endpoints)) {
        if (e.name.contains(QLatin1String("/devices")))
            covered << e.name.section(QLatin1Char(' '), 0, 1);
    }
    routed.sort();
    covered.sort();
    QCOMPARE(covered, routed);
}

void tst_DeviceAuthMatrix::aDeviceTokenOpensNoRouteThatTakesAnApiKey()
{
    using http::AuthPolicy;
    static const QRegularExpression param(QStringLiteral("\\{[^}]+\\}"));
    int checked = 0;
    for (const http::Route &route : m_ph->service().http().routes()) {
        if (route.auth == AuthPolicy::Public || route.auth == AuthPolicy::Anonymous ||
            route.auth == AuthPolicy::AccessToken)
            continue;
        QString path = route.pattern;
        path.replace(param, QStringLiteral("x"));
        const QByteArray body = route.method == "GET" ? QByteArray() : QByteArray("{}");
        for (const QByteArray &header : {QByteArray("Authorization"), QByteArray("x-api-key")}) {
            const QByteArray value = header == "Authorization" ? "Bearer " + m_deviceToken.toUtf8()
                                                               : m_deviceToken.toUtf8();
            const auto r = HttpClient(m_ph->base())
                               .send(route.method, path, body,
                                     {{header, value},
                                      {QByteArray("Content-Type"), QByteArray("application/json")},
                                      {QByteArray("Accept"),
                                       QByteArray("application/json, text/event-stream")}});
            QVERIFY2(r.status == 401,
                     qPrintable(QStringLiteral("%1 %2 with the device token in %3 got %4")
                                    .arg(QString::fromLatin1(route.method), route.pattern,
                                         QString::fromLatin1(header))
                                    .arg(r.status)));
            ++checked;
        }
    }
    QVERIFY(checked > 50);
}

void tst_DeviceAuthMatrix::onlyALiveDeviceTokenOpensTheSocket_data()
{
    QTest::addColumn<int>("credential");
    QTest::addColumn<bool>("opens");
    for (int c : {int(OwnerApiKey), int(UserApiKey), int(RevokedDeviceToken), int(OAuthAccessToken),
                  int(WrongApiKey)})
        QTest::newRow(qPrintable(QStringLiteral("%1 in the hello is closed with 1008")
                                     .arg(QLatin1String(credentialName(c)))))
            << c << false;
    QTest::newRow("a device token in the hello is welcomed") << int(DeviceToken) << true;
}

void tst_DeviceAuthMatrix::onlyALiveDeviceTokenOpensTheSocket()
{
    QFETCH(int, credential);
    QFETCH(bool, opens);
    Socket s;
    QSignalSpy closed(&s.socket, &QWebSocket::disconnected);
    QVERIFY(s.open(m_ph->base(), this->credential(credential)));
    if (opens) {
        QTRY_VERIFY(s.welcomed);
        s.socket.close();
        QVERIFY(closed.count() > 0 || closed.wait(10000));
        return;
    }
    QVERIFY(closed.wait(10000));
    QVERIFY(!s.welcomed);
    QCOMPARE(s.socket.closeCode(), QWebSocketProtocol::CloseCodePolicyViolated);
}

void tst_DeviceAuthMatrix::limitsClaimsPerClientAddress()
{
    // Past any earlier wrong codes' window, in a fresh minute.
    m_clock.advance(devices::DeviceService::kPairingMs + kMinute);
    const int limit = devices::ClaimLimiter::kPerClientPerMinute;
    for (int i = 0; i < limit; ++i) {
        const auto r = claimOverHttp(QStringLiteral("WRONG-%1").arg(i));
        QCOMPARE(r.status, 400);
        m_clock.advance(1000);
    }
    const auto refused = claimOverHttp(QStringLiteral("WRONG-X"));
    QCOMPARE(refused.status, 429);
    QCOMPARE(refused.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("RATE_LIMITED"));
    // The first claim was `limit` seconds ago: it leaves the window in 60 - limit seconds.
    QCOMPARE(refused.header("Retry-After"), QByteArray::number(60 - limit));
    // Another address is not held back by this one.
    QCOMPARE(claimOverHttp(QStringLiteral("WRONG-Y"), QStringLiteral("127.0.0.2")).status, 400);
    // After Retry-After, this address may try again.
    m_clock.advance(qint64(60 - limit) * 1000);
    QCOMPARE(claimOverHttp(QStringLiteral("WRONG-Z")).status, 400);
}

void tst_DeviceAuthMatrix::withdrawsPendingCodesAfterTooManyWrongOnes_data()
{
    QTest::addColumn<int>("wrong");
    QTest::addColumn<int>("expect");
    const int n = devices::ClaimLimiter::kWrongCodes;
    QTest::newRow("a pending code still claims after one wrong code fewer than the limit")
        << n - 1 << 201;
    QTest::newRow("a pending code is withdrawn by the limit's worth of wrong codes") << n << 400;
}

void tst_DeviceAuthMatrix::withdrawsPendingCodesAfterTooManyWrongOnes()
{
    QFETCH(int, wrong);
    QFETCH(int, expect);
    m_clock.advance(devices::DeviceService::kPairingMs + kMinute);
    HttpClient owner = m_ph->client();
    const auto paired = owner.post(QStringLiteral("/devices/pair"), {});
    QCOMPARE(paired.status, 201);
    QSignalSpy withdrawn(&m_ph->service().devices(), &devices::DeviceService::pairingsWithdrawn);
    for (int i = 0; i < wrong; ++i) {
        // Spread over addresses and minutes: only the count of wrong codes matters here.
        const QString from = QStringLiteral("127.0.0.%1").arg(2 + i % 3);
        QCOMPARE(claimOverHttp(QStringLiteral("WRONG-%1").arg(i), from).status, 400);
        m_clock.advance(20 * 1000);
    }
    QCOMPARE(withdrawn.count(), expect == 400 ? 1 : 0);
    m_clock.advance(kMinute);
    const auto r = claimOverHttp(paired.json().value(QStringLiteral("code")).toString());
    QCOMPARE(r.status, expect);
    if (expect == 400)
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("INVALID_PAIRING_CODE"));
}

PH_WEBENGINE_TEST_MAIN(tst_DeviceAuthMatrix)
#include "tst_deviceauthmatrix.moc"
