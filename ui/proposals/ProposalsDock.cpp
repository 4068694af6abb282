#include "ProposalsDock.h"
#include "common/DateText.h"
#include "common/EmptyState.h"

#include "ProposalsModel.h"
#include "common/JsonView.h"

#include "common/Icons.h"
#include "core/DomainError.h"
#include "sites/ChangeDecisions.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

namespace {

QString brief(const QJsonValue &v)
{
    if (v.isUndefined())
        return QStringLiteral("—");
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    const QString text = QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
    return text.size() > 120 ? text.left(117) + QStringLiteral("…") : text;
}

// Path by path, what differs between two JSON values: "greeting.text: "Hi" → "Ahoy!"".
void differences(const QJsonValue &a, const QJsonValue &b, const QString &path, QStringList *out)
{
    if (a == b)
        return;
    // An object that appears or disappears is listed leaf by leaf.
    if ((a.isObject() || a.isUndefined()) && (b.isObject() || b.isUndefined())) {
        const QJsonObject x = a.toObject();
        const QJsonObject y = b.toObject();
        QStringList keys = x.keys();
        for (const QString &k : y.keys()) {
            if (!keys.contains(k))
                keys << k;
        }
        for (const QString &k : std::as_const(keys))
            differences(x.value(k), y.value(k), path.isEmpty() ? k : path + QLatin1Char('.') + k,
                        out);
        return;
    }
    out->append(QStringLiteral("%1: %2 → %3")
                    .arg(path.isEmpty() ? QStringLiteral("(all)") : path, brief(a), brief(b)));
}

} // namespace

ProposalsDock::ProposalsDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("proposalsDock"));
    m_model = new ProposalsModel(services.sites.changes(), services.sites.sites(), this);
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    m_filter = new QComboBox(body);
    for (const char *s : {"pending", "applied", "discarded", ""})
        m_filter->addItem(QString(), QLatin1String(s));
    layout->addWidget(m_filter);
    auto *split = new QSplitter(Qt::Horizontal, body);
    m_view = new QTableView(split);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(ProposalsModel::Title, QHeaderView::Stretch);
    new EmptyState(m_view);

    auto *detail = new QWidget(split);
    auto *d = new QVBoxLayout(detail);
    d->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(detail);
    m_meta = new QLabel(detail);
    m_description = new QLabel(detail);
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_changes = new QListWidget(detail);
    m_changes->setMaximumHeight(120);
    m_dropped = new QLabel(detail);
    m_dropped->setWordWrap(true);
    d->addWidget(m_heading);
    d->addWidget(m_meta);
    d->addWidget(m_description);
    d->addWidget(m_changes);
    d->addWidget(m_dropped);
    auto *compare = new QGridLayout;
    m_currentCaption = new QLabel(detail);
    m_proposedCaption = new QLabel(detail);
    m_currentView = new JsonView(detail);
    m_proposed = new JsonView(detail);
    compare->addWidget(m_currentCaption, 0, 0);
    compare->addWidget(m_proposedCaption, 0, 1);
    compare->addWidget(m_currentView, 1, 0);
    compare->addWidget(m_proposed, 1, 1);
    d->addLayout(compare, 1);
    auto *actions = new QHBoxLayout;
    m_note = new QLineEdit(detail);
    m_apply = new QPushButton(icon(Icon::Apply), QString(), detail);
    m_discard = new QPushButton(icon(Icon::Discard), QString(), detail);
    actions->addWidget(m_note, 1);
    actions->addWidget(m_apply);
    actions->addWidget(m_discard);
    d->addLayout(actions);
    m_message = new QLabel(detail);
    m_message->setWordWrap(true);
    d->addWidget(m_message);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setWidget(body);

    connect(m_filter, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setStatusFilter(m_filter->currentData().toString()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).id : QString();
                m_message->clear();
                showCurrent();
            });
    connect(m_apply, &QPushButton::clicked, this, [this] { decide(true); });
    connect(m_discard, &QPushButton::clicked, this, [this] { decide(false); });
    retranslateUi();
    showCurrent();
}

bool ProposalsDock::select(const QString &changeId)
{
    const int row = m_model->rowOf(changeId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    m_current = changeId;
    showCurrent();
    return true;
}

void ProposalsDock::showCurrent()
{
    const auto change =
        m_current.isEmpty() ? std::nullopt : m_services.sites.changes().find(m_current);
    m_changes->clear();
    const bool pending = change && change->status == QLatin1String("pending");
    m_apply->setEnabled(pending);
    m_discard->setEnabled(pending);
    m_note->setEnabled(pending);
    if (!change) {
        m_heading->setText(tr("Select a proposal to review it."));
        m_meta->clear();
        m_description->clear();
        m_dropped->clear();
        m_currentView->setJson(QJsonValue(QJsonValue::Undefined));
        m_proposed->setJson(QJsonValue(QJsonValue::Undefined));
        return;
    }
    const auto site = m_services.sites.sites().findSite(change->siteId);
    m_heading->setText(QStringLiteral("<b>%1</b>").arg(change->title.toHtmlEscaped()));
    QString meta = tr("%1 · proposed by %2 on %3 · %4")
                       .arg(site ? site->name : change->siteId, change->author,
                            shortDateTime(change->createdAt), change->status);
    if (change->appliedVersion)
        meta += tr(" · version %1").arg(*change->appliedVersion);
    if (!change->decidedBy.isEmpty())
        meta += tr(" · decided by %1").arg(change->decidedBy);
    m_meta->setText(meta);
    m_description->setText(change->description);
    const QJsonObject current = m_services.sites.sites().config(change->siteId).config;
    const QJsonObject proposed = sites::SiteConfigSchema::applyProposal(current, change->patch);
    m_currentView->setJson(current);
    m_proposed->setJson(pending ? QJsonValue(proposed) : QJsonValue(change->patch));
    QStringList diff;
    differences(current, proposed, QString(), &diff);
    if (!pending)
        diff = {tr("(decided: the right side shows the patch as proposed)")};
    else if (diff.isEmpty())
        diff = {tr("(no difference from the current configuration)")};
    m_changes->addItems(diff);
    m_dropped->setText(change->droppedPaths.isEmpty()
                           ? QString()
                           : tr("Dropped when proposed (not allowed): %1")
                                 .arg(change->droppedPaths.join(QStringLiteral(", "))));
}

void ProposalsDock::decide(bool apply)
{
    const QString actor = QStringLiteral("console");
    // A copy: deciding moves the row, which changes the selection and m_current.
    const QString id = m_current;
    try {
        if (apply) {
            const sites::ConfigChange c = m_services.sites.applyChange(id, actor, m_note->text());
            m_message->setText(tr("Applied: the site's configuration is now version %1.")
                                   .arg(c.appliedVersion.value_or(0)));
        } else {
            sites::discardChange(m_services.sites.changes(), id, actor, m_note->text());
            m_message->setText(tr("Discarded; the configuration is unchanged."));
        }
        m_note->clear();
    } catch (const DomainError &e) {
        m_message->setText(e.message());
    }
    m_current = id;
    showCurrent();
}

void ProposalsDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void ProposalsDock::retranslateUi()
{
    setWindowTitle(tr("Proposals"));
    m_filter->setAccessibleName(tr("Show proposals"));
    m_view->setAccessibleName(tr("Proposals"));
    m_changes->setAccessibleName(tr("Changed paths"));
    m_currentView->setAccessibleName(tr("Current configuration"));
    m_proposed->setAccessibleName(tr("Proposed configuration"));
    m_note->setAccessibleName(tr("Note"));
    m_view->findChild<EmptyState *>()->setText(
        tr("No proposals here. Site agents and the configuration API (POST "
           "/config/v1/sites/{siteId}/changes) propose changes to a site's configuration; "
           "each waits here to be applied or discarded."));
    const QStringList labels{tr("Pending"), tr("Applied"), tr("Discarded"), tr("All proposals")};
    for (int i = 0; i < labels.size(); ++i)
        m_filter->setItemText(i, labels.at(i));
    m_currentCaption->setText(tr("Current configuration"));
    m_proposedCaption->setText(tr("With the proposal"));
    m_note->setPlaceholderText(tr("Note or reason (optional)"));
    m_apply->setText(tr("Apply"));
    m_discard->setText(tr("Discard"));
    m_model->retranslate();
    showCurrent();
}

} // namespace ph::ui
