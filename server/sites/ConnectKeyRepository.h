#pragma once

#include "core/CredentialVerifier.h"

#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace ph {
class Store;
class Sql;
} // namespace ph

namespace ph::sites {

struct ConnectKey
{
    QString id; // conn_…
    QString siteId;
    QString label;
    QString prefix; // first characters of the secret, safe to show
    qint64 createdAt = 0;
    QString createdBy;
    std::optional<qint64> lastUsedAt;
    std::optional<qint64> revokedAt;
    bool isActive() const { return !revokedAt.has_value(); }
};

// Connect AI keys: bearer keys `ck_<40 base62>` bound to one site, stored as SHA-256
// only, at most kMaxActivePerSite active per site. Also the credential verifier the
// authenticator consults for the SiteAgent and Workspace policies.
class ConnectKeyRepository : public QObject, public CredentialVerifier
{
    Q_OBJECT
public:
    static constexpr int kMaxActivePerSite = 8;

    struct Minted
    {
        ConnectKey key;
        QString secret; // shown once
    };

    explicit ConnectKeyRepository(Store &store);

    // Throws DomainError 409 CONNECT_KEY_LIMIT when the site has 8 active keys.
    Minted create(const QString &siteId, const QString &label, const QString &actor);
    // Revokes `id` and mints its successor with the same label in one transaction.
    Minted rotate(const QString &id, const QString &actor);
    std::optional<ConnectKey> find(const QString &id) const;
    QList<ConnectKey> list(const QString &siteId) const;
    int activeCount(const QString &siteId) const;
    bool revoke(const QString &id);

    // CredentialVerifier
    bool recognizes(const QString &credential) const override;
    Principal verify(const QString &credential) override;

Q_SIGNALS:
    // A Connect AI key was minted, revoked or used.
    void connectKeyChanged(const QString &keyId);

private:
    Minted insert(const QString &siteId, const QString &label, const QString &actor);
    static ConnectKey fromRow(const Sql &q);

    Store &m_store;
};

} // namespace ph::sites
