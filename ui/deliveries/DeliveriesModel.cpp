#include "DeliveriesModel.h"

#include "common/DateText.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>

namespace ph::ui {

DeliveriesModel::DeliveriesModel(webhooks::WebhookQueue &queue, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const webhooks::DeliveryRecord &r) { return r.id; }, parent)
    , m_queue(queue)
{
    connect(&m_queue, &webhooks::WebhookQueue::deliveryChanged, this, &DeliveriesModel::onChanged);
    m_rows = m_queue.list(QString(), m_status, kPageSize, QString());
    m_exhausted = m_rows.size() < kPageSize;
}

void DeliveriesModel::setStatusFilter(const QString &status)
{
    m_status = status;
    resetRows(m_queue.list(QString(), m_status, kPageSize, QString()));
    m_exhausted = m_rows.size() < kPageSize;
}

QVariant DeliveriesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const webhooks::DeliveryRecord &d = m_rows.at(index.row());
    if (role == Qt::ToolTipRole && index.column() == Created)
        return fullDateTime(d.createdAt);
    if (role == Qt::ToolTipRole && index.column() == NextAttempt && d.nextAttemptAt)
        return fullDateTime(*d.nextAttemptAt);
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
        return d.nextAttemptAt && d.status == QLatin1String("pending")
                   ? shortDateTime(*d.nextAttemptAt)
                   : QString();
    case Created:
        return shortDateTime(d.createdAt);
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
    appendRows(more);
}

void DeliveriesModel::onChanged(const QString &id)
{
    const auto fresh = m_queue.find(id, false);
    place(id, fresh, fresh && (m_status.isEmpty() || fresh->status == m_status));
}

} // namespace ph::ui
