#include "GrantsModel.h"

#include "common/DateText.h"

#include "core/ApiKeyService.h"
#include "oauth/OAuthService.h"

#include <QSet>
#include <QUrl>

namespace ph::ui {

namespace {
bool sameRow(const GrantRow &a, const GrantRow &b)
{
    return a.keyLabel == b.keyLabel && a.lastUsedAt == b.lastUsedAt && a.active == b.active;
}
} // namespace

GrantsModel::GrantsModel(oauth::OAuthService &oauth, ApiKeyService &keys, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const GrantRow &r) { return r.id; }, parent)
    , m_oauth(oauth)
    , m_keys(keys)
{
    m_rows = load();
    connect(&m_oauth, &oauth::OAuthService::grantChanged, this, &GrantsModel::refresh);
    connect(&m_keys, &ApiKeyService::keyChanged, this, &GrantsModel::refresh);
}

QList<GrantRow> GrantsModel::load() const
{
    QList<GrantRow> rows;
    for (const oauth::Grant &g : m_oauth.grants()) {
        const auto key = m_keys.lookup(g.keyId);
        rows.append({g.id, g.clientName, key ? key->key.label : g.keyId, QUrl(g.resource).path(),
                     g.createdAt, g.lastUsedAt.value_or(0), g.isActive()});
    }
    return rows;
}

void GrantsModel::refresh()
{
    const QList<GrantRow> fresh = load();
    QSet<QString> present;
    for (const GrantRow &r : fresh) {
        present.insert(r.id);
        const int row = rowOf(r.id);
        if (row < 0 || !sameRow(m_rows.at(row), r))
            place(r.id, r, true);
    }
    QStringList gone;
    for (const GrantRow &r : std::as_const(m_rows)) {
        if (!present.contains(r.id))
            gone << r.id;
    }
    for (const QString &id : std::as_const(gone))
        place(id, std::nullopt, false);
}

QVariant GrantsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const GrantRow &r = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return r.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Client:
        return r.clientName;
    case Key:
        return r.keyLabel;
    case Endpoint:
        return r.resource;
    case Created:
        return dateCell(r.createdAt, role);
    case LastUsed:
        return r.lastUsedAt ? dateCell(r.lastUsedAt, role) : QVariant(tr("never"));
    case Status:
        return r.active ? tr("active") : tr("revoked");
    default:
        return {};
    }
}

QVariant GrantsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Client:
        return tr("Client");
    case Key:
        return tr("Acts as key");
    case Endpoint:
        return tr("Endpoint");
    case Created:
        return tr("Created");
    case LastUsed:
        return tr("Last used");
    case Status:
        return tr("Status");
    default:
        return {};
    }
}

} // namespace ph::ui
