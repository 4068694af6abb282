#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTableWidget;

namespace ph::ui {

class A2wRunsModel;
class A2wRunsPanel;
class DelegationsPanel;
class VisitorSessionsPanel;

// The A2W dock: three panels one above the other. The runs of visiting agents with the
// selected run's live events (A2wRunsPanel), the delegated sessions they act under
// (DelegationsPanel) and the embedded runtime's visitor sessions (VisitorSessionsPanel).
// A visitor session chosen below shows its events in the runs panel's detail; the
// panels' errors show in its error line.
class A2wRunsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit A2wRunsDock(const ConsoleServices &services, QWidget *parent = nullptr);

    A2wRunsPanel *runsPanel() const { return m_runs; }
    DelegationsPanel *delegationsPanel() const { return m_delegations; }
    VisitorSessionsPanel *visitorSessionsPanel() const { return m_visitors; }

    A2wRunsModel *model() const;
    QTableView *view() const;
    QPlainTextEdit *eventsView() const;
    QLineEdit *answerEdit() const;
    QPushButton *answerButton() const;
    QPushButton *cancelButton() const;
    QPushButton *confirmButton() const;
    QPushButton *browserButton() const;
    QComboBox *siteFilter() const;
    QComboBox *statusFilter() const;
    QTableWidget *delegationsView() const;
    QPushButton *revokeButton() const;
    QTableWidget *visitorSessionsView() const;
    QPushButton *endRunButton() const;
    bool select(const QString &runId);

Q_SIGNALS:
    // The operator asked for the live browser views (the run's page is among them).
    void browserViewRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    A2wRunsPanel *m_runs;
    DelegationsPanel *m_delegations;
    VisitorSessionsPanel *m_visitors;
};

} // namespace ph::ui
