#pragma once

#include "sites/ConnectKeyRepository.h"
#include "sites/SiteRepository.h"

#include "common/RowTableModel.h"

namespace ph {
class Clock;
}
namespace ph::sites {
class ChangeRepository;
}

namespace ph::ui {

// One site of the owner with what it has: site keys, Connect AI keys, configuration
// version and proposals waiting for review.
struct SiteRow
{
    sites::Site site;
    int siteKeys = 0;
    int usableSiteKeys = 0;
    int activeConnectKeys = 0;
    int configVersion = 0;
    int pendingChanges = 0;
};

// The owner's sites, newest first. Live through the repositories' typed signals:
// siteChanged (created, deleted) places the row; siteKeyChanged, connectKeyChanged,
// siteConfigChanged and proposalChanged update the counts of the one site they belong to.
class SitesModel : public RowTableModel<SiteRow>
{
    Q_OBJECT
public:
    enum Column { Name, Id, SiteKeys, ConnectKeys, ConfigVersion, Pending, Created, ColumnCount };

    SitesModel(sites::SiteRepository &sites, sites::ConnectKeyRepository &connectKeys,
               sites::ChangeRepository &changes, const Clock &clock, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void update(const QString &siteId);
    std::optional<SiteRow> load(const QString &siteId) const;

    sites::SiteRepository &m_sites;
    sites::ConnectKeyRepository &m_connectKeys;
    sites::ChangeRepository &m_changes;
    const Clock &m_clock;
};

// The site keys of one site, newest first. Public keys are shown masked (prefix and
// last characters); the full value is only ever shown right after minting or
// rotating. Live through "site_keys" and "sites" (the site deleted).
class SiteKeysModel : public RowTableModel<sites::SiteKey>
{
    Q_OBJECT
public:
    enum Column {
        Label,
        PublicKey,
        Environment,
        AllowedDomains,
        Capabilities,
        Policy,
        State,
        Created,
        Rotated,
        ColumnCount
    };

    SiteKeysModel(sites::SiteRepository &sites, const Clock &clock, QObject *parent = nullptr);

    // The site whose keys are listed (empty: none).
    void setSiteId(const QString &siteId);
    QString siteId() const { return m_siteId; }

    // "pk_site_AbCd…wxYz": enough to tell keys apart, never the whole key.
    static QString maskedPublicKey(const QString &publicKey);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void onKeyChanged(const QString &keyId);
    void onSiteChanged(const QString &siteId);

    sites::SiteRepository &m_sites;
    const Clock &m_clock;
    QString m_siteId;
};

// The Connect AI keys of one site, newest first, revoked ones included (label, display
// prefix, created, last used, revoked). Live through "connect_keys" (its last use too,
// recorded at most once a minute) and "sites"; refresh() re-reads the list.
class ConnectKeysModel : public RowTableModel<sites::ConnectKey>
{
    Q_OBJECT
public:
    enum Column { Label, Prefix, Created, LastUsed, State, ColumnCount };

    ConnectKeysModel(sites::ConnectKeyRepository &connectKeys, sites::SiteRepository &sites,
                     QObject *parent = nullptr);

    void setSiteId(const QString &siteId);
    QString siteId() const { return m_siteId; }
    void refresh();

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void onKeyChanged(const QString &keyId);
    void onSiteChanged(const QString &siteId);
    QList<sites::ConnectKey> load() const;

    sites::ConnectKeyRepository &m_connectKeys;
    sites::SiteRepository &m_sites;
    QString m_siteId;
};

} // namespace ph::ui
