#include "DeviceRepository.h"

#include "core/SqlRow.h"
#include "core/Store.h"

namespace ph::devices {

namespace {
// SQLite stores a null QString as NULL; these columns are NOT NULL with '' for none.
QString text(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}
const QString kColumns =
    QStringLiteral("id, key_id, name, version, token_hash, created_at, last_seen_at, revoked_at");
} // namespace

DeviceRepository::DeviceRepository(Store &store)
    : m_store(store)
{}

DeviceRow DeviceRepository::fromRow(const Sql &q)
{
    SqlRow row(q);
    DeviceRow d;
    d.id = row.text();
    d.keyId = row.text();
    d.name = row.text();
    d.version = row.text();
    d.tokenHash = row.text();
    d.createdAt = row.integer();
    d.lastSeenAt = row.optionalInt();
    d.revokedAt = row.optionalInt();
    return d;
}

void DeviceRepository::addPairing(const QString &codeHash, const QString &keyId, qint64 expiresAt)
{
    Sql(m_store, QStringLiteral("DELETE FROM device_pairings WHERE expires_at < :now"))
        .bind(QStringLiteral(":now"), expiresAt - 24 * 3600 * 1000LL)
        .exec();
    Sql(m_store, QStringLiteral("INSERT INTO device_pairings (code_hash, key_id, expires_at) "
                                "VALUES (:hash, :key, :expires)"))
        .bind(QStringLiteral(":hash"), codeHash)
        .bind(QStringLiteral(":key"), keyId)
        .bind(QStringLiteral(":expires"), expiresAt)
        .exec();
}

std::optional<QString> DeviceRepository::takePairing(const QString &codeHash, qint64 nowMs)
{
    std::optional<QString> key;
    m_store.transaction([&] {
        Sql q(m_store, QStringLiteral("SELECT key_id, expires_at FROM device_pairings "
                                      "WHERE code_hash = :hash"));
        q.bind(QStringLiteral(":hash"), codeHash).exec();
        if (!q.next())
            return;
        if (q.value(1).toLongLong() >= nowMs)
            key = q.value(0).toString();
        Sql(m_store, QStringLiteral("DELETE FROM device_pairings WHERE code_hash = :hash"))
            .bind(QStringLiteral(":hash"), codeHash)
            .exec();
    });
    return key;
}

void DeviceRepository::dropPairings()
{
    Sql(m_store, QStringLiteral("DELETE FROM device_pairings")).exec();
}

void DeviceRepository::insert(const DeviceRow &d)
{
    Sql(m_store, QStringLiteral("INSERT INTO devices (%1) VALUES (:id, :key, :name, :version, "
                                ":hash, :created, NULL, NULL)")
                     .arg(kColumns))
        .bind(QStringLiteral(":id"), d.id)
        .bind(QStringLiteral(":key"), d.keyId)
        .bind(QStringLiteral(":name"), text(d.name))
        .bind(QStringLiteral(":version"), text(d.version))
        .bind(QStringLiteral(":hash"), d.tokenHash)
        .bind(QStringLiteral(":created"), d.createdAt)
        .exec();
}

std::optional<DeviceRow> DeviceRepository::byTokenHash(const QString &hash) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM devices WHERE token_hash = :hash AND "
                                  "revoked_at IS NULL")
                       .arg(kColumns));
    q.bind(QStringLiteral(":hash"), hash).exec();
    if (!q.next())
        return std::nullopt;
    return fromRow(q);
}

std::optional<DeviceRow> DeviceRepository::byId(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM devices WHERE id = :id").arg(kColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    if (!q.next())
        return std::nullopt;
    return fromRow(q);
}

QList<DeviceRow> DeviceRepository::ofKey(const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM devices WHERE key_id = :key AND revoked_at IS "
                                  "NULL ORDER BY created_at")
                       .arg(kColumns));
    q.bind(QStringLiteral(":key"), keyId).exec();
    QList<DeviceRow> out;
    while (q.next())
        out << fromRow(q);
    return out;
}

QList<DeviceRow> DeviceRepository::active() const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM devices WHERE revoked_at IS NULL ORDER BY created_at")
              .arg(kColumns));
    q.exec();
    QList<DeviceRow> out;
    while (q.next())
        out << fromRow(q);
    return out;
}

void DeviceRepository::revoke(const QString &id, qint64 nowMs)
{
    Sql(m_store, QStringLiteral("UPDATE devices SET revoked_at = :now WHERE id = :id"))
        .bind(QStringLiteral(":now"), nowMs)
        .bind(QStringLiteral(":id"), id)
        .exec();
}

void DeviceRepository::touch(const QString &id, qint64 nowMs)
{
    Sql(m_store, QStringLiteral("UPDATE devices SET last_seen_at = :now WHERE id = :id"))
        .bind(QStringLiteral(":now"), nowMs)
        .bind(QStringLiteral(":id"), id)
        .exec();
}

bool DeviceRepository::scriptsGranted(const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT 1 FROM device_script_grants WHERE key_id = :key"));
    q.bind(QStringLiteral(":key"), keyId).exec();
    return q.next();
}

void DeviceRepository::setScriptsGranted(const QString &keyId, bool granted, qint64 nowMs)
{
    if (granted)
        Sql(m_store, QStringLiteral("INSERT OR REPLACE INTO device_script_grants (key_id, "
                                    "granted_at) VALUES (:key, :now)"))
            .bind(QStringLiteral(":key"), keyId)
            .bind(QStringLiteral(":now"), nowMs)
            .exec();
    else
        Sql(m_store, QStringLiteral("DELETE FROM device_script_grants WHERE key_id = :key"))
            .bind(QStringLiteral(":key"), keyId)
            .exec();
}

} // namespace ph::devices
