#pragma once

#include "AllowedDomains.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {
class Store;
class Sql;
} // namespace ph

namespace ph::sites {

// Every owner credential (the owner API key, an accepted ID token) acts for the one
// local owner of this installation; rows carry its uid so a later multi-owner store
// needs no migration.
inline const QString kLocalOwner = QStringLiteral("local");

// Throws DomainError 404 SITE_NOT_FOUND naming `field`: the one answer for a site
// that is missing and for one the caller may not see.
[[noreturn]] void throwSiteNotFound(const QString &siteId,
                                    const QString &field = QStringLiteral("siteId"));

struct Site
{
    QString id; // site_…
    QString name;
    QString ownerUid;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
};

struct SiteKey
{
    QString id; // skey_…
    QString siteId;
    QString label;
    QString publicKey; // pk_site_…, public by design (it is placed in pages)
    QString environment;
    QStringList allowedDomains; // normalised entries
    QJsonObject capabilities;
    QJsonObject sitePolicy;
    bool active = true;
    int ttlDays = 0;
    std::optional<qint64> expiresAt;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    std::optional<qint64> rotatedAt;

    bool isExpired(qint64 nowMs) const { return expiresAt && nowMs >= *expiresAt; }
    bool isUsable(qint64 nowMs) const { return active && !isExpired(nowMs); }
    DomainScope domainScope() const
    {
        return AllowedDomains::scopeFromString(
            sitePolicy.value(QStringLiteral("domainScopeMode")).toString());
    }
    bool capability(const QString &name) const { return capabilities.value(name).toBool(); }
    // Whether a page at `url` may use this key (usable, and its host allowed).
    bool allowsUrl(const QString &url, qint64 nowMs) const
    {
        return isUsable(nowMs) && AllowedDomains::allows(allowedDomains, domainScope(), url);
    }
};

struct SiteConfigRecord
{
    QString siteId;
    QJsonObject config; // sparse: only what the owner set
    int version = 0;    // 0: never written
    qint64 updatedAt = 0;
    QString updatedBy;
};

// Sites, site keys, site configuration and user-key capabilities in the store.
class SiteRepository : public QObject
{
    Q_OBJECT
public:
    explicit SiteRepository(Store &store);

    Site createSite(const QString &name, const QString &ownerUid);
    std::optional<Site> findSite(const QString &id) const;
    std::optional<Site> findSiteByName(const QString &name, const QString &ownerUid) const;
    QList<Site> listSites(const QString &ownerUid) const;
    // Deletes the site with its keys, configuration, Connect AI keys and proposals
    // (cascade) and its analytics owner settings; analytics history stays.
    bool deleteSite(const QString &id);

    struct NewKey
    {
        QString siteId;
        QString label;
        QString environment;
        QStringList allowedDomains;
        QJsonObject capabilities;
        QJsonObject sitePolicy;
        int ttlDays = 0;
    };
    SiteKey createKey(const NewKey &key);
    std::optional<SiteKey> findKey(const QString &id) const;
    // The key a page presents, only while it is active and unexpired.
    std::optional<SiteKey> findUsableKeyByPublicKey(const QString &publicKey) const;
    QList<SiteKey> listKeys(const QString &siteId) const;
    // The usable key (of any site) whose allowed domains cover `url`: what makes the
    // page's site an enabled site for visiting agents. The oldest key wins a tie.
    std::optional<SiteKey> usableKeyFor(const QString &url, qint64 nowMs) const;
    void updateKey(const SiteKey &key);
    // A new pk_site_ value for the key; the old one stops resolving at once.
    SiteKey rotateKey(const QString &id);
    // A new secret site key (sk_site_…) for the key, replacing any earlier one; only its
    // SHA-256 is kept. Returns the secret (shown once).
    QString mintSecret(const QString &keyId);
    // The usable key whose secret this is.
    std::optional<SiteKey> findUsableKeyBySecret(const QString &secret) const;
    int keyCount(const QString &siteId) const;

    SiteConfigRecord config(const QString &siteId) const;
    // Stores `config` as the next version; returns it.
    SiteConfigRecord writeConfig(const QString &siteId, const QJsonObject &config,
                                 const QString &actor);

    // The owner's allowlist of private hosts the site's visitors' work may reach
    // ("host" or "host:port", normalised; docs/security.md). Kept with the site, not in
    // its configuration, which the owner's AI may propose changes to.
    QStringList privateHosts(const QString &siteId) const;
    void setPrivateHosts(const QString &siteId, const QStringList &hosts);
    // The site whose visitors' work acts for this API key (its A2W account), if any.
    std::optional<QString> siteOfVisitorAccount(const QString &apiKeyId) const;

    std::optional<QJsonObject> apiKeyCapabilities(const QString &apiKeyId) const;
    void setApiKeyCapabilities(const QString &apiKeyId, const QJsonObject &capabilities);

Q_SIGNALS:
    // A site was created, renamed or deleted (with its keys and configuration).
    void siteChanged(const QString &siteId);
    // A site's configuration was saved.
    void siteConfigChanged(const QString &siteId);
    // A site key was minted, rotated, revoked or used.
    void siteKeyChanged(const QString &keyId);
    // An API key's site capabilities were set.
    void keyCapabilitiesChanged(const QString &apiKeyId);

private:
    static Site siteFromRow(const Sql &q);
    static SiteKey keyFromRow(const Sql &q);

    Store &m_store;
};

} // namespace ph::sites
