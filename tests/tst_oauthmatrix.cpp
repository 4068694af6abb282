// The authorisation matrix of the new credential kind, OAuth access tokens: every MCP
// endpoint and a sample of the rest against API keys and tokens of each resource, with
// the status each cell must get, the RFC 9728 challenge on the MCP endpoints' 401s, and
// no token in any body.
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "core/ApiKeyRepository.h"
#include "core/Store.h"
#include "oauth/ClientDirectory.h"
#include "oauth/FormBody.h"
#include "oauth/OAuthService.h"

#include <QJsonArray>
#include <QUrlQuery>

using namespace ph;
using namespace ph::test;

namespace {

enum Credential {
    NoCredential,
    OwnerApiKey,
    UserApiKey,
    TokenForMcpActingAsUser,
    TokenForConfigMcpActingAsOwner,
    RevokedToken,
    RefreshTokenAsBearer,
    UnknownToken,
    CredentialCount
};

const char *credentialName(int c)
{
    static const char *names[] = {"no credential",
                                  "the owner's API key",
                                  "a user's API key",
                                  "an access token for /mcp acting as the user's key",
                                  "an access token for /config/mcp acting as the owner's key",
                                  "a revoked access token",
                                  "a refresh token sent as the bearer",
                                  "an access token this server never issued"};
    return names[c];
}

struct Endpoint
{
    QString name;
    QByteArray method;
    QString path;
    QByteArray body;
    QList<int> expected; // one status per Credential
};

const QByteArray kInitialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
        "capabilities":{},"clientInfo":{"name":"matrix","version":"1"}}})";
const QString kVerifier = QStringLiteral("dBjftJeZ4CVP-mJ92K9TzNwWb2vsqKt3E3xJVHtmz-Y");
const QString kChallenge = QStringLiteral("csdw-HxZzQ3VJEB2Tt70wa-FiJggKhtKcMgxFQfRVCA");
const QString kRedirect = QStringLiteral("http://127.0.0.1:9/cb");

} // namespace

class tst_OAuthMatrix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void answers_data();
    void answers();

private:
    QJsonObject tokensFor(const QString &keyId, const QString &path);
    QString credential(int c) const;

    std::unique_ptr<TestService> m_ph;
    QList<Endpoint> m_endpoints;
    QString m_userKey, m_mcpToken, m_configToken, m_revoked, m_refresh;
};

QJsonObject tst_OAuthMatrix::tokensFor(const QString &keyId, const QString &path)
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
        {QStringLiteral("resource"), m_ph->base() + path}};
    const auto &consent = oauth.beginConsent(oauth.checkAuthorize(query, *client));
    const QString id = consent.id;
    oauth.signIn(oauth.consent(id, consent.csrf), m_ph->ownerKey());
    const QUrlQuery back{QUrl(oauth.approve(id, keyId))};
    oauth::FormBody form;
    form.fields = {{QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
                   {QStringLiteral("code"), back.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded)},
                   {QStringLiteral("client_id"), clientId},
                   {QStringLiteral("redirect_uri"), kRedirect},
                   {QStringLiteral("code_verifier"), kVerifier}};
    return oauth.token(form);
}

void tst_OAuthMatrix::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    const QString userSecret = m_ph->mintKey(100, false);
    m_userKey = userSecret;
    const QString userId = m_ph->service().store().apiKeys().findBySecret(userSecret)->id;
    const QString ownerId = m_ph->service().store().apiKeys().activeOwnerId();
    const QJsonObject mcp = tokensFor(userId, QStringLiteral("/mcp"));
    m_mcpToken = mcp.value(QStringLiteral("access_token")).toString();
    m_refresh = mcp.value(QStringLiteral("refresh_token")).toString();
    m_configToken =
        tokensFor(ownerId, QStringLiteral("/config/mcp")).value(QStringLiteral("access_token")).toString();
    const QJsonObject revoked = tokensFor(userId, QStringLiteral("/mcp"));
    m_revoked = revoked.value(QStringLiteral("access_token")).toString();
    oauth::FormBody revoke;
    revoke.fields = {{QStringLiteral("token"), revoked.value(QStringLiteral("refresh_token")).toString()}};
    m_ph->service().oauth().revoke(revoke);

    //                  none  owner user  mcpTok cfgTok revoked refresh unknown
    m_endpoints = {
        {QStringLiteral("POST /mcp"), "POST", QStringLiteral("/mcp"), kInitialize,
         {401, 200, 200, 200, 401, 401, 401, 401}},
        {QStringLiteral("POST /config/mcp"), "POST", QStringLiteral("/config/mcp"), kInitialize,
         {401, 200, 403, 401, 200, 401, 401, 401}},
        {QStringLiteral("GET /keys"), "GET", QStringLiteral("/keys"), {},
         {401, 200, 403, 401, 401, 401, 401, 401}},
        {QStringLiteral("POST /scrape"), "POST", QStringLiteral("/scrape"), "{}",
         {401, 400, 400, 401, 401, 401, 401, 401}},
        {QStringLiteral("GET /oauth/grants"), "GET", QStringLiteral("/oauth/grants"), {},
         {401, 200, 403, 401, 401, 401, 401, 401}},
        {QStringLiteral("DELETE /oauth/grants/{grantId} of an unknown grant"), "DELETE",
         QStringLiteral("/oauth/grants/grant_unknown"), {}, {401, 404, 403, 401, 401, 401, 401, 401}},
        {QStringLiteral("GET /.well-known/oauth-authorization-server"), "GET",
         QStringLiteral("/.well-known/oauth-authorization-server"), {},
         {200, 200, 200, 200, 200, 200, 200, 200}},
        {QStringLiteral("GET /.well-known/oauth-protected-resource/mcp"), "GET",
         QStringLiteral("/.well-known/oauth-protected-resource/mcp"), {},
         {200, 200, 200, 200, 200, 200, 200, 200}},
        {QStringLiteral("POST /oauth/token without a grant type"), "POST",
         QStringLiteral("/oauth/token"), {}, {400, 400, 400, 400, 400, 400, 400, 400}},
    };
}

void tst_OAuthMatrix::cleanupTestCase()
{
    m_ph.reset();
}

QString tst_OAuthMatrix::credential(int c) const
{
    switch (c) {
    case OwnerApiKey:
        return m_ph->ownerKey();
    case UserApiKey:
        return m_userKey;
    case TokenForMcpActingAsUser:
        return m_mcpToken;
    case TokenForConfigMcpActingAsOwner:
        return m_configToken;
    case RevokedToken:
        return m_revoked;
    case RefreshTokenAsBearer:
        return m_refresh;
    case UnknownToken:
        return QStringLiteral("pho_at_neverIssuedByThisServer00000000000");
    default:
        return {};
    }
}

void tst_OAuthMatrix::answers_data()
{
    QTest::addColumn<int>("endpoint");
    QTest::addColumn<int>("credential");
    for (int e = 0; e < m_endpoints.size(); ++e) {
        for (int c = 0; c < CredentialCount; ++c) {
            const QByteArray name = QStringLiteral("%1 with %2 answers %3")
                                        .arg(m_endpoints.at(e).name, QLatin1String(credentialName(c)))
                                        .arg(m_endpoints.at(e).expected.at(c))
                                        .toUtf8();
            QTest::newRow(name.constData()) << e << c;
        }
    }
}

void tst_OAuthMatrix::answers()
{
    QFETCH(int, endpoint);
    QFETCH(int, credential);
    const Endpoint &e = m_endpoints.at(endpoint);
    HttpClient client(m_ph->base());
    client.setBearer(this->credential(credential));
    HttpClient::Headers headers;
    if (e.path.endsWith(QLatin1String("/mcp")))
        headers.append({QByteArray("Accept"), QByteArray("application/json, text/event-stream")});
    if (e.path == QLatin1String("/oauth/token"))
        headers.append({QByteArray("Content-Type"), QByteArray("application/x-www-form-urlencoded")});
    else if (!e.body.isEmpty())
        headers.append({QByteArray("Content-Type"), QByteArray("application/json")});
    const auto r = client.send(e.method, e.path, e.body, headers);
    QVERIFY2(r.status == e.expected.at(credential),
             qPrintable(QStringLiteral("%1 got %2: %3")
                            .arg(e.name)
                            .arg(r.status)
                            .arg(QString::fromUtf8(r.body.left(300)))));
    for (const QString &secret : {m_mcpToken, m_configToken, m_refresh, m_revoked})
        QVERIFY2(!r.body.contains(secret.toUtf8()), "a token appeared in the response body");
    if (r.status == 401) {
        const QByteArray challenge = r.header("WWW-Authenticate");
        const bool mcp = e.path == QLatin1String("/mcp") || e.path == QLatin1String("/config/mcp");
        if (mcp)
            QCOMPARE(challenge, QStringLiteral("Bearer resource_metadata=\"%1/.well-known/"
                                               "oauth-protected-resource%2\", scope=\"mcp\"")
                                    .arg(m_ph->base(), e.path)
                                    .toUtf8());
        else
            QCOMPARE(challenge, QByteArray("Bearer"));
    }
}

PH_WEBENGINE_TEST_MAIN(tst_OAuthMatrix)
#include "tst_oauthmatrix.moc"
