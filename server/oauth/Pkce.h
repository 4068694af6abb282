#pragma once

#include <QString>

namespace ph::oauth {

// Proof Key for Code Exchange (RFC 7636), S256 only: a `plain` challenge is refused.
namespace Pkce {

// BASE64URL(SHA256(ASCII(verifier))) without padding.
QString s256(const QString &verifier);
// A verifier or challenge of 43 to 128 characters of [A-Za-z0-9-._~] (RFC 7636 §4.1).
bool wellFormed(const QString &value);
// Whether `verifier` is well formed and hashes to `challenge`, compared in constant time.
bool verify(const QString &verifier, const QString &challenge);

} // namespace Pkce
} // namespace ph::oauth
