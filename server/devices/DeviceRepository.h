#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace ph {
class Store;
class Sql;
} // namespace ph

namespace ph::devices {

struct DeviceRow
{
    QString id, keyId, name, version, tokenHash;
    qint64 createdAt = 0;
    std::optional<qint64> lastSeenAt, revokedAt;
};

// The devices' rows in the Store (migration 0080_devices): devices with their token's
// SHA-256, pairing codes (hashed, single use) and the execute_javascript grants.
class DeviceRepository
{
public:
    explicit DeviceRepository(Store &store);

    void addPairing(const QString &codeHash, const QString &keyId, qint64 expiresAt);
    // Removes the pairing and returns its key when it exists and has not expired.
    std::optional<QString> takePairing(const QString &codeHash, qint64 nowMs);
    // Withdraws every pending code (too many wrong codes were tried).
    void dropPairings();

    void insert(const DeviceRow &row);
    std::optional<DeviceRow> byTokenHash(const QString &hash) const;
    std::optional<DeviceRow> byId(const QString &id) const;
    QList<DeviceRow> ofKey(const QString &keyId) const;
    // Every key's devices that are not revoked (the owner's view).
    QList<DeviceRow> active() const;
    void revoke(const QString &id, qint64 nowMs);
    void touch(const QString &id, qint64 nowMs);

    bool scriptsGranted(const QString &keyId) const;
    void setScriptsGranted(const QString &keyId, bool granted, qint64 nowMs);

private:
    static DeviceRow fromRow(const Sql &q);
    Store &m_store;
};

} // namespace ph::devices
