#include "WorkspaceActions.h"

#include "AllowedDomains.h"
#include "SiteConfigSchema.h"

#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Store.h"
#include "net/NetworkPolicy.h"

namespace ph::sites {

namespace {

QString boundedLabel(const JsonFields &body, const QString &key, bool required,
                     const QString &fallback = {})
{
    const QString label = required ? body.requiredString(key).trimmed()
                                   : body.optionalString(key).value_or(fallback).trimmed();
    if (label.size() > 80)
        throw DomainError::invalidField(body.path(key),
                                        QStringLiteral("must be at most 80 characters"));
    return label;
}

QJsonObject objectField(const JsonFields &body, const QString &key)
{
    const auto o = body.optionalObject(key);
    return o ? o->object() : QJsonObject();
}

} // namespace

Site ownedSite(const SiteRepository &sites, const QString &siteId)
{
    // As ConfigApi::siteFor answers an owner.
    if (siteId.isEmpty())
        throw DomainError::missingField(QStringLiteral("siteId"));
    const auto site = sites.findSite(siteId);
    if (!site || site->ownerUid != kLocalOwner)
        throwSiteNotFound(siteId);
    return *site;
}

SiteKey ownedSiteKey(const SiteRepository &sites, const QString &keyId, const QString &siteId)
{
    const auto key = sites.findKey(keyId);
    if (!key || (!siteId.isEmpty() && key->siteId != siteId))
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_KEY_NOT_FOUND"),
                          siteId.isEmpty()
                              ? QStringLiteral("no site key %1").arg(keyId)
                              : QStringLiteral("no site key %1 on site %2").arg(keyId, siteId),
                          QStringLiteral("keyId"));
    ownedSite(sites, key->siteId);
    return *key;
}

QJsonObject checkSiteConfigPatch(const QJsonObject &stored, const QJsonObject &patch,
                                 const QString &path)
{
    const QJsonObject clean =
        SiteConfigSchema::sanitizePatch(patch, SiteConfigSchema::Mode::Strict, path);
    const QJsonObject merged = SiteConfigSchema::applyUpsert(stored, clean);
    SiteConfigSchema::checkWhole(merged, path);
    return merged;
}

SiteConfigRecord upsertSiteConfig(Store &store, SiteRepository &sites, const QString &siteId,
                                  const QJsonObject &patch, const QString &actor)
{
    ownedSite(sites, siteId);
    SiteConfigRecord written;
    store.transaction([&] {
        const QJsonObject merged = checkSiteConfigPatch(sites.config(siteId).config, patch);
        written = sites.writeConfig(siteId, merged, actor);
    });
    return written;
}

GeneratedSiteKey generateSiteKey(Store &store, SiteRepository &sites, const QJsonObject &raw)
{
    const JsonFields body(raw);
    body.rejectUnknown({QStringLiteral("siteId"), QStringLiteral("siteName"),
                        QStringLiteral("label"), QStringLiteral("allowedDomains"),
                        QStringLiteral("ttlDays"), QStringLiteral("environment"),
                        QStringLiteral("capabilities"), QStringLiteral("sitePolicy")});
    const auto siteId = body.optionalString(QStringLiteral("siteId"));
    const auto siteName = body.optionalString(QStringLiteral("siteName"));
    if (!siteId && !siteName)
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("MISSING_FIELD"),
                          QStringLiteral("siteId or siteName is required"),
                          QStringLiteral("siteId"));
    if (siteId && siteName)
        throw DomainError::invalidField(
            QStringLiteral("siteName"),
            QStringLiteral("cannot be sent with siteId; send one of them"));
    const QString label = boundedLabel(body, QStringLiteral("label"), true);
    SiteRepository::NewKey key;
    key.label = label;
    key.allowedDomains =
        AllowedDomains::normalize(*body.stringArray(QStringLiteral("allowedDomains"), true),
                                  QStringLiteral("allowedDomains"));
    key.ttlDays = int(body.optionalInt(QStringLiteral("ttlDays"), 0, 3650).value_or(0));
    key.environment = body.optionalEnum(QStringLiteral("environment"),
                                        {QStringLiteral("production"),
                                         QStringLiteral("development"), QStringLiteral("test")})
                          .value_or(QStringLiteral("production"));
    key.capabilities = SiteConfigSchema::mergeCapabilities(
        SiteConfigSchema::capabilityDefaults(), objectField(body, QStringLiteral("capabilities")),
        QStringLiteral("capabilities"));
    key.sitePolicy = SiteConfigSchema::mergeSitePolicy(
        SiteConfigSchema::sitePolicyDefaults(), objectField(body, QStringLiteral("sitePolicy")),
        QStringLiteral("sitePolicy"));

    GeneratedSiteKey out;
    store.transaction([&] {
        if (siteId) {
            out.site = ownedSite(sites, *siteId);
        } else {
            const QString name = siteName->trimmed();
            if (name.isEmpty() || name.size() > 120)
                throw DomainError::invalidField(QStringLiteral("siteName"),
                                                QStringLiteral("must be 1 to 120 characters"));
            if (auto existing = sites.findSiteByName(name, kLocalOwner)) {
                out.site = *existing;
            } else {
                out.site = sites.createSite(name, kLocalOwner);
                out.siteCreated = true;
            }
        }
        key.siteId = out.site.id;
        out.key = sites.createKey(key);
    });
    return out;
}

SiteKey updateSiteKeyPolicy(SiteRepository &sites, const QJsonObject &raw)
{
    const JsonFields body(raw);
    body.rejectUnknown({QStringLiteral("keyId"), QStringLiteral("siteId"),
                        QStringLiteral("allowedDomains"), QStringLiteral("active"),
                        QStringLiteral("capabilities"), QStringLiteral("sitePolicy")});
    SiteKey key = ownedSiteKey(sites, body.requiredString(QStringLiteral("keyId")),
                               body.optionalString(QStringLiteral("siteId")).value_or(QString()));
    if (const auto domains = body.stringArray(QStringLiteral("allowedDomains"), false))
        key.allowedDomains = AllowedDomains::normalize(*domains, QStringLiteral("allowedDomains"));
    if (const auto active = body.optionalBool(QStringLiteral("active")))
        key.active = *active;
    key.capabilities = SiteConfigSchema::mergeCapabilities(
        key.capabilities, objectField(body, QStringLiteral("capabilities")),
        QStringLiteral("capabilities"));
    key.sitePolicy = SiteConfigSchema::mergeSitePolicy(
        key.sitePolicy, objectField(body, QStringLiteral("sitePolicy")),
        QStringLiteral("sitePolicy"));
    sites.updateKey(key);
    return *sites.findKey(key.id);
}

SiteKey rotateSiteKey(Store &store, SiteRepository &sites, const QJsonObject &raw)
{
    const JsonFields body(raw);
    body.rejectUnknown({QStringLiteral("keyId"), QStringLiteral("siteId"), QStringLiteral("label"),
                        QStringLiteral("capabilities"), QStringLiteral("sitePolicy")});
    SiteKey key = ownedSiteKey(sites, body.requiredString(QStringLiteral("keyId")),
                               body.optionalString(QStringLiteral("siteId")).value_or(QString()));
    if (body.has(QStringLiteral("label")))
        key.label = boundedLabel(body, QStringLiteral("label"), true);
    key.capabilities = SiteConfigSchema::mergeCapabilities(
        key.capabilities, objectField(body, QStringLiteral("capabilities")),
        QStringLiteral("capabilities"));
    key.sitePolicy = SiteConfigSchema::mergeSitePolicy(
        key.sitePolicy, objectField(body, QStringLiteral("sitePolicy")),
        QStringLiteral("sitePolicy"));
    SiteKey rotated;
    store.transaction([&] {
        sites.updateKey(key);
        rotated = sites.rotateKey(key.id);
    });
    return rotated;
}

GeneratedSecret generateSiteSecret(SiteRepository &sites, const QJsonObject &raw)
{
    const JsonFields body(raw);
    body.rejectUnknown({QStringLiteral("keyId"), QStringLiteral("siteId")});
    const SiteKey key =
        ownedSiteKey(sites, body.requiredString(QStringLiteral("keyId")),
                     body.optionalString(QStringLiteral("siteId")).value_or(QString()));
    return {key, sites.mintSecret(key.id)};
}

DeletedSite deleteSite(SiteRepository &sites, const ConnectKeyRepository &connectKeys,
                       const QJsonObject &raw)
{
    const JsonFields body(raw);
    body.rejectUnknown({QStringLiteral("siteId")});
    DeletedSite out;
    out.site = ownedSite(sites, body.requiredString(QStringLiteral("siteId")));
    out.siteKeys = sites.keyCount(out.site.id);
    out.connectKeys = int(connectKeys.list(out.site.id).size());
    sites.deleteSite(out.site.id);
    return out;
}

ConnectKeyRepository::Minted createConnectKey(const SiteRepository &sites,
                                              ConnectKeyRepository &connectKeys,
                                              const QJsonObject &raw, const QString &actor)
{
    const JsonFields body(raw);
    body.rejectUnknown({QStringLiteral("siteId"), QStringLiteral("label")});
    const Site site = ownedSite(sites, body.requiredString(QStringLiteral("siteId")));
    const QString label =
        boundedLabel(body, QStringLiteral("label"), false, QStringLiteral("Connect AI"));
    return connectKeys.create(site.id, label.isEmpty() ? QStringLiteral("Connect AI") : label,
                              actor);
}

RevokedConnectKey revokeConnectKey(const SiteRepository &sites, ConnectKeyRepository &connectKeys,
                                   const QJsonObject &raw)
{
    const JsonFields body(raw);
    body.rejectUnknown({QStringLiteral("keyId")});
    const QString keyId = body.requiredString(QStringLiteral("keyId"));
    const auto key = connectKeys.find(keyId);
    if (!key)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("CONNECT_KEY_NOT_FOUND"),
                          QStringLiteral("no Connect AI key %1").arg(keyId),
                          QStringLiteral("keyId"));
    ownedSite(sites, key->siteId);
    return {keyId, !connectKeys.revoke(keyId)};
}

QStringList normalizePrivateHosts(const QStringList &entries, const QString &field)
{
    if (entries.size() > 50)
        throw DomainError::invalidField(field, QStringLiteral("must list at most 50 hosts"));
    QStringList out;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        QString problem;
        const QString entry = NetworkPolicy::normalizeAllowlistEntry(entries.at(i), &problem);
        if (entry.isEmpty())
            throw DomainError::invalidField(QStringLiteral("%1[%2]").arg(field).arg(i), problem);
        if (!out.contains(entry))
            out.append(entry);
    }
    return out;
}

} // namespace ph::sites
