// ID tokens (server/http/Jwt): the compact JWS parser, base64url, and the JWK set an
// identity provider publishes (JwkSet::fromJson: RSA and EC P-256 keys, as
// IdTokenVerifier loads them), then key choice and signature verification. The first
// line is the token; the rest is the JWKS document.
#include "FuzzInput.h"

#include "http/Jwt.h"

#include <QJsonDocument>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::http::JwkSet;
    using ph::http::Jwt;
    Cursor in(bytesOf(data, size));
    const QByteArray credential = in.until('\n');
    const QByteArray jwks = in.rest();

    bool ok = false;
    Jwt::base64UrlDecode(credential, &ok);
    Jwt::looksLikeJwt(QString::fromLatin1(credential));
    const std::optional<Jwt> token = Jwt::parse(QString::fromLatin1(credential));
    if (token) {
        token->algorithm();
        token->keyId();
    }
    const JwkSet keys = JwkSet::fromJson(QJsonDocument::fromJson(jwks).object());
    require(keys.size() >= 0 && keys.isEmpty() == (keys.size() == 0), "a key set of odd size");
    if (token) {
        keys.hasKeyFor(*token);
        keys.verify(*token);
    }
    return 0;
}
