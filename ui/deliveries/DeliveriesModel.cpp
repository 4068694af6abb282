#include "DeliveriesModel.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>

namespace ph::ui {

namespace {
QString when(qint64 ms)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat);
}
} // namespace

DeliveriesModel::DeliveriesModel(webhooks::WebhookQueue &queue, QObject *parent)
    : QAbstractTableModel(parent)
    , m_queue(queue)
{
    connect(&m_queue, &webhooks::WebhookQueue::deliveryChanged, this, &DeliveriesModel::onChanged);
    m_rows = m_queue.list(QString(), m_status, kPageSize, QString());
    m_exhausted = m_rows.size() < kPageSize;
}

void DeliveriesModel::setStatusFilter(const QString &status)
{
    beginResetModel();
    m_status = status;
    m_rows = m_queue.list(QString(), m_status, kPageSize, QString());
    m_exhausted = m_rows.size() < kPageSize;
    endResetModel();
}

const webhooks::DeliveryRecord &DeliveriesModel::rowAt(const QModelIndex &index) const
{
    return m_rows.at(index.row());
}

int DeliveriesModel::rowOf(const QString &id) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return i;
    }
    return -1;
}

int DeliveriesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DeliveriesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeliveriesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const webhooks::DeliveryRecord &d = m_rows.at(index.row());
    if (role == Qt::UserRole || role == Qt::ToolTipRole)
        return d.id;
    if (role == Qt::ForegroundRole && index.column() == Status &&
        d.status == QLatin1String("failed"))
        return QColor(0xc0, 0x39, 0x2b);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Event:
        return d.event;
    case Target:
        return d.url;
    case Status:
        return d.status;
    case Attempts:
        return d.attempts;
    case LastStatus:
        return d.lastStatus > 0 ? QString::number(d.lastStatus) : d.lastError.left(80);
    case NextAttempt:
        return d.nextAttemptAt && d.status == QLatin1String("pending") ? when(*d.nextAttemptAt)
                                                                       : QString();
    case Created:
        return when(d.createdAt);
    default:
        return {};
    }
}

QVariant DeliveriesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Event:
        return tr("Event");
    case Target:
        return tr("Target");
    case Status:
        return tr("Status");
    case Attempts:
        return tr("Attempts");
    case LastStatus:
        return tr("Last answer");
    case NextAttempt:
        return tr("Next attempt");
    case Created:
        return tr("Created");
    default:
        return {};
    }
}

bool DeliveriesModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_exhausted;
}

void DeliveriesModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_exhausted || m_rows.isEmpty())
        return;
    const auto more = m_queue.list(QString(), m_status, kPageSize, m_rows.last().id);
    m_exhausted = more.size() < kPageSize;
    if (more.isEmpty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + more.size() - 1));
    m_rows.append(more);
    endInsertRows();
}

void DeliveriesModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void DeliveriesModel::onChanged(const QString &id)
{
    const auto fresh = m_queue.find(id, false);
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
        return;
    }
    if (fits) {
        beginInsertRows({}, 0, 0);
        m_rows.prepend(*fresh);
        endInsertRows();
    }
}

} // namespace ph::ui
