#include "SiteRepository.h"

#include "core/JsonText.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/SqlRow.h"
#include "core/Store.h"

namespace ph::sites {

namespace {
const QString kSiteColumns = QStringLiteral("id, name, owner_uid, created_at, updated_at");
const QString kKeyColumns = QStringLiteral(
    "id, site_id, label, public_key, environment, allowed_domains, capabilities, site_policy,"
    " active, ttl_days, expires_at, created_at, updated_at, rotated_at");
constexpr qint64 kDayMs = 86'400'000;

QString newPublicKey()
{
    return Ids::make(QStringLiteral("pk_site"), 32);
}
} // namespace

void throwSiteNotFound(const QString &siteId, const QString &field)
{
    throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_NOT_FOUND"),
                      QStringLiteral("no site %1").arg(siteId), field);
}

SiteRepository::SiteRepository(Store &store)
    : m_store(store)
{}

Site SiteRepository::siteFromRow(const Sql &q)
{
    SqlRow row(q);
    return {row.text(), row.text(), row.text(), row.integer(), row.integer()};
}

SiteKey SiteRepository::keyFromRow(const Sql &q)
{
    SqlRow row(q);
    SiteKey k;
    k.id = row.text();
    k.siteId = row.text();
    k.label = row.text();
    k.publicKey = row.text();
    k.environment = row.text();
    for (const QJsonValue &v : row.array())
        k.allowedDomains.append(v.toString());
    k.capabilities = row.object();
    k.sitePolicy = row.object();
    k.active = row.flag();
    k.ttlDays = row.number();
    k.expiresAt = row.optionalInt();
    k.createdAt = row.integer();
    k.updatedAt = row.integer();
    k.rotatedAt = row.optionalInt();
    return k;
}

Site SiteRepository::createSite(const QString &name, const QString &ownerUid)
{
    Site s;
    s.id = Ids::make(QStringLiteral("site"), 16);
    s.name = name;
    s.ownerUid = ownerUid;
    s.createdAt = s.updatedAt = m_store.clock().nowMs();
    m_store.transaction([&] {
        Sql(m_store, QStringLiteral("INSERT INTO sites (id, name, owner_uid, created_at,"
                                    " updated_at) VALUES (:id, :name, :owner, :t, :t)"))
            .bind(QStringLiteral(":id"), s.id)
            .bind(QStringLiteral(":name"), s.name)
            .bind(QStringLiteral(":owner"), s.ownerUid)
            .bind(QStringLiteral(":t"), s.createdAt)
            .exec();
        // The analytics document of the site, with the salt of its hashed join keys.
        Sql(m_store, QStringLiteral("INSERT INTO analytics_sites (site_id, owner_uid, name,"
                                    " join_key_salt, created_at) VALUES (:id, :owner, :name,"
                                    " :salt, :t)"))
            .bind(QStringLiteral(":id"), s.id)
            .bind(QStringLiteral(":owner"), s.ownerUid)
            .bind(QStringLiteral(":name"), s.name)
            .bind(QStringLiteral(":salt"), Ids::base62(32))
            .bind(QStringLiteral(":t"), s.createdAt)
            .exec();
    });
    m_store.notifyChanged(QStringLiteral("sites"), s.id);
    Q_EMIT siteChanged(s.id);
    return s;
}

std::optional<Site> SiteRepository::findSite(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM sites WHERE id = :id").arg(kSiteColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, siteFromRow);
}

std::optional<Site> SiteRepository::findSiteByName(const QString &name,
                                                   const QString &ownerUid) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM sites WHERE name = :name AND owner_uid = :owner")
                       .arg(kSiteColumns));
    q.bind(QStringLiteral(":name"), name).bind(QStringLiteral(":owner"), ownerUid).exec();
    return SqlRows::one(q, siteFromRow);
}

QList<Site> SiteRepository::listSites(const QString &ownerUid) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM sites WHERE owner_uid = :owner ORDER BY"
                                  " created_at, id")
                       .arg(kSiteColumns));
    q.bind(QStringLiteral(":owner"), ownerUid).exec();
    return SqlRows::all(q, siteFromRow);
}

bool SiteRepository::deleteSite(const QString &id)
{
    bool deleted = false;
    m_store.transaction([&] {
        Sql del(m_store, QStringLiteral("DELETE FROM sites WHERE id = :id"));
        del.bind(QStringLiteral(":id"), id).exec();
        deleted = del.rowsAffected() > 0;
        if (!deleted)
            return;
        for (const QString &table : {QStringLiteral("analytics_questions"),
                                     QStringLiteral("analytics_notification_settings")}) {
            Sql(m_store, QStringLiteral("DELETE FROM %1 WHERE site_id = :id").arg(table))
                .bind(QStringLiteral(":id"), id)
                .exec();
        }
        Sql(m_store, QStringLiteral("UPDATE analytics_sites SET site_deleted_at = :t WHERE"
                                    " site_id = :id"))
            .bind(QStringLiteral(":t"), m_store.clock().nowMs())
            .bind(QStringLiteral(":id"), id)
            .exec();
    });
    if (deleted) {
        m_store.notifyChanged(QStringLiteral("sites"), id);
        Q_EMIT siteChanged(id);
    }
    return deleted;
}

SiteKey SiteRepository::createKey(const NewKey &n)
{
    SiteKey k;
    k.id = Ids::make(QStringLiteral("skey"), 16);
    k.siteId = n.siteId;
    k.label = n.label;
    k.publicKey = newPublicKey();
    k.environment = n.environment;
    k.allowedDomains = n.allowedDomains;
    k.capabilities = n.capabilities;
    k.sitePolicy = n.sitePolicy;
    k.ttlDays = n.ttlDays;
    k.createdAt = k.updatedAt = m_store.clock().nowMs();
    if (n.ttlDays > 0)
        k.expiresAt = k.createdAt + qint64(n.ttlDays) * kDayMs;
    Sql(m_store, QStringLiteral("INSERT INTO site_keys (%1) VALUES (:id, :site, :label, :pk, :env,"
                                " :domains, :caps, :policy, 1, :ttl, :expires, :t, :t, NULL)")
                     .arg(kKeyColumns))
        .bind(QStringLiteral(":id"), k.id)
        .bind(QStringLiteral(":site"), k.siteId)
        .bind(QStringLiteral(":label"), k.label)
        .bind(QStringLiteral(":pk"), k.publicKey)
        .bind(QStringLiteral(":env"), k.environment)
        .bind(QStringLiteral(":domains"),
              JsonText::from(QJsonArray::fromStringList(k.allowedDomains)))
        .bind(QStringLiteral(":caps"), JsonText::from(k.capabilities))
        .bind(QStringLiteral(":policy"), JsonText::from(k.sitePolicy))
        .bind(QStringLiteral(":ttl"), k.ttlDays)
        .bind(QStringLiteral(":expires"), JsonText::nullableInt(k.expiresAt))
        .bind(QStringLiteral(":t"), k.createdAt)
        .exec();
    m_store.notifyChanged(QStringLiteral("site_keys"), k.id);
    Q_EMIT siteKeyChanged(k.id);
    return k;
}

std::optional<SiteKey> SiteRepository::findKey(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM site_keys WHERE id = :id").arg(kKeyColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, keyFromRow);
}

std::optional<SiteKey> SiteRepository::findUsableKeyByPublicKey(const QString &publicKey) const
{
    if (!publicKey.startsWith(QLatin1String("pk_site_")))
        return std::nullopt;
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM site_keys WHERE public_key = :pk").arg(kKeyColumns));
    q.bind(QStringLiteral(":pk"), publicKey).exec();
    if (!q.next())
        return std::nullopt;
    SiteKey k = keyFromRow(q);
    if (!k.isUsable(m_store.clock().nowMs()))
        return std::nullopt;
    return k;
}

QList<SiteKey> SiteRepository::listKeys(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM site_keys WHERE site_id = :site ORDER BY"
                                  " created_at, id")
                       .arg(kKeyColumns));
    q.bind(QStringLiteral(":site"), siteId).exec();
    return SqlRows::all(q, keyFromRow);
}

std::optional<SiteKey> SiteRepository::usableKeyFor(const QString &url, qint64 nowMs) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM site_keys WHERE active = 1 ORDER BY"
                                  " created_at, id")
                       .arg(kKeyColumns));
    q.exec();
    while (q.next()) {
        SiteKey key = keyFromRow(q);
        if (key.allowsUrl(url, nowMs))
            return key;
    }
    return std::nullopt;
}

int SiteRepository::keyCount(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM site_keys WHERE site_id = :site"));
    q.bind(QStringLiteral(":site"), siteId).exec();
    return q.next() ? q.value(0).toInt() : 0;
}

void SiteRepository::updateKey(const SiteKey &k)
{
    Sql(m_store, QStringLiteral("UPDATE site_keys SET label = :label, allowed_domains = :domains,"
                                " capabilities = :caps, site_policy = :policy, active = :active,"
                                " updated_at = :t WHERE id = :id"))
        .bind(QStringLiteral(":label"), k.label)
        .bind(QStringLiteral(":domains"),
              JsonText::from(QJsonArray::fromStringList(k.allowedDomains)))
        .bind(QStringLiteral(":caps"), JsonText::from(k.capabilities))
        .bind(QStringLiteral(":policy"), JsonText::from(k.sitePolicy))
        .bind(QStringLiteral(":active"), k.active ? 1 : 0)
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .bind(QStringLiteral(":id"), k.id)
        .exec();
    m_store.notifyChanged(QStringLiteral("site_keys"), k.id);
    Q_EMIT siteKeyChanged(k.id);
}

SiteKey SiteRepository::rotateKey(const QString &id)
{
    const qint64 now = m_store.clock().nowMs();
    Sql(m_store, QStringLiteral("UPDATE site_keys SET public_key = :pk, rotated_at = :t,"
                                " updated_at = :t, expires_at = CASE WHEN ttl_days > 0 THEN"
                                " :t + ttl_days * :day ELSE NULL END WHERE id = :id"))
        .bind(QStringLiteral(":pk"), newPublicKey())
        .bind(QStringLiteral(":t"), now)
        .bind(QStringLiteral(":day"), kDayMs)
        .bind(QStringLiteral(":id"), id)
        .exec();
    m_store.notifyChanged(QStringLiteral("site_keys"), id);
    Q_EMIT siteKeyChanged(id);
    return *findKey(id);
}

QString SiteRepository::mintSecret(const QString &keyId)
{
    const QString secret = Ids::make(QStringLiteral("sk_site"), 40);
    const qint64 now = m_store.clock().nowMs();
    Sql(m_store, QStringLiteral("UPDATE site_keys SET secret_hash = :h, secret_created_at = :t,"
                                " updated_at = :t WHERE id = :id"))
        .bind(QStringLiteral(":h"), Ids::sha256Hex(secret.toUtf8()))
        .bind(QStringLiteral(":t"), now)
        .bind(QStringLiteral(":id"), keyId)
        .exec();
    m_store.notifyChanged(QStringLiteral("site_keys"), keyId);
    Q_EMIT siteKeyChanged(keyId);
    return secret;
}

std::optional<SiteKey> SiteRepository::findUsableKeyBySecret(const QString &secret) const
{
    if (!secret.startsWith(QLatin1String("sk_site_")))
        return std::nullopt;
    Sql q(m_store, QStringLiteral("SELECT id FROM site_keys WHERE secret_hash = :h"));
    q.bind(QStringLiteral(":h"), Ids::sha256Hex(secret.toUtf8())).exec();
    if (!q.next())
        return std::nullopt;
    const std::optional<SiteKey> key = findKey(q.value(0).toString());
    if (!key || !key->isUsable(m_store.clock().nowMs()))
        return std::nullopt;
    return key;
}

SiteConfigRecord SiteRepository::config(const QString &siteId) const
{
    SiteConfigRecord r;
    r.siteId = siteId;
    Sql q(m_store, QStringLiteral("SELECT config, version, updated_at, updated_by FROM"
                                  " site_configs WHERE site_id = :site"));
    q.bind(QStringLiteral(":site"), siteId).exec();
    if (q.next()) {
        r.config = JsonText::object(q.value(0));
        r.version = q.value(1).toInt();
        r.updatedAt = q.value(2).toLongLong();
        r.updatedBy = q.value(3).toString();
    }
    return r;
}

SiteConfigRecord SiteRepository::writeConfig(const QString &siteId, const QJsonObject &config,
                                             const QString &actor)
{
    SiteConfigRecord r;
    m_store.transaction([&] {
        r = this->config(siteId);
        r.config = config;
        r.version += 1;
        r.updatedAt = m_store.clock().nowMs();
        r.updatedBy = actor;
        Sql(m_store, QStringLiteral("INSERT INTO site_configs (site_id, config, version,"
                                    " updated_at, updated_by) VALUES (:site, :config, :v, :t, :by)"
                                    " ON CONFLICT(site_id) DO UPDATE SET config = excluded.config,"
                                    " version = excluded.version, updated_at = excluded.updated_at,"
                                    " updated_by = excluded.updated_by"))
            .bind(QStringLiteral(":site"), siteId)
            .bind(QStringLiteral(":config"), JsonText::from(config))
            .bind(QStringLiteral(":v"), r.version)
            .bind(QStringLiteral(":t"), r.updatedAt)
            .bind(QStringLiteral(":by"), actor)
            .exec();
    });
    m_store.notifyChanged(QStringLiteral("site_configs"), siteId);
    Q_EMIT siteConfigChanged(siteId);
    return r;
}

QStringList SiteRepository::privateHosts(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT private_hosts FROM sites WHERE id = :id"));
    q.bind(QStringLiteral(":id"), siteId).exec();
    QStringList out;
    if (q.next()) {
        for (const QJsonValue &v : JsonText::array(q.value(0)))
            out.append(v.toString());
    }
    return out;
}

void SiteRepository::setPrivateHosts(const QString &siteId, const QStringList &hosts)
{
    Sql(m_store, QStringLiteral("UPDATE sites SET private_hosts = :hosts, updated_at = :t"
                                " WHERE id = :id"))
        .bind(QStringLiteral(":id"), siteId)
        .bind(QStringLiteral(":hosts"), JsonText::from(QJsonArray::fromStringList(hosts)))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
    m_store.notifyChanged(QStringLiteral("sites"), siteId);
    Q_EMIT siteChanged(siteId);
}

std::optional<QString> SiteRepository::siteOfVisitorAccount(const QString &apiKeyId) const
{
    Sql q(m_store, QStringLiteral("SELECT site_id FROM a2w_site_accounts WHERE key_id = :k"));
    q.bind(QStringLiteral(":k"), apiKeyId).exec();
    if (!q.next())
        return std::nullopt;
    return q.value(0).toString();
}

std::optional<QJsonObject> SiteRepository::apiKeyCapabilities(const QString &apiKeyId) const
{
    Sql q(m_store,
          QStringLiteral("SELECT capabilities FROM api_key_capabilities WHERE key_id = :id"));
    q.bind(QStringLiteral(":id"), apiKeyId).exec();
    if (!q.next())
        return std::nullopt;
    return JsonText::object(q.value(0));
}

void SiteRepository::setApiKeyCapabilities(const QString &apiKeyId, const QJsonObject &capabilities)
{
    Sql(m_store, QStringLiteral("INSERT INTO api_key_capabilities (key_id, capabilities,"
                                " updated_at) VALUES (:id, :caps, :t) ON CONFLICT(key_id) DO"
                                " UPDATE SET capabilities = excluded.capabilities,"
                                " updated_at = excluded.updated_at"))
        .bind(QStringLiteral(":id"), apiKeyId)
        .bind(QStringLiteral(":caps"), JsonText::from(capabilities))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
    m_store.notifyChanged(QStringLiteral("api_keys"), apiKeyId);
    Q_EMIT keyCapabilitiesChanged(apiKeyId);
}

} // namespace ph::sites
