#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace ph {

class Store;

struct StoredObject
{
    QString id;
    QString keyId;
    QString kind; // upload, response, artifact
    QString name;
    QString contentType;
    qint64 size = 0;
    qint64 createdAt = 0;
    std::optional<qint64> expiresAt;
};

// Blobs in the store: uploads (POST /storage), snapshots of large agent responses and
// generated files. Served by expiring signed URLs: the signature is an HMAC-SHA256
// over "<id>.<expires>" with a key derived from the secrets key, so a URL cannot be
// forged or extended, and needs no API key to fetch (it is the capability).
class ObjectStore
{
public:
    explicit ObjectStore(Store &store);

    StoredObject put(const QString &keyId, const QString &kind, const QString &name,
                     const QString &contentType, const QByteArray &data,
                     std::optional<qint64> ttlMs = std::nullopt);
    std::optional<StoredObject> find(const QString &id) const;
    QByteArray data(const QString &id) const;

    // "/storage/<id>?expires=<ms>&sig=<hex>"
    QString signedPath(const QString &id, qint64 expiresAtMs) const;
    bool verify(const QString &id, qint64 expiresAtMs, const QString &signature) const;
    int purgeExpired();

private:
    QByteArray signature(const QString &id, qint64 expiresAtMs) const;

    Store &m_store;
};

} // namespace ph
