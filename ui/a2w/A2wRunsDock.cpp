#include "A2wRunsDock.h"

#include "A2wRunsPanel.h"
#include "DelegationsPanel.h"
#include "VisitorSessionsPanel.h"

#include <QEvent>
#include <QSplitter>
#include <QVBoxLayout>

namespace ph::ui {

A2wRunsDock::A2wRunsDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
{
    setObjectName(QStringLiteral("a2wRunsDock"));
    auto *split = new QSplitter(Qt::Vertical, this);
    m_runs = new A2wRunsPanel(services, split);
    auto *sessions = new QWidget(split);
    auto *s = new QVBoxLayout(sessions);
    s->setContentsMargins(0, 0, 0, 0);
    m_delegations = new DelegationsPanel(services, sessions);
    m_visitors = new VisitorSessionsPanel(services, sessions);
    s->addWidget(m_delegations, 1);
    s->addWidget(m_visitors, 1);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    setWidget(split);

    connect(m_runs, &A2wRunsPanel::browserViewRequested, this, &A2wRunsDock::browserViewRequested);
    connect(m_delegations, &DelegationsPanel::error, m_runs, &A2wRunsPanel::showError);
    connect(m_visitors, &VisitorSessionsPanel::error, m_runs, &A2wRunsPanel::showError);
    connect(m_visitors, &VisitorSessionsPanel::sessionChosen, m_runs, &A2wRunsPanel::showVisitor);
    retranslateUi();
}

A2wRunsModel *A2wRunsDock::model() const
{
    return m_runs->model();
}
QTableView *A2wRunsDock::view() const
{
    return m_runs->view();
}
QPlainTextEdit *A2wRunsDock::eventsView() const
{
    return m_runs->eventsView();
}
QLineEdit *A2wRunsDock::answerEdit() const
{
    return m_runs->answerEdit();
}
QPushButton *A2wRunsDock::answerButton() const
{
    return m_runs->answerButton();
}
QPushButton *A2wRunsDock::cancelButton() const
{
    return m_runs->cancelButton();
}
QPushButton *A2wRunsDock::confirmButton() const
{
    return m_runs->confirmButton();
}
QPushButton *A2wRunsDock::browserButton() const
{
    return m_runs->browserButton();
}
QComboBox *A2wRunsDock::siteFilter() const
{
    return m_runs->siteFilter();
}
QComboBox *A2wRunsDock::statusFilter() const
{
    return m_runs->statusFilter();
}
QTableWidget *A2wRunsDock::delegationsView() const
{
    return m_delegations->view();
}
QPushButton *A2wRunsDock::revokeButton() const
{
    return m_delegations->revokeButton();
}
QTableWidget *A2wRunsDock::visitorSessionsView() const
{
    return m_visitors->view();
}
QPushButton *A2wRunsDock::endRunButton() const
{
    return m_visitors->endRunButton();
}

bool A2wRunsDock::select(const QString &runId)
{
    return m_runs->select(runId);
}

void A2wRunsDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void A2wRunsDock::retranslateUi()
{
    setWindowTitle(tr("A2W runs"));
}

} // namespace ph::ui
