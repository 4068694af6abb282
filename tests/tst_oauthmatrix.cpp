// The authorisation matrix of the new credential kind, OAuth access tokens: every MCP
// endpoint and a sample of the rest against API keys and tokens of each resource, with
// the status each cell must get, the RFC 9728 challenge on the MCP endpoints' 401s, and
// no token in any body.
#include "FixtureServer.h"
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
    void theConsentFormNeedsItsCsrfTokenAndCookie();
    void aBadRequestIsRedirectedOnlyToARegisteredUri();
    void aClientMetadataDocumentIsFetchedThroughThePolicy();

private:
    QJsonObject tokensFor(const QString &keyId, const QString &path);
    QString credential(int c) const;
    QByteArray raw(const QByteArray &method, const QString &target, const QByteArray &body = {},
                   const QByteArray &cookie = {});
    QString authorizeUrl(const QString &clientId, const QString &redirect,
                         const QString &method = QStringLiteral("S256"));

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
    form.fields = {
        {QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
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
    m_configToken = tokensFor(ownerId, QStringLiteral("/config/mcp"))
                        .value(QStringLiteral("access_token"))
                        .toString();
    const QJsonObject revoked = tokensFor(userId, QStringLiteral("/mcp"));
    m_revoked = revoked.value(QStringLiteral("access_token")).toString();
    oauth::FormBody revoke;
    revoke.fields = {
        {QStringLiteral("token"), revoked.value(QStringLiteral("refresh_token")).toString()}};
    m_ph->service().oauth().revoke(revoke);

    //                  none  owner user  mcpTok cfgTok revoked refresh unknown
    m_endpoints = {
        {QStringLiteral("POST /mcp"),
         "POST",
         QStringLiteral("/mcp"),
         kInitialize,
         {401, 200, 200, 200, 401, 401, 401, 401}},
        {QStringLiteral("POST /config/mcp"),
         "POST",
         QStringLiteral("/config/mcp"),
         kInitialize,
         {401, 200, 403, 401, 200, 401, 401, 401}},
        {QStringLiteral("GET /keys"),
         "GET",
         QStringLiteral("/keys"),
         {},
         {401, 200, 403, 401, 401, 401, 401, 401}},
        {QStringLiteral("POST /scrape"),
         "POST",
         QStringLiteral("/scrape"),
         "{}",
         {401, 400, 400, 401, 401, 401, 401, 401}},
        {QStringLiteral("GET /oauth/grants"),
         "GET",
         QStringLiteral("/oauth/grants"),
         {},
         {401, 200, 403, 401, 401, 401, 401, 401}},
        {QStringLiteral("DELETE /oauth/grants/{grantId} of an unknown grant"),
         "DELETE",
         QStringLiteral("/oauth/grants/grant_unknown"),
         {},
         {401, 404, 403, 401, 401, 401, 401, 401}},
        {QStringLiteral("GET /.well-known/oauth-authorization-server"),
         "GET",
         QStringLiteral("/.well-known/oauth-authorization-server"),
         {},
         {200, 200, 200, 200, 200, 200, 200, 200}},
        {QStringLiteral("GET /.well-known/oauth-protected-resource/mcp"),
         "GET",
         QStringLiteral("/.well-known/oauth-protected-resource/mcp"),
         {},
         {200, 200, 200, 200, 200, 200, 200, 200}},
        {QStringLiteral("POST /oauth/token without a grant type"),
         "POST",
         QStringLiteral("/oauth/token"),
         {},
         {400, 400, 400, 400, 400, 400, 400, 400}},
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
            const QByteArray name =
                QStringLiteral("%1 with %2 answers %3")
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
        headers.append(
            {QByteArray("Content-Type"), QByteArray("application/x-www-form-urlencoded")});
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

QByteArray tst_OAuthMatrix::raw(const QByteArray &method, const QString &target,
                                const QByteArray &body, const QByteArray &cookie)
{
    QByteArray request = method + ' ' + target.toUtf8() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                         "Connection: close\r\nContent-Length: " + QByteArray::number(body.size()) +
                         "\r\n";
    if (!body.isEmpty())
        request += "Content-Type: application/x-www-form-urlencoded\r\n";
    if (!cookie.isEmpty())
        request += "Cookie: " + cookie + "\r\n";
    return HttpClient::raw(m_ph->port(), request + "\r\n" + body);
}

QString tst_OAuthMatrix::authorizeUrl(const QString &clientId, const QString &redirect,
                                      const QString &method)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("response_type"), QStringLiteral("code"));
    q.addQueryItem(QStringLiteral("client_id"),
                   QString::fromLatin1(QUrl::toPercentEncoding(clientId)));
    q.addQueryItem(QStringLiteral("redirect_uri"),
                   QString::fromLatin1(QUrl::toPercentEncoding(redirect)));
    q.addQueryItem(QStringLiteral("code_challenge"), kChallenge);
    q.addQueryItem(QStringLiteral("code_challenge_method"), method);
    q.addQueryItem(QStringLiteral("state"), QStringLiteral("xyz"));
    return QStringLiteral("/oauth/authorize?") + q.toString(QUrl::FullyEncoded);
}

namespace {
QString hiddenField(const QByteArray &html, const QByteArray &name)
{
    const QByteArray marker = "name=\"" + name + "\" value=\"";
    const qsizetype at = html.indexOf(marker);
    if (at < 0)
        return {};
    const qsizetype start = at + marker.size();
    return QString::fromUtf8(html.mid(start, html.indexOf('"', start) - start));
}
QByteArray cookieOf(const QByteArray &response)
{
    const qsizetype at = response.indexOf("Set-Cookie: ");
    if (at < 0)
        return {};
    const qsizetype start = at + 12;
    return response.mid(start, response.indexOf(';', start) - start);
}
} // namespace

void tst_OAuthMatrix::theConsentFormNeedsItsCsrfTokenAndCookie()
{
    const QString clientId =
        m_ph->service()
            .oauth()
            .registerClient({{QStringLiteral("client_name"), QStringLiteral("forms")},
                             {QStringLiteral("redirect_uris"), QJsonArray{kRedirect}}})
            .value(QStringLiteral("client_id"))
            .toString();
    const QByteArray page = raw("GET", authorizeUrl(clientId, kRedirect));
    QVERIFY2(page.startsWith("HTTP/1.1 200"), page.left(300).constData());
    QVERIFY(page.contains("frame-ancestors 'none'"));
    const QString consent = hiddenField(page, "consent");
    const QString csrf = hiddenField(page, "csrf");
    const QByteArray cookie = cookieOf(page);
    QVERIFY(!consent.isEmpty() && !csrf.isEmpty() && cookie.endsWith(csrf.toUtf8()));
    auto form = [&](const QString &token) {
        return QStringLiteral("consent=%1&csrf=%2&step=signin&decision=signin&credential=%3")
            .arg(consent, token, m_ph->ownerKey())
            .toUtf8();
    };
    // A form posted from elsewhere has the token but not the cookie: refused.
    QVERIFY(raw("POST", QStringLiteral("/oauth/authorize"), form(csrf)).startsWith("HTTP/1.1 400"));
    // The cookie with another token: refused.
    QVERIFY(raw("POST", QStringLiteral("/oauth/authorize"), form(QStringLiteral("forged")), cookie)
                .startsWith("HTTP/1.1 400"));
    // A wrong credential: the form again, 401.
    const QByteArray wrong =
        raw("POST", QStringLiteral("/oauth/authorize"),
            QStringLiteral("consent=%1&csrf=%2&step=signin&decision=signin&credential=%3")
                .arg(consent, csrf, m_userKey)
                .toUtf8(),
            cookie);
    QVERIFY2(wrong.startsWith("HTTP/1.1 401"), wrong.left(200).constData());
    QVERIFY(!wrong.contains(m_userKey.toUtf8()));
    // Token and cookie: signed in, the keys are offered with a new token.
    const QByteArray keys = raw("POST", QStringLiteral("/oauth/authorize"), form(csrf), cookie);
    QVERIFY2(keys.startsWith("HTTP/1.1 200"), keys.left(300).constData());
    QVERIFY(keys.contains("name=\"key\""));
    QVERIFY(hiddenField(keys, "csrf") != csrf);
    // Denied: back to the client with access_denied, its state and our iss.
    const QString fresh = hiddenField(keys, "csrf");
    const QByteArray denied = raw(
        "POST", QStringLiteral("/oauth/authorize"),
        QStringLiteral("consent=%1&csrf=%2&step=choose&decision=deny").arg(consent, fresh).toUtf8(),
        cookieOf(keys));
    QVERIFY2(denied.startsWith("HTTP/1.1 302"), denied.left(300).constData());
    QVERIFY(denied.contains("Location: http://127.0.0.1:9/cb?error=access_denied&state=xyz&iss="));
}

void tst_OAuthMatrix::aBadRequestIsRedirectedOnlyToARegisteredUri()
{
    const QString clientId =
        m_ph->service()
            .oauth()
            .registerClient({{QStringLiteral("client_name"), QStringLiteral("redirects")},
                             {QStringLiteral("redirect_uris"), QJsonArray{kRedirect}}})
            .value(QStringLiteral("client_id"))
            .toString();
    // plain PKCE: refused back to the registered redirect URI.
    const QByteArray plain = raw("GET", authorizeUrl(clientId, kRedirect, QStringLiteral("plain")));
    QVERIFY2(plain.startsWith("HTTP/1.1 302"), plain.left(300).constData());
    QVERIFY(plain.contains("error=invalid_request"));
    QVERIFY(plain.contains("state=xyz"));
    // Another redirect URI, or an unknown client: an error page, never a redirect.
    for (const QByteArray &r :
         {raw("GET", authorizeUrl(clientId, QStringLiteral("https://evil.example/cb"))),
          raw("GET", authorizeUrl(QStringLiteral("phc_unknown"), kRedirect))}) {
        QVERIFY2(r.startsWith("HTTP/1.1 400"), r.left(300).constData());
        QVERIFY(!r.contains("Location:"));
        QVERIFY(r.contains("text/html"));
    }
}

void tst_OAuthMatrix::aClientMetadataDocumentIsFetchedThroughThePolicy()
{
    FixtureServer app;
    QVERIFY(app.start());
    const QString clientId = app.url(QStringLiteral("/client.json"));
    app.route("/client.json", [clientId](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "application/json"}};
        r.body =
            QJsonDocument(QJsonObject{{QStringLiteral("client_id"), clientId},
                                      {QStringLiteral("client_name"), QStringLiteral("Doc App")},
                                      {QStringLiteral("redirect_uris"), QJsonArray{kRedirect}}})
                .toJson();
        return r;
    });
    // On this loopback install the policy reaches 127.0.0.1, so the document is fetched.
    const QByteArray page = raw("GET", authorizeUrl(clientId, kRedirect));
    QVERIFY2(page.startsWith("HTTP/1.1 200"), page.left(400).constData());
    QVERIFY(page.contains("Doc App"));
    QCOMPARE(app.hits("/client.json"), 1);
    // Cached: a second request does not fetch it again.
    QVERIFY(raw("GET", authorizeUrl(clientId, kRedirect)).startsWith("HTTP/1.1 200"));
    QCOMPARE(app.hits("/client.json"), 1);
    // With private targets off, the same document is refused before any fetch.
    ScopedSetting off(*m_ph, QStringLiteral("network.allowPrivateTargets"), false);
    const QString other = app.url(QStringLiteral("/other.json"));
    const QByteArray refused = raw("GET", authorizeUrl(other, kRedirect));
    QVERIFY2(refused.startsWith("HTTP/1.1 400"), refused.left(300).constData());
    QCOMPARE(app.hits("/other.json"), 0);
}

PH_WEBENGINE_TEST_MAIN(tst_OAuthMatrix)
#include "tst_oauthmatrix.moc"
