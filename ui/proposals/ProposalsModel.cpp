#include "ProposalsModel.h"

#include "core/Store.h"
#include "sites/SiteRepository.h"

#include <QDateTime>
#include <QLocale>

namespace ph::ui {

ProposalsModel::ProposalsModel(sites::ChangeRepository &changes, sites::SiteRepository &sites,
                               Store &store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_changes(changes)
    , m_sites(sites)
{
    m_rows = m_changes.recent(m_status, kLimit);
    connect(&store, &Store::changed, this, &ProposalsModel::onStoreChanged);
}

void ProposalsModel::setStatusFilter(const QString &status)
{
    beginResetModel();
    m_status = status;
    m_rows = m_changes.recent(m_status, kLimit);
    endResetModel();
}

const sites::ConfigChange &ProposalsModel::rowAt(const QModelIndex &index) const
{
    return m_rows.at(index.row());
}

int ProposalsModel::rowOf(const QString &id) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return i;
    }
    return -1;
}

int ProposalsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProposalsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProposalsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const sites::ConfigChange &c = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return c.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Title:
        return c.title;
    case Site: {
        const auto site = m_sites.findSite(c.siteId);
        return site ? site->name : c.siteId;
    }
    case Status:
        return c.status;
    case Author:
        return c.author;
    case Proposed:
        return QLocale().toString(QDateTime::fromMSecsSinceEpoch(c.createdAt),
                                  QLocale::ShortFormat);
    default:
        return {};
    }
}

QVariant ProposalsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Title:
        return tr("Proposal");
    case Site:
        return tr("Site");
    case Status:
        return tr("Status");
    case Author:
        return tr("Proposed by");
    case Proposed:
        return tr("When");
    default:
        return {};
    }
}

void ProposalsModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void ProposalsModel::onStoreChanged(const QString &table, const QString &id)
{
    if (table != QLatin1String("config_changes"))
        return;
    const auto fresh = m_changes.find(id);
    const int row = rowOf(id);
    const bool fits = fresh && (m_status.isEmpty() || fresh->status == m_status);
    if (row >= 0) {
        if (!fits) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
            return;
        }
        m_rows[row] = *fresh;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    } else if (fits) {
        beginInsertRows({}, 0, 0);
        m_rows.prepend(*fresh);
        endInsertRows();
    }
}

} // namespace ph::ui
