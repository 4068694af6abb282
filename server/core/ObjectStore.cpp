#include "ObjectStore.h"

#include "Clock.h"
#include "Ids.h"
#include "SecretBox.h"
#include "Store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QRegularExpression>

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
    insert(o, data);
    return o;
}

void ObjectStore::insert(const StoredObject &o, const QByteArray &data)
{
    Sql(m_store, QStringLiteral("INSERT INTO stored_objects (id, key_id, kind, name, content_type,"
                                " size, data, created_at, expires_at) VALUES (:id, :k, :kind, :n,"
                                " :ct, :s, :d, :c, :e)"))
        .bind(QStringLiteral(":id"), o.id)
        .bind(QStringLiteral(":k"),
              o.keyId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(o.keyId))
        .bind(QStringLiteral(":kind"), o.kind)
        .bind(QStringLiteral(":n"), o.name)
        .bind(QStringLiteral(":ct"), o.contentType)
        .bind(QStringLiteral(":s"), o.size)
        .bind(QStringLiteral(":d"), data)
        .bind(QStringLiteral(":c"), o.createdAt)
        .bind(QStringLiteral(":e"),
              o.expiresAt ? QVariant(*o.expiresAt) : QVariant(QMetaType::fromType<qint64>()))
        .exec();
    m_store.notifyChanged(QStringLiteral("stored_objects"), o.id);
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

StoredObject ObjectStore::putSite(const QString &keyId, const QString &name,
                                  const QList<SiteFile> &files)
{
    StoredObject site;
    m_store.transaction([&] {
        QJsonArray manifest;
        qint64 total = 0;
        for (const SiteFile &f : files) {
            const StoredObject o =
                put(keyId, QStringLiteral("site-file"), f.path, f.contentType, f.data);
            manifest.append(QJsonObject{{QStringLiteral("path"), f.path},
                                        {QStringLiteral("id"), o.id},
                                        {QStringLiteral("contentType"), f.contentType}});
            total += o.size;
        }
        site.id = Ids::make(QStringLiteral("site"), 20);
        site.keyId = keyId;
        site.kind = QStringLiteral("site");
        site.name = name;
        site.contentType = QStringLiteral("application/json");
        site.createdAt = m_store.clock().nowMs();
        // The site's size is what its files come to, not its manifest's.
        site.size = total;
        insert(site, QJsonDocument(QJsonObject{{QStringLiteral("files"), manifest}})
                         .toJson(QJsonDocument::Compact));
    });
    return site;
}

std::optional<SiteFile> ObjectStore::siteFile(const QString &siteId, const QString &rawPath) const
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$"));
    const QString path = rawPath.isEmpty() ? QStringLiteral("index.html") : rawPath;
    if (!plain.match(path).hasMatch() || path.contains(QLatin1String("..")))
        return std::nullopt;
    const auto site = find(siteId);
    if (!isSiteId(siteId) || !site || site->kind != QLatin1String("site"))
        return std::nullopt;
    const QJsonArray files =
        QJsonDocument::fromJson(data(siteId)).object().value(QStringLiteral("files")).toArray();
    for (const QJsonValue &v : files) {
        const QJsonObject f = v.toObject();
        if (f.value(QStringLiteral("path")).toString() != path)
            continue;
        const QString id = f.value(QStringLiteral("id")).toString();
        if (!find(id))
            return std::nullopt;
        return SiteFile{path, f.value(QStringLiteral("contentType")).toString(), data(id)};
    }
    return std::nullopt;
}

QString ObjectStore::signedSitePath(const QString &siteId, qint64 expiresAtMs) const
{
    return QStringLiteral("/storage/sites/%1/%2.%3/")
        .arg(siteId)
        .arg(expiresAtMs)
        .arg(QString::fromLatin1(signature(QStringLiteral("site/") + siteId, expiresAtMs)));
}

ObjectStore::LinkCheck ObjectStore::checkSiteToken(const QString &siteId,
                                                   const QString &token) const
{
    const qsizetype dot = token.indexOf(QLatin1Char('.'));
    bool ok = false;
    const qint64 expires = dot > 0 ? token.left(dot).toLongLong(&ok) : 0;
    if (!ok || !Ids::equalConstantTime(signature(QStringLiteral("site/") + siteId, expires),
                                       token.mid(dot + 1).toLatin1()))
        return LinkCheck::Invalid;
    return expires < m_store.clock().nowMs() ? LinkCheck::Expired : LinkCheck::Valid;
}

int ObjectStore::purgeExpired(qint64 keepMs)
{
    const qint64 now = m_store.clock().nowMs();
    Sql q(m_store, QStringLiteral("DELETE FROM stored_objects WHERE (expires_at IS NOT NULL AND"
                                  " expires_at < :now) OR (expires_at IS NULL AND :keep > 0 AND"
                                  " created_at < :cutoff)"));
    q.bind(QStringLiteral(":now"), now)
        .bind(QStringLiteral(":keep"), keepMs)
        .bind(QStringLiteral(":cutoff"), now - keepMs)
        .exec();
    return q.rowsAffected();
}

} // namespace ph
