#pragma once

#include "sites/ChangeRepository.h"

#include "common/RowTableModel.h"

namespace ph::sites {
class SiteRepository;
}

namespace ph::ui {

// Configuration proposals of every site, newest first, filtered by status; live through
// ChangeRepository::proposalChanged (the console, the API or the configuration MCP).
class ProposalsModel : public RowTableModel<sites::ConfigChange>
{
    Q_OBJECT
public:
    enum Column { Title, Site, Status, Author, Proposed, ColumnCount };
    static constexpr int kLimit = 1000;

    ProposalsModel(sites::ChangeRepository &changes, sites::SiteRepository &sites,
                   QObject *parent = nullptr);

    void setStatusFilter(const QString &status);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void onProposalChanged(const QString &id);

    sites::ChangeRepository &m_changes;
    sites::SiteRepository &m_sites;
    QString m_status = QStringLiteral("pending");
};

} // namespace ph::ui
