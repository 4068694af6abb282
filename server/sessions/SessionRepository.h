#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace ph {
class Sql;
class Store;
} // namespace ph

namespace ph::sessions {

// A browser session's row (its CDP token only as a SHA-256 hash).
struct SessionRow
{
    QString id;
    QString keyId;
    QString profile;
    QString status; // starting | active | released | expired | crashed | failed
    QString endReason;
    QString tokenHash;
    int width = 0;
    int height = 0;
    QString userAgent;
    qint64 createdAt = 0;
    qint64 expiresAt = 0;
    int idleTimeoutS = 0;
    qint64 lastActivityAt = 0;
    std::optional<qint64> endedAt;
};

// A key's named profile (the profile's files are a sealed archive, ProfileVault).
struct ProfileRow
{
    QString keyId;
    QString name;
    qint64 createdAt = 0;
    std::optional<qint64> lastUsedAt;
    qint64 bytes = 0;
};

// The sessions' and profiles' rows in the Store (migration 0060_sessions).
class SessionRepository
{
public:
    explicit SessionRepository(Store &store);

    void insert(const SessionRow &row);
    void setStatus(const QString &id, const QString &status, const QString &endReason,
                   std::optional<qint64> endedAt);
    void setLastActivity(const QString &id, qint64 at);
    std::optional<SessionRow> find(const QString &id) const;
    // Every session of `keyId` (all keys when empty), newest first; `liveOnly`: starting
    // and active ones.
    QList<SessionRow> list(const QString &keyId, bool liveOnly, int limit = 200) const;
    // Sessions a previous process left starting or active: ended as crashed with
    // `reason`. Returns them (as they were).
    QList<SessionRow> endLeftovers(const QString &reason, qint64 at);

    // Creates the profile when it is not there; sets its last use.
    void useProfile(const QString &keyId, const QString &name, qint64 at);
    void setProfileBytes(const QString &keyId, const QString &name, qint64 bytes);
    std::optional<ProfileRow> profile(const QString &keyId, const QString &name) const;
    // `keyId`'s profiles; every key's when empty.
    QList<ProfileRow> profiles(const QString &keyId) const;
    bool removeProfile(const QString &keyId, const QString &name);

private:
    static SessionRow sessionFromRow(const Sql &q);
    static ProfileRow profileFromRow(const Sql &q);

    Store &m_store;
};

} // namespace ph::sessions
