#include "TestIdp.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

namespace ph::test {

namespace {

QByteArray b64(const QByteArray &data)
{
    return data.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray bnParam(evp_pkey_st *key, const char *name, int pad = 0)
{
    BIGNUM *bn = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &bn) != 1)
        return {};
    QByteArray out(pad ? pad : BN_num_bytes(bn), '\0');
    BN_bn2binpad(bn, reinterpret_cast<unsigned char *>(out.data()), int(out.size()));
    BN_free(bn);
    return out;
}

std::shared_ptr<evp_pkey_st> rsaKey()
{
    return std::shared_ptr<evp_pkey_st>(EVP_RSA_gen(2048), EVP_PKEY_free);
}

std::shared_ptr<evp_pkey_st> ecKey()
{
    return std::shared_ptr<evp_pkey_st>(EVP_EC_gen("P-256"), EVP_PKEY_free);
}

QJsonObject rsaJwk(evp_pkey_st *key, const QString &kid)
{
    return {{QStringLiteral("kty"), QStringLiteral("RSA")},
            {QStringLiteral("kid"), kid},
            {QStringLiteral("use"), QStringLiteral("sig")},
            {QStringLiteral("alg"), QStringLiteral("RS256")},
            {QStringLiteral("n"), QString::fromLatin1(b64(bnParam(key, OSSL_PKEY_PARAM_RSA_N)))},
            {QStringLiteral("e"), QString::fromLatin1(b64(bnParam(key, OSSL_PKEY_PARAM_RSA_E)))}};
}

QByteArray signBytes(evp_pkey_st *key, const QByteArray &data, bool ecdsa)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t len = 0;
    QByteArray sig;
    if (EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
        EVP_DigestSign(ctx, nullptr, &len,
                       reinterpret_cast<const unsigned char *>(data.constData()),
                       size_t(data.size())) == 1) {
        sig.resize(qsizetype(len));
        if (EVP_DigestSign(ctx, reinterpret_cast<unsigned char *>(sig.data()), &len,
                           reinterpret_cast<const unsigned char *>(data.constData()),
                           size_t(data.size())) == 1)
            sig.resize(qsizetype(len));
        else
            sig.clear();
    }
    EVP_MD_CTX_free(ctx);
    if (!ecdsa || sig.isEmpty())
        return sig;
    // DER ECDSA-Sig-Value to the JWS r|s form.
    const unsigned char *p = reinterpret_cast<const unsigned char *>(sig.constData());
    ECDSA_SIG *es = d2i_ECDSA_SIG(nullptr, &p, long(sig.size()));
    QByteArray raw(64, '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(es), reinterpret_cast<unsigned char *>(raw.data()), 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(es), reinterpret_cast<unsigned char *>(raw.data()) + 32, 32);
    ECDSA_SIG_free(es);
    return raw;
}

QString compact(const QJsonObject &header, const QJsonObject &claims, evp_pkey_st *key, bool ecdsa)
{
    const QByteArray input = b64(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                             b64(QJsonDocument(claims).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(input + '.' + b64(signBytes(key, input, ecdsa)));
}

QJsonObject header(const QString &alg, const QString &kid)
{
    return {{QStringLiteral("alg"), alg},
            {QStringLiteral("typ"), QStringLiteral("JWT")},
            {QStringLiteral("kid"), kid}};
}

} // namespace

TestIdp::TestIdp()
    : m_rsa(rsaKey())
    , m_ec(ecKey())
    , m_stranger(rsaKey())
{
    m_server.route("/.well-known/openid-configuration", [this](const FixtureRequest &) {
        FixtureResponse r;
        r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        r.body = QJsonDocument(QJsonObject{{QStringLiteral("issuer"), issuer()},
                                           {QStringLiteral("jwks_uri"), jwksUrl()}})
                     .toJson(QJsonDocument::Compact);
        return r;
    });
    m_server.route("/jwks.json", [this](const FixtureRequest &) {
        FixtureResponse r;
        r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        r.body = QJsonDocument(jwks()).toJson(QJsonDocument::Compact);
        return r;
    });
    m_ok = m_rsa && m_ec && m_stranger && m_server.start();
}

TestIdp::~TestIdp() = default;

QString TestIdp::issuer() const
{
    return m_server.url(QString());
}

QString TestIdp::jwksUrl() const
{
    return issuer() + QStringLiteral("/jwks.json");
}

QJsonObject TestIdp::jwks() const
{
    QJsonArray keys{rsaJwk(m_rsa.get(), rsaKid())};
    keys.append(
        QJsonObject{{QStringLiteral("kty"), QStringLiteral("EC")},
                    {QStringLiteral("kid"), ecKid()},
                    {QStringLiteral("use"), QStringLiteral("sig")},
                    {QStringLiteral("alg"), QStringLiteral("ES256")},
                    {QStringLiteral("crv"), QStringLiteral("P-256")},
                    {QStringLiteral("x"),
                     QString::fromLatin1(b64(bnParam(m_ec.get(), OSSL_PKEY_PARAM_EC_PUB_X, 32)))},
                    {QStringLiteral("y"),
                     QString::fromLatin1(b64(bnParam(m_ec.get(), OSSL_PKEY_PARAM_EC_PUB_Y, 32)))}});
    if (m_rotated)
        keys.append(rsaJwk(m_rotated.get(), m_rotatedKid));
    return {{QStringLiteral("keys"), keys}};
}

QJsonObject TestIdp::claims(const QString &audience, const QString &subject, qint64 expiresIn) const
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    return {{QStringLiteral("iss"), issuer()},
            {QStringLiteral("aud"), audience},
            {QStringLiteral("sub"), subject},
            {QStringLiteral("email"), subject + QStringLiteral("@example.test")},
            {QStringLiteral("iat"), double(now - 5)},
            {QStringLiteral("exp"), double(now + expiresIn)}};
}

QString TestIdp::sign(const QJsonObject &claims, Alg alg, const QString &kid) const
{
    if (alg == Alg::ES256)
        return compact(header(QStringLiteral("ES256"), kid.isEmpty() ? ecKid() : kid), claims,
                       m_ec.get(), true);
    return compact(header(QStringLiteral("RS256"), kid.isEmpty() ? rsaKid() : kid), claims,
                   m_rsa.get(), false);
}

QString TestIdp::signWithStrangerKey(const QJsonObject &claims) const
{
    return compact(header(QStringLiteral("RS256"), rsaKid()), claims, m_stranger.get(), false);
}

QString TestIdp::addRotatedKey()
{
    m_rotated = rsaKey();
    m_rotatedKid = QStringLiteral("rsa-rotated-%1").arg(QDateTime::currentMSecsSinceEpoch());
    return m_rotatedKid;
}

QString TestIdp::signRotated(const QJsonObject &claims) const
{
    return compact(header(QStringLiteral("RS256"), m_rotatedKid), claims, m_rotated.get(), false);
}

} // namespace ph::test
