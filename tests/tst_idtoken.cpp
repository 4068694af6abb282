// Owner ID tokens through the real service: an RSA and an EC key made by OpenSSL in the
// test, published as JWKS by a loopback identity provider the test starts; issuer,
// audience, expiry and signature checked; discovery, key cache and refresh.
#include "HttpClient.h"
#include "TestIdp.h"
#include "TestMain.h"
#include "TestService.h"

#include "http/IdTokenVerifier.h"

#include <QDateTime>
#include <QJsonArray>

using namespace ph;
using namespace ph::test;

class tst_IdToken : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void decides_data();
    void decides();
    void discoversTheKeysOnceAndCachesThem();
    void refreshesOnAnUnknownKeyId();
    void rateLimitsRefreshesForUnknownKeyIds();
    void usesAConfiguredJwksUri();
    void matchesTheOwner_data();
    void matchesTheOwner();
    void refusesTokensWhenNoIssuerIsSet();
    void keepsApiKeyOnlyRoutesApiKeyOnly();

private:
    static HttpResponse call(TestService &ph, const QString &token);

    std::unique_ptr<TestIdp> m_idp;
    std::unique_ptr<TestService> m_ph;
};

namespace {
const QString kAudience = QStringLiteral("pilothouse-test");
}

void tst_IdToken::initTestCase()
{
    m_idp = std::make_unique<TestIdp>();
    QVERIFY(m_idp->ok());
    // The owners set through the API, not --set (an override), so that matchesTheOwner
    // can change them.
    m_ph = std::make_unique<TestService>(
        QStringList{QStringLiteral("auth.oidc.issuer=") + m_idp->issuer(),
                    QStringLiteral("auth.oidc.audience=") + kAudience});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    QCOMPARE(m_ph->client()
                 .send("PATCH", QStringLiteral("/settings"),
                       QJsonDocument(QJsonObject{{QStringLiteral("auth.oidc.owners"),
                                                  QStringLiteral("owner-1")}})
                           .toJson())
                 .status,
             200);
}

void tst_IdToken::cleanupTestCase()
{
    m_ph.reset();
    m_idp.reset();
}

HttpResponse tst_IdToken::call(TestService &ph, const QString &token)
{
    HttpClient c(ph.base());
    c.setBearer(token);
    return c.post(QStringLiteral("/listSiteKeys"), {});
}

void tst_IdToken::decides_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QJsonObject valid = m_idp->claims(kAudience);
    auto with = [&](const QString &key, const QJsonValue &v) {
        QJsonObject c = valid;
        if (v.isUndefined())
            c.remove(key);
        else
            c.insert(key, v);
        return c;
    };
    QTest::newRow("accepts an RS256 token") << m_idp->sign(valid) << 200 << "";
    QTest::newRow("accepts an ES256 token") << m_idp->sign(valid, TestIdp::Alg::ES256) << 200 << "";
    QTest::newRow("accepts an audience list that holds ours")
        << m_idp->sign(with(QStringLiteral("aud"), QJsonArray{QStringLiteral("other"), kAudience}))
        << 200 << "";
    QTest::newRow("accepts a token expired within the leeway")
        << m_idp->sign(with(QStringLiteral("exp"), double(now - 20))) << 200 << "";
    QTest::newRow("refuses an expired token")
        << m_idp->sign(with(QStringLiteral("exp"), double(now - 3600))) << 401
        << "ID_TOKEN_EXPIRED";
    QTest::newRow("refuses an expired ES256 token")
        << m_idp->sign(with(QStringLiteral("exp"), double(now - 3600)), TestIdp::Alg::ES256) << 401
        << "ID_TOKEN_EXPIRED";
    QTest::newRow("refuses a token without exp")
        << m_idp->sign(with(QStringLiteral("exp"), QJsonValue::Undefined)) << 401
        << "ID_TOKEN_INVALID";
    QTest::newRow("refuses a token for another audience")
        << m_idp->sign(with(QStringLiteral("aud"), QStringLiteral("someone-else"))) << 401
        << "ID_TOKEN_INVALID";
    QTest::newRow("refuses a token of another issuer")
        << m_idp->sign(with(QStringLiteral("iss"), QStringLiteral("https://evil.example"))) << 401
        << "ID_TOKEN_INVALID";
    QTest::newRow("refuses a token not valid yet")
        << m_idp->sign(with(QStringLiteral("nbf"), double(now + 3600))) << 401
        << "ID_TOKEN_INVALID";
    QTest::newRow("refuses a token without a subject")
        << m_idp->sign(with(QStringLiteral("sub"), QJsonValue::Undefined)) << 401
        << "ID_TOKEN_INVALID";
    QTest::newRow("refuses a signature by an unpublished key")
        << m_idp->signWithStrangerKey(valid) << 401 << "ID_TOKEN_INVALID";
    QStringList parts = m_idp->sign(valid).split(QLatin1Char('.'));
    parts[2] = m_idp->sign(with(QStringLiteral("sub"), QStringLiteral("other")))
                   .split(QLatin1Char('.'))
                   .at(2);
    QTest::newRow("refuses a signature of other claims")
        << parts.join(QLatin1Char('.')) << 401 << "ID_TOKEN_INVALID";
    QTest::newRow("refuses a malformed token")
        << QStringLiteral("eyJhbGciOiJSUzI1NiJ9.e30.@@") << 401 << "ID_TOKEN_INVALID";
}

void tst_IdToken::decides()
{
    QFETCH(QString, token);
    QFETCH(int, status);
    QFETCH(QString, code);
    const auto r = call(*m_ph, token);
    QCOMPARE(r.status, status);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QVERIFY(!r.body.contains(token.toUtf8()));
}

void tst_IdToken::discoversTheKeysOnceAndCachesThem()
{
    // The service started with the issuer only: discovery, then the JWKS it names.
    QVERIFY(m_idp->discoveryHits() >= 1);
    const int hits = m_idp->jwksHits();
    QVERIFY(hits >= 1);
    for (int i = 0; i < 5; ++i)
        QCOMPARE(call(*m_ph, m_idp->sign(m_idp->claims(kAudience))).status, 200);
    QCOMPARE(m_idp->jwksHits(), hits);
    QCOMPARE(m_ph->service().idTokens().keyCount(), 2);
}

void tst_IdToken::refreshesOnAnUnknownKeyId()
{
    TestIdp idp;
    QVERIFY(idp.ok());
    TestService ph({QStringLiteral("auth.oidc.issuer=") + idp.issuer(),
                    QStringLiteral("auth.oidc.audience=") + kAudience,
                    QStringLiteral("auth.oidc.owners=owner-1"),
                    QStringLiteral("auth.oidc.jwksMinRefreshMs=0")});
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    // The first request may arrive while the keys are still being fetched: it waits.
    QCOMPARE(call(ph, idp.sign(idp.claims(kAudience))).status, 200);
    const int before = idp.jwksHits();
    idp.addRotatedKey();
    const auto r = call(ph, idp.signRotated(idp.claims(kAudience)));
    QCOMPARE(r.status, 200);
    QCOMPARE(idp.jwksHits(), before + 1);
    QCOMPARE(ph.service().idTokens().keyCount(), 3);
}

void tst_IdToken::rateLimitsRefreshesForUnknownKeyIds()
{
    // m_ph has the default minimum interval (60 s) and fetched at start.
    QCOMPARE(call(*m_ph, m_idp->sign(m_idp->claims(kAudience))).status, 200);
    const int before = m_idp->jwksHits();
    for (int i = 0; i < 3; ++i) {
        const auto r = call(*m_ph, m_idp->sign(m_idp->claims(kAudience), TestIdp::Alg::RS256,
                                               QStringLiteral("unknown-%1").arg(i)));
        QCOMPARE(r.status, 401);
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("ID_TOKEN_INVALID"));
    }
    QCOMPARE(m_idp->jwksHits(), before);
}

void tst_IdToken::usesAConfiguredJwksUri()
{
    TestIdp idp;
    QVERIFY(idp.ok());
    TestService ph({QStringLiteral("auth.oidc.issuer=") + idp.issuer(),
                    QStringLiteral("auth.oidc.audience=") + kAudience,
                    QStringLiteral("auth.oidc.owners=owner-1"),
                    QStringLiteral("auth.oidc.jwksUri=") + idp.jwksUrl()});
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    QCOMPARE(call(ph, idp.sign(idp.claims(kAudience), TestIdp::Alg::ES256)).status, 200);
    QCOMPARE(idp.discoveryHits(), 0);
    QCOMPARE(idp.jwksHits(), 1);
}

void tst_IdToken::matchesTheOwner_data()
{
    QTest::addColumn<QString>("owners");
    QTest::addColumn<QString>("subject");
    QTest::addColumn<QJsonValue>("emailVerified"); // undefined: the claim is absent
    QTest::addColumn<int>("status");
    // TestIdp::claims() gives every token the email "<sub>@example.test".
    const QJsonValue absent(QJsonValue::Undefined);
    QTest::newRow("a listed subject is the owner") << "owner-1, captain@example.test"
                                                   << "owner-1" << absent << 200;
    QTest::newRow("a listed email with email_verified true is the owner")
        << "owner-1, captain@example.test"
        << "captain" << QJsonValue(true) << 200;
    QTest::newRow("a listed email with email_verified as the string true is the owner")
        << "captain@example.test"
        << "captain" << QJsonValue(QStringLiteral("true")) << 200;
    QTest::newRow("a listed email matches without regard to case")
        << "Captain@Example.TEST"
        << "captain" << QJsonValue(true) << 200;
    QTest::newRow("a listed email without email_verified is not the owner")
        << "owner-1, captain@example.test"
        << "captain" << absent << 403;
    QTest::newRow("a listed email with email_verified false is not the owner")
        << "captain@example.test"
        << "captain" << QJsonValue(false) << 403;
    QTest::newRow("a listed email with email_verified as the string false is not the owner")
        << "captain@example.test"
        << "captain" << QJsonValue(QStringLiteral("false")) << 403;
    QTest::newRow("an unlisted subject is not the owner") << "owner-1, captain@example.test"
                                                          << "deckhand" << QJsonValue(true) << 403;
    QTest::newRow("a subject matches exactly, not without regard to case")
        << "OWNER-1"
        << "owner-1" << QJsonValue(true) << 403;
    QTest::newRow("an empty owners list makes no token the owner")
        << ""
        << "owner-1" << QJsonValue(true) << 403;
    QTest::newRow("an owners list of commas and spaces makes no token the owner")
        << " , ,"
        << "owner-1" << QJsonValue(true) << 403;
}

void tst_IdToken::matchesTheOwner()
{
    QFETCH(QString, owners);
    QFETCH(QString, subject);
    QFETCH(QJsonValue, emailVerified);
    QFETCH(int, status);
    HttpClient admin = m_ph->client();
    QCOMPARE(
        admin
            .send("PATCH", QStringLiteral("/settings"),
                  QJsonDocument(QJsonObject{{QStringLiteral("auth.oidc.owners"), owners}}).toJson())
            .status,
        200);
    QJsonObject claims = m_idp->claims(kAudience, subject);
    if (!emailVerified.isUndefined())
        claims.insert(QStringLiteral("email_verified"), emailVerified);
    const auto r = call(*m_ph, m_idp->sign(claims));
    // Back to the suite's owner before anything can fail.
    admin.send(
        "PATCH", QStringLiteral("/settings"),
        QJsonDocument(QJsonObject{{QStringLiteral("auth.oidc.owners"), QStringLiteral("owner-1")}})
            .toJson());
    QCOMPARE(r.status, status);
    if (status == 403)
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("FORBIDDEN"));
    QCOMPARE(http::IdTokenVerifier::isListedOwner(owners, claims), status == 200);
}

void tst_IdToken::refusesTokensWhenNoIssuerIsSet()
{
    TestService ph;
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    const auto r = call(ph, m_idp->sign(m_idp->claims(kAudience)));
    QCOMPARE(r.status, 401);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("ID_TOKEN_NOT_ACCEPTED"));
    // Setting the issuer at run time fetches the keys and accepts tokens.
    HttpClient c = ph.client();
    QCOMPARE(c.send("PATCH", QStringLiteral("/settings"),
                    QJsonDocument(QJsonObject{{QStringLiteral("auth.oidc.issuer"), m_idp->issuer()},
                                              {QStringLiteral("auth.oidc.audience"), kAudience},
                                              {QStringLiteral("auth.oidc.owners"),
                                               QStringLiteral("owner-1")}})
                        .toJson())
                 .status,
             200);
    QCOMPARE(call(ph, m_idp->sign(m_idp->claims(kAudience))).status, 200);
}

void tst_IdToken::keepsApiKeyOnlyRoutesApiKeyOnly()
{
    // Routes of the cloud API and system areas keep their API-key policies.
    HttpClient c(m_ph->base());
    c.setBearer(m_idp->sign(m_idp->claims(kAudience)));
    const auto r = c.get(QStringLiteral("/usage"));
    QCOMPARE(r.status, 401);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("INVALID_API_KEY"));
}

PH_WEBENGINE_TEST_MAIN(tst_IdToken)
#include "tst_idtoken.moc"
