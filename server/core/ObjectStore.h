#pragma once

#include <QByteArray>
#include <QList>
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

// One file of a static site (generate_websites).
struct SiteFile
{
    QString path; // a plain file name: "index.html", "style.css", "item-3.html"
    QString contentType;
    QByteArray data;
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
    // `keepMs` > 0: objects without an expiry of their own older than that go too.
    int purgeExpired(qint64 keepMs = 0);

    // Static sites (generate_websites): each file an object of kind "site-file", listed
    // by the site's own object (kind "site", id "site_…", its data a JSON manifest of
    // path, object id and content type). A site is served under
    // "/storage/sites/<id>/<expires>.<sig>/<path>": the signed token is a path segment,
    // so the pages' relative links (style.css, the other pages) keep it. The signature
    // is the storage URLs' HMAC over "site/<id>.<expires>": a site token is never a
    // download signature, nor the other way round.
    StoredObject putSite(const QString &keyId, const QString &name, const QList<SiteFile> &files);
    // The site's file at `path` (empty: index.html); nullopt when there is no such site
    // or file, or `path` is not a plain file name (no "/", no "..").
    std::optional<SiteFile> siteFile(const QString &siteId, const QString &path) const;
    static bool isSiteId(const QString &id) { return id.startsWith(QLatin1String("site_")); }
    // "/storage/sites/<id>/<expires>.<sig>/": the site's root, index.html.
    QString signedSitePath(const QString &siteId, qint64 expiresAtMs) const;
    enum class LinkCheck { Valid, Expired, Invalid };
    // A forged or malformed token is Invalid whatever its time; a genuine one past its
    // time is Expired.
    LinkCheck checkSiteToken(const QString &siteId, const QString &token) const;

private:
    QByteArray signature(const QString &id, qint64 expiresAtMs) const;
    void insert(const StoredObject &o, const QByteArray &data);

    Store &m_store;
};

} // namespace ph
