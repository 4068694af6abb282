#include "TrajectoriesDock.h"

#include "TrajectoriesModel.h"
#include "common/CurlText.h"
#include "common/DateText.h"
#include "common/EmptyState.h"
#include "common/JsonView.h"

#include "cloud/RunService.h"
#include "common/Icons.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "engine/RunManager.h"
#include "engine/TrajectoryRepository.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const QStringList kStatuses{QString(),
                            QStringLiteral("executing"),
                            QStringLiteral("requires_input"),
                            QStringLiteral("success"),
                            QStringLiteral("error"),
                            QStringLiteral("cancelled")};
}

TrajectoriesDock::TrajectoriesDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("trajectoriesDock"));
    m_model = new TrajectoriesModel(services.trajectories, services.clock, this);

    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *filters = new QHBoxLayout;
    m_statusFilter = new QComboBox(body);
    for (int i = 0; i < kStatuses.size(); ++i)
        m_statusFilter->addItem(QString(), kStatuses.at(i));
    m_search = new QLineEdit(body);
    m_search->setClearButtonEnabled(true);
    m_search->addAction(icon(Icon::Find), QLineEdit::LeadingPosition);
    filters->addWidget(m_statusFilter);
    filters->addWidget(m_search, 1);
    layout->addLayout(filters);

    auto *split = new QSplitter(Qt::Vertical, body);
    split->setObjectName(QStringLiteral("runsSplit"));
    m_view = new QTableView(split);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(TrajectoriesModel::Task, QHeaderView::Stretch);
    m_view->setAlternatingRowColors(true);
    m_empty = new EmptyState(m_view);
    m_view->horizontalHeader()->resizeSection(TrajectoriesModel::Started,
                                              dateColumnWidth(m_view->fontMetrics()));

    makeDetail(split);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setWidget(body);

    addShortcuts();

    connectActions();
    retranslateUi();
    showCurrent();
}

void TrajectoriesDock::connectActions()
{
    connect(m_statusFilter, &QComboBox::currentIndexChanged, this, &TrajectoriesDock::applyFilter);
    // Typing filters once it pauses, not on every key (a text under 3 characters is not
    // indexed and reads the runs until a page fills); Enter and clearing filter at once.
    m_searchTimer = new QTimer(this);
    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(kSearchPauseMs);
    connect(m_searchTimer, &QTimer::timeout, this, &TrajectoriesDock::applyFilter);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.trimmed().isEmpty())
            applyFilter(); // cleared: the unfiltered list is a cheap indexed page
        else
            m_searchTimer->start();
    });
    connect(m_search, &QLineEdit::returnPressed, this, &TrajectoriesDock::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).id : QString();
                showCurrent();
            });
    connect(m_cancel, &QPushButton::clicked, this, &TrajectoriesDock::cancelCurrent);
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_current); });
    connect(m_recording, &QPushButton::clicked, this, &TrajectoriesDock::showRecording);
    connect(m_copyCurl, &QPushButton::clicked, this, [this] {
        const QString text = currentCurl();
        if (!text.isEmpty())
            QApplication::clipboard()->setText(text);
    });
    connect(m_steps, &QTableWidget::currentCellChanged, this, [this](int row) {
        showStep(row);
        if (row >= 0)
            m_detailTabs->setCurrentIndex(1);
    });
    connect(m_continue, &QPushButton::clicked, this, &TrajectoriesDock::continueCurrent);

    // Steps and phases of the shown run land as they happen; coalesce the bursts.
    m_detailTimer = new QTimer(this);
    m_detailTimer->setSingleShot(true);
    m_detailTimer->setInterval(50);
    connect(m_detailTimer, &QTimer::timeout, this, &TrajectoriesDock::showCurrent);
    const auto followShown = [this](const QString &id) {
        if (id == m_current)
            scheduleDetail();
    };
    connect(&m_services.trajectories, &engine::TrajectoryRepository::trajectoryChanged, this,
            followShown);
    connect(&m_services.trajectories, &engine::TrajectoryRepository::stepsChanged, this,
            followShown);
}

void TrajectoriesDock::addShortcuts()
{
    // Keyboard: Ctrl+F filters, F5 reloads, Delete cancels the selected run.
    auto *find = new QAction(this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QAction::triggered, m_search, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    addAction(find);
    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this, &TrajectoriesDock::applyFilter);
    addAction(refresh);
    auto *cancel = new QAction(this);
    cancel->setShortcut(QKeySequence::Delete);
    cancel->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(cancel, &QAction::triggered, this, &TrajectoriesDock::cancelCurrent);
    m_view->addAction(cancel);
    // Ctrl+Shift+C copies the run's request as curl.
    auto *copyCurl = new QAction(this);
    copyCurl->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyCurl->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    copyCurl->setProperty(
        "help", QT_TRANSLATE_NOOP("ph::ui::ShortcutsDialog", "Copy the run's request as curl"));
    connect(copyCurl, &QAction::triggered, m_copyCurl, &QPushButton::click);
    addAction(copyCurl);
}

void TrajectoriesDock::makeDetail(QWidget *split)
{
    auto *detail = new QWidget(split);
    auto *d = new QVBoxLayout(detail);
    d->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    m_heading = new QLabel(detail);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cancel = new QPushButton(icon(Icon::Stop), QString(), detail);
    m_copy = new QPushButton(icon(Icon::Copy), QString(), detail);
    m_recording = new QPushButton(icon(Icon::Open), QString(), detail);
    m_copyCurl = new QPushButton(icon(Icon::Copy), QString(), detail);
    top->addWidget(m_heading, 1);
    top->addWidget(m_cancel);
    top->addWidget(m_copy);
    top->addWidget(m_copyCurl);
    top->addWidget(m_recording);
    d->addLayout(top);
    m_problems = new QLabel(detail);
    m_problems->setWordWrap(true);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->addWidget(m_problems);
    m_questionsBox = new QGroupBox(detail);
    m_questionsForm = new QFormLayout;
    auto *qLayout = new QVBoxLayout(m_questionsBox);
    qLayout->addLayout(m_questionsForm);
    m_continue = new QPushButton(icon(Icon::Run), QString(), m_questionsBox);
    m_continue->setDefault(true);
    qLayout->addWidget(m_continue, 0, Qt::AlignRight);
    d->addWidget(m_questionsBox);
    auto *inner = new QSplitter(Qt::Horizontal, detail);
    inner->setObjectName(QStringLiteral("runDetailSplit"));
    m_steps = new QTableWidget(0, 6, inner);
    m_steps->verticalHeader()->hide();
    m_steps->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->setSelectionMode(QAbstractItemView::SingleSelection);
    m_steps->horizontalHeader()->setStretchLastSection(true);
    // The run's result, and the picked step's arguments and result, highlighted.
    m_detailTabs = new QTabWidget(inner);
    m_result = new JsonView(m_detailTabs);
    auto *stepPage = new QWidget(m_detailTabs);
    auto *sp = new QVBoxLayout(stepPage);
    sp->setContentsMargins(0, 0, 0, 0);
    m_stepArgsCaption = new QLabel(stepPage);
    m_stepArgs = new JsonView(stepPage);
    m_stepArgsCaption->setBuddy(m_stepArgs);
    m_stepResultCaption = new QLabel(stepPage);
    m_stepResult = new JsonView(stepPage);
    m_stepResultCaption->setBuddy(m_stepResult);
    sp->addWidget(m_stepArgsCaption);
    sp->addWidget(m_stepArgs, 1);
    sp->addWidget(m_stepResultCaption);
    sp->addWidget(m_stepResult, 2);
    m_detailTabs->addTab(m_result, QString());
    m_detailTabs->addTab(stepPage, QString());
    d->addWidget(inner, 1);
}

bool TrajectoriesDock::select(const QString &trajectoryId)
{
    const int row = m_model->fetchRowOf(trajectoryId);
    if (row < 0)
        return false;
    m_view->selectRow(row);
    m_view->setCurrentIndex(m_model->index(row, 0));
    m_current = trajectoryId;
    showCurrent();
    return true;
}

QLineEdit *TrajectoriesDock::answerField(const QString &key) const
{
    for (const auto &[k, field] : m_answers) {
        if (k == key)
            return field;
    }
    return nullptr;
}

void TrajectoriesDock::filterByStatus(const QString &status)
{
    {
        const QSignalBlocker statusBlocker(m_statusFilter);
        const QSignalBlocker searchBlocker(m_search);
        m_statusFilter->setCurrentIndex(qMax(0, m_statusFilter->findData(status)));
        m_search->clear();
    }
    applyFilter(); // once, not once per field
}

QString TrajectoriesDock::statusFilter() const
{
    return m_statusFilter->currentData().toString();
}

bool TrajectoriesDock::isSearchPending() const
{
    return m_searchTimer->isActive();
}

void TrajectoriesDock::applyFilter()
{
    m_searchTimer->stop();
    const QString keep = m_current;
    m_model->setFilter(m_statusFilter->currentData().toString(), m_search->text());
    updateEmptyText();
    const int row = m_model->rowOf(keep);
    if (row >= 0)
        m_view->selectRow(row);
}

void TrajectoriesDock::scheduleDetail()
{
    if (!m_detailTimer->isActive())
        m_detailTimer->start();
}

void TrajectoriesDock::showCurrent()
{
    engine::TrajectoryRepository &repo = m_services.trajectories;
    const auto trajectory = m_current.isEmpty() ? std::nullopt : repo.find(m_current);
    m_cancel->setEnabled(trajectory && (trajectory->status == QLatin1String("executing") ||
                                        trajectory->status == QLatin1String("requires_input")));
    m_copy->setEnabled(trajectory.has_value());
    m_copyCurl->setEnabled(trajectory.has_value());
    m_recording->setEnabled(trajectory.has_value());
    const int keepStep = m_steps->currentRow();
    const QSignalBlocker quiet(m_steps);
    m_steps->setRowCount(0);
    if (!trajectory) {
        m_heading->setText(tr("Select a run to see its steps and result."));
        m_problems->clear();
        m_result->setJson(QJsonValue(QJsonValue::Undefined));
        m_questionsBox->hide();
        showStep(-1);
        return;
    }
    m_heading->setText(QStringLiteral("<b>%1</b> — %2 — %3")
                           .arg(trajectory->id.toHtmlEscaped(), trajectory->status,
                                trajectory->task.left(120).toHtmlEscaped()));
    const int last = repo.lastPhase(m_current);
    for (int phase = 1; phase <= last; ++phase) {
        for (const engine::StepRecord &s : repo.steps(m_current, phase)) {
            const int row = m_steps->rowCount();
            m_steps->insertRow(row);
            const QStringList cells{QString::number(phase),
                                    QString::number(s.seq),
                                    s.toolName,
                                    s.status,
                                    QStringLiteral("%1 ms").arg(s.durationMs),
                                    s.summary};
            for (int c = 0; c < cells.size(); ++c)
                m_steps->setItem(row, c, new QTableWidgetItem(cells.at(c)));
            // What the step pane shows when the row is picked.
            m_steps->item(row, 0)->setData(Qt::UserRole, s.args);
            m_steps->item(row, 0)->setData(Qt::UserRole + 1, QVariant::fromValue(s.output));
            m_steps->item(row, 0)->setData(Qt::UserRole + 2, s.hasOutput);
        }
    }
    if (keepStep >= 0 && keepStep < m_steps->rowCount())
        m_steps->setCurrentCell(keepStep, 0);
    showStep(m_steps->currentRow());
    const auto phase = repo.phase(m_current, last);
    const QJsonObject response = phase ? phase->response : QJsonObject();
    QJsonObject result = response.value(QStringLiteral("result")).toObject();
    m_result->setJson(result.isEmpty() ? QJsonValue(response) : QJsonValue(result));
    QStringList problems;
    if (phase && !phase->error.isEmpty())
        problems << tr("Error: %1").arg(phase->error.toHtmlEscaped());
    for (const auto &w : response.value(QStringLiteral("warnings")).toArray())
        problems << tr("Warning: %1").arg(w.toString().toHtmlEscaped());
    m_problems->setText(problems.join(QStringLiteral("<br>")));

    // A run waiting for input: one field per question.
    const bool waiting = trajectory->status == QLatin1String("requires_input");
    const QJsonArray questions = response.value(QStringLiteral("questions")).toArray();
    QStringList keys;
    for (const auto &q : questions)
        keys << q.toObject().value(QStringLiteral("key")).toString();
    QStringList shown;
    for (const auto &a : std::as_const(m_answers))
        shown << a.first;
    if (!waiting || keys != shown) {
        while (m_questionsForm->rowCount() > 0)
            m_questionsForm->removeRow(0);
        m_answers.clear();
    }
    if (waiting && m_answers.isEmpty()) {
        for (const auto &value : questions) {
            const QJsonObject q = value.toObject();
            auto *field = new QLineEdit(m_questionsBox);
            field->setObjectName(QStringLiteral("answer_") +
                                 q.value(QStringLiteral("key")).toString());
            if (q.value(QStringLiteral("secret")).toBool())
                field->setEchoMode(QLineEdit::Password);
            m_questionsForm->addRow(q.value(QStringLiteral("question")).toString(), field);
            m_answers.append({q.value(QStringLiteral("key")).toString(), field});
        }
    }
    m_questionsBox->setVisible(waiting && !m_answers.isEmpty());
}

void TrajectoriesDock::selectStep(int row)
{
    m_steps->setCurrentCell(row, 0); // currentCellChanged shows it
    showStep(row);
}

void TrajectoriesDock::showStep(int row)
{
    const QTableWidgetItem *item = row >= 0 ? m_steps->item(row, 0) : nullptr;
    if (!item) {
        m_stepArgs->setJson(QJsonValue(QJsonValue::Undefined));
        m_stepResult->setJson(QJsonValue(QJsonValue::Undefined));
        return;
    }
    m_stepArgs->setJson(item->data(Qt::UserRole).toJsonObject());
    const QJsonValue output = item->data(Qt::UserRole + 1).toJsonValue();
    m_stepResult->setJson(item->data(Qt::UserRole + 2).toBool() || !output.isNull()
                              ? output
                              : QJsonValue(tr("(no result yet)")));
}

QString TrajectoriesDock::currentCurl() const
{
    if (m_current.isEmpty())
        return {};
    // The first phase's request started the run; what the store kept of it is already
    // without secrets (no webhook secrets, masked headers and answers).
    const auto first = m_services.trajectories.phase(m_current, 1);
    if (!first)
        return {};
    const QString source = first->request.value(QStringLiteral("source")).toString();
    return runCurl(m_services.apiAddress(),
                   source.startsWith(QLatin1Char('/')) ? source : QStringLiteral("/agent"),
                   first->request);
}

void TrajectoriesDock::updateEmptyText()
{
    const bool filtered = !m_statusFilter->currentData().toString().isEmpty() ||
                          !m_search->text().trimmed().isEmpty();
    m_empty->setText(
        filtered ? tr("No run matches this filter.")
                 : tr("No runs yet — try:\ncurl -H \"Authorization: Bearer $%1\" \\\n"
                      "  -d '{\"input\":\"Read the title\",\"urls\":[\"https://example.org/\"]}' "
                      "\\\n  %2/agent")
                       .arg(QLatin1String(kApiKeyVariable), m_services.apiAddress()));
}

void TrajectoriesDock::cancelCurrent()
{
    if (m_current.isEmpty())
        return;
    const QString id = m_current; // cancelling may move the row and the selection
    const auto trajectory = m_services.trajectories.find(id);
    if (!trajectory)
        return;
    // The same service as DELETE /agent/{id}: its callbacks are announced as for the API.
    try {
        m_services.runService.cancel(id, trajectory->keyId);
    } catch (const DomainError &e) {
        QMessageBox::information(this, tr("Cancel run"), e.message());
    }
    showCurrent();
}

void TrajectoriesDock::continueCurrent()
{
    const auto trajectory = m_services.trajectories.find(m_current);
    if (!trajectory)
        return;
    engine::ExecuteRequest request;
    request.trajectoryId = m_current;
    request.historyContinue = true;
    QJsonObject masked;
    for (const auto &[key, field] : std::as_const(m_answers)) {
        if (!field->text().isEmpty()) {
            request.answers.insert(key, field->text());
            masked.insert(key, QStringLiteral("••••••"));
        }
    }
    request.stored = {{QStringLiteral("trajectoryId"), m_current},
                      {QStringLiteral("history"), QJsonObject{{QStringLiteral("continue"), true},
                                                              {QStringLiteral("answers"), masked}}},
                      {QStringLiteral("source"), QStringLiteral("console")}};
    // As POST /agent continues a run: credits, the key's limit, the request log and
    // the run's callbacks.
    try {
        m_services.runService.start(request, trajectory->keyId, Ids::make(QStringLiteral("req")),
                                    QStringLiteral("console"));
    } catch (const DomainError &e) {
        QMessageBox::warning(this, tr("Continue run"), e.message());
        return;
    }
    for (const auto &a : std::as_const(m_answers))
        a.second->clear();
    scheduleDetail();
}

void TrajectoriesDock::showRecording()
{
    const auto steps = m_services.runs.recordingSteps(m_current, QString());
    if (!steps)
        return;
    QJsonArray out;
    for (const engine::StepRecord &s : *steps)
        out.append(QJsonObject{{QStringLiteral("tool"), s.toolName},
                               {QStringLiteral("args"), s.args},
                               {QStringLiteral("status"), s.status}});
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Recording %1").arg(m_current));
    auto *layout = new QVBoxLayout(&dialog);
    auto *view = new JsonView(&dialog);
    view->setJson(out);
    layout->addWidget(new QLabel(tr("Replay it with recording_id \"%1\" on /agent, or "
                                    "replay_workflow on the bridge.")
                                     .arg(m_current),
                                 &dialog));
    layout->addWidget(view);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.resize(640, 480);
    dialog.exec();
}

void TrajectoriesDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void TrajectoriesDock::retranslateUi()
{
    setWindowTitle(tr("Runs"));
    const QStringList labels{tr("All runs"),  tr("Executing"), tr("Waiting for input"),
                             tr("Succeeded"), tr("Failed"),    tr("Cancelled")};
    for (int i = 0; i < labels.size(); ++i)
        m_statusFilter->setItemText(i, labels.at(i));
    m_search->setPlaceholderText(tr("Filter by task or id (Ctrl+F)"));
    m_cancel->setText(tr("Cancel run"));
    m_copy->setText(tr("Copy id"));
    m_recording->setText(tr("Recording…"));
    m_copyCurl->setText(tr("Copy as curl"));
    m_copyCurl->setToolTip(tr("Copy the request that started this run as a curl command "
                              "(Ctrl+Shift+C); the key is read from $%1")
                               .arg(QLatin1String(kApiKeyVariable)));
    m_detailTabs->setAccessibleName(tr("Run detail"));
    m_detailTabs->setTabText(0, tr("Run result"));
    m_detailTabs->setTabText(1, tr("Step"));
    m_stepArgsCaption->setText(tr("Arguments"));
    m_stepResultCaption->setText(tr("Result"));
    m_statusFilter->setAccessibleName(tr("Show runs"));
    m_search->setAccessibleName(tr("Filter runs"));
    m_view->setAccessibleName(tr("Runs"));
    m_steps->setAccessibleName(tr("Steps"));
    m_result->setAccessibleName(tr("Run result"));
    m_stepArgs->setAccessibleName(tr("Step arguments"));
    m_stepResult->setAccessibleName(tr("Step result"));
    updateEmptyText();
    m_questionsBox->setTitle(tr("The run needs answers"));
    m_continue->setText(tr("Answer and continue"));
    m_steps->setHorizontalHeaderLabels(
        {tr("Phase"), tr("Step"), tr("Tool"), tr("Status"), tr("Duration"), tr("Summary")});
    m_model->retranslate();
    if (m_current.isEmpty())
        m_heading->setText(tr("Select a run to see its steps and result."));
}

} // namespace ph::ui
