#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTableWidget;

namespace ph {}

namespace ph::webhooks {
struct DeliveryRecord;
struct AttemptRecord;
} // namespace ph::webhooks

namespace ph::ui {

class DeliveriesModel;
class EmptyState;
class JsonView;

// Callback deliveries: event, target, attempts, next attempt; filter failed ones; the
// selected delivery's attempts (time, status, latency, reply, error) and, for the
// selected attempt, the request sent (headers, JSON body) and the receiver's answer
// (status, headers, body); redeliver it, or every failed one; copy it as a curl command.
class DeliveriesDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit DeliveriesDock(const ConsoleServices &services, QWidget *parent = nullptr);
    ~DeliveriesDock() override;

    DeliveriesModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QTableWidget *attemptsTable() const { return m_attempts; }
    QPushButton *redeliverButton() const { return m_redeliver; }
    QPushButton *redeliverFailedButton() const { return m_redeliverFailed; }
    QPushButton *copyCurlButton() const { return m_copyCurl; }
    QComboBox *statusFilter() const { return m_filter; }
    // The selected attempt's request headers, request body and the receiver's answer.
    QPlainTextEdit *requestHeadersView() const { return m_requestHeaders; }
    JsonView *requestBodyView() const { return m_requestBody; }
    QPlainTextEdit *answerView() const { return m_answer; }
    EmptyState *emptyState() const { return m_empty; }
    bool select(const QString &deliveryId);
    // Shows attempt `row` of the attempts table (the newest is shown by default).
    void selectAttempt(int row);

    // The webhook POST of `attempt` (headers as logged, the delivery's body) as curl.
    static QString curlCommand(const webhooks::DeliveryRecord &delivery,
                               const webhooks::AttemptRecord *attempt);
    QString currentCurl() const;

    // Lists the deliveries with `status` (pending, delivered, failed; "" for all): the
    // Overview's deliveries chart opens the panel this way.
    void filterByStatus(const QString &status);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void connectActions();
    void makeDetail(QWidget *split);
    void showCurrent();
    void showAttempt();
    void copyCurl();

    ConsoleServices m_services;
    DeliveriesModel *m_model;
    QComboBox *m_filter;
    QTableView *m_view;
    QLabel *m_heading;
    QTableWidget *m_attempts;
    QPlainTextEdit *m_requestHeaders;
    JsonView *m_requestBody;
    QPlainTextEdit *m_answer;
    QLabel *m_requestCaption;
    QLabel *m_answerCaption;
    QPushButton *m_redeliver;
    QPushButton *m_redeliverFailed;
    QPushButton *m_copyCurl;
    EmptyState *m_empty;
    QString m_current;
    std::unique_ptr<webhooks::DeliveryRecord> m_shown; // m_current as last read
    int m_attemptRow = -1;
};

} // namespace ph::ui
