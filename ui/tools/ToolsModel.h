#pragma once

#include "cloud/LibraryRepository.h"

#include "common/RowTableModel.h"

namespace ph::ui {

// One API key's saved tools (GET /tools for that key), by name.
// LibraryRepository::toolsChanged keeps it live: rows are inserted, updated and removed where they
// changed, never reset.
class ToolsModel : public RowTableModel<cloud::SavedTool>
{
    Q_OBJECT
public:
    enum Column { Name, Kind, Description, Parameters, Updated, ColumnCount };

    ToolsModel(cloud::LibraryRepository &library, QString keyId, QObject *parent = nullptr);

    // Whose tools are listed; another key lists its own (a reset).
    void setKeyId(const QString &keyId);
    QString keyId() const { return m_keyId; }

    // Brings the rows in line with the store (targeted inserts, updates, removals).
    void refresh();

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    cloud::LibraryRepository &m_library;
    QString m_keyId;
};

} // namespace ph::ui
