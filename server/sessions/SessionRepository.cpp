#include "SessionRepository.h"

#include "core/JsonText.h"
#include "core/SqlRow.h"
#include "core/Store.h"

namespace ph::sessions {

namespace {
const QString kSessionColumns = QStringLiteral(
    "id, key_id, profile, status, end_reason, cdp_token_hash, width, height, user_agent, "
    "created_at, expires_at, idle_timeout_s, last_activity_at, ended_at");
const QString kProfileColumns = QStringLiteral("key_id, name, created_at, last_used_at, bytes");
} // namespace

SessionRepository::SessionRepository(Store &store)
    : m_store(store)
{}

SessionRow SessionRepository::sessionFromRow(const Sql &q)
{
    SqlRow row(q);
    SessionRow s;
    s.id = row.text();
    s.keyId = row.text();
    s.profile = row.text();
    s.status = row.text();
    s.endReason = row.text();
    s.tokenHash = row.text();
    s.width = row.number();
    s.height = row.number();
    s.userAgent = row.text();
    s.createdAt = row.integer();
    s.expiresAt = row.integer();
    s.idleTimeoutS = row.number();
    s.lastActivityAt = row.integer();
    s.endedAt = row.optionalInt();
    return s;
}

ProfileRow SessionRepository::profileFromRow(const Sql &q)
{
    SqlRow row(q);
    ProfileRow p;
    p.keyId = row.text();
    p.name = row.text();
    p.createdAt = row.integer();
    p.lastUsedAt = row.optionalInt();
    p.bytes = row.integer();
    return p;
}

void SessionRepository::insert(const SessionRow &s)
{
    Sql(m_store, QStringLiteral("INSERT INTO browser_sessions (%1) VALUES (:id, :key, :profile, "
                                ":status, :reason, :hash, :w, :h, :ua, :created, :expires, :idle, "
                                ":activity, NULL)")
                     .arg(kSessionColumns))
        .bind(QStringLiteral(":id"), s.id)
        .bind(QStringLiteral(":key"), s.keyId)
        .bind(QStringLiteral(":profile"), JsonText::text(s.profile))
        .bind(QStringLiteral(":status"), s.status)
        .bind(QStringLiteral(":reason"), JsonText::text(s.endReason))
        .bind(QStringLiteral(":hash"), s.tokenHash)
        .bind(QStringLiteral(":w"), s.width)
        .bind(QStringLiteral(":h"), s.height)
        .bind(QStringLiteral(":ua"), JsonText::text(s.userAgent))
        .bind(QStringLiteral(":created"), s.createdAt)
        .bind(QStringLiteral(":expires"), s.expiresAt)
        .bind(QStringLiteral(":idle"), s.idleTimeoutS)
        .bind(QStringLiteral(":activity"), s.lastActivityAt)
        .exec();
}

void SessionRepository::setStatus(const QString &id, const QString &status,
                                  const QString &endReason, std::optional<qint64> endedAt)
{
    Sql(m_store, QStringLiteral("UPDATE browser_sessions SET status = :status, end_reason = "
                                ":reason, ended_at = :ended WHERE id = :id"))
        .bind(QStringLiteral(":status"), status)
        .bind(QStringLiteral(":reason"), JsonText::text(endReason))
        .bind(QStringLiteral(":ended"), endedAt ? QVariant(*endedAt) : QVariant())
        .bind(QStringLiteral(":id"), id)
        .exec();
}

void SessionRepository::setLastActivity(const QString &id, qint64 at)
{
    Sql(m_store,
        QStringLiteral("UPDATE browser_sessions SET last_activity_at = :at WHERE id = :id"))
        .bind(QStringLiteral(":at"), at)
        .bind(QStringLiteral(":id"), id)
        .exec();
}

std::optional<SessionRow> SessionRepository::find(const QString &id) const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM browser_sessions WHERE id = :id").arg(kSessionColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, sessionFromRow);
}

QList<SessionRow> SessionRepository::list(const QString &keyId, bool liveOnly, int limit) const
{
    QStringList where;
    if (!keyId.isEmpty())
        where << QStringLiteral("key_id = :key");
    if (liveOnly)
        where << QStringLiteral("status IN ('starting', 'active')");
    const QString clause = where.isEmpty()
                               ? QString()
                               : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    Sql q(m_store, QStringLiteral("SELECT %1 FROM browser_sessions%2 ORDER BY created_at DESC, id "
                                  "LIMIT :limit")
                       .arg(kSessionColumns, clause));
    if (!keyId.isEmpty())
        q.bind(QStringLiteral(":key"), keyId);
    q.bind(QStringLiteral(":limit"), limit).exec();
    return SqlRows::all(q, sessionFromRow);
}

QList<SessionRow> SessionRepository::endLeftovers(const QString &reason, qint64 at)
{
    QList<SessionRow> left;
    m_store.transaction([&] {
        left = list(QString(), true, 100000);
        Sql(m_store, QStringLiteral("UPDATE browser_sessions SET status = 'crashed', end_reason = "
                                    ":reason, ended_at = :at WHERE status IN ('starting', "
                                    "'active')"))
            .bind(QStringLiteral(":reason"), reason)
            .bind(QStringLiteral(":at"), at)
            .exec();
    });
    return left;
}

void SessionRepository::useProfile(const QString &keyId, const QString &name, qint64 at)
{
    Sql(m_store, QStringLiteral("INSERT INTO browser_profiles (%1) VALUES (:key, :name, :c, :u, "
                                "0) ON CONFLICT(key_id, name) DO UPDATE SET last_used_at = :u2")
                     .arg(kProfileColumns))
        .bind(QStringLiteral(":key"), keyId)
        .bind(QStringLiteral(":name"), name)
        .bind(QStringLiteral(":c"), at)
        .bind(QStringLiteral(":u"), at)
        .bind(QStringLiteral(":u2"), at)
        .exec();
}

void SessionRepository::setProfileBytes(const QString &keyId, const QString &name, qint64 bytes)
{
    Sql(m_store, QStringLiteral("UPDATE browser_profiles SET bytes = :bytes WHERE key_id = :key "
                                "AND name = :name"))
        .bind(QStringLiteral(":bytes"), bytes)
        .bind(QStringLiteral(":key"), keyId)
        .bind(QStringLiteral(":name"), name)
        .exec();
}

std::optional<ProfileRow> SessionRepository::profile(const QString &keyId,
                                                     const QString &name) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM browser_profiles WHERE key_id = :key AND name = "
                                  ":name")
                       .arg(kProfileColumns));
    q.bind(QStringLiteral(":key"), keyId).bind(QStringLiteral(":name"), name).exec();
    return SqlRows::one(q, profileFromRow);
}

QList<ProfileRow> SessionRepository::profiles(const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM browser_profiles%2 ORDER BY key_id, name")
                       .arg(kProfileColumns,
                            keyId.isEmpty() ? QString() : QStringLiteral(" WHERE key_id = :key")));
    if (!keyId.isEmpty())
        q.bind(QStringLiteral(":key"), keyId);
    q.exec();
    return SqlRows::all(q, profileFromRow);
}

bool SessionRepository::removeProfile(const QString &keyId, const QString &name)
{
    Sql q(m_store,
          QStringLiteral("DELETE FROM browser_profiles WHERE key_id = :key AND name = :name"));
    q.bind(QStringLiteral(":key"), keyId).bind(QStringLiteral(":name"), name).exec();
    return q.rowsAffected() > 0;
}

} // namespace ph::sessions
