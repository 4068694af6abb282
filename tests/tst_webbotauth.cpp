// Web Bot Auth (server/a2w/WebBotAuth). Without a network: the RFC 8941 parsers, the
// @signature-params line and signature base (RFC 9421 §2.5, a dictionary member §2.1.2),
// the JWK thumbprint (RFC 7638, the RFC 8037 example) and Ed25519 (the RFC 8032 test
// vector). Through the service, signed by the reference signer (npm web-bot-auth): both
// forms of Signature-Agent, the binding of @authority to Pilothouse's own origins
// (http.publicOrigins), and key directories that are never fetched from loopback or
// private addresses (the test's resolver names a "public" agent host answered on
// loopback; plain http to it is a test-only allowance).
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "SignerKey.h"
#include "TestMain.h"
#include "TestResolver.h"
#include "TestService.h"

#include "a2w/WebBotAuth.h"
#include "core/Settings.h"

#include <QDateTime>
#include <QJsonArray>

using namespace ph;
using namespace ph::test;
using ph::a2w::SignatureInput;
using ph::a2w::WebBotAuth;

namespace {

const QByteArray kDirectoryPath = "/.well-known/http-message-signatures-directory";

} // namespace

class tst_WebBotAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void parsesSignatureInput_data();
    void parsesSignatureInput();
    void parsesSignaturesAndTheAgent();
    void readsTheDraftsDictionaryForm();
    void buildsTheSignatureBase();
    void computesTheJwkThumbprintOfRfc8037();
    void verifiesTheRfc8032Vector();
    void validatesThePublicOriginsSetting_data();
    void validatesThePublicOriginsSetting();
    void verifiesBothFormsOfSignatureAgent_data();
    void verifiesBothFormsOfSignatureAgent();
    void refusesASignatureMadeForAnotherHost_data();
    void refusesASignatureMadeForAnotherHost();
    void neverFetchesAKeyDirectoryFromAPrivateAddress_data();
    void neverFetchesAKeyDirectoryFromAPrivateAddress();

private:
    QJsonObject sign(const QString &url, const QString &agent, const QString &form);
    // A create on the test site with `signature` (the signer's three headers) and `host`
    // as the Host header, over a raw socket; returns the status and the JSON answer.
    QPair<int, QJsonObject> create(const QJsonObject &signature, const QByteArray &host);

    FixtureServer m_agentSite; // the agent's key directory, "public" as agent.test
    FixtureServer m_internal;  // the same directory on a loopback service
    std::shared_ptr<TestResolver> m_resolver = std::make_shared<TestResolver>();
    std::unique_ptr<TestService> m_ph;
    QJsonObject m_jwk;
    QString m_shop;
};

void tst_WebBotAuth::initTestCase()
{
    QVERIFY(m_agentSite.start());
    QVERIFY(m_internal.start());
    const SignerKey key = makeSignerKey(QStringLiteral(PILOTHOUSE_A2W_TEST_DIR));
    QVERIFY2(key.script.ok(), qPrintable(key.script.diagnostics()));
    m_jwk = key.jwk;
    for (FixtureServer *server : {&m_agentSite, &m_internal})
        serveKeyDirectory(*server, key.directory);
    m_internal.page("/shop", htmlPage(QStringLiteral("Shop"), QStringLiteral("<h1>Shop</h1>")));
    m_shop = m_internal.url(QStringLiteral("/shop"));
    // agent.test is public as far as the policy knows (a documentation address), and its
    // connections go to the agent's fixture on loopback; intranet.test is loopback.
    m_resolver->add(QStringLiteral("agent.test"), {QHostAddress(QStringLiteral("203.0.113.9"))});
    m_resolver->route(QHostAddress(QStringLiteral("203.0.113.9")), m_agentSite.port());
    m_resolver->add(QStringLiteral("intranet.test"), {QHostAddress(QHostAddress::LocalHost)});
    m_resolver->add(QStringLiteral("localhost"), {QHostAddress(QHostAddress::LocalHost)});

    m_ph = std::make_unique<TestService>(
        QStringList{QStringLiteral("a2w.runsPerMinutePerAddress=1000"),
                    QStringLiteral("a2w.runsPerMinuteIdentified=1000")},
        QString(), nullptr, m_resolver);
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    // Bound to loopback, private targets are on: the key directory fetch must not care.
    QVERIFY(m_ph->service().settings().boolValue(SettingKeys::allowPrivateTargets));
    m_ph->service().webBotAuth().setPlainHttpDirectoriesForTests(true);
    const HttpResponse site = m_ph->client().post(
        QStringLiteral("/generateSiteKey"),
        {{QStringLiteral("siteName"), QStringLiteral("Shop")},
         {QStringLiteral("label"), QStringLiteral("embed")},
         {QStringLiteral("allowedDomains"), QJsonArray{QStringLiteral("127.0.0.1")}}});
    QCOMPARE(site.status, 201);
    // The shop is on a random loopback port: its owner lists it.
    m_ph->listPrivateHosts({m_internal.hostPort()});
    m_ph->allowBrowserHandoffs(); // off by default; the runs here are browser runs
}

void tst_WebBotAuth::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_WebBotAuth::sign(const QString &url, const QString &agent, const QString &form)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const NodeResult r =
        runNodeScript(QStringLiteral(PILOTHOUSE_A2W_TEST_DIR),
                      {QStringLiteral("sign.mjs"), QStringLiteral("sign"),
                       QString::fromUtf8(QJsonDocument(m_jwk).toJson(QJsonDocument::Compact)),
                       QStringLiteral("POST"), url, agent, QString::number(now - 5),
                       QString::number(now + 300), form},
                      30000);
    if (!r.ok())
        qWarning() << r.diagnostics();
    return r.result();
}

QPair<int, QJsonObject> tst_WebBotAuth::create(const QJsonObject &signature, const QByteArray &host)
{
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("url"), m_shop},
                                  {QStringLiteral("prompt"), QStringLiteral("List the products")}})
            .toJson(QJsonDocument::Compact);
    QByteArray request = "POST /v2/a2w/runs HTTP/1.1\r\nHost: " + host +
                         "\r\nContent-Type: application/json\r\nPrefer: execution=browser\r\n"
                         "Connection: close\r\nContent-Length: " +
                         QByteArray::number(body.size()) + "\r\n";
    for (auto it = signature.begin(); it != signature.end(); ++it)
        request += it.key().toLatin1() + ": " + it.value().toString().toLatin1() + "\r\n";
    const QByteArray answer = HttpClient::raw(m_ph->port(), request + "\r\n" + body, 30000);
    const int status = answer.mid(9, 3).toInt();
    const qsizetype split = answer.indexOf("\r\n\r\n");
    return {status, QJsonDocument::fromJson(answer.mid(split + 4)).object()};
}

void tst_WebBotAuth::parsesSignatureInput_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QStringList>("components");
    QTest::addColumn<QString>("serialized");
    QTest::newRow("the reference signer's header parses and serializes back")
        << QByteArray("sig1=(\"@authority\" \"signature-agent\");created=1795645808;keyid=\"k1\";"
                      "alg=\"ed25519\";expires=1795646108;nonce=\"n+/=\";tag=\"web-bot-auth\"")
        << true << QStringList{QStringLiteral("@authority"), QStringLiteral("signature-agent")}
        << QStringLiteral("(\"@authority\" \"signature-agent\");created=1795645808;keyid=\"k1\";"
                          "alg=\"ed25519\";expires=1795646108;nonce=\"n+/=\";tag=\"web-bot-auth\"");
    QTest::newRow("spaces after a comma and a boolean parameter are allowed")
        << QByteArray("a=();x, sig1=(\"@method\");created=1") << true
        << QStringList{QStringLiteral("@method")} << QStringLiteral("(\"@method\");created=1");
    QTest::newRow("an escaped quote in a string parameter survives")
        << QByteArray("sig1=();keyid=\"a\\\"b\"") << true << QStringList()
        << QStringLiteral("();keyid=\"a\\\"b\"");
    QTest::newRow("an unterminated inner list is refused")
        << QByteArray("sig1=(\"@authority\"") << false << QStringList() << QString();
    QTest::newRow("a bare item instead of an inner list is refused")
        << QByteArray("sig1=\"x\"") << false << QStringList() << QString();
    QTest::newRow("a component with parameters other than key is refused")
        << QByteArray("sig1=(\"@query-param\";name=\"a\")") << false << QStringList() << QString();
    QTest::newRow("a dictionary member named by key parses and serializes back")
        << QByteArray("sig1=(\"@authority\" \"signature-agent\";key=\"sig1\");tag=\"web-bot-auth\"")
        << true << QStringList{QStringLiteral("@authority"), QStringLiteral("signature-agent")}
        << QStringLiteral("(\"@authority\" \"signature-agent\";key=\"sig1\");tag=\"web-bot-auth\"");
    QTest::newRow("a key that is a token, not a string, is refused")
        << QByteArray("sig1=(\"signature-agent\";key=sig1)") << false << QStringList() << QString();
    QTest::newRow("an upper-case key is refused")
        << QByteArray("Sig1=()") << false << QStringList() << QString();
    QTest::newRow("a trailing comma is refused")
        << QByteArray("sig1=(),") << false << QStringList() << QString();
    QTest::newRow("a control character in a string is refused")
        << QByteArray("sig1=();nonce=\"a\tb\"") << false << QStringList() << QString();
    QTest::newRow("an empty header is refused")
        << QByteArray() << false << QStringList() << QString();
}

void tst_WebBotAuth::parsesSignatureInput()
{
    QFETCH(QByteArray, header);
    QFETCH(bool, ok);
    QFETCH(QStringList, components);
    QFETCH(QString, serialized);
    QString error;
    const auto parsed = WebBotAuth::parseSignatureInput(header, &error);
    QCOMPARE(parsed.has_value(), ok);
    if (!ok) {
        QVERIFY(!error.isEmpty());
        return;
    }
    const SignatureInput &last = parsed->last();
    QCOMPARE(last.components, components);
    QCOMPARE(last.serialized(), serialized);
}

void tst_WebBotAuth::parsesSignaturesAndTheAgent()
{
    QString error;
    const auto sigs = WebBotAuth::parseSignatures("sig1=:AAEC:, sig2=:/w==:", &error);
    QVERIFY(sigs);
    QCOMPARE(sigs->value(QStringLiteral("sig1")), QByteArray("\x00\x01\x02", 3));
    QCOMPARE(sigs->value(QStringLiteral("sig2")), QByteArray("\xff", 1));
    QVERIFY(!WebBotAuth::parseSignatures("sig1=\"not bytes\"", &error));
    QVERIFY(!WebBotAuth::parseSignatures("sig1=:no*base64:", &error));

    QCOMPARE(WebBotAuth::parseSignatureAgent("\"https://agent.example\"", QStringLiteral("sig1")),
             QStringLiteral("https://agent.example"));
    QCOMPARE(WebBotAuth::parseSignatureAgent(
                 "sig0=\"https://a.example\", sig1=\"https://b.example\"", QStringLiteral("sig1")),
             QStringLiteral("https://b.example"));
    QCOMPARE(WebBotAuth::parseSignatureAgent("https://unquoted.example", QStringLiteral("sig1")),
             QString());
}

void tst_WebBotAuth::readsTheDraftsDictionaryForm()
{
    // The draft's dictionary: the member under the signature's label, if it is a string
    // of the directory type.
    const QByteArray header = "sig0=\"https://a.example\";type=jwks_uri, "
                              "sig1=\"https://b.example\";type=directory, sig2=?1";
    QCOMPARE(WebBotAuth::parseSignatureAgent(header, QStringLiteral("sig1")),
             QStringLiteral("https://b.example"));
    QCOMPARE(WebBotAuth::parseSignatureAgent(header, QStringLiteral("sig0")), QString());
    QCOMPARE(WebBotAuth::parseSignatureAgent(header, QStringLiteral("sig2")), QString());
    QCOMPARE(WebBotAuth::parseSignatureAgent(header, QStringLiteral("sig9")), QString());
    // A member's value is serialized again strictly: spaces go, a true boolean has no
    // value, the last of two equal keys wins.
    QCOMPARE(*WebBotAuth::dictionaryMember(
                 "sig1=\"https://x.example\";  type=directory;fresh=?1, sig1=\"https://b.example\"",
                 QStringLiteral("sig1")),
             QByteArray("\"https://b.example\""));
    QCOMPARE(*WebBotAuth::dictionaryMember("sig1=\"https://b.example\";  type=directory;f=?1",
                                           QStringLiteral("sig1")),
             QByteArray("\"https://b.example\";type=directory;f"));
    QVERIFY(!WebBotAuth::dictionaryMember("\"https://b.example\"", QStringLiteral("sig1")));
    QVERIFY(!WebBotAuth::dictionaryMember("sig0=\"https://b.example\"", QStringLiteral("sig1")));
    // The authority of a Host value under a scheme: the default port goes.
    QCOMPARE(WebBotAuth::authorityOf(QStringLiteral("https"), QStringLiteral("Ex.COM:443")),
             QStringLiteral("ex.com"));
    QCOMPARE(WebBotAuth::authorityOf(QStringLiteral("http"), QStringLiteral("ex.com:8080")),
             QStringLiteral("ex.com:8080"));
    QCOMPARE(WebBotAuth::authorityOf(QStringLiteral("http"), QStringLiteral("u@ex.com")),
             QString());
}

void tst_WebBotAuth::buildsTheSignatureBase()
{
    ph::a2w::SignedRequest r;
    r.method = "post";
    r.path = QStringLiteral("/v2/a2w/runs");
    r.headers.insert("host", "Example.COM:8080");
    r.headers.insert("signature-agent", "\"https://agent.example\"");
    QString error;
    const auto input = WebBotAuth::parseSignatureInput(
        "sig1=(\"@authority\" \"@method\" \"@path\" \"signature-agent\");created=1;expires=2;"
        "tag=\"web-bot-auth\"",
        &error);
    QVERIFY(input);
    QCOMPARE(WebBotAuth::signatureBase(r, input->first(), &error),
             QByteArray("\"@authority\": example.com:8080\n"
                        "\"@method\": POST\n"
                        "\"@path\": /v2/a2w/runs\n"
                        "\"signature-agent\": \"https://agent.example\"\n"
                        "\"@signature-params\": (\"@authority\" \"@method\" \"@path\" "
                        "\"signature-agent\");created=1;expires=2;tag=\"web-bot-auth\""));
    // The draft's form: the member under the key, on its own line.
    r.headers.insert("signature-agent", "sig1=\"https://agent.example\"");
    const auto keyed = WebBotAuth::parseSignatureInput(
        "sig1=(\"@authority\" \"signature-agent\";key=\"sig1\");created=1", &error);
    QVERIFY(keyed);
    QCOMPARE(WebBotAuth::signatureBase(r, keyed->first(), &error),
             QByteArray("\"@authority\": example.com:8080\n"
                        "\"signature-agent\";key=\"sig1\": \"https://agent.example\"\n"
                        "\"@signature-params\": (\"@authority\" \"signature-agent\";key=\"sig1\")"
                        ";created=1"));
    // A covered header the request does not have: no base, naming it.
    const auto missing = WebBotAuth::parseSignatureInput("sig1=(\"content-digest\")", &error);
    QVERIFY(WebBotAuth::signatureBase(r, missing->first(), &error).isEmpty());
    QCOMPARE(error, QStringLiteral("content-digest"));
}

void tst_WebBotAuth::computesTheJwkThumbprintOfRfc8037()
{
    // RFC 8037 appendix A.3.
    QCOMPARE(WebBotAuth::thumbprint(QStringLiteral("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")),
             QStringLiteral("kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"));
}

void tst_WebBotAuth::verifiesTheRfc8032Vector()
{
    // RFC 8032 §7.1, TEST 1 (the empty message).
    const QByteArray key =
        QByteArray::fromHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    const QByteArray sig = QByteArray::fromHex(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e3970"
        "1cf9b46bd25bf5f0595bbe24655141438e7a100b");
    QVERIFY(WebBotAuth::verifyEd25519(key, QByteArray(), sig));
    QVERIFY(!WebBotAuth::verifyEd25519(key, QByteArray("x"), sig));
    QByteArray tampered = sig;
    tampered[10] = char(tampered[10] ^ 1);
    QVERIFY(!WebBotAuth::verifyEd25519(key, QByteArray(), tampered));
    QVERIFY(!WebBotAuth::verifyEd25519(key.left(31), QByteArray(), sig));
}

void tst_WebBotAuth::validatesThePublicOriginsSetting_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("ok");
    QTest::newRow("an https origin is accepted")
        << QStringLiteral("https://automation.example.com") << true;
    QTest::newRow("two origins, comma-separated, are accepted")
        << QStringLiteral("https://a.example, http://10.0.0.5:8710/") << true;
    QTest::newRow("empty falls back to http.publicBaseUrl") << QString() << true;
    QTest::newRow("a path is refused") << QStringLiteral("https://a.example/app") << false;
    QTest::newRow("a bare host name is refused") << QStringLiteral("a.example") << false;
    QTest::newRow("another scheme is refused") << QStringLiteral("ftp://a.example") << false;
    QTest::newRow("user info is refused") << QStringLiteral("https://u:p@a.example") << false;
}

void tst_WebBotAuth::validatesThePublicOriginsSetting()
{
    QFETCH(QString, value);
    QFETCH(bool, ok);
    HttpClient owner = m_ph->client();
    const HttpResponse r =
        owner.send("PATCH", QStringLiteral("/settings"),
                   QJsonDocument(QJsonObject{{QStringLiteral("http.publicOrigins"), value}})
                       .toJson(QJsonDocument::Compact),
                   {{"Content-Type", "application/json"}});
    if (ok) {
        QVERIFY2(r.status == 200, r.body.constData());
    } else {
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("INVALID_FIELD"));
        QCOMPARE(r.json().value(QStringLiteral("field")).toString(),
                 QStringLiteral("http.publicOrigins"));
    }
    QVERIFY(m_ph->service().settings().set(SettingKeys::publicOrigins, QString()).isEmpty());
}

void tst_WebBotAuth::verifiesBothFormsOfSignatureAgent_data()
{
    QTest::addColumn<QString>("form");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::newRow("the older sf-string form earns the verified tier")
        << QStringLiteral("string") << 201 << QString();
    QTest::newRow("the draft's dictionary form earns the verified tier")
        << QStringLiteral("dictionary") << 201 << QString();
    QTest::newRow("a dictionary member of another discovery type is not used")
        << QStringLiteral("jwks_uri") << 401 << QStringLiteral("SIGNATURE_AGENT_INVALID");
    QTest::newRow("a dictionary that has no member under the signature's label is refused")
        << QStringLiteral("other-label") << 401 << QStringLiteral("SIGNATURE_AGENT_INVALID");
}

void tst_WebBotAuth::verifiesBothFormsOfSignatureAgent()
{
    QFETCH(QString, form);
    QFETCH(int, status);
    QFETCH(QString, code);
    const QString agent = QStringLiteral("\"http://agent.test:%1\"").arg(m_agentSite.port());
    QJsonObject sig = sign(m_ph->base() + QStringLiteral("/v2/a2w/runs"), agent,
                           form == QLatin1String("string") ? QStringLiteral("string")
                                                           : QStringLiteral("dictionary"));
    QVERIFY(!sig.isEmpty());
    if (form == QLatin1String("jwks_uri"))
        sig.insert(QStringLiteral("Signature-Agent"),
                   QStringLiteral("sig1=%1;type=jwks_uri").arg(agent));
    if (form == QLatin1String("other-label"))
        sig.insert(QStringLiteral("Signature-Agent"), QStringLiteral("sig2=%1").arg(agent));
    const auto [got, answer] = create(sig, QUrl(m_ph->base()).authority().toLatin1());
    QVERIFY2(got == status, QJsonDocument(answer).toJson().constData());
    if (!code.isEmpty()) {
        QCOMPARE(answer.value(QStringLiteral("code")).toString(), code);
        return;
    }
    QCOMPARE(answer[QStringLiteral("agent")][QStringLiteral("trust")].toString(),
             QStringLiteral("verified"));
    QCOMPARE(answer[QStringLiteral("agent")][QStringLiteral("signatureAgent")].toString(),
             QStringLiteral("http://agent.test:%1").arg(m_agentSite.port()));
}

void tst_WebBotAuth::refusesASignatureMadeForAnotherHost_data()
{
    QTest::addColumn<QString>("signedFor");
    QTest::addColumn<QString>("publicOrigins");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::newRow("another site's signature replayed with that site's Host is refused")
        << QStringLiteral("https://shop.example/v2/a2w/runs") << QString()
        << QStringLiteral("shop.example") << 401 << QStringLiteral("SIGNATURE_WRONG_AUTHORITY");
    QTest::newRow("another site's signature with our Host does not verify")
        << QStringLiteral("https://shop.example/v2/a2w/runs") << QString() << QStringLiteral("ours")
        << 401 << QStringLiteral("SIGNATURE_INVALID");
    QTest::newRow("a signature for a configured public origin is verified")
        << QStringLiteral("https://automation.example/v2/a2w/runs")
        << QStringLiteral("https://automation.example") << QStringLiteral("automation.example")
        << 201 << QString();
    QTest::newRow("the listening address stops counting once public origins are configured")
        << QStringLiteral("ours") << QStringLiteral("https://automation.example")
        << QStringLiteral("ours") << 401 << QStringLiteral("SIGNATURE_WRONG_AUTHORITY");
    QTest::newRow("localhost names the loopback listener too")
        << QStringLiteral("localhost") << QString() << QStringLiteral("localhost") << 201
        << QString();
}

void tst_WebBotAuth::refusesASignatureMadeForAnotherHost()
{
    QFETCH(QString, signedFor);
    QFETCH(QString, publicOrigins);
    QFETCH(QString, host);
    QFETCH(int, status);
    QFETCH(QString, code);
    const QString ours = QUrl(m_ph->base()).authority();
    const QString local = QStringLiteral("localhost:%1").arg(m_ph->port());
    if (signedFor == QLatin1String("ours"))
        signedFor = m_ph->base() + QStringLiteral("/v2/a2w/runs");
    if (signedFor == QLatin1String("localhost"))
        signedFor = QStringLiteral("http://%1/v2/a2w/runs").arg(local);
    host = host == QLatin1String("ours") ? ours : host == QLatin1String("localhost") ? local : host;
    QVERIFY(m_ph->service().settings().set(SettingKeys::publicOrigins, publicOrigins).isEmpty());
    const QJsonObject sig =
        sign(signedFor, QStringLiteral("\"http://agent.test:%1\"").arg(m_agentSite.port()),
             QStringLiteral("dictionary"));
    const auto [got, answer] = create(sig, host.toLatin1());
    QVERIFY(m_ph->service().settings().set(SettingKeys::publicOrigins, QString()).isEmpty());
    QVERIFY2(got == status, QJsonDocument(answer).toJson().constData());
    if (!code.isEmpty()) {
        QCOMPARE(answer.value(QStringLiteral("code")).toString(), code);
        QCOMPARE(answer.value(QStringLiteral("field")).toString(), QStringLiteral("Signature"));
        return;
    }
    QCOMPARE(answer[QStringLiteral("agent")][QStringLiteral("trust")].toString(),
             QStringLiteral("verified"));
}

void tst_WebBotAuth::neverFetchesAKeyDirectoryFromAPrivateAddress_data()
{
    QTest::addColumn<QString>("agentHost");
    QTest::addColumn<QString>("code");
    QTest::newRow("a loopback address is refused without a fetch")
        << QStringLiteral("127.0.0.1") << QStringLiteral("SIGNATURE_AGENT_INVALID");
    QTest::newRow("localhost is refused without a fetch")
        << QStringLiteral("localhost") << QStringLiteral("SIGNATURE_AGENT_INVALID");
    QTest::newRow("a name that resolves to loopback is never connected to")
        << QStringLiteral("intranet.test") << QStringLiteral("SIGNATURE_KEY_UNKNOWN");
}

void tst_WebBotAuth::neverFetchesAKeyDirectoryFromAPrivateAddress()
{
    QFETCH(QString, agentHost);
    QFETCH(QString, code);
    const int before = m_internal.hits(kDirectoryPath);
    const QJsonObject sig =
        sign(m_ph->base() + QStringLiteral("/v2/a2w/runs"),
             QStringLiteral("\"http://%1:%2\"").arg(agentHost).arg(m_internal.port()),
             QStringLiteral("dictionary"));
    const auto [got, answer] = create(sig, QUrl(m_ph->base()).authority().toLatin1());
    QVERIFY2(got == 401, QJsonDocument(answer).toJson().constData());
    QCOMPARE(answer.value(QStringLiteral("code")).toString(), code);
    // The internal service never saw a request for its directory.
    QCOMPARE(m_internal.hits(kDirectoryPath), before);
}

PH_WEBENGINE_TEST_MAIN(tst_WebBotAuth)
#include "tst_webbotauth.moc"
