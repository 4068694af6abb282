#pragma once

#include "webhooks/WebhookQueue.h"

#include "common/RowTableModel.h"

namespace ph::ui {

// Every callback delivery, newest first, a page at a time; live through the queue's
// deliveryChanged signal (a changed delivery updates its row, a new one appears on top).
class DeliveriesModel : public RowTableModel<webhooks::DeliveryRecord>
{
    Q_OBJECT
public:
    enum Column { Event, Target, Status, Attempts, LastStatus, NextAttempt, Created, ColumnCount };
    static constexpr int kPageSize = 200;

    explicit DeliveriesModel(webhooks::WebhookQueue &queue, QObject *parent = nullptr);

    void setStatusFilter(const QString &status); // "", pending, delivered, failed

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
    void onChanged(const QString &id);

    webhooks::WebhookQueue &m_queue;
    QString m_status;
    bool m_exhausted = false;
};

} // namespace ph::ui
