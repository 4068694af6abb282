#include "A2wRunsPanel.h"

#include "A2wRunsModel.h"
#include "common/DateText.h"
#include "common/EmptyState.h"
#include "common/Icons.h"
#include "common/TableViews.h"

#include "a2w/A2wService.h"
#include "a2w/ParkedRuns.h"
#include "core/DomainError.h"
#include "runtime/RuntimeService.h"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const char *const kStatuses[] = {"",        "pending",        "waiting_browser",
                                 "running", "input_required", "completed",
                                 "failed",  "cancelled",      "expired"};
} // namespace

A2wRunsPanel::A2wRunsPanel(const ConsoleServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
{
    m_model = new A2wRunsModel(services.a2w, this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(makeFilterBar());
    auto *split = new QSplitter(Qt::Vertical, this);
    m_view = makeTableView(m_model, A2wRunsModel::Task, split);
    new EmptyState(m_view);
    makeDetail(split);
    layout->addWidget(split, 1);
    connectActions();
    refreshSites();
    retranslateUi();
    showCurrent();
}

QWidget *A2wRunsPanel::makeFilterBar()
{
    auto *barWidget = new QWidget(this);
    auto *bar = new QHBoxLayout(barWidget);
    bar->setContentsMargins(0, 0, 0, 0);
    m_site = new QComboBox(barWidget);
    m_site->addItem(QString(), QString());
    m_status = new QComboBox(barWidget);
    for (const char *s : kStatuses)
        m_status->addItem(QString(), QLatin1String(s));
    bar->addWidget(m_site);
    bar->addWidget(m_status);
    bar->addStretch(1);
    return barWidget;
}

QWidget *A2wRunsPanel::makeDetail(QWidget *parent)
{
    auto *detail = new QWidget(parent);
    auto *d = new QVBoxLayout(detail);
    d->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(detail);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heading->setWordWrap(true);
    d->addWidget(m_heading);
    m_events = new QPlainTextEdit(detail);
    m_events->setReadOnly(true);
    m_events->setMaximumBlockCount(5000);
    d->addWidget(m_events, 1);
    m_question = new QLabel(detail);
    m_question->setWordWrap(true);
    d->addWidget(m_question);
    auto *actions = new QHBoxLayout;
    m_answer = new QLineEdit(detail);
    m_send = new QPushButton(icon(Icon::Send), QString(), detail);
    m_cancel = new QPushButton(icon(Icon::Stop), QString(), detail);
    m_confirm = new QPushButton(icon(Icon::Apply), QString(), detail);
    m_browser = new QPushButton(icon(Icon::Open), QString(), detail);
    actions->addWidget(m_answer, 1);
    actions->addWidget(m_send);
    actions->addWidget(m_confirm);
    actions->addWidget(m_cancel);
    actions->addWidget(m_browser);
    d->addLayout(actions);
    m_error = new QLabel(detail);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    d->addWidget(m_error);
    return detail;
}

template <typename Action> void A2wRunsPanel::act(Action action)
{
    m_error->clear();
    try {
        action();
    } catch (const DomainError &e) {
        m_error->setText(e.message());
    }
}

void A2wRunsPanel::answer()
{
    act([this] {
        a2w::ContinueRequest request;
        request.input = m_answer->text();
        m_services.a2w.answer(m_current, request);
        m_answer->clear();
    });
}

void A2wRunsPanel::connectActions()
{
    connect(m_site, &QComboBox::currentIndexChanged, this, &A2wRunsPanel::applyFilter);
    connect(m_status, &QComboBox::currentIndexChanged, this, &A2wRunsPanel::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).id : QString();
                showCurrent();
            });
    connect(&m_services.a2w, &a2w::A2wService::eventAdded, this,
            [this](const QString &runId, const a2w::Event &event) {
                if (runId == m_current)
                    appendEvent(event);
            });
    connect(&m_services.a2w, &a2w::A2wService::runChanged, this, [this](const QString &runId) {
        if (runId == m_current)
            showCurrent();
        if (m_site->findData(m_services.a2w.find(runId).value_or(a2w::Run()).host) < 0)
            refreshSites();
    });
    connect(m_send, &QPushButton::clicked, this, &A2wRunsPanel::answer);
    connect(m_answer, &QLineEdit::returnPressed, this, &A2wRunsPanel::answer);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        act([this] { m_services.a2w.cancel(m_current, tr("cancelled by the operator")); });
    });
    connect(m_confirm, &QPushButton::clicked, this,
            [this] { act([this] { m_services.a2w.confirmAsOperator(m_current, true); }); });
    connect(m_browser, &QPushButton::clicked, this, &A2wRunsPanel::browserViewRequested);
}

void A2wRunsPanel::showError(const QString &message)
{
    m_error->setText(message);
}

void A2wRunsPanel::refreshSites()
{
    const QString chosen = m_site->currentData().toString();
    const QSignalBlocker block(m_site);
    while (m_site->count() > 1)
        m_site->removeItem(1);
    for (const QString &host : m_model->hosts())
        m_site->addItem(host, host);
    m_site->setCurrentIndex(std::max(0, m_site->findData(chosen)));
}

void A2wRunsPanel::showVisitor(const QString &sessionId)
{
    runtime::RuntimeService &rt = m_services.runtime;
    const auto session = rt.session(sessionId);
    if (!session)
        return;
    m_heading->setText(tr("Visitor session %1 on %2").arg(session->id, session->host));
    m_events->clear();
    for (const runtime::Event &e :
         rt.repository().eventsAfter(sessionId, qMax<qint64>(0, session->seq - 100), 100))
        m_events->appendPlainText(QStringLiteral("%1  %2  %3")
                                      .arg(e.seq)
                                      .arg(e.type, QString::fromUtf8(QJsonDocument(e.data).toJson(
                                                       QJsonDocument::Compact))));
}

void A2wRunsPanel::applyFilter()
{
    m_model->setFilter(m_site->currentData().toString(), m_status->currentData().toString());
}

bool A2wRunsPanel::select(const QString &runId)
{
    const int row = m_model->rowOf(runId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    return true;
}

void A2wRunsPanel::appendEvent(const a2w::Event &e)
{
    m_events->appendPlainText(
        QStringLiteral("%1  %2  %3")
            .arg(
                QDateTime::fromMSecsSinceEpoch(e.at).toString(QStringLiteral("HH:mm:ss")), e.type,
                QString::fromUtf8(QJsonDocument(e.data).toJson(QJsonDocument::Compact)).left(400)));
}

void A2wRunsPanel::showCurrent()
{
    const auto run = m_current.isEmpty() ? std::nullopt : m_services.a2w.find(m_current);
    const bool waiting = run && run->status == a2w::Status::inputRequired &&
                         run->input.value(QStringLiteral("reason")).toString() ==
                             QLatin1String("clarification_required");
    m_cancel->setEnabled(run && !a2w::Status::isTerminal(run->status));
    // An action to confirm, or what a page asked of a person (their "Done").
    const QString reason = run ? run->input.value(QStringLiteral("reason")).toString() : QString();
    m_confirm->setEnabled(run && run->status == a2w::Status::inputRequired &&
                          (reason == QLatin1String("action_confirmation_required") ||
                           a2w::ParkedRuns::gateReasons().contains(reason)));
    m_answer->setEnabled(waiting);
    m_send->setEnabled(waiting);
    m_browser->setEnabled(run && run->status == a2w::Status::running);
    m_events->clear();
    if (!run) {
        m_heading->setText(tr("Select a run to follow its events."));
        m_question->clear();
        return;
    }
    m_heading->setText(tr("<b>%1</b> on %2 — %3, %4 execution")
                           .arg(run->id, run->url.toHtmlEscaped(), run->status, run->execution));
    QStringList questions;
    for (const QJsonValue &q : run->input.value(QStringLiteral("questions")).toArray())
        questions << q.toObject().value(QStringLiteral("question")).toString();
    m_question->setText(run->status != a2w::Status::inputRequired ? run->error
                        : questions.isEmpty()
                            ? run->input.value(QStringLiteral("message")).toString()
                            : tr("The run asks: %1").arg(questions.join(QStringLiteral("; "))));
    for (const a2w::Event &e : m_services.a2w.events(run->id, 0))
        appendEvent(e);
}

void A2wRunsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void A2wRunsPanel::retranslateUi()
{
    m_site->setAccessibleName(tr("Site"));
    m_status->setAccessibleName(tr("Status"));
    m_view->setAccessibleName(tr("A2W runs"));
    m_events->setAccessibleName(tr("Events"));
    m_answer->setAccessibleName(tr("Answer"));
    m_view->findChild<EmptyState *>()->setText(
        tr("No A2W runs yet. A run appears here, live, when an agent asks one of your sites "
           "for a task through its agent-to-web (A2W) endpoint."));
    m_site->setItemText(0, tr("All sites"));
    const QStringList labels{tr("All statuses"), tr("Pending"),        tr("Waiting for a browser"),
                             tr("Running"),      tr("Input required"), tr("Completed"),
                             tr("Failed"),       tr("Cancelled"),      tr("Expired")};
    for (int i = 0; i < labels.size(); ++i)
        m_status->setItemText(i, labels.at(i));
    m_answer->setPlaceholderText(tr("Answer for every question"));
    m_send->setText(tr("Answer"));
    m_cancel->setText(tr("Cancel run"));
    m_confirm->setText(tr("Confirm action"));
    m_browser->setText(tr("Live browser views"));
    m_model->retranslate();
    if (m_current.isEmpty())
        m_heading->setText(tr("Select a run to follow its events."));
}

} // namespace ph::ui
