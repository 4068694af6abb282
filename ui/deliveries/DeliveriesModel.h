#pragma once

#include "webhooks/WebhookQueue.h"

#include <QAbstractTableModel>

namespace ph::ui {

// Every callback delivery, newest first, a page at a time; live through the queue's
// deliveryChanged signal (a changed delivery updates its row, a new one appears on top).
class DeliveriesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Event, Target, Status, Attempts, LastStatus, NextAttempt, Created, ColumnCount };
    static constexpr int kPageSize = 200;

    explicit DeliveriesModel(webhooks::WebhookQueue &queue, QObject *parent = nullptr);

    void setStatusFilter(const QString &status); // "", pending, delivered, failed
    const webhooks::DeliveryRecord &rowAt(const QModelIndex &index) const;
    int rowOf(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    void retranslate();

private:
    void onChanged(const QString &id);

    webhooks::WebhookQueue &m_queue;
    QList<webhooks::DeliveryRecord> m_rows;
    QString m_status;
    bool m_exhausted = false;
};

} // namespace ph::ui
