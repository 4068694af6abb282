#include "TriggersDock.h"

#include "TriggersModel.h"

#include "cloud/LibraryRepository.h"
#include "cloud/ToolLibrary.h"
#include "common/EmptyState.h"
#include "common/Icons.h"
#include "core/ApiKeyRepository.h"
#include "core/ApiKeyService.h"
#include "core/DomainError.h"
#include "core/Settings.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

TriggersDock::TriggersDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("triggersDock"));
    m_model = new TriggersModel(services.library,
                                services.settings.stringValue(SettingKeys::publicBaseUrl), this);
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *split = new QSplitter(Qt::Horizontal, body);
    split->setObjectName(QStringLiteral("triggersSplit"));
    m_view = new QTableView(split);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_empty = new EmptyState(m_view);

    auto *side = new QWidget(split);
    auto *sideLayout = new QVBoxLayout(side);
    auto *form = new QFormLayout;
    sideLayout->addLayout(form);
    sideLayout->addStretch(1); // the form keeps its natural height at the top
    m_label = new QLineEdit(side);
    m_kind = new QComboBox(side);
    for (const char *k : {"tool", "run", "prompt"})
        m_kind->addItem(QString(), QLatin1String(k));
    // One page per kind of target. The stack is as tall as its tallest page (the
    // prompt's), so the one-line pages hold their field at the top with a stretch below
    // it: a combo box never grows to the prompt's height (issue 19).
    m_targets = new QStackedWidget(side);
    const auto linePage = [this](QWidget *field) {
        auto *page = new QWidget(m_targets);
        auto *l = new QVBoxLayout(page);
        l->setContentsMargins(0, 0, 0, 0);
        field->setParent(page);
        l->addWidget(field);
        l->addStretch(1);
        return page;
    };
    m_tool = new QComboBox(m_targets);
    m_run = new QLineEdit(m_targets);
    auto *promptPage = new QWidget(m_targets);
    auto *promptLayout = new QVBoxLayout(promptPage);
    promptLayout->setContentsMargins(0, 0, 0, 0);
    m_prompt = new QPlainTextEdit(promptPage);
    m_prompt->setMaximumHeight(m_prompt->fontMetrics().lineSpacing() * 6);
    m_prompt->setTabChangesFocus(true);
    m_urls = new QLineEdit(promptPage);
    promptLayout->addWidget(m_prompt);
    promptLayout->addWidget(m_urls);
    m_targets->addWidget(linePage(m_tool));
    m_targets->addWidget(linePage(m_run));
    m_targets->addWidget(promptPage);
    m_targets->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_create = new QPushButton(icon(Icon::Add), QString(), side);
    m_error = new QLabel(side);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_labelCaption = new QLabel(side);
    m_kindCaption = new QLabel(side);
    form->addRow(m_labelCaption, m_label);
    form->addRow(m_kindCaption, m_kind);
    form->addRow(m_targets);
    form->addRow(m_create);
    form->addRow(m_error);
    m_urlCaption = new QLabel(side);
    m_url = new QLineEdit(side);
    m_url->setReadOnly(true);
    m_curl = new QPlainTextEdit(side);
    m_curl->setReadOnly(true);
    m_curl->setMaximumHeight(90);
    m_curl->setTabChangesFocus(true);
    auto *buttons = new QHBoxLayout;
    m_copy = new QPushButton(icon(Icon::Copy), QString(), side);
    m_revoke = new QPushButton(icon(Icon::Delete), QString(), side);
    buttons->addWidget(m_copy);
    buttons->addWidget(m_revoke);
    form->addRow(m_urlCaption, m_url);
    form->addRow(m_curl);
    form->addRow(buttons);
    layout->addWidget(split);
    setWidget(body);

    auto *revokeAction = new QAction(this);
    revokeAction->setShortcut(QKeySequence::Delete);
    revokeAction->setShortcutContext(Qt::WidgetShortcut);
    connect(revokeAction, &QAction::triggered, this, &TriggersDock::revoke);
    m_view->addAction(revokeAction);

    connect(m_kind, &QComboBox::currentIndexChanged, m_targets, &QStackedWidget::setCurrentIndex);
    // A one-line target takes one line: the stack shrinks to its page (the prompt's page
    // may grow up to its limit).
    const auto fitTarget = [this, promptPage] {
        QWidget *page = m_targets->currentWidget();
        m_targets->setMaximumHeight(page == promptPage ? QWIDGETSIZE_MAX
                                                       : page->minimumSizeHint().height());
    };
    connect(m_targets, &QStackedWidget::currentChanged, this, fitTarget);
    fitTarget();
    connect(m_create, &QPushButton::clicked, this, &TriggersDock::create);
    connect(m_revoke, &QPushButton::clicked, this, &TriggersDock::revoke);
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_url->text()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).id : QString();
                showCurrent();
            });
    connect(&services.library, &cloud::LibraryRepository::toolsChanged, this,
            &TriggersDock::reloadTools);
    reloadTools();
    retranslateUi();
    showCurrent();
}

QString TriggersDock::ownerKeyId() const
{
    // The console acts as the owner.
    return m_services.keyService.activeOwnerId();
}

void TriggersDock::reloadTools()
{
    const QString keep = m_tool->currentText();
    m_tool->clear();
    for (const cloud::SavedTool &t : m_services.toolLibrary.tools(ownerKeyId()))
        m_tool->addItem(t.name);
    const int again = m_tool->findText(keep);
    if (again >= 0)
        m_tool->setCurrentIndex(again);
}

void TriggersDock::create()
{
    cloud::TriggerDraft draft;
    draft.label = m_label->text().trimmed();
    const QString kind = m_kind->currentData().toString();
    if (kind == QLatin1String("tool")) {
        draft.tool = m_tool->currentText();
    } else if (kind == QLatin1String("run")) {
        draft.trajectoryId = m_run->text().trimmed();
    } else {
        draft.prompt = m_prompt->toPlainText();
        const QStringList urls =
            m_urls->text().split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
        if (!urls.isEmpty())
            draft.urls = urls;
    }
    try {
        const cloud::Trigger t = m_services.toolLibrary.createTrigger(ownerKeyId(), draft);
        m_error->clear();
        const int row = m_model->rowOf(t.id);
        if (row >= 0)
            m_view->setCurrentIndex(m_model->index(row, 0));
        m_current = t.id;
        showCurrent();
    } catch (const DomainError &e) {
        m_error->setText(e.message());
    }
}

void TriggersDock::revoke()
{
    const auto t = m_services.toolLibrary.findTrigger(m_current);
    if (!t)
        return;
    try {
        m_services.toolLibrary.revokeTrigger(t->keyId, t->id);
    } catch (const DomainError &e) {
        m_error->setText(e.message());
    }
    showCurrent();
}

void TriggersDock::showCurrent()
{
    const auto t =
        m_current.isEmpty() ? std::nullopt : m_services.toolLibrary.findTrigger(m_current);
    m_copy->setEnabled(t.has_value());
    m_revoke->setEnabled(t && !t->revokedAt);
    if (!t) {
        m_url->clear();
        m_curl->clear();
        return;
    }
    const QString url = m_model->urlOf(*t);
    m_url->setText(url);
    // A ready example: the key stays a variable, it is never shown here.
    m_curl->setPlainText(
        t->revokedAt ? tr("This trigger is revoked; its URL answers 404.")
                     : QStringLiteral("curl -s -X POST -H \"Authorization: Bearer $KEY\" \\\n"
                                      "  -H \"Content-Type: application/json\" -d '{}' \\\n  %1")
                           .arg(url));
}

void TriggersDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void TriggersDock::retranslateUi()
{
    setWindowTitle(tr("Triggers"));
    m_labelCaption->setText(tr("Label"));
    m_kindCaption->setText(tr("Runs"));
    m_kind->setItemText(0, tr("A saved tool"));
    m_kind->setItemText(1, tr("A past run again"));
    m_kind->setItemText(2, tr("A prompt"));
    m_run->setPlaceholderText(tr("trajectory id (traj_…)"));
    m_prompt->setPlaceholderText(tr("What the agent should do"));
    m_urls->setPlaceholderText(tr("Pages, separated by spaces (optional)"));
    m_create->setText(tr("Create trigger"));
    m_urlCaption->setText(tr("URL"));
    m_copy->setText(tr("Copy URL"));
    m_revoke->setText(tr("Revoke"));
    m_view->setAccessibleName(tr("Triggers"));
    m_empty->setText(tr("No triggers yet. Choose what a trigger runs in the form beside this "
                        "list and press Create trigger: its URL starts that run with one POST, "
                        "from a cron job, a form or another service."));
    m_tool->setAccessibleName(tr("Saved tool"));
    m_run->setAccessibleName(tr("Run to repeat"));
    m_prompt->setAccessibleName(tr("Prompt"));
    m_urls->setAccessibleName(tr("Pages"));
    m_curl->setAccessibleName(tr("Example request"));
    m_model->retranslate();
    showCurrent();
}

} // namespace ph::ui
