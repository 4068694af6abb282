#pragma once

#include "ClientMetadata.h"

#include <QList>
#include <QString>

#include <optional>

namespace ph {
class Sql;
class Store;
} // namespace ph

namespace ph::oauth {

// One consent: a client acting as one API key on one MCP resource. Its codes and tokens
// hang off it; revoking it ends them all (a refresh token's reuse revokes it too).
struct Grant
{
    QString id;
    QString clientId;
    QString clientName;
    QString keyId;
    QString resource;
    QString scope;
    qint64 createdAt = 0;
    std::optional<qint64> lastUsedAt;
    std::optional<qint64> revokedAt;
    QString revokeReason;

    bool isActive() const { return !revokedAt.has_value(); }
};

struct CodeRow
{
    QString grantId;
    QString redirectUri;
    QString codeChallenge;
    qint64 expiresAt = 0;
    std::optional<qint64> usedAt;
};

struct TokenRow
{
    QString grantId;
    QString kind; // access | refresh
    qint64 expiresAt = 0;
    std::optional<qint64> usedAt;
};

// The oauth_* tables (migration 0070). Codes and tokens are stored as SHA-256 hashes
// only; callers pass the hash (Ids::sha256Hex).
class OAuthRepository
{
public:
    explicit OAuthRepository(Store &store);

    void insertClient(const OAuthClient &client, qint64 now);
    std::optional<OAuthClient> findClient(const QString &id) const;
    int clientCount() const;

    void insertGrant(const Grant &grant);
    std::optional<Grant> findGrant(const QString &id) const;
    // Newest first; `keyId` empty: every key's.
    QList<Grant> grants(const QString &keyId = {}) const;
    void touchGrant(const QString &id, qint64 at);
    // False when it was revoked already or is not there.
    bool revokeGrant(const QString &id, qint64 at, const QString &reason);
    // Revokes every active grant acting as `keyId` (the key was revoked).
    void revokeGrantsOfKey(const QString &keyId, qint64 at);

    void insertCode(const QString &hash, const CodeRow &code);
    std::optional<CodeRow> findCode(const QString &hash) const;
    // Marks the code used; false when it was used already (one use only).
    bool useCode(const QString &hash, qint64 at);

    void insertToken(const QString &hash, const TokenRow &token);
    std::optional<TokenRow> findToken(const QString &hash) const;
    // Marks a refresh token rotated; false when it was rotated already.
    bool useToken(const QString &hash, qint64 at);
    void deleteToken(const QString &hash);
    // Deletes expired codes and tokens (their grants stay, for the list).
    void purgeExpired(qint64 now);

private:
    static Grant grantFromRow(const Sql &q);
    Store &m_store;
};

} // namespace ph::oauth
