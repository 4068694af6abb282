#pragma once

#include "common/ConsoleServices.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace ph {
namespace a2w {
struct Event;
}
} // namespace ph

namespace ph::ui {

class A2wRunsModel;

// A2W runs of visiting agents, by site, agent, status and execution mode (live through
// A2wService::runChanged and eventAdded); the selected run's live events; answer its
// questions, confirm or cancel it. Also shows a visitor session's events when one is
// chosen in the visitor sessions panel.
class A2wRunsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit A2wRunsPanel(const ConsoleServices &services, QWidget *parent = nullptr);

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
    bool select(const QString &runId);
    void showVisitor(const QString &sessionId);
    // The last action's error (empty clears it), of this panel or its neighbours.
    void showError(const QString &message);

Q_SIGNALS:
    void browserViewRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    QWidget *makeFilterBar();
    QWidget *makeDetail(QWidget *parent);
    void connectActions();
    void retranslateUi();
    void showCurrent();
    void appendEvent(const a2w::Event &event);
    void applyFilter();
    void refreshSites();
    void answer();
    // Runs `action` on the service; a DomainError shows in the error line.
    template <typename Action> void act(Action action);

    ConsoleServices m_services;
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
    QString m_current;
};

} // namespace ph::ui
