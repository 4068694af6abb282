// The authorization server of the MCP endpoints (server/oauth) on a real SQLite file with
// a manual clock: PKCE S256, the metadata documents, client metadata and registration,
// the authorization request's refusals, the code exchange (one use), refresh token
// rotation (a reused one revokes the family), the audience of an access token, revocation,
// and the form reader.
#include "oauth/ClientDirectory.h"
#include "oauth/ClientMetadata.h"
#include "oauth/FormBody.h"
#include "oauth/OAuthService.h"
#include "oauth/Pkce.h"

#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrlQuery>
#include <QtTest>

using namespace ph;
using namespace ph::oauth;

namespace {
const QString kBase = QStringLiteral("http://127.0.0.1:8765");
const QString kRedirect = QStringLiteral("http://127.0.0.1:9/callback");
// The challenge as openssl computes it: sha256 of the verifier, base64url without padding.
const QString kVerifier = QStringLiteral("dBjftJeZ4CVP-mJ92K9TzNwWb2vsqKt3E3xJVHtmz-Y");
const QString kChallenge = QStringLiteral("csdw-HxZzQ3VJEB2Tt70wa-FiJggKhtKcMgxFQfRVCA");

QString errorCode(const std::function<void()> &call)
{
    try {
        call();
    } catch (const DomainError &e) {
        return e.code();
    }
    return QStringLiteral("none");
}
} // namespace

class tst_OAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void pkceHashesTheVerifierAsS256Says();
    void pkceRefusesWhatIsNotTheVerifier_data();
    void pkceRefusesWhatIsNotTheVerifier();
    void metadataNamesTheEndpointsAndS256Only();
    void challengeNamesTheResourceMetadataOfMcpPathsOnly();
    void registrationRefuses_data();
    void registrationRefuses();
    void metadataDocumentRefuses_data();
    void metadataDocumentRefuses();
    void documentUrlsFollowTheLoopbackRule_data();
    void documentUrlsFollowTheLoopbackRule();
    void authorizationRequestRefuses_data();
    void authorizationRequestRefuses();
    void aCodeIsExchangedOnceWithItsVerifier();
    void refreshRotatesAndAReusedRefreshTokenRevokesTheFamily();
    void anAccessTokenWorksOnlyForItsResource();
    void revokingARefreshTokenEndsTheGrant();
    void aRevokedKeyEndsItsTokens();
    void theFormReaderRefuses_data();
    void theFormReaderRefuses();

private:
    // Runs the consent to the code: a grant acting as `keyId` for `resource`.
    QString codeFor(const QString &clientId, const QString &keyId,
                    const QString &resource = kBase + QStringLiteral("/mcp"));
    QJsonObject exchange(const QString &clientId, const QString &code,
                         const QString &verifier = kVerifier);
    QString registered();

    QTemporaryDir m_dir;
    ManualClock m_clock{1'700'000'000'000};
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<NetworkPolicy> m_policy;
    std::unique_ptr<OAuthService> m_oauth;
    QString m_ownerSecret, m_userKey;
};

void tst_OAuth::init()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("oauth.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_settings = std::make_unique<Settings>(*m_store);
    m_settings->setRuntimeDefault(SettingKeys::publicBaseUrl, kBase + QStringLiteral("/"));
    m_policy = std::make_unique<NetworkPolicy>(false);
    m_oauth = std::make_unique<OAuthService>(*m_store, *m_settings, *m_policy, nullptr, true);
    m_ownerSecret =
        m_store->apiKeys().mint(QStringLiteral("owner"), QStringLiteral("owner"), {}).secret;
    m_userKey =
        m_store->apiKeys().mint(QStringLiteral("user"), QStringLiteral("user"), 1000).key.id;
}

void tst_OAuth::cleanup()
{
    m_oauth.reset();
    m_policy.reset();
    m_settings.reset();
    m_store.reset();
    QFile::remove(m_dir.filePath(QStringLiteral("oauth.db")));
}

QString tst_OAuth::registered()
{
    return m_oauth
        ->registerClient({{QStringLiteral("client_name"), QStringLiteral("Test client")},
                          {QStringLiteral("redirect_uris"), QJsonArray{kRedirect}}})
        .value(QStringLiteral("client_id"))
        .toString();
}

QString tst_OAuth::codeFor(const QString &clientId, const QString &keyId, const QString &resource)
{
    const std::optional<OAuthClient> client = m_oauth->clients().known(clientId);
    if (!client)
        return {};
    const QHash<QString, QString> query{
        {QStringLiteral("response_type"), QStringLiteral("code")},
        {QStringLiteral("redirect_uri"), kRedirect},
        {QStringLiteral("code_challenge"), kChallenge},
        {QStringLiteral("code_challenge_method"), QStringLiteral("S256")},
        {QStringLiteral("state"), QStringLiteral("s1")},
        {QStringLiteral("resource"), resource}};
    const OAuthService::Consent &c = m_oauth->beginConsent(m_oauth->checkAuthorize(query, *client));
    const QString id = c.id;
    OAuthService::Consent &live = m_oauth->consent(id, c.csrf);
    m_oauth->signIn(live, m_ownerSecret);
    const QUrl back(m_oauth->approve(id, keyId));
    const QUrlQuery q(back);
    if (q.queryItemValue(QStringLiteral("iss"), QUrl::FullyDecoded) != kBase ||
        q.queryItemValue(QStringLiteral("state")) != QLatin1String("s1"))
        return {};
    return q.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded);
}

QJsonObject tst_OAuth::exchange(const QString &clientId, const QString &code,
                                const QString &verifier)
{
    FormBody form;
    form.fields = {{QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
                   {QStringLiteral("code"), code},
                   {QStringLiteral("client_id"), clientId},
                   {QStringLiteral("redirect_uri"), kRedirect},
                   {QStringLiteral("code_verifier"), verifier}};
    return m_oauth->token(form);
}

void tst_OAuth::pkceHashesTheVerifierAsS256Says()
{
    QCOMPARE(Pkce::s256(kVerifier), kChallenge);
    QVERIFY(Pkce::verify(kVerifier, kChallenge));
}

void tst_OAuth::pkceRefusesWhatIsNotTheVerifier_data()
{
    QTest::addColumn<QString>("verifier");
    QTest::newRow("another verifier is refused")
        << QStringLiteral("aBjftJeZ4CVP-mJ92K9TzNwWb2vsqKt3E3xJVHtmz-Y");
    QTest::newRow("a verifier shorter than 43 characters is refused") << QStringLiteral("short");
    QTest::newRow("the challenge itself (plain) is refused") << kChallenge;
    QTest::newRow("a verifier with a character outside the set is refused")
        << QStringLiteral("dBjftJeZ4CVP-mJ92K9TzNwWb2vsqKt3E3xJVHtmz-Y!");
    QTest::newRow("an empty verifier is refused") << QString();
}

void tst_OAuth::pkceRefusesWhatIsNotTheVerifier()
{
    QFETCH(QString, verifier);
    QVERIFY(!Pkce::verify(verifier, kChallenge));
}

void tst_OAuth::metadataNamesTheEndpointsAndS256Only()
{
    const QJsonObject as = m_oauth->serverMetadata();
    QCOMPARE(as.value(QStringLiteral("issuer")).toString(), kBase);
    QCOMPARE(as.value(QStringLiteral("code_challenge_methods_supported")).toArray(),
             QJsonArray{QStringLiteral("S256")});
    QCOMPARE(as.value(QStringLiteral("client_id_metadata_document_supported")).toBool(), true);
    QCOMPARE(as.value(QStringLiteral("authorization_response_iss_parameter_supported")).toBool(),
             true);
    QCOMPARE(as.value(QStringLiteral("registration_endpoint")).toString(),
             kBase + QStringLiteral("/oauth/register"));
    QCOMPARE(as.value(QStringLiteral("revocation_endpoint")).toString(),
             kBase + QStringLiteral("/oauth/revoke"));
    const QJsonObject pr = m_oauth->resourceMetadata(QStringLiteral("/config/mcp"));
    QCOMPARE(pr.value(QStringLiteral("resource")).toString(),
             kBase + QStringLiteral("/config/mcp"));
    QCOMPARE(pr.value(QStringLiteral("authorization_servers")).toArray(), QJsonArray{kBase});
}

void tst_OAuth::challengeNamesTheResourceMetadataOfMcpPathsOnly()
{
    QCOMPARE(m_oauth->challenge(QStringLiteral("/mcp")),
             QByteArray("Bearer resource_metadata=\"http://127.0.0.1:8765/.well-known/"
                        "oauth-protected-resource/mcp\", scope=\"mcp\""));
    QVERIFY(m_oauth->challenge(QStringLiteral("/config/mcp"))
                .contains("protected-resource/config/mcp"));
    QVERIFY(m_oauth->challenge(QStringLiteral("/scrape")).isEmpty());
    QVERIFY(m_oauth->challenge(QStringLiteral("/mcp/v1/webhooks/trigger/x")).isEmpty());
}

void tst_OAuth::registrationRefuses_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    const QJsonArray ok{kRedirect};
    QTest::newRow("a registration without redirect_uris is refused")
        << QJsonObject{{QStringLiteral("client_name"), QStringLiteral("x")}}
        << "OAUTH_INVALID_CLIENT_METADATA"
        << "redirect_uris";
    QTest::newRow("a plain-http redirect URI to a remote host is refused")
        << QJsonObject{{QStringLiteral("redirect_uris"),
                        QJsonArray{QStringLiteral("http://evil.example/cb")}}}
        << "OAUTH_INVALID_REDIRECT_URI"
        << "redirect_uris";
    QTest::newRow("a javascript: redirect URI is refused")
        << QJsonObject{{QStringLiteral("redirect_uris"),
                        QJsonArray{QStringLiteral("javascript:alert(1)")}}}
        << "OAUTH_INVALID_REDIRECT_URI"
        << "redirect_uris";
    QTest::newRow("a redirect URI with a fragment is refused")
        << QJsonObject{{QStringLiteral("redirect_uris"),
                        QJsonArray{QStringLiteral("https://a.example/cb#x")}}}
        << "OAUTH_INVALID_REDIRECT_URI"
        << "redirect_uris";
    QTest::newRow("a confidential client is refused")
        << QJsonObject{{QStringLiteral("redirect_uris"), ok},
                       {QStringLiteral("token_endpoint_auth_method"),
                        QStringLiteral("client_secret_basic")}}
        << "OAUTH_INVALID_CLIENT_METADATA"
        << "token_endpoint_auth_method";
    QTest::newRow("the implicit grant is refused")
        << QJsonObject{{QStringLiteral("redirect_uris"), ok},
                       {QStringLiteral("grant_types"), QJsonArray{QStringLiteral("implicit")}}}
        << "OAUTH_INVALID_CLIENT_METADATA"
        << "grant_types";
}

void tst_OAuth::registrationRefuses()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, code);
    QFETCH(QString, field);
    try {
        m_oauth->registerClient(request);
        QFAIL("registered");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), code);
        QCOMPARE(e.field(), field);
    }
}

void tst_OAuth::metadataDocumentRefuses_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");
    QTest::newRow("a document that is not JSON is refused") << QByteArray("<html>") << "client_id";
    QTest::newRow("a document naming another client_id is refused")
        << QByteArray(
               R"({"client_id":"https://other.example/c.json","redirect_uris":["https://a.example/cb"]})")
        << "client_id";
    QTest::newRow("a document with a client_secret is refused")
        << QByteArray(
               R"({"client_id":"https://app.example/c.json","client_secret":"s","redirect_uris":["https://a.example/cb"]})")
        << "client_secret";
    QTest::newRow("a document without redirect_uris is refused")
        << QByteArray(R"({"client_id":"https://app.example/c.json"})") << "redirect_uris";
}

void tst_OAuth::metadataDocumentRefuses()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    try {
        ClientMetadata::fromDocument(body, QStringLiteral("https://app.example/c.json"));
        QFAIL("accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.field(), field);
    }
    const OAuthClient good = ClientMetadata::fromDocument(
        R"({"client_id":"https://app.example/c.json","client_name":"App","redirect_uris":["https://app.example/cb"]})",
        QStringLiteral("https://app.example/c.json"));
    QCOMPARE(good.name, QStringLiteral("App"));
    QVERIFY(good.allowsRedirect(QStringLiteral("https://app.example/cb")));
    QVERIFY(!good.allowsRedirect(QStringLiteral("https://app.example/cb/")));
}

void tst_OAuth::documentUrlsFollowTheLoopbackRule_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("loopback");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("an https URL with a path is accepted")
        << "https://app.example/client.json" << false << true;
    QTest::newRow("an https URL without a path is refused")
        << "https://app.example/" << false << false;
    QTest::newRow("http on 127.0.0.1 is refused where the policy reaches no private target")
        << "http://127.0.0.1:9/client.json" << false << false;
    QTest::newRow("http on 127.0.0.1 is accepted where the policy reaches private targets")
        << "http://127.0.0.1:9/client.json" << true << true;
    QTest::newRow("http to another host is refused even on loopback")
        << "http://app.example/client.json" << true << false;
    QTest::newRow("credentials in the URL are refused")
        << "https://u:p@app.example/client.json" << false << false;
}

void tst_OAuth::documentUrlsFollowTheLoopbackRule()
{
    QFETCH(QString, url);
    QFETCH(bool, loopback);
    QFETCH(bool, accepted);
    QCOMPARE(ClientMetadata::documentUrlProblem(QUrl(url), loopback).isEmpty(), accepted);
}

void tst_OAuth::authorizationRequestRefuses_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("code");
    QTest::newRow("a plain code challenge method is refused") << "code_challenge_method"
                                                              << "plain"
                                                              << "OAUTH_INVALID_REQUEST";
    QTest::newRow("a missing code challenge is refused") << "code_challenge"
                                                         << ""
                                                         << "OAUTH_INVALID_REQUEST";
    QTest::newRow("the token response type is refused") << "response_type"
                                                        << "token"
                                                        << "OAUTH_UNSUPPORTED_RESPONSE_TYPE";
    QTest::newRow("a resource of another server is refused") << "resource"
                                                             << "https://evil.example/mcp"
                                                             << "OAUTH_INVALID_TARGET";
    QTest::newRow("a resource that is not an MCP endpoint is refused")
        << "resource" << kBase + "/scrape"
        << "OAUTH_INVALID_TARGET";
}

void tst_OAuth::authorizationRequestRefuses()
{
    QFETCH(QString, name);
    QFETCH(QString, value);
    QFETCH(QString, code);
    const std::optional<OAuthClient> client = m_oauth->clients().known(registered());
    QVERIFY(client.has_value());
    QHash<QString, QString> query{
        {QStringLiteral("response_type"), QStringLiteral("code")},
        {QStringLiteral("redirect_uri"), kRedirect},
        {QStringLiteral("code_challenge"), kChallenge},
        {QStringLiteral("code_challenge_method"), QStringLiteral("S256")}};
    query.insert(name, value);
    QCOMPARE(errorCode([&] { m_oauth->checkAuthorize(query, *client); }), code);
    // Without `resource`, the bridge's /mcp is the default.
    query.insert(name, name == QLatin1String("resource") ? QString() : value);
    if (name == QLatin1String("resource"))
        QCOMPARE(m_oauth->checkAuthorize(query, *client).resource, kBase + QStringLiteral("/mcp"));
}

void tst_OAuth::aCodeIsExchangedOnceWithItsVerifier()
{
    const QString client = registered();
    const QString code = codeFor(client, m_userKey);
    QVERIFY(code.startsWith(QLatin1String("pho_code_")));
    QCOMPARE(errorCode([&] { exchange(client, code, kVerifier.left(42) + QLatin1Char('x')); }),
             QStringLiteral("OAUTH_INVALID_GRANT"));
    QCOMPARE(errorCode([&] { exchange(QStringLiteral("phc_other"), code); }),
             QStringLiteral("OAUTH_INVALID_GRANT"));
    const QJsonObject tokens = exchange(client, code);
    QVERIFY(tokens.value(QStringLiteral("access_token"))
                .toString()
                .startsWith(QLatin1String("pho_at_")));
    QCOMPARE(tokens.value(QStringLiteral("token_type")).toString(), QStringLiteral("Bearer"));
    QCOMPARE(tokens.value(QStringLiteral("expires_in")).toInt(), 3600);
    // A second use fails and ends what the first one gave.
    QCOMPARE(errorCode([&] { exchange(client, code); }), QStringLiteral("OAUTH_INVALID_GRANT"));
    QCOMPARE(errorCode([&] {
                 m_oauth->verify(tokens.value(QStringLiteral("access_token")).toString(),
                                 QStringLiteral("/mcp"));
             }),
             QStringLiteral("INVALID_TOKEN"));
    // An expired code is refused.
    const QString late = codeFor(client, m_userKey);
    m_clock.advance(OAuthService::kCodeMs + 1);
    QCOMPARE(errorCode([&] { exchange(client, late); }), QStringLiteral("OAUTH_INVALID_GRANT"));
}

void tst_OAuth::refreshRotatesAndAReusedRefreshTokenRevokesTheFamily()
{
    const QString client = registered();
    const QJsonObject first = exchange(client, codeFor(client, m_userKey));
    auto refresh = [&](const QString &token) {
        FormBody form;
        form.fields = {{QStringLiteral("grant_type"), QStringLiteral("refresh_token")},
                       {QStringLiteral("refresh_token"), token},
                       {QStringLiteral("client_id"), client}};
        return m_oauth->token(form);
    };
    const QJsonObject second = refresh(first.value(QStringLiteral("refresh_token")).toString());
    QVERIFY(second.value(QStringLiteral("refresh_token")) !=
            first.value(QStringLiteral("refresh_token")));
    const QString access = second.value(QStringLiteral("access_token")).toString();
    QCOMPARE(m_oauth->verify(access, QStringLiteral("/mcp")).keyId, m_userKey);

    QSignalSpy changed(m_oauth.get(), &OAuthService::grantChanged);
    // The first refresh token again: the whole family ends.
    QCOMPARE(errorCode([&] { refresh(first.value(QStringLiteral("refresh_token")).toString()); }),
             QStringLiteral("OAUTH_INVALID_GRANT"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(errorCode([&] { m_oauth->verify(access, QStringLiteral("/mcp")); }),
             QStringLiteral("INVALID_TOKEN"));
    QCOMPARE(errorCode([&] { refresh(second.value(QStringLiteral("refresh_token")).toString()); }),
             QStringLiteral("OAUTH_INVALID_GRANT"));
    QCOMPARE(m_oauth->grants().first().revokeReason, QStringLiteral("refresh token reused"));
}

void tst_OAuth::anAccessTokenWorksOnlyForItsResource()
{
    const QString client = registered();
    const QString access =
        exchange(client, codeFor(client, m_userKey, kBase + QStringLiteral("/config/mcp")))
            .value(QStringLiteral("access_token"))
            .toString();
    const Principal p = m_oauth->verify(access, QStringLiteral("/config/mcp"));
    QCOMPARE(p.keyId, m_userKey);
    QCOMPARE(p.owner, false);
    QCOMPARE(errorCode([&] { m_oauth->verify(access, QStringLiteral("/mcp")); }),
             QStringLiteral("INVALID_TOKEN"));
    QCOMPARE(errorCode([&] { m_oauth->verify(access, QStringLiteral("/scrape")); }),
             QStringLiteral("INVALID_TOKEN"));
    // Expired after an hour.
    m_clock.advance(OAuthService::kAccessTokenMs + 1);
    QCOMPARE(errorCode([&] { m_oauth->verify(access, QStringLiteral("/config/mcp")); }),
             QStringLiteral("INVALID_TOKEN"));
}

void tst_OAuth::revokingARefreshTokenEndsTheGrant()
{
    const QString client = registered();
    const QJsonObject tokens = exchange(client, codeFor(client, m_userKey));
    FormBody form;
    form.fields = {
        {QStringLiteral("token"), tokens.value(QStringLiteral("refresh_token")).toString()}};
    m_oauth->revoke(form);
    QCOMPARE(errorCode([&] {
                 m_oauth->verify(tokens.value(QStringLiteral("access_token")).toString(),
                                 QStringLiteral("/mcp"));
             }),
             QStringLiteral("INVALID_TOKEN"));
    // An unknown token is fine (RFC 7009 §2.2).
    form.fields = {{QStringLiteral("token"), QStringLiteral("pho_rt_unknown")}};
    m_oauth->revoke(form);
    QCOMPARE(m_oauth->grants().first().isActive(), false);
}

void tst_OAuth::aRevokedKeyEndsItsTokens()
{
    const QString client = registered();
    const QJsonObject tokens = exchange(client, codeFor(client, m_userKey));
    QVERIFY(m_store->apiKeys().revoke(m_userKey));
    QCOMPARE(errorCode([&] {
                 m_oauth->verify(tokens.value(QStringLiteral("access_token")).toString(),
                                 QStringLiteral("/mcp"));
             }),
             QStringLiteral("INVALID_TOKEN"));
    // Signing in with a user key, not the owner's, is refused.
    const std::optional<OAuthClient> c = m_oauth->clients().known(client);
    QHash<QString, QString> query{
        {QStringLiteral("response_type"), QStringLiteral("code")},
        {QStringLiteral("redirect_uri"), kRedirect},
        {QStringLiteral("code_challenge"), kChallenge},
        {QStringLiteral("code_challenge_method"), QStringLiteral("S256")}};
    const OAuthService::Consent &consent =
        m_oauth->beginConsent(m_oauth->checkAuthorize(query, *c));
    const QString id = consent.id;
    const QString userSecret =
        m_store->apiKeys().mint(QStringLiteral("u2"), QStringLiteral("user"), 1).secret;
    QCOMPARE(errorCode([&] { m_oauth->signIn(m_oauth->consent(id, consent.csrf), userSecret); }),
             QStringLiteral("OAUTH_SIGN_IN_FAILED"));
    QCOMPARE(errorCode([&] { m_oauth->consent(id, QStringLiteral("forged")); }),
             QStringLiteral("OAUTH_CONSENT_EXPIRED"));
    QCOMPARE(errorCode([&] { m_oauth->approve(id, m_userKey); }),
             QStringLiteral("OAUTH_SIGN_IN_FAILED"));
}

void tst_OAuth::theFormReaderRefuses_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");
    QTest::newRow("a parameter sent twice is refused naming it")
        << QByteArray("a=1&code=x&code=y") << "code";
    QTest::newRow("a field without a name is refused") << QByteArray("=x") << "";
    QTest::newRow("a body over 64 KiB is refused") << QByteArray(70000, 'a') << "";
}

void tst_OAuth::theFormReaderRefuses()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    try {
        FormBody::parse(body);
        QFAIL("accepted");
    } catch (const DomainError &e) {
        QCOMPARE(e.code(), QStringLiteral("OAUTH_INVALID_REQUEST"));
        QCOMPARE(e.field(), field);
    }
    const FormBody ok = FormBody::parse("grant_type=refresh_token&scope=a+b&x=%C3%A4");
    QCOMPARE(ok.value(QStringLiteral("scope")), QStringLiteral("a b"));
    QCOMPARE(ok.value(QStringLiteral("x")), QStringLiteral("ä"));
}

QTEST_GUILESS_MAIN(tst_OAuth)
#include "tst_oauth.moc"
