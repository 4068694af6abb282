#include "ProposalsModel.h"
#include "common/DateText.h"

#include "sites/SiteRepository.h"

#include <QDateTime>
#include <QLocale>

namespace ph::ui {

ProposalsModel::ProposalsModel(sites::ChangeRepository &changes, sites::SiteRepository &sites,
                               QObject *parent)
    : RowTableModel(
          ColumnCount, [](const sites::ConfigChange &r) { return r.id; }, parent)
    , m_changes(changes)
    , m_sites(sites)
{
    m_rows = m_changes.recent(m_status, kLimit);
    connect(&m_changes, &sites::ChangeRepository::proposalChanged, this,
            &ProposalsModel::onProposalChanged);
}

void ProposalsModel::setStatusFilter(const QString &status)
{
    m_status = status;
    resetRows(m_changes.recent(m_status, kLimit));
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
        return dateCell(c.createdAt, role);
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

void ProposalsModel::onProposalChanged(const QString &id)
{
    const auto fresh = m_changes.find(id);
    place(id, fresh, fresh && (m_status.isEmpty() || fresh->status == m_status));
}

} // namespace ph::ui
