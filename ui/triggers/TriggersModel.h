#pragma once

#include "cloud/LibraryRepository.h"

#include "common/RowTableModel.h"

namespace ph::ui {

// Every trigger URL (all keys), newest first; live through
// LibraryRepository::triggerChanged (the console or the API).
class TriggersModel : public RowTableModel<cloud::Trigger>
{
    Q_OBJECT
public:
    enum Column { Label, Target, Active, Fired, LastFired, Url, ColumnCount };

    TriggersModel(cloud::LibraryRepository &library, QString baseUrl, QObject *parent = nullptr);

    QString urlOf(const cloud::Trigger &trigger) const;

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void onTriggerChanged(const QString &id);

    cloud::LibraryRepository &m_library;
    QString m_baseUrl;
};

} // namespace ph::ui
