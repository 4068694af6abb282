#pragma once

#include "common/ConsoleServices.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QTimer;

namespace ph::ui {

// Live visitor sessions of the embedded runtime: their tabs, active run and last event,
// re-read when RuntimeService says a session or a visitor's run changed; the operator
// ends the selected session's run.
class VisitorSessionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit VisitorSessionsPanel(const ConsoleServices &services, QWidget *parent = nullptr);

    QTableWidget *view() const { return m_visitors; }
    QPushButton *endRunButton() const { return m_endRun; }
    void refresh();

Q_SIGNALS:
    // The operator selected a session (show its events).
    void sessionChosen(const QString &sessionId);
    // What went wrong with the operator's last action (empty: nothing, clear it).
    void error(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void endRun();

    ConsoleServices m_services;
    QLabel *m_heading;
    QTableWidget *m_visitors;
    QPushButton *m_endRun;
    QTimer *m_timer;
};

} // namespace ph::ui
