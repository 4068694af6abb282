#pragma once

#include "FixtureServer.h"

#include <QJsonObject>
#include <QString>

#include <memory>

struct evp_pkey_st;

namespace ph::test {

// A test identity provider on loopback: an RSA 2048 and an EC P-256 key generated with
// OpenSSL at construction, an OpenID discovery document at
// `/.well-known/openid-configuration` and the public keys as a JWKS at `/jwks.json`.
// It signs ID tokens (RS256, ES256) with either key.
class TestIdp
{
public:
    enum class Alg { RS256, ES256 };

    TestIdp();
    ~TestIdp();

    bool ok() const { return m_ok; }
    QString issuer() const;
    QString jwksUrl() const;
    FixtureServer &server() { return m_server; }
    int jwksHits() const { return m_server.hits("/jwks.json"); }
    int discoveryHits() const { return m_server.hits("/.well-known/openid-configuration"); }

    // Claims of a valid token for `audience` and `subject`, expiring in `expiresIn` s.
    QJsonObject claims(const QString &audience, const QString &subject = QStringLiteral("owner-1"),
                       qint64 expiresIn = 600) const;
    // A compact JWS over `claims`, signed with the RSA or the EC key; `kid` overrides the
    // key id in the header (empty: the key's own).
    QString sign(const QJsonObject &claims, Alg alg = Alg::RS256, const QString &kid = {}) const;
    // A signature by a key the JWKS does not publish, under a published kid.
    QString signWithStrangerKey(const QJsonObject &claims) const;

    // A new RSA key with a new kid, published from now on (the old ones stay).
    QString addRotatedKey();
    // Signs with the most recently added rotated key.
    QString signRotated(const QJsonObject &claims) const;
    QString rsaKid() const { return QStringLiteral("rsa-1"); }
    QString ecKid() const { return QStringLiteral("ec-1"); }

    // The published key set.
    QJsonObject jwks() const;

private:
    FixtureServer m_server;
    std::shared_ptr<evp_pkey_st> m_rsa;
    std::shared_ptr<evp_pkey_st> m_ec;
    std::shared_ptr<evp_pkey_st> m_stranger;
    std::shared_ptr<evp_pkey_st> m_rotated;
    QString m_rotatedKid;
    bool m_ok = false;
};

} // namespace ph::test
