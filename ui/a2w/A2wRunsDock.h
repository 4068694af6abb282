#pragma once

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTableWidget;
class QTimer;

namespace ph {
class Service;
namespace a2w {
struct Event;
}
} // namespace ph

namespace ph::ui {

class A2wRunsModel;

// A2W runs of visiting agents: by site, agent, status and execution mode; the selected
// run's live events; answer its questions, cancel it, or show the live browser views.
class A2wRunsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit A2wRunsDock(Service &service, QWidget *parent = nullptr);

    A2wRunsModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QPlainTextEdit *eventsView() const { return m_events; }
    QLineEdit *answerEdit() const { return m_answer; }
    QPushButton *answerButton() const { return m_send; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *confirmButton() const { return m_confirm; }
    QPushButton *browserButton() const { return m_browser; }
    QComboBox *siteFilter() const { return m_site; }
    QComboBox *statusFilter() const { return m_status; }
    // Delegated sessions visiting agents act under: listed with their scope and spend;
    // the operator revokes the selected one.
    QTableWidget *delegationsView() const { return m_delegations; }
    QPushButton *revokeButton() const { return m_revoke; }
    // Live visitor sessions of the embedded runtime: their tabs, active run and last
    // event; the operator ends the selected session's run.
    QTableWidget *visitorSessionsView() const { return m_visitors; }
    QPushButton *endRunButton() const { return m_endRun; }
    bool select(const QString &runId);

Q_SIGNALS:
    // The operator asked for the live browser views (the run's page is among them).
    void browserViewRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showCurrent();
    void appendEvent(const a2w::Event &event);
    void applyFilter();
    void refreshSites();
    void refreshDelegations();
    void refreshVisitors();
    void showVisitor(const QString &sessionId);

    Service &m_service;
    A2wRunsModel *m_model;
    QComboBox *m_site;
    QComboBox *m_status;
    QTableView *m_view;
    QLabel *m_heading;
    QPlainTextEdit *m_events;
    QLabel *m_question;
    QLineEdit *m_answer;
    QPushButton *m_send;
    QPushButton *m_cancel;
    QPushButton *m_confirm;
    QPushButton *m_browser;
    QLabel *m_error;
    QLabel *m_delegationsHeading;
    QTableWidget *m_delegations;
    QPushButton *m_revoke;
    QLabel *m_visitorsHeading;
    QTableWidget *m_visitors;
    QPushButton *m_endRun;
    QTimer *m_visitorsTimer;
    QString m_current;
};

} // namespace ph::ui
