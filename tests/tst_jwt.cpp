// Jwt and JwkSet: parsing compact JWS and verifying RS256 and ES256 signatures against
// a JWKS, with keys made by OpenSSL in the test.
#include "TestIdp.h"

#include "http/Jwt.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace ph::http;
using namespace ph::test;

class tst_Jwt : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void verifies_data();
    void verifies();
    void refusesMalformedTokens_data();
    void refusesMalformedTokens();
    void skipsUnusableKeys();

private:
    std::unique_ptr<TestIdp> m_idp;
};

Q_DECLARE_METATYPE(JwkSet::Result)

void tst_Jwt::initTestCase()
{
    m_idp = std::make_unique<TestIdp>();
    QVERIFY(m_idp->ok());
}

namespace {
QString tamper(const QString &token)
{
    QStringList parts = token.split(QLatin1Char('.'));
    QJsonObject claims =
        QJsonDocument::fromJson(
            QByteArray::fromBase64(parts[1].toLatin1(), QByteArray::Base64UrlEncoding))
            .object();
    claims.insert(QStringLiteral("sub"), QStringLiteral("mallory"));
    parts[1] = QString::fromLatin1(
        QJsonDocument(claims)
            .toJson(QJsonDocument::Compact)
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    return parts.join(QLatin1Char('.'));
}
} // namespace

void tst_Jwt::verifies_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<JwkSet::Result>("result");
    const QJsonObject claims = m_idp->claims(QStringLiteral("aud-1"));
    using R = JwkSet::Result;
    QTest::newRow("an RS256 token verifies") << m_idp->sign(claims) << R::Ok;
    QTest::newRow("an ES256 token verifies") << m_idp->sign(claims, TestIdp::Alg::ES256) << R::Ok;
    QTest::newRow("a changed payload does not verify")
        << tamper(m_idp->sign(claims)) << R::BadSignature;
    QTest::newRow("a changed ES256 payload does not verify")
        << tamper(m_idp->sign(claims, TestIdp::Alg::ES256)) << R::BadSignature;
    QTest::newRow("another key under a published kid does not verify")
        << m_idp->signWithStrangerKey(claims) << R::BadSignature;
    QTest::newRow("an unknown kid is reported as such")
        << m_idp->sign(claims, TestIdp::Alg::RS256, QStringLiteral("nope")) << R::UnknownKey;
    QTest::newRow("an RS256 token naming the EC key's kid finds no RSA key")
        << m_idp->sign(claims, TestIdp::Alg::RS256, m_idp->ecKid()) << R::UnknownKey;
    // HS256 with the public key as the HMAC secret is the classic confusion attack.
    QStringList parts = m_idp->sign(claims).split(QLatin1Char('.'));
    parts[0] = QString::fromLatin1(
        QByteArray(R"({"alg":"HS256","kid":"rsa-1"})")
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    QTest::newRow("HS256 is not accepted")
        << parts.join(QLatin1Char('.')) << R::UnsupportedAlgorithm;
}

void tst_Jwt::verifies()
{
    QFETCH(QString, token);
    QFETCH(JwkSet::Result, result);
    const JwkSet keys = JwkSet::fromJson(m_idp->jwks());
    QCOMPARE(keys.size(), 2);
    const auto jwt = Jwt::parse(token);
    QVERIFY(jwt);
    QCOMPARE(keys.verify(*jwt), result);
}

void tst_Jwt::refusesMalformedTokens_data()
{
    QTest::addColumn<QString>("token");
    QTest::newRow("an empty string") << "";
    QTest::newRow("two segments") << "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0";
    QTest::newRow("an empty signature (alg none)") << "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.";
    QTest::newRow("a header that is not JSON") << "eyJub3QganNvbg.eyJzdWIiOiJ4In0.c2ln";
    QTest::newRow("characters outside base64url") << "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2l+n";
}

void tst_Jwt::refusesMalformedTokens()
{
    QFETCH(QString, token);
    QVERIFY(!Jwt::parse(token));
}

void tst_Jwt::skipsUnusableKeys()
{
    QJsonObject jwks = m_idp->jwks();
    QJsonArray keys = jwks.value(QStringLiteral("keys")).toArray();
    keys.append(QJsonObject{{QStringLiteral("kty"), QStringLiteral("oct")},
                            {QStringLiteral("kid"), QStringLiteral("hmac")},
                            {QStringLiteral("k"), QStringLiteral("c2VjcmV0")}});
    keys.append(QJsonObject{{QStringLiteral("kty"), QStringLiteral("RSA")},
                            {QStringLiteral("kid"), QStringLiteral("enc")},
                            {QStringLiteral("use"), QStringLiteral("enc")},
                            {QStringLiteral("n"), QStringLiteral("AQAB")},
                            {QStringLiteral("e"), QStringLiteral("AQAB")}});
    keys.append(QJsonObject{{QStringLiteral("kty"), QStringLiteral("RSA")},
                            {QStringLiteral("kid"), QStringLiteral("tiny")},
                            {QStringLiteral("n"), QStringLiteral("AQAB")},
                            {QStringLiteral("e"), QStringLiteral("AQAB")}});
    jwks.insert(QStringLiteral("keys"), keys);
    QCOMPARE(JwkSet::fromJson(jwks).size(), 2);
}

QTEST_GUILESS_MAIN(tst_Jwt)
#include "tst_jwt.moc"
