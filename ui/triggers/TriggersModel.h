#pragma once

#include "cloud/LibraryRepository.h"

#include <QAbstractTableModel>

namespace ph {
class Store;
}

namespace ph::ui {

// Every trigger URL (all keys), newest first; live through Store::changed("triggers").
class TriggersModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Label, Target, Active, Fired, LastFired, Url, ColumnCount };

    TriggersModel(cloud::LibraryRepository &library, Store &store, QString baseUrl,
                  QObject *parent = nullptr);

    const cloud::Trigger &rowAt(const QModelIndex &index) const;
    int rowOf(const QString &id) const;
    QString urlOf(const cloud::Trigger &trigger) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void retranslate();

private:
    void onStoreChanged(const QString &table, const QString &id);

    cloud::LibraryRepository &m_library;
    QString m_baseUrl;
    QList<cloud::Trigger> m_rows;
};

} // namespace ph::ui
