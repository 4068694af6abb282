#pragma once

#include <QByteArray>
#include <QString>

namespace ph {

// Random identifiers and bearer secrets. Every value comes from the system CSPRNG.
// Prefixes name the kind so a leaked value is recognisable: `req_` request ids,
// `phk_` API keys, later `pk_site_`, `sk_site_`, `sess_`, `stream_`, `rds_`.
namespace Ids {

// `<prefix>_<n base62 chars>`; 22 chars carry ~131 bits.
QString make(const QString &prefix, int length = 22);
QString base62(int length);
// Lowercase hex SHA-256, the at-rest form of bearer secrets (they are high-entropy,
// so a fast hash is the right tool; no secret is ever stored in clear).
QString sha256Hex(const QByteArray &data);
// Constant-time comparison for secrets and signatures.
bool equalConstantTime(const QByteArray &a, const QByteArray &b);

} // namespace Ids
} // namespace ph
