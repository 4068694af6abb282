#pragma once

#include "cloud/LibraryRepository.h"

#include <QAbstractTableModel>

namespace ph {
class Store;
}

namespace ph::ui {

// One API key's saved tools (GET /tools for that key), by name. Store::changed
// ("saved_tools") keeps it live: rows are inserted, updated and removed where they
// changed, never reset.
class ToolsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Kind, Description, Parameters, Updated, ColumnCount };

    ToolsModel(cloud::LibraryRepository &library, Store &store, QString keyId,
               QObject *parent = nullptr);

    // Whose tools are listed; another key lists its own (a reset).
    void setKeyId(const QString &keyId);
    QString keyId() const { return m_keyId; }

    const cloud::SavedTool &rowAt(const QModelIndex &index) const;
    int rowOf(const QString &name) const;

    // Brings the rows in line with the store (targeted inserts, updates, removals).
    void refresh();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void retranslate();

private:
    cloud::LibraryRepository &m_library;
    QString m_keyId;
    QList<cloud::SavedTool> m_rows;
};

} // namespace ph::ui
