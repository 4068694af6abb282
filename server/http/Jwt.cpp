#include "Jwt.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

namespace ph::http {

namespace {

QJsonObject decodeObject(const QByteArray &segment, bool *ok)
{
    const QByteArray raw = Jwt::base64UrlDecode(segment, ok);
    if (!*ok)
        return {};
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &error);
    *ok = error.error == QJsonParseError::NoError && doc.isObject();
    return doc.object();
}

QByteArray keyBytes(const QJsonObject &jwk, const char *name, bool *ok)
{
    const QJsonValue v = jwk.value(QLatin1String(name));
    if (!v.isString()) {
        *ok = false;
        return {};
    }
    return Jwt::base64UrlDecode(v.toString().toLatin1(), ok);
}

std::shared_ptr<evp_pkey_st> fromParams(const char *type, OSSL_PARAM_BLD *bld)
{
    std::shared_ptr<evp_pkey_st> out;
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr);
    EVP_PKEY *pkey = nullptr;
    if (params && ctx && EVP_PKEY_fromdata_init(ctx) == 1 &&
        EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1) {
        out.reset(pkey, EVP_PKEY_free);
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    return out;
}

std::shared_ptr<evp_pkey_st> rsaKey(const QJsonObject &jwk)
{
    bool okN = true, okE = true;
    const QByteArray n = keyBytes(jwk, "n", &okN);
    const QByteArray e = keyBytes(jwk, "e", &okE);
    if (!okN || !okE || n.isEmpty() || e.isEmpty())
        return {};
    BIGNUM *bn =
        BN_bin2bn(reinterpret_cast<const unsigned char *>(n.constData()), int(n.size()), nullptr);
    BIGNUM *be =
        BN_bin2bn(reinterpret_cast<const unsigned char *>(e.constData()), int(e.size()), nullptr);
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    std::shared_ptr<evp_pkey_st> out;
    if (bn && be && bld && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn) == 1 &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, be) == 1) {
        out = fromParams("RSA", bld);
    }
    OSSL_PARAM_BLD_free(bld);
    BN_free(bn);
    BN_free(be);
    // Keys below 2048 bits are refused (RFC 7518 3.3).
    if (out && EVP_PKEY_get_bits(out.get()) < 2048)
        out.reset();
    return out;
}

std::shared_ptr<evp_pkey_st> ecKey(const QJsonObject &jwk)
{
    if (jwk.value(QStringLiteral("crv")).toString() != QLatin1String("P-256"))
        return {};
    bool okX = true, okY = true;
    const QByteArray x = keyBytes(jwk, "x", &okX);
    const QByteArray y = keyBytes(jwk, "y", &okY);
    if (!okX || !okY || x.size() != 32 || y.size() != 32)
        return {};
    QByteArray point = QByteArray(1, '\x04') + x + y;
    char group[] = "prime256v1";
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    std::shared_ptr<evp_pkey_st> out;
    if (bld && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) == 1 &&
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                         size_t(point.size())) == 1) {
        out = fromParams("EC", bld);
    }
    OSSL_PARAM_BLD_free(bld);
    return out;
}

// JWS ES256 signatures are r|s (32 bytes each); OpenSSL verifies DER.
QByteArray ecdsaDer(const QByteArray &raw)
{
    if (raw.size() != 64)
        return {};
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(reinterpret_cast<const unsigned char *>(raw.constData()), 32, nullptr);
    BIGNUM *s =
        BN_bin2bn(reinterpret_cast<const unsigned char *>(raw.constData()) + 32, 32, nullptr);
    QByteArray der;
    if (sig && r && s && ECDSA_SIG_set0(sig, r, s) == 1) {
        r = s = nullptr; // owned by sig now
        unsigned char *buf = nullptr;
        const int len = i2d_ECDSA_SIG(sig, &buf);
        if (len > 0)
            der = QByteArray(reinterpret_cast<const char *>(buf), len);
        OPENSSL_free(buf);
    }
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    return der;
}

bool digestVerify(evp_pkey_st *key, const QByteArray &data, const QByteArray &signature)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    bool ok = ctx && EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
              EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char *>(signature.constData()),
                               size_t(signature.size()),
                               reinterpret_cast<const unsigned char *>(data.constData()),
                               size_t(data.size())) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

QString ktyFor(const QString &alg)
{
    if (alg == QLatin1String("RS256"))
        return QStringLiteral("RSA");
    if (alg == QLatin1String("ES256"))
        return QStringLiteral("EC");
    return {};
}

} // namespace

QByteArray Jwt::base64UrlDecode(const QByteArray &data, bool *ok)
{
    static const QRegularExpression alphabet(QStringLiteral("^[A-Za-z0-9_-]*$"));
    if (!alphabet.match(QString::fromLatin1(data)).hasMatch()) {
        *ok = false;
        return {};
    }
    const auto result = QByteArray::fromBase64Encoding(
        data, QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals |
                  QByteArray::AbortOnBase64DecodingErrors);
    *ok = bool(result);
    return result.decoded;
}

bool Jwt::looksLikeJwt(const QString &credential)
{
    return credential.startsWith(QLatin1String("eyJ")) && credential.count(QLatin1Char('.')) == 2;
}

std::optional<Jwt> Jwt::parse(const QString &compact)
{
    if (!looksLikeJwt(compact))
        return std::nullopt;
    const QByteArray bytes = compact.toLatin1();
    const QList<QByteArray> parts = bytes.split('.');
    if (parts.size() != 3 || parts.at(2).isEmpty())
        return std::nullopt;
    Jwt t;
    bool ok = true;
    t.header = decodeObject(parts.at(0), &ok);
    if (!ok)
        return std::nullopt;
    t.claims = decodeObject(parts.at(1), &ok);
    if (!ok)
        return std::nullopt;
    t.signature = base64UrlDecode(parts.at(2), &ok);
    if (!ok)
        return std::nullopt;
    t.signingInput = parts.at(0) + '.' + parts.at(1);
    return t;
}

JwkSet JwkSet::fromJson(const QJsonObject &jwks)
{
    JwkSet set;
    for (const QJsonValue &v : jwks.value(QStringLiteral("keys")).toArray()) {
        const QJsonObject jwk = v.toObject();
        const QString use = jwk.value(QStringLiteral("use")).toString();
        if (!use.isEmpty() && use != QLatin1String("sig"))
            continue;
        Key key;
        key.kid = jwk.value(QStringLiteral("kid")).toString();
        key.kty = jwk.value(QStringLiteral("kty")).toString();
        key.alg = jwk.value(QStringLiteral("alg")).toString();
        if (key.kty == QLatin1String("RSA"))
            key.pkey = rsaKey(jwk);
        else if (key.kty == QLatin1String("EC"))
            key.pkey = ecKey(jwk);
        if (key.pkey)
            set.m_keys.append(key);
    }
    return set;
}

const JwkSet::Key *JwkSet::keyFor(const Jwt &token) const
{
    const QString kty = ktyFor(token.algorithm());
    const QString kid = token.keyId();
    const Key *only = nullptr;
    int candidates = 0;
    for (const Key &k : m_keys) {
        if (k.kty != kty)
            continue;
        if (!kid.isEmpty() && k.kid == kid)
            return &k;
        ++candidates;
        only = &k;
    }
    return kid.isEmpty() && candidates == 1 ? only : nullptr;
}

bool JwkSet::hasKeyFor(const Jwt &token) const
{
    return ktyFor(token.algorithm()).isEmpty() || keyFor(token) != nullptr;
}

JwkSet::Result JwkSet::verify(const Jwt &token) const
{
    const QString alg = token.algorithm();
    if (ktyFor(alg).isEmpty())
        return Result::UnsupportedAlgorithm;
    const Key *key = keyFor(token);
    if (!key)
        return Result::UnknownKey;
    if (!key->alg.isEmpty() && key->alg != alg)
        return Result::BadSignature;
    const QByteArray signature =
        alg == QLatin1String("ES256") ? ecdsaDer(token.signature) : token.signature;
    if (signature.isEmpty())
        return Result::BadSignature;
    return digestVerify(key->pkey.get(), token.signingInput, signature) ? Result::Ok
                                                                        : Result::BadSignature;
}

} // namespace ph::http
