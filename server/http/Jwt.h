#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

struct evp_pkey_st;

namespace ph::http {

// A compact JWS (header.payload.signature) as ID tokens use it. Parsing checks only
// the shape; JwkSet::verify checks the signature.
struct Jwt
{
    QJsonObject header;
    QJsonObject claims;
    QByteArray signingInput; // "<header b64>.<payload b64>", the signed bytes
    QByteArray signature;    // raw: RSA PKCS#1 v1.5 bytes, or r|s for ES256

    QString algorithm() const { return header.value(QStringLiteral("alg")).toString(); }
    QString keyId() const { return header.value(QStringLiteral("kid")).toString(); }

    static std::optional<Jwt> parse(const QString &compact);
    // Three base64url segments, the first starting with `eyJ` (a JSON object).
    static bool looksLikeJwt(const QString &credential);
    static QByteArray base64UrlDecode(const QByteArray &data, bool *ok);
};

// A JSON Web Key Set: RSA (RS256) and EC P-256 (ES256) public keys by `kid`.
// Keys of other types or uses are skipped.
class JwkSet
{
public:
    enum class Result { Ok, UnknownKey, BadSignature, UnsupportedAlgorithm };

    static JwkSet fromJson(const QJsonObject &jwks);

    bool isEmpty() const { return m_keys.isEmpty(); }
    int size() const { return int(m_keys.size()); }
    // A token with `kid` needs a key with that id; a token without one may use the
    // only key of its algorithm's type.
    bool hasKeyFor(const Jwt &token) const;
    Result verify(const Jwt &token) const;

private:
    struct Key
    {
        QString kid;
        QString kty; // "RSA" or "EC"
        QString alg; // optional restriction from the JWK
        std::shared_ptr<evp_pkey_st> pkey;
    };
    const Key *keyFor(const Jwt &token) const;

    QList<Key> m_keys;
};

} // namespace ph::http
