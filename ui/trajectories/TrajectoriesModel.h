#pragma once

#include "engine/TrajectoryRepository.h"

#include "common/RowTableModel.h"

namespace ph {
class Clock;
}

namespace ph::ui {

// Every run (trajectory), newest activity first, fetched a page at a time as the view
// scrolls. TrajectoryRepository::trajectoryChanged keeps it live: a changed run updates its row, a
// new one that matches the filter appears on top. No reload on change.
class TrajectoriesModel : public RowTableModel<engine::TrajectoryRow>
{
    Q_OBJECT
public:
    enum Column { Status, Task, Started, Duration, Credits, Tools, ColumnCount };
    static constexpr int kPageSize = 200;

    TrajectoriesModel(engine::TrajectoryRepository &trajectories, const Clock &clock,
                      QObject *parent = nullptr);

    // Status ("" for all) and text (task or id); reloads from the first page.
    void setFilter(const QString &status, const QString &text);
    QString statusFilter() const { return m_status; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    // Header texts follow the language.

private:
    void onTrajectoryChanged(const QString &id);
    bool matches(const engine::TrajectoryRow &row) const;

    engine::TrajectoryRepository &m_trajectories;
    const Clock &m_clock;
    QString m_status;
    QString m_text;
    bool m_exhausted = false;
};

} // namespace ph::ui
