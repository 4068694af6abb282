#include "ToolsDock.h"

#include "JsonEdit.h"
#include "ToolsModel.h"
#include "common/EmptyState.h"
#include "common/JsonView.h"

#include "cloud/LibraryRepository.h"
#include "cloud/RunService.h"
#include "cloud/ToolLibrary.h"
#include "common/Icons.h"
#include "core/ApiKeyRepository.h"
#include "core/ApiKeyService.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "engine/AgentRun.h"
#include "engine/TrajectoryRepository.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const QString kSubroutine = QStringLiteral("subroutine");
const QString kJavaScript = QStringLiteral("javascript");
const QString kErrorStyle = QStringLiteral("color: #c0392b");
} // namespace

ToolsDock::ToolsDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("toolsDock"));
    m_model = new ToolsModel(services.library, ownerKeyId(), this);

    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *split = new QSplitter(Qt::Horizontal, body);

    // The list, with New and Delete under it.
    auto *left = new QWidget(split);
    auto *l = new QVBoxLayout(left);
    l->setContentsMargins(0, 0, 0, 0);
    m_view = new QTableView(left);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    new EmptyState(m_view);
    m_view->horizontalHeader()->setSectionResizeMode(ToolsModel::Description, QHeaderView::Stretch);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);
    l->addWidget(m_view, 1);
    auto *listButtons = new QHBoxLayout;
    m_new = new QPushButton(icon(Icon::Add), QString(), left);
    m_delete = new QPushButton(icon(Icon::Delete), QString(), left);
    listButtons->addWidget(m_new);
    listButtons->addWidget(m_delete);
    listButtons->addStretch(1);
    l->addLayout(listButtons);

    // The editor above, the test run below.
    auto *right = new QSplitter(Qt::Vertical, split);
    QWidget *editor = makeEditor(right);

    makeTestRun(right);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    setWidget(body);

    addShortcuts(editor);

    connectActions();
    retranslateUi();
    startNew();
}

void ToolsDock::connectActions()
{
    connect(m_new, &QPushButton::clicked, this, &ToolsDock::startNew);
    connect(m_delete, &QPushButton::clicked, this, &ToolsDock::remove);
    connect(m_save, &QPushButton::clicked, this, &ToolsDock::save);
    connect(m_run, &QPushButton::clicked, this, &ToolsDock::testRun);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                if (!index.isValid())
                    return;
                m_editing = m_model->rowAt(index).name;
                m_error->clear();
                loadCurrent();
            });
    auto markDirty = [this] {
        if (!m_loading)
            m_dirty = true;
    };
    connect(m_name, &QLineEdit::textEdited, this, markDirty);
    connect(m_description, &QLineEdit::textEdited, this, markDirty);
    connect(m_url, &QLineEdit::textEdited, this, markDirty);
    connect(m_kind, &QComboBox::currentIndexChanged, this, markDirty);
    for (QPlainTextEdit *edit : {static_cast<QPlainTextEdit *>(m_parameters),
                                 static_cast<QPlainTextEdit *>(m_steps), m_code})
        connect(edit, &QPlainTextEdit::textChanged, this, markDirty);

    // Live: the tool in the editor follows the store unless it is being edited; a new
    // owner key (the old one revoked) lists its own tools; the test run's progress.
    connect(&m_services.library, &cloud::LibraryRepository::toolsChanged, this, [this] {
        if (!m_dirty && !m_editing.isEmpty())
            loadCurrent();
    });
    connect(&m_services.keyService, &ApiKeyService::keyChanged, this, &ToolsDock::followOwnerKey);
    connect(&m_services.trajectories, &engine::TrajectoryRepository::trajectoryChanged, this,
            [this](const QString &id) {
                if (!m_runId.isEmpty() && id == m_runId)
                    showRun();
            });
}

void ToolsDock::addShortcuts(QWidget *editor)
{
    // Keyboard: Delete removes the selected tool, Ctrl+S saves, F5 reloads the list.
    auto *removeAction = new QAction(this);
    removeAction->setShortcut(QKeySequence::Delete);
    removeAction->setShortcutContext(Qt::WidgetShortcut);
    connect(removeAction, &QAction::triggered, this, &ToolsDock::remove);
    m_view->addAction(removeAction);
    auto *saveAction = new QAction(this);
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(saveAction, &QAction::triggered, this, &ToolsDock::save);
    editor->addAction(saveAction);
    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this, [this] {
        followOwnerKey();
        m_model->refresh();
        if (!m_dirty)
            loadCurrent();
    });
    addAction(refresh);
}

void ToolsDock::makeTestRun(QWidget *right)
{
    auto *test = new QWidget(right);
    auto *t = new QVBoxLayout(test);
    t->setContentsMargins(0, 0, 0, 0);
    m_argumentsCaption = new QLabel(test);
    m_arguments = new JsonEdit(test);
    m_arguments->setMaximumHeight(90);
    m_arguments->setPlainText(QStringLiteral("{}"));
    auto *runRow = new QHBoxLayout;
    m_runStatus = new QLabel(test);
    m_runStatus->setWordWrap(true);
    m_runStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_run = new QPushButton(icon(Icon::Run), QString(), test);
    runRow->addWidget(m_runStatus, 1);
    runRow->addWidget(m_run);
    m_result = new JsonView(test);
    t->addWidget(m_argumentsCaption);
    t->addWidget(m_arguments);
    t->addLayout(runRow);
    t->addWidget(m_result, 1);
}

QWidget *ToolsDock::makeEditor(QWidget *right)
{
    auto *editor = new QWidget(right);
    auto *form = new QFormLayout(editor);
    form->setContentsMargins(0, 0, 0, 0);
    m_nameCaption = new QLabel(editor);
    m_descriptionCaption = new QLabel(editor);
    m_kindCaption = new QLabel(editor);
    m_parametersCaption = new QLabel(editor);
    m_name = new QLineEdit(editor);
    m_description = new QLineEdit(editor);
    m_kind = new QComboBox(editor);
    m_kind->addItem(QString(), kSubroutine);
    m_kind->addItem(QString(), kJavaScript);
    m_parameters = new JsonEdit(editor);
    m_parameters->setMinimumHeight(70);
    form->addRow(m_nameCaption, m_name);
    form->addRow(m_descriptionCaption, m_description);
    form->addRow(m_parametersCaption, m_parameters);
    form->addRow(m_kindCaption, m_kind);
    // Steps for a subroutine; code and its page for a JavaScript tool (rows shown by
    // kind).
    m_stepsCaption = new QLabel(editor);
    m_steps = new JsonEdit(editor);
    m_codeCaption = new QLabel(editor);
    m_urlCaption = new QLabel(editor);
    m_code = new QPlainTextEdit(editor);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_code->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_code->setTabChangesFocus(true);
    m_url = new QLineEdit(editor);
    form->addRow(m_stepsCaption, m_steps);
    form->addRow(m_codeCaption, m_code);
    form->addRow(m_urlCaption, m_url);
    auto showKind = [this, form] {
        const bool javascript = m_kind->currentData().toString() == kJavaScript;
        form->setRowVisible(m_steps, !javascript);
        form->setRowVisible(m_code, javascript);
        form->setRowVisible(m_url, javascript);
    };
    showKind();
    connect(m_kind, &QComboBox::currentIndexChanged, this, showKind);
    m_save = new QPushButton(icon(Icon::Save), QString(), editor);
    m_save->setDefault(true);
    form->addRow(QString(), m_save);
    m_error = new QLabel(editor);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_error);
    return editor;
}

QString ToolsDock::ownerKeyId() const
{
    // The console acts as the owner.
    return m_services.keyService.activeOwnerId();
}

void ToolsDock::followOwnerKey()
{
    const QString owner = ownerKeyId();
    if (owner == m_model->keyId())
        return;
    m_model->setKeyId(owner);
    startNew();
}

bool ToolsDock::select(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    m_editing = name;
    loadCurrent();
    return true;
}

void ToolsDock::startNew()
{
    m_editing.clear();
    m_view->clearSelection();
    m_view->setCurrentIndex(QModelIndex());
    m_loading = true;
    m_name->clear();
    m_name->setReadOnly(false);
    m_description->clear();
    m_kind->setCurrentIndex(0);
    m_parameters->clear();
    m_steps->clear();
    m_code->clear();
    m_url->clear();
    m_loading = false;
    m_dirty = false;
    m_error->clear();
    updateButtons();
}

void ToolsDock::loadCurrent()
{
    if (m_editing.isEmpty())
        return;
    const auto tool = m_services.toolLibrary.findTool(m_model->keyId(), m_editing);
    if (!tool) {
        // Deleted elsewhere: the editor keeps what it shows; saving says so.
        updateButtons();
        return;
    }
    m_loading = true;
    m_name->setText(tool->name);
    m_name->setReadOnly(true); // PUT /tools/{name} keeps the name
    m_description->setText(tool->description);
    m_kind->setCurrentIndex(m_kind->findData(tool->kind));
    m_parameters->setJson(tool->parameters);
    m_steps->setJson(tool->kind == kSubroutine ? QJsonValue(tool->steps)
                                               : QJsonValue(QJsonValue::Undefined));
    m_code->setPlainText(tool->code);
    m_url->setText(tool->url);
    m_loading = false;
    m_dirty = false;
    updateButtons();
}

void ToolsDock::updateButtons()
{
    const bool stored =
        !m_editing.isEmpty() && m_services.toolLibrary.findTool(m_model->keyId(), m_editing);
    m_delete->setEnabled(stored);
    m_run->setEnabled(stored);
    m_save->setEnabled(!m_model->keyId().isEmpty());
}

void ToolsDock::showError(const DomainError &error)
{
    m_error->setStyleSheet(kErrorStyle);
    m_error->setText(tr("%1 (%2)").arg(error.message(), error.code()));
}

void ToolsDock::save()
{
    // The tool as POST or PUT /tools would carry it; the tool library checks it.
    cloud::ToolDraft draft;
    if (m_editing.isEmpty())
        draft.name = m_name->text();
    draft.description = m_description->text();
    QJsonValue value;
    QString problem;
    if (!m_parameters->json(&value, &problem)) {
        showError(DomainError::invalidJson(tr("parameters: %1").arg(problem)));
        return;
    }
    try {
        // The editors hold JSON; what must be an object or an array is named if not.
        if (!value.isUndefined())
            draft.parameters = JsonFields({{QStringLiteral("parameters"), value}})
                                   .optionalObject(QStringLiteral("parameters"))
                                   ->object();
        if (m_kind->currentData().toString() == kJavaScript) {
            draft.code = m_code->toPlainText();
            draft.url = m_url->text().trimmed();
        } else {
            if (!m_steps->json(&value, &problem)) {
                showError(DomainError::invalidJson(tr("steps: %1").arg(problem)));
                return;
            }
            draft.steps = value.isUndefined() ? QJsonArray()
                                              : *JsonFields({{QStringLiteral("steps"), value}})
                                                     .optionalArray(QStringLiteral("steps"));
        }
        const cloud::SavedTool tool =
            m_editing.isEmpty()
                ? m_services.toolLibrary.createTool(m_model->keyId(), draft)
                : m_services.toolLibrary.replaceTool(m_model->keyId(), m_editing, draft);
        m_dirty = false;
        m_editing.clear(); // select() sets it again
        select(tool.name);
        m_error->setStyleSheet(QString());
        m_error->setText(tr("Saved; the bridge offers it as user_%1.").arg(tool.name));
    } catch (const DomainError &e) {
        showError(e);
    }
}

void ToolsDock::remove()
{
    if (m_editing.isEmpty())
        return;
    try {
        m_services.toolLibrary.removeTool(m_model->keyId(), m_editing);
        const QString name = m_editing;
        startNew();
        m_error->setStyleSheet(QString());
        m_error->setText(tr("Deleted %1.").arg(name));
    } catch (const DomainError &e) {
        showError(e);
    }
}

void ToolsDock::testRun()
{
    const QString keyId = m_model->keyId();
    const auto tool = m_services.toolLibrary.findTool(keyId, m_editing);
    if (!tool)
        return;
    m_runStatus->setStyleSheet(QString());
    try {
        // The parameters as the bridge reads `params`: a JSON object.
        QJsonValue value;
        QString problem;
        if (!m_arguments->json(&value, &problem))
            throw DomainError::invalidJson(tr("params: %1").arg(problem));
        const auto fields = JsonFields({{QStringLiteral("params"),
                                         value.isUndefined() ? QJsonValue(QJsonObject()) : value}})
                                .optionalObject(QStringLiteral("params"));
        // As the bridge runs user_<name>, and as the API starts runs: credits, room in
        // the pool, an entry in the request log.
        engine::AgentRun *run = m_services.runService.runSavedTool(
            keyId, tool->name, fields ? fields->object() : QJsonObject(),
            QStringLiteral("console"));
        m_runId = run->trajectoryId();
        m_runKeyId = keyId;
        connect(run, &engine::AgentRun::settled, this, &ToolsDock::showRun);
        m_result->setJson(QJsonValue());
        showRun();
    } catch (const DomainError &e) {
        m_runStatus->setStyleSheet(kErrorStyle);
        m_runStatus->setText(tr("%1 (%2)").arg(e.message(), e.code()));
    }
}

void ToolsDock::showRun()
{
    if (m_runId.isEmpty())
        return;
    QJsonObject response;
    try {
        response = m_services.runService.latest(m_runId, m_runKeyId);
    } catch (const DomainError &e) {
        m_runStatus->setText(e.message());
        return;
    }
    const QString status = response.value(QStringLiteral("status")).toString();
    QString text = tr("Run %1: %2").arg(m_runId, status);
    const QString problem = response.value(QStringLiteral("error")).toString();
    if (!problem.isEmpty())
        text += QStringLiteral(" — ") + problem;
    m_runStatus->setStyleSheet(status == QLatin1String("error") ? kErrorStyle : QString());
    m_runStatus->setText(text);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    m_result->setJson(result.isEmpty() ? QJsonValue(response) : QJsonValue(result));
}

void ToolsDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void ToolsDock::retranslateUi()
{
    setWindowTitle(tr("Saved tools"));
    m_view->setAccessibleName(tr("Saved tools"));
    m_arguments->setAccessibleName(tr("Test arguments"));
    m_result->setAccessibleName(tr("Test result"));
    m_view->findChild<EmptyState *>()->setText(
        tr("No saved tools yet. Press New tool to write one, or save a run's steps as a tool "
           "through the API (POST /tools)."));
    m_new->setText(tr("New tool"));
    m_delete->setText(tr("Delete"));
    m_nameCaption->setText(tr("Name"));
    m_name->setPlaceholderText(tr("lowercase_name (called as user_<name>)"));
    m_descriptionCaption->setText(tr("Description"));
    m_kindCaption->setText(tr("Runs"));
    m_kind->setItemText(0, tr("Browser steps"));
    m_kind->setItemText(1, tr("JavaScript in a page"));
    m_parametersCaption->setText(tr("Parameters"));
    m_parameters->setPlaceholderText(
        tr("JSON Schema, e.g. {\"type\": \"object\", \"properties\": {\"query\": {\"type\": "
           "\"string\"}}} (empty: none)"));
    m_stepsCaption->setText(tr("Steps"));
    m_steps->setPlaceholderText(
        tr("[{\"tool\": \"act_on_tab\", \"args\": {\"action\": \"navigate\", \"url\": "
           "\"https://example.com/?q={{query}}\"}}]"));
    m_codeCaption->setText(tr("JavaScript"));
    m_code->setPlaceholderText(
        tr("A function body; `params` holds the parameters, e.g. return document.title;"));
    m_urlCaption->setText(tr("Page URL"));
    m_url->setPlaceholderText(tr("https://… (the page the code runs in)"));
    m_save->setText(tr("Save"));
    m_argumentsCaption->setText(tr("Test run with these parameters (JSON) — runs the saved tool"));
    m_run->setText(tr("Run"));
    m_model->retranslate();
}

} // namespace ph::ui
