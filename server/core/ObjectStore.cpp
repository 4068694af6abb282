#include "ObjectStore.h"

#include "Clock.h"
#include "Ids.h"
#include "SecretBox.h"
#include "Store.h"

#include <QMessageAuthenticationCode>

namespace ph {

ObjectStore::ObjectStore(Store &store)
    : m_store(store)
{}

StoredObject ObjectStore::put(const QString &keyId, const QString &kind, const QString &name,
                              const QString &contentType, const QByteArray &data,
                              std::optional<qint64> ttlMs)
{
    StoredObject o;
    o.id = Ids::make(QStringLiteral("obj"), 20);
    o.keyId = keyId;
    o.kind = kind;
    o.name = name;
    o.contentType = contentType;
    o.size = data.size();
    o.createdAt = m_store.clock().nowMs();
    if (ttlMs)
        o.expiresAt = o.createdAt + *ttlMs;
    Sql(m_store, QStringLiteral("INSERT INTO stored_objects (id, key_id, kind, name, content_type,"
                                " size, data, created_at, expires_at) VALUES (:id, :k, :kind, :n,"
                                " :ct, :s, :d, :c, :e)"))
        .bind(QStringLiteral(":id"), o.id)
        .bind(QStringLiteral(":k"),
              keyId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(keyId))
        .bind(QStringLiteral(":kind"), kind)
        .bind(QStringLiteral(":n"), name)
        .bind(QStringLiteral(":ct"), contentType)
        .bind(QStringLiteral(":s"), o.size)
        .bind(QStringLiteral(":d"), data)
        .bind(QStringLiteral(":c"), o.createdAt)
        .bind(QStringLiteral(":e"),
              o.expiresAt ? QVariant(*o.expiresAt) : QVariant(QMetaType::fromType<qint64>()))
        .exec();
    m_store.notifyChanged(QStringLiteral("stored_objects"), o.id);
    return o;
}

std::optional<StoredObject> ObjectStore::find(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT id, key_id, kind, name, content_type, size, created_at,"
                                  " expires_at FROM stored_objects WHERE id = :id"));
    q.bind(QStringLiteral(":id"), id).exec();
    if (!q.next())
        return std::nullopt;
    StoredObject o;
    o.id = q.value(0).toString();
    o.keyId = q.value(1).toString();
    o.kind = q.value(2).toString();
    o.name = q.value(3).toString();
    o.contentType = q.value(4).toString();
    o.size = q.value(5).toLongLong();
    o.createdAt = q.value(6).toLongLong();
    if (!q.value(7).isNull())
        o.expiresAt = q.value(7).toLongLong();
    if (o.expiresAt && *o.expiresAt < m_store.clock().nowMs())
        return std::nullopt;
    return o;
}

QByteArray ObjectStore::data(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT data FROM stored_objects WHERE id = :id"));
    q.bind(QStringLiteral(":id"), id).exec();
    return q.next() ? q.value(0).toByteArray() : QByteArray();
}

QByteArray ObjectStore::signature(const QString &id, qint64 expiresAtMs) const
{
    const QByteArray key = m_store.secrets().derive("pilothouse storage urls v1");
    return QMessageAuthenticationCode::hash(id.toUtf8() + '.' + QByteArray::number(expiresAtMs),
                                            key, QCryptographicHash::Sha256)
        .toHex();
}

QString ObjectStore::signedPath(const QString &id, qint64 expiresAtMs) const
{
    return QStringLiteral("/storage/%1?expires=%2&sig=%3")
        .arg(id)
        .arg(expiresAtMs)
        .arg(QString::fromLatin1(signature(id, expiresAtMs)));
}

bool ObjectStore::verify(const QString &id, qint64 expiresAtMs, const QString &sig) const
{
    if (expiresAtMs < m_store.clock().nowMs())
        return false;
    return Ids::equalConstantTime(signature(id, expiresAtMs), sig.toLatin1());
}

int ObjectStore::purgeExpired()
{
    Sql q(m_store, QStringLiteral("DELETE FROM stored_objects WHERE expires_at IS NOT NULL AND"
                                  " expires_at < :now"));
    q.bind(QStringLiteral(":now"), m_store.clock().nowMs()).exec();
    return q.rowsAffected();
}

} // namespace ph
