#pragma once

#include "ConnectKeyRepository.h"
#include "SiteRepository.h"

#include <QJsonObject>
#include <QString>

namespace ph {
class Store;
}

namespace ph::sites {

// The owner's actions on sites, site keys and Connect AI keys, shared by the workspace
// API (WorkspaceController) and the console. Each takes the body of its workspace call
// as docs/api/sites.md describes it, validates it in the same order and throws the
// same DomainError (400 UNKNOWN_FIELD, MISSING_FIELD, INVALID_FIELD naming the JSON
// path; 404 SITE_NOT_FOUND, SITE_KEY_NOT_FOUND, CONNECT_KEY_NOT_FOUND; 409
// CONNECT_KEY_LIMIT). Every caller acts for the one local owner.

// The owner's view of a site: 404 SITE_NOT_FOUND (field "siteId") for a missing site
// and for one of another owner; 400 MISSING_FIELD for an empty id.
Site ownedSite(const SiteRepository &sites, const QString &siteId);
// A site key of the owner, on `siteId` unless that is empty; 404 SITE_KEY_NOT_FOUND.
SiteKey ownedSiteKey(const SiteRepository &sites, const QString &keyId, const QString &siteId);

struct GeneratedSiteKey
{
    Site site;
    bool siteCreated = false;
    SiteKey key;
};
// POST /generateSiteKey: a new key for `siteId`, or for the site named `siteName`
// (created when the owner has none of that name). Nothing is stored on an error.
GeneratedSiteKey generateSiteKey(Store &store, SiteRepository &sites, const QJsonObject &body);
// POST /updateSiteKeyPolicy: allowed domains (replaced), active, capabilities and site
// policy (patches); returns the key as stored.
SiteKey updateSiteKeyPolicy(SiteRepository &sites, const QJsonObject &body);

// A site's private-host allowlist as stored: every entry "host" or "host:port"
// (NetworkPolicy::normalizeAllowlistEntry), duplicates removed, order kept, 50 at most;
// a bad entry is a DomainError 400 naming it ("privateHosts[2]").
QStringList normalizePrivateHosts(const QStringList &entries, const QString &field);
// POST /rotateSiteKey: the same key with a new public key (the old one stops resolving).
SiteKey rotateSiteKey(Store &store, SiteRepository &sites, const QJsonObject &body);

// POST /generateSiteSecret: a new secret site key (sk_site_…) for a site key, for the
// site's server only (docs/api/runtime.md, "A site's server"); any earlier one stops
// working. Returns the key and the secret, shown once.
struct GeneratedSecret
{
    SiteKey key;
    QString secret;
};
GeneratedSecret generateSiteSecret(SiteRepository &sites, const QJsonObject &body);

struct DeletedSite
{
    Site site;
    int siteKeys = 0;
    int connectKeys = 0;
};
// POST /deleteSite: the site with its keys, configuration, Connect AI keys and proposals.
DeletedSite deleteSite(SiteRepository &sites, const ConnectKeyRepository &connectKeys,
                       const QJsonObject &body);

// POST /upsertSiteConfig, the check alone: the configuration a sparse `siteConfig`
// patch would leave over `stored` (present top-level fields replace, null clears).
// The patch is checked strictly by SiteConfigSchema and the result as a whole, so an
// error is the API's (400 UNKNOWN_FIELD, INVALID_FIELD, MISSING_FIELD, DUPLICATE_ID)
// with the field's path under `path`. Nothing is stored. The console's configuration
// editor checks its draft through it as the owner types.
QJsonObject checkSiteConfigPatch(const QJsonObject &stored, const QJsonObject &patch,
                                 const QString &path = QStringLiteral("siteConfig"));
// POST /upsertSiteConfig: the site's next configuration version, checked as above
// against the stored one in the same transaction; 404 SITE_NOT_FOUND for a site the
// owner does not have. Returns the stored record.
SiteConfigRecord upsertSiteConfig(Store &store, SiteRepository &sites, const QString &siteId,
                                  const QJsonObject &patch, const QString &actor);

// POST /createConnectKey: the minted key with its secret, to be shown once.
ConnectKeyRepository::Minted createConnectKey(const SiteRepository &sites,
                                              ConnectKeyRepository &connectKeys,
                                              const QJsonObject &body, const QString &actor);
struct RevokedConnectKey
{
    QString keyId;
    bool alreadyRevoked = false;
};
// POST /revokeConnectKey: effective for the next request.
RevokedConnectKey revokeConnectKey(const SiteRepository &sites, ConnectKeyRepository &connectKeys,
                                   const QJsonObject &body);

} // namespace ph::sites
