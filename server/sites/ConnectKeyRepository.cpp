#include "ConnectKeyRepository.h"

#include "core/JsonText.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/SqlRow.h"
#include "core/Store.h"

namespace ph::sites {

namespace {
const QString kColumns =
    QStringLiteral("id, site_id, label, prefix, created_at, created_by, last_used_at, revoked_at");
const QString kSecretPrefix = QStringLiteral("ck_");
} // namespace

ConnectKeyRepository::ConnectKeyRepository(Store &store)
    : m_store(store)
{}

ConnectKey ConnectKeyRepository::fromRow(const Sql &q)
{
    SqlRow row(q);
    ConnectKey k;
    k.id = row.text();
    k.siteId = row.text();
    k.label = row.text();
    k.prefix = row.text();
    k.createdAt = row.integer();
    k.createdBy = row.text();
    k.lastUsedAt = row.optionalInt();
    k.revokedAt = row.optionalInt();
    return k;
}

ConnectKeyRepository::Minted
ConnectKeyRepository::insert(const QString &siteId, const QString &label, const QString &actor)
{
    const int active = activeCount(siteId);
    if (active >= kMaxActivePerSite) {
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("CONNECT_KEY_LIMIT"),
                          QStringLiteral("this site already has %1 active Connect AI keys, the "
                                         "most a site may have; revoke one first")
                              .arg(kMaxActivePerSite),
                          QStringLiteral("siteId"),
                          QJsonObject{{QStringLiteral("limit"), kMaxActivePerSite},
                                      {QStringLiteral("active"), active}});
    }
    Minted m;
    m.secret = Ids::make(QStringLiteral("ck"), 40);
    m.key.id = Ids::make(QStringLiteral("conn"), 16);
    m.key.siteId = siteId;
    m.key.label = label;
    m.key.prefix = m.secret.left(10);
    m.key.createdAt = m_store.clock().nowMs();
    m.key.createdBy = actor;
    Sql(m_store, QStringLiteral("INSERT INTO connect_keys (id, site_id, label, prefix, key_hash,"
                                " created_at, created_by) VALUES (:id, :site, :label, :prefix,"
                                " :hash, :t, :by)"))
        .bind(QStringLiteral(":id"), m.key.id)
        .bind(QStringLiteral(":site"), siteId)
        .bind(QStringLiteral(":label"), label)
        .bind(QStringLiteral(":prefix"), m.key.prefix)
        .bind(QStringLiteral(":hash"), Ids::sha256Hex(m.secret.toUtf8()))
        .bind(QStringLiteral(":t"), m.key.createdAt)
        .bind(QStringLiteral(":by"), actor)
        .exec();
    return m;
}

ConnectKeyRepository::Minted
ConnectKeyRepository::create(const QString &siteId, const QString &label, const QString &actor)
{
    Minted m;
    // Count and insert in one transaction: two concurrent creates cannot make a 9th.
    m_store.transaction([&] { m = insert(siteId, label, actor); });
    m_store.notifyChanged(QStringLiteral("connect_keys"), m.key.id);
    Q_EMIT connectKeyChanged(m.key.id);
    return m;
}

ConnectKeyRepository::Minted ConnectKeyRepository::rotate(const QString &id, const QString &actor)
{
    Minted m;
    m_store.transaction([&] {
        const auto old = find(id);
        if (!old || !old->isActive())
            throw DomainError(DomainError::Kind::NotFound, QStringLiteral("CONNECT_KEY_NOT_FOUND"),
                              QStringLiteral("no active Connect AI key %1").arg(id),
                              QStringLiteral("keyId"));
        revoke(id);
        m = insert(old->siteId, old->label, actor);
    });
    m_store.notifyChanged(QStringLiteral("connect_keys"), m.key.id);
    Q_EMIT connectKeyChanged(m.key.id);
    return m;
}

std::optional<ConnectKey> ConnectKeyRepository::find(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM connect_keys WHERE id = :id").arg(kColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, fromRow);
}

QList<ConnectKey> ConnectKeyRepository::list(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM connect_keys WHERE site_id = :site ORDER BY"
                                  " created_at, id")
                       .arg(kColumns));
    q.bind(QStringLiteral(":site"), siteId).exec();
    return SqlRows::all(q, fromRow);
}

int ConnectKeyRepository::activeCount(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM connect_keys WHERE site_id = :site AND"
                                  " revoked_at IS NULL"));
    q.bind(QStringLiteral(":site"), siteId).exec();
    return q.next() ? q.value(0).toInt() : 0;
}

bool ConnectKeyRepository::revoke(const QString &id)
{
    Sql q(m_store, QStringLiteral("UPDATE connect_keys SET revoked_at = :t WHERE id = :id AND"
                                  " revoked_at IS NULL"));
    q.bind(QStringLiteral(":t"), m_store.clock().nowMs()).bind(QStringLiteral(":id"), id).exec();
    const bool changed = q.rowsAffected() > 0;
    if (changed) {
        m_store.notifyChanged(QStringLiteral("connect_keys"), id);
        Q_EMIT connectKeyChanged(id);
    }
    return changed;
}

bool ConnectKeyRepository::recognizes(const QString &credential) const
{
    return credential.startsWith(kSecretPrefix);
}

Principal ConnectKeyRepository::verify(const QString &credential)
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM connect_keys WHERE key_hash = :hash AND"
                                  " revoked_at IS NULL")
                       .arg(kColumns));
    q.bind(QStringLiteral(":hash"), Ids::sha256Hex(credential.toUtf8())).exec();
    if (!q.next()) {
        throw DomainError::unauthorized(QStringLiteral("INVALID_CONNECT_KEY"),
                                        QStringLiteral("the Connect AI key is not valid"));
    }
    const ConnectKey key = fromRow(q);
    const qint64 now = m_store.clock().nowMs();
    if (!key.lastUsedAt || now - *key.lastUsedAt >= 60'000) {
        Sql(m_store, QStringLiteral("UPDATE connect_keys SET last_used_at = :t WHERE id = :id"))
            .bind(QStringLiteral(":t"), now)
            .bind(QStringLiteral(":id"), key.id)
            .exec();
        // At most once a minute per key: the console's "last used" follows live.
        m_store.notifyChanged(QStringLiteral("connect_keys"), key.id);
        Q_EMIT connectKeyChanged(key.id);
    }
    Principal p;
    p.kind = Principal::Kind::ConnectKey;
    p.keyId = key.id;
    p.label = key.label;
    p.siteId = key.siteId;
    return p;
}

} // namespace ph::sites
