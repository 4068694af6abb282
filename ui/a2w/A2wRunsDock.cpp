#include "A2wRunsDock.h"
#include "common/DateText.h"
#include "common/EmptyState.h"

#include "A2wRunsModel.h"

#include "Service.h"
#include "a2w/A2wService.h"
#include "common/Icons.h"
#include "common/TableViews.h"
#include "core/DomainError.h"
#include "core/Store.h"
#include "runtime/RuntimeService.h"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const char *const kStatuses[] = {"",        "pending",        "waiting_browser",
                                 "running", "input_required", "completed",
                                 "failed",  "cancelled",      "expired"};
} // namespace

A2wRunsDock::A2wRunsDock(Service &service, QWidget *parent)
    : QDockWidget(parent)
    , m_service(service)
{
    setObjectName(QStringLiteral("a2wRunsDock"));
    m_model = new A2wRunsModel(service.a2w(), this);
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *bar = new QHBoxLayout;
    m_site = new QComboBox(body);
    m_site->addItem(QString(), QString());
    m_status = new QComboBox(body);
    for (const char *s : kStatuses)
        m_status->addItem(QString(), QLatin1String(s));
    bar->addWidget(m_site);
    bar->addWidget(m_status);
    bar->addStretch(1);
    layout->addLayout(bar);

    auto *split = new QSplitter(Qt::Vertical, body);
    m_view = makeTableView(m_model, A2wRunsModel::Task, split);
    new EmptyState(m_view);
    auto *detail = new QWidget(split);
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
    auto *sessions = new QWidget(split);
    auto *s = new QVBoxLayout(sessions);
    s->setContentsMargins(0, 0, 0, 0);
    m_delegationsHeading = new QLabel(sessions);
    s->addWidget(m_delegationsHeading);
    m_delegations = new QTableWidget(0, 6, sessions);
    m_delegations->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_delegations->setSelectionMode(QAbstractItemView::SingleSelection);
    m_delegations->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_delegations->horizontalHeader()->setStretchLastSection(true);
    m_delegations->verticalHeader()->hide();
    s->addWidget(m_delegations, 1);
    auto *sessionActions = new QHBoxLayout;
    m_revoke = new QPushButton(icon(Icon::Delete), QString(), sessions);
    sessionActions->addStretch(1);
    sessionActions->addWidget(m_revoke);
    s->addLayout(sessionActions);
    m_visitorsHeading = new QLabel(sessions);
    s->addWidget(m_visitorsHeading);
    m_visitors = new QTableWidget(0, 6, sessions);
    m_visitors->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_visitors->setSelectionMode(QAbstractItemView::SingleSelection);
    m_visitors->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_visitors->horizontalHeader()->setStretchLastSection(true);
    m_visitors->verticalHeader()->hide();
    s->addWidget(m_visitors, 1);
    auto *visitorActions = new QHBoxLayout;
    m_endRun = new QPushButton(icon(Icon::Stop), QString(), sessions);
    visitorActions->addStretch(1);
    visitorActions->addWidget(m_endRun);
    s->addLayout(visitorActions);
    layout->addWidget(split, 1);
    setWidget(body);

    connect(m_site, &QComboBox::currentIndexChanged, this, &A2wRunsDock::applyFilter);
    connect(m_status, &QComboBox::currentIndexChanged, this, &A2wRunsDock::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).id : QString();
                showCurrent();
            });
    connect(&service.a2w(), &a2w::A2wService::eventAdded, this,
            [this](const QString &runId, const a2w::Event &event) {
                if (runId == m_current)
                    appendEvent(event);
            });
    connect(&service.a2w(), &a2w::A2wService::runChanged, this, [this](const QString &runId) {
        if (runId == m_current)
            showCurrent();
        if (m_site->findData(m_service.a2w().find(runId).value_or(a2w::Run()).host) < 0)
            refreshSites();
    });
    auto answer = [this] {
        m_error->clear();
        try {
            a2w::ContinueRequest request;
            request.input = m_answer->text();
            m_service.a2w().answer(m_current, request);
            m_answer->clear();
        } catch (const DomainError &e) {
            m_error->setText(e.message());
        }
    };
    connect(m_send, &QPushButton::clicked, this, answer);
    connect(m_answer, &QLineEdit::returnPressed, this, answer);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_error->clear();
        try {
            m_service.a2w().cancel(m_current, tr("cancelled by the operator"));
        } catch (const DomainError &e) {
            m_error->setText(e.message());
        }
    });
    connect(m_confirm, &QPushButton::clicked, this, [this] {
        m_error->clear();
        try {
            m_service.a2w().confirmAsOperator(m_current, true);
        } catch (const DomainError &e) {
            m_error->setText(e.message());
        }
    });
    connect(m_browser, &QPushButton::clicked, this, &A2wRunsDock::browserViewRequested);
    connect(&service.a2w(), &a2w::A2wService::delegationsChanged, this,
            &A2wRunsDock::refreshDelegations);
    connect(m_delegations, &QTableWidget::itemSelectionChanged, this, [this] {
        const QList<QTableWidgetItem *> chosen = m_delegations->selectedItems();
        m_revoke->setEnabled(!chosen.isEmpty() && chosen.first()->data(Qt::UserRole + 1).toBool());
    });
    connect(m_revoke, &QPushButton::clicked, this, [this] {
        m_error->clear();
        const QList<QTableWidgetItem *> chosen = m_delegations->selectedItems();
        if (chosen.isEmpty())
            return;
        try {
            m_service.a2w().revokeDelegation(chosen.first()->data(Qt::UserRole).toString());
        } catch (const DomainError &e) {
            m_error->setText(e.message());
        }
    });
    // Visitor sessions: re-read (at most five times a second) when the store says the
    // runtime's rows changed.
    m_visitorsTimer = new QTimer(this);
    m_visitorsTimer->setSingleShot(true);
    m_visitorsTimer->setInterval(200);
    connect(m_visitorsTimer, &QTimer::timeout, this, &A2wRunsDock::refreshVisitors);
    connect(&service.store(), &Store::changed, this, [this](const QString &table) {
        if (table.startsWith(QLatin1String("runtime_")) && !m_visitorsTimer->isActive())
            m_visitorsTimer->start();
    });
    connect(m_visitors, &QTableWidget::itemSelectionChanged, this, [this] {
        const QList<QTableWidgetItem *> chosen = m_visitors->selectedItems();
        m_endRun->setEnabled(!chosen.isEmpty() && chosen.first()->data(Qt::UserRole + 1).toBool());
        if (!chosen.isEmpty())
            showVisitor(chosen.first()->data(Qt::UserRole).toString());
    });
    connect(m_endRun, &QPushButton::clicked, this, [this] {
        m_error->clear();
        const QList<QTableWidgetItem *> chosen = m_visitors->selectedItems();
        if (chosen.isEmpty())
            return;
        try {
            m_service.runtime().endActiveRun(chosen.first()->data(Qt::UserRole).toString(),
                                             tr("ended by the operator"));
            refreshVisitors();
        } catch (const DomainError &e) {
            m_error->setText(e.message());
        }
    });
    refreshSites();
    refreshDelegations();
    retranslateUi();
    showCurrent();
}

void A2wRunsDock::refreshSites()
{
    const QString chosen = m_site->currentData().toString();
    const QSignalBlocker block(m_site);
    while (m_site->count() > 1)
        m_site->removeItem(1);
    for (const QString &host : m_model->hosts())
        m_site->addItem(host, host);
    m_site->setCurrentIndex(std::max(0, m_site->findData(chosen)));
}

void A2wRunsDock::refreshDelegations()
{
    const QString chosen =
        m_delegations->selectedItems().isEmpty()
            ? QString()
            : m_delegations->selectedItems().first()->data(Qt::UserRole).toString();
    const QList<a2w::Delegation> list = m_service.a2w().delegations();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_delegations->setRowCount(int(list.size()));
    for (int row = 0; row < list.size(); ++row) {
        const a2w::Delegation &d = list.at(row);
        const bool live = !d.revokedAt && d.expiresAt > now;
        const QString host = m_service.a2w().find(d.runId).value_or(a2w::Run()).host;
        const QStringList cells{d.prefix + QStringLiteral("…"),
                                host.isEmpty() ? d.siteId : host,
                                d.scope.contains(QStringLiteral("*"))
                                    ? tr("any task")
                                    : d.scope.join(QStringLiteral(", ")),
                                tr("%1 of %2 credits")
                                    .arg(double(d.spentMilli) / 1000.0, 0, 'f', 1)
                                    .arg(double(d.spendCapMilli) / 1000.0, 0, 'f', 1),
                                shortDateTime(d.expiresAt),
                                d.revokedAt ? tr("Revoked")
                                : live      ? tr("Active")
                                            : tr("Expired")};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells.at(col));
            item->setData(Qt::UserRole, d.id);
            item->setData(Qt::UserRole + 1, live);
            m_delegations->setItem(row, col, item);
        }
        if (d.id == chosen)
            m_delegations->selectRow(row);
    }
    const QList<QTableWidgetItem *> selected = m_delegations->selectedItems();
    m_revoke->setEnabled(!selected.isEmpty() && selected.first()->data(Qt::UserRole + 1).toBool());
}

void A2wRunsDock::refreshVisitors()
{
    const QString chosen = m_visitors->selectedItems().isEmpty()
                               ? QString()
                               : m_visitors->selectedItems().first()->data(Qt::UserRole).toString();
    runtime::RuntimeService &rt = m_service.runtime();
    const QList<runtime::Session> list = rt.liveSessions(200);
    m_visitors->setRowCount(int(list.size()));
    for (int row = 0; row < list.size(); ++row) {
        const runtime::Session &s = list.at(row);
        const auto run =
            s.activeRunId.isEmpty() ? std::nullopt : rt.repository().findRun(s.activeRunId);
        int open = 0;
        int blocked = 0;
        for (const runtime::Tab &t : rt.repository().tabsOf(s.id)) {
            open += t.status == QLatin1String("open");
            blocked += t.status == QLatin1String("blocked");
        }
        const QList<runtime::Event> last = rt.repository().eventsAfter(s.id, s.seq - 1, 1);
        const QStringList cells{s.id,
                                s.host,
                                run ? QStringLiteral("%1 (%2)").arg(run->id, run->status)
                                    : tr("none"),
                                tr("%1 open, %2 blocked").arg(open).arg(blocked),
                                last.isEmpty() ? QString() : last.first().type,
                                shortDateTime(s.updatedAt)};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells.at(col));
            item->setData(Qt::UserRole, s.id);
            item->setData(Qt::UserRole + 1, run.has_value() && run->isActive());
            if (col == 5)
                item->setToolTip(fullDateTime(s.updatedAt));
            m_visitors->setItem(row, col, item);
        }
        if (s.id == chosen)
            m_visitors->selectRow(row);
    }
    const QList<QTableWidgetItem *> selected = m_visitors->selectedItems();
    m_endRun->setEnabled(!selected.isEmpty() && selected.first()->data(Qt::UserRole + 1).toBool());
}

void A2wRunsDock::showVisitor(const QString &sessionId)
{
    runtime::RuntimeService &rt = m_service.runtime();
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

void A2wRunsDock::applyFilter()
{
    m_model->setFilter(m_site->currentData().toString(), m_status->currentData().toString());
}

bool A2wRunsDock::select(const QString &runId)
{
    const int row = m_model->rowOf(runId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    return true;
}

void A2wRunsDock::appendEvent(const a2w::Event &e)
{
    m_events->appendPlainText(
        QStringLiteral("%1  %2  %3")
            .arg(
                QDateTime::fromMSecsSinceEpoch(e.at).toString(QStringLiteral("HH:mm:ss")), e.type,
                QString::fromUtf8(QJsonDocument(e.data).toJson(QJsonDocument::Compact)).left(400)));
}

void A2wRunsDock::showCurrent()
{
    const auto run = m_current.isEmpty() ? std::nullopt : m_service.a2w().find(m_current);
    const bool waiting = run && run->status == a2w::Status::inputRequired &&
                         run->input.value(QStringLiteral("reason")).toString() ==
                             QLatin1String("clarification_required");
    m_cancel->setEnabled(run && !a2w::Status::isTerminal(run->status));
    m_confirm->setEnabled(run && run->status == a2w::Status::inputRequired &&
                          run->input.value(QStringLiteral("reason")).toString() ==
                              QLatin1String("action_confirmation_required"));
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
    for (const a2w::Event &e : m_service.a2w().events(run->id, 0))
        appendEvent(e);
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
    m_site->setAccessibleName(tr("Site"));
    m_status->setAccessibleName(tr("Status"));
    m_view->setAccessibleName(tr("A2W runs"));
    m_events->setAccessibleName(tr("Events"));
    m_answer->setAccessibleName(tr("Answer"));
    m_delegations->setAccessibleName(tr("Delegations"));
    m_visitors->setAccessibleName(tr("Visitor sessions"));
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
    m_delegationsHeading->setText(tr("Delegated sessions"));
    m_delegations->setHorizontalHeaderLabels(
        {tr("Token"), tr("Site"), tr("Scope"), tr("Spent"), tr("Expires"), tr("State")});
    m_revoke->setText(tr("Revoke session"));
    m_visitorsHeading->setText(tr("Visitor sessions (embedded runtime)"));
    m_visitors->setHorizontalHeaderLabels(
        {tr("Session"), tr("Site"), tr("Active run"), tr("Tabs"), tr("Last event"), tr("Updated")});
    m_endRun->setText(tr("End the session's run"));
    m_endRun->setAccessibleName(tr("End the selected visitor session's run"));
    m_visitors->setAccessibleName(tr("Visitor sessions"));
    refreshVisitors();
    refreshDelegations();
    m_model->retranslate();
    if (m_current.isEmpty())
        m_heading->setText(tr("Select a run to follow its events."));
}

} // namespace ph::ui
