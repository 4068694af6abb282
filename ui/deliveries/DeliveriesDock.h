#pragma once

#include <QDockWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTableWidget;

namespace ph {
class Service;
}

namespace ph::ui {

class DeliveriesModel;

// Callback deliveries: event, target, attempts, next attempt; filter failed ones; the
// selected delivery's attempts (time, status, latency, reply, error); redeliver it, or
// every failed one.
class DeliveriesDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit DeliveriesDock(Service &service, QWidget *parent = nullptr);

    DeliveriesModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QTableWidget *attemptsTable() const { return m_attempts; }
    QPushButton *redeliverButton() const { return m_redeliver; }
    QPushButton *redeliverFailedButton() const { return m_redeliverFailed; }
    QComboBox *statusFilter() const { return m_filter; }
    bool select(const QString &deliveryId);
    // Lists the deliveries with `status` (pending, delivered, failed; "" for all): the
    // Overview's deliveries chart opens the panel this way.
    void filterByStatus(const QString &status);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showCurrent();

    Service &m_service;
    DeliveriesModel *m_model;
    QComboBox *m_filter;
    QTableView *m_view;
    QLabel *m_heading;
    QTableWidget *m_attempts;
    QPushButton *m_redeliver;
    QPushButton *m_redeliverFailed;
    QString m_current;
};

} // namespace ph::ui
