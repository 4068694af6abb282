#include "SitesModel.h"

#include "common/DateText.h"

#include "core/Clock.h"
#include "sites/ChangeRepository.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>

#include <algorithm>

namespace ph::ui {

namespace {
const QColor kInactive(0x80, 0x80, 0x80);

bool sameRow(const SiteRow &a, const SiteRow &b)
{
    return a.site.name == b.site.name && a.site.updatedAt == b.site.updatedAt &&
           a.siteKeys == b.siteKeys && a.usableSiteKeys == b.usableSiteKeys &&
           a.activeConnectKeys == b.activeConnectKeys && a.configVersion == b.configVersion &&
           a.pendingChanges == b.pendingChanges;
}

template <class T> QList<T> newestFirst(QList<T> list)
{
    std::reverse(list.begin(), list.end());
    return list;
}
} // namespace

// --- SitesModel ---------------------------------------------------------------------------

SitesModel::SitesModel(sites::SiteRepository &sites, sites::ConnectKeyRepository &connectKeys,
                       sites::ChangeRepository &changes, const Clock &clock, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const SiteRow &r) { return r.site.id; }, parent)
    , m_sites(sites)
    , m_connectKeys(connectKeys)
    , m_changes(changes)
    , m_clock(clock)
{
    for (const sites::Site &s : newestFirst(m_sites.listSites(sites::kLocalOwner))) {
        if (const auto row = load(s.id))
            m_rows.append(*row);
    }
    connect(&m_sites, &sites::SiteRepository::siteChanged, this, &SitesModel::update);
    connect(&m_sites, &sites::SiteRepository::siteConfigChanged, this, &SitesModel::update);
    connect(&m_sites, &sites::SiteRepository::siteKeyChanged, this, [this](const QString &id) {
        if (const auto key = m_sites.findKey(id))
            update(key->siteId);
    });
    connect(&m_connectKeys, &sites::ConnectKeyRepository::connectKeyChanged, this,
            [this](const QString &id) {
                if (const auto key = m_connectKeys.find(id))
                    update(key->siteId);
            });
    connect(&m_changes, &sites::ChangeRepository::proposalChanged, this, [this](const QString &id) {
        if (const auto change = m_changes.find(id))
            update(change->siteId);
    });
}

std::optional<SiteRow> SitesModel::load(const QString &siteId) const
{
    const auto site = m_sites.findSite(siteId);
    if (!site || site->ownerUid != sites::kLocalOwner)
        return std::nullopt;
    SiteRow row;
    row.site = *site;
    const qint64 now = m_clock.nowMs();
    for (const sites::SiteKey &k : m_sites.listKeys(siteId)) {
        ++row.siteKeys;
        if (k.isUsable(now))
            ++row.usableSiteKeys;
    }
    row.activeConnectKeys = m_connectKeys.activeCount(siteId);
    row.configVersion = m_sites.config(siteId).version;
    row.pendingChanges = int(m_changes.pending(siteId, QString(), 1000).size());
    return row;
}

void SitesModel::update(const QString &siteId)
{
    const auto fresh = load(siteId);
    const int row = rowOf(siteId);
    if (row >= 0 && fresh && sameRow(m_rows.at(row), *fresh))
        return;
    place(siteId, fresh, fresh.has_value());
}

QVariant SitesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const SiteRow &r = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return r.site.id;
    // EditRole: the text an editable combo box (the new key's site) shows.
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::EditRole)
        return {};
    switch (index.column()) {
    case Name:
        return r.site.name;
    case Id:
        return r.site.id;
    case SiteKeys:
        return tr("%1 of %2 usable").arg(r.usableSiteKeys).arg(r.siteKeys);
    case ConnectKeys:
        return tr("%1 of %2 active")
            .arg(r.activeConnectKeys)
            .arg(sites::ConnectKeyRepository::kMaxActivePerSite);
    case ConfigVersion:
        return r.configVersion ? QVariant(r.configVersion) : QVariant(tr("defaults"));
    case Pending:
        return r.pendingChanges;
    case Created:
        return role == Qt::ToolTipRole ? fullDateTime(r.site.createdAt)
                                       : shortDateTime(r.site.createdAt);
    default:
        return {};
    }
}

QVariant SitesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Site");
    case Id:
        return tr("Id");
    case SiteKeys:
        return tr("Site keys");
    case ConnectKeys:
        return tr("Connect AI keys");
    case ConfigVersion:
        return tr("Configuration");
    case Pending:
        return tr("Proposals");
    case Created:
        return tr("Created");
    default:
        return {};
    }
}

// --- SiteKeysModel ------------------------------------------------------------------------

SiteKeysModel::SiteKeysModel(sites::SiteRepository &sites, const Clock &clock, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const sites::SiteKey &k) { return k.id; }, parent)
    , m_sites(sites)
    , m_clock(clock)
{
    connect(&m_sites, &sites::SiteRepository::siteKeyChanged, this, &SiteKeysModel::onKeyChanged);
    connect(&m_sites, &sites::SiteRepository::siteChanged, this, &SiteKeysModel::onSiteChanged);
}

void SiteKeysModel::setSiteId(const QString &siteId)
{
    m_siteId = siteId;
    resetRows(siteId.isEmpty() ? QList<sites::SiteKey>() : newestFirst(m_sites.listKeys(siteId)));
}

QString SiteKeysModel::maskedPublicKey(const QString &publicKey)
{
    static const QString prefix = QStringLiteral("pk_site_");
    if (!publicKey.startsWith(prefix) || publicKey.size() < prefix.size() + 12)
        return QStringLiteral("…");
    return publicKey.left(prefix.size() + 4) + QStringLiteral("…") + publicKey.right(4);
}

void SiteKeysModel::onKeyChanged(const QString &keyId)
{
    if (m_siteId.isEmpty())
        return;
    const auto key = m_sites.findKey(keyId);
    place(keyId, key, key && key->siteId == m_siteId);
}

void SiteKeysModel::onSiteChanged(const QString &siteId)
{
    // Deleted with its keys (the cascade sends no key notifications).
    if (!m_siteId.isEmpty() && siteId == m_siteId && !m_sites.findSite(siteId))
        resetRows({});
}

QVariant SiteKeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const sites::SiteKey &k = m_rows.at(index.row());
    const qint64 now = m_clock.nowMs();
    if (role == Qt::UserRole)
        return k.id;
    if (role == Qt::ForegroundRole)
        return k.isUsable(now) ? QVariant() : QVariant(kInactive);
    if (role == Qt::ToolTipRole && index.column() == Label)
        return k.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Label:
        return k.label;
    case PublicKey:
        return maskedPublicKey(k.publicKey);
    case Environment:
        return k.environment;
    case AllowedDomains:
        return k.allowedDomains.join(QStringLiteral(", "));
    case Capabilities: {
        QStringList on;
        for (auto it = k.capabilities.begin(); it != k.capabilities.end(); ++it) {
            if (it.value().toBool())
                on << it.key();
        }
        return on.isEmpty() ? tr("none") : on.join(QStringLiteral(", "));
    }
    case Policy: {
        const QString mode = k.sitePolicy.value(QStringLiteral("siteMode")).toString();
        const QString modeText = mode == QLatin1String("paused") ? tr("paused")
                                 : mode == QLatin1String("test") ? tr("test mode")
                                                                 : tr("live");
        QString text = k.domainScope() == sites::DomainScope::ExactHost
                           ? tr("%1 · exact hosts").arg(modeText)
                           : tr("%1 · registrable domains").arg(modeText);
        if (k.sitePolicy.value(QStringLiteral("cloudSandboxEnabled")).toBool())
            text += tr(" · cloud sandbox");
        if (k.sitePolicy.value(QStringLiteral("mascot"))
                .toObject()
                .value(QStringLiteral("enabled"))
                .toBool())
            text += tr(" · mascot");
        return text;
    }
    case State:
        if (!k.active)
            return tr("deactivated");
        if (k.isExpired(now))
            return tr("expired %1").arg(shortDateTime(*k.expiresAt));
        return k.expiresAt ? tr("active until %1").arg(shortDateTime(*k.expiresAt)) : tr("active");
    case Created:
        return role == Qt::ToolTipRole ? fullDateTime(k.createdAt) : shortDateTime(k.createdAt);
    case Rotated:
        return !k.rotatedAt              ? QString()
               : role == Qt::ToolTipRole ? fullDateTime(*k.rotatedAt)
                                         : shortDateTime(*k.rotatedAt);
    default:
        return {};
    }
}

QVariant SiteKeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Label:
        return tr("Label");
    case PublicKey:
        return tr("Public key");
    case Environment:
        return tr("Environment");
    case AllowedDomains:
        return tr("Allowed domains");
    case Capabilities:
        return tr("Capabilities");
    case Policy:
        return tr("Policy");
    case State:
        return tr("State");
    case Created:
        return tr("Created");
    case Rotated:
        return tr("Rotated");
    default:
        return {};
    }
}

// --- ConnectKeysModel ---------------------------------------------------------------------

ConnectKeysModel::ConnectKeysModel(sites::ConnectKeyRepository &connectKeys,
                                   sites::SiteRepository &sites, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const sites::ConnectKey &k) { return k.id; }, parent)
    , m_connectKeys(connectKeys)
    , m_sites(sites)
{
    connect(&m_connectKeys, &sites::ConnectKeyRepository::connectKeyChanged, this,
            &ConnectKeysModel::onKeyChanged);
    connect(&m_sites, &sites::SiteRepository::siteChanged, this, &ConnectKeysModel::onSiteChanged);
}

QList<sites::ConnectKey> ConnectKeysModel::load() const
{
    return m_siteId.isEmpty() ? QList<sites::ConnectKey>()
                              : newestFirst(m_connectKeys.list(m_siteId));
}

void ConnectKeysModel::setSiteId(const QString &siteId)
{
    m_siteId = siteId;
    resetRows(load());
}

void ConnectKeysModel::refresh()
{
    const QList<sites::ConnectKey> keys = load();
    // Oldest first, so that keys new to the list end up on top in order.
    for (auto it = keys.crbegin(); it != keys.crend(); ++it) {
        const int row = rowOf(it->id);
        if (row >= 0) {
            const sites::ConnectKey &old = m_rows.at(row);
            if (old.label == it->label && old.lastUsedAt == it->lastUsedAt &&
                old.revokedAt == it->revokedAt)
                continue;
        }
        place(it->id, *it, true);
    }
}

void ConnectKeysModel::onKeyChanged(const QString &keyId)
{
    if (m_siteId.isEmpty())
        return;
    const auto key = m_connectKeys.find(keyId);
    place(keyId, key, key && key->siteId == m_siteId);
}

void ConnectKeysModel::onSiteChanged(const QString &siteId)
{
    if (!m_siteId.isEmpty() && siteId == m_siteId && !m_sites.findSite(siteId))
        resetRows({});
}

QVariant ConnectKeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const sites::ConnectKey &k = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return k.id;
    if (role == Qt::ForegroundRole)
        return k.revokedAt ? QVariant(kInactive) : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Label)
        return k.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Label:
        return k.label;
    case Prefix:
        return k.prefix.isEmpty() ? QString() : k.prefix + QStringLiteral("…");
    case Created:
        return role == Qt::ToolTipRole ? fullDateTime(k.createdAt) : shortDateTime(k.createdAt);
    case LastUsed:
        return !k.lastUsedAt             ? tr("never")
               : role == Qt::ToolTipRole ? fullDateTime(*k.lastUsedAt)
                                         : shortDateTime(*k.lastUsedAt);
    case State:
        return k.revokedAt ? tr("revoked %1").arg(shortDateTime(*k.revokedAt)) : tr("active");
    default:
        return {};
    }
}

QVariant ConnectKeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Label:
        return tr("Label");
    case Prefix:
        return tr("Prefix");
    case Created:
        return tr("Created");
    case LastUsed:
        return tr("Last used");
    case State:
        return tr("State");
    default:
        return {};
    }
}

} // namespace ph::ui
