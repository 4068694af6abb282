#include "TrajectoriesModel.h"
#include "common/DateText.h"

#include "core/Clock.h"

#include <QDateTime>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

namespace ph::ui {

namespace {
QString duration(qint64 ms)
{
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60000)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    return QStringLiteral("%1 min %2 s").arg(ms / 60000).arg((ms / 1000) % 60);
}
} // namespace

TrajectoriesModel::TrajectoriesModel(engine::TrajectoryRepository &trajectories, const Clock &clock,
                                     QObject *parent)
    : RowTableModel(
          ColumnCount, [](const engine::TrajectoryRow &r) { return r.id; }, parent)
    , m_trajectories(trajectories)
    , m_clock(clock)
{
    connect(&m_trajectories, &engine::TrajectoryRepository::trajectoryChanged, this,
            &TrajectoriesModel::onTrajectoryChanged);
    m_rows = m_trajectories.list(QString(), m_status, kPageSize, 0, m_text);
    m_exhausted = m_rows.size() < kPageSize;
}

void TrajectoriesModel::setFilter(const QString &status, const QString &text)
{
    m_status = status;
    m_text = text.trimmed();
    resetRows(m_trajectories.list(QString(), m_status, kPageSize, 0, m_text));
    m_exhausted = m_rows.size() < kPageSize;
}

QVariant TrajectoriesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const engine::TrajectoryRow &r = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return r.id;
    if (role == Qt::ToolTipRole)
        return index.column() == Started ? QVariant(fullDateTime(r.createdAt)) : QVariant(r.id);
    if (role == Qt::ForegroundRole && index.column() == Status) {
        if (r.status == QLatin1String("error"))
            return QColor(0xc0, 0x39, 0x2b);
        if (r.status == QLatin1String("requires_input"))
            return QColor(0xd3, 0x84, 0x00);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Status:
        return r.status;
    case Task:
        return r.task.simplified().left(200);
    case Started:
        return shortDateTime(r.createdAt);
    case Duration: {
        const bool running = r.status == QLatin1String("executing");
        return duration((running ? m_clock.nowMs() : r.updatedAt) - r.createdAt);
    }
    case Credits:
        return QString::number(r.creditsMilli / 1000.0, 'f', 3);
    case Tools:
        return r.toolsUsed.join(QStringLiteral(", "));
    default:
        return {};
    }
}

QVariant TrajectoriesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Status:
        return tr("Status");
    case Task:
        return tr("Task");
    case Started:
        return tr("Started");
    case Duration:
        return tr("Duration");
    case Credits:
        return tr("Credits");
    case Tools:
        return tr("Tools used");
    default:
        return {};
    }
}

bool TrajectoriesModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_exhausted;
}

void TrajectoriesModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_exhausted)
        return;
    const QList<engine::TrajectoryRow> more =
        m_trajectories.list(QString(), m_status, kPageSize, int(m_rows.size()), m_text);
    m_exhausted = more.size() < kPageSize;
    appendRows(more);
}

bool TrajectoriesModel::matches(const engine::TrajectoryRow &row) const
{
    if (!m_status.isEmpty() && row.status != m_status)
        return false;
    return m_text.isEmpty() || row.task.contains(m_text, Qt::CaseInsensitive) ||
           row.id.contains(m_text, Qt::CaseInsensitive);
}

void TrajectoriesModel::onTrajectoryChanged(const QString &id)
{
    const auto fresh = m_trajectories.find(id);
    place(id, fresh, fresh && matches(*fresh));
}

} // namespace ph::ui
