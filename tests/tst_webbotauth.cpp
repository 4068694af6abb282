// Web Bot Auth's parts without a network (server/a2w/WebBotAuth): the RFC 8941 parsers,
// the @signature-params line and signature base (RFC 9421 §2.5), the JWK thumbprint
// (RFC 7638, the RFC 8037 example) and Ed25519 (the RFC 8032 test vector).
#include "a2w/WebBotAuth.h"

#include <QTest>

using ph::a2w::SignatureInput;
using ph::a2w::WebBotAuth;

class tst_WebBotAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesSignatureInput_data();
    void parsesSignatureInput();
    void parsesSignaturesAndTheAgent();
    void buildsTheSignatureBase();
    void computesTheJwkThumbprintOfRfc8037();
    void verifiesTheRfc8032Vector();
};

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
    QTest::newRow("a component with parameters is refused")
        << QByteArray("sig1=(\"@query-param\";name=\"a\")") << false << QStringList() << QString();
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

QTEST_GUILESS_MAIN(tst_WebBotAuth)
#include "tst_webbotauth.moc"
