#pragma once

#include "a2w/A2wRepository.h"

#include "common/RowTableModel.h"

namespace ph::a2w {
class A2wService;
}

namespace ph::ui {

// A2W runs, newest first, live through A2wService::runChanged; filtered by site and
// status.
class A2wRunsModel : public RowTableModel<a2w::Run>
{
    Q_OBJECT
public:
    enum Column { Site, Agent, Status, Execution, Task, Created, ColumnCount };

    explicit A2wRunsModel(a2w::A2wService &service, QObject *parent = nullptr);

    void setFilter(const QString &host, const QString &status);
    QStringList hosts() const; // every site host seen, for the filter

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // A waiting run's status with what the page asks of a person (a gate reason).
    QString personStatus(const QString &status, const QString &reason) const;
    void onChanged(const QString &runId);
    bool belongs(const a2w::Run &run) const;
    void reload();

    a2w::A2wService &m_service;
    QString m_host;
    QString m_status;
};

} // namespace ph::ui
