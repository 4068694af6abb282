#include "DeliveriesDock.h"

#include "DeliveriesModel.h"

#include "Service.h"
#include "common/Icons.h"
#include "webhooks/WebhookQueue.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ph::ui {

DeliveriesDock::DeliveriesDock(Service &service, QWidget *parent)
    : QDockWidget(parent)
    , m_service(service)
{
    setObjectName(QStringLiteral("deliveriesDock"));
    m_model = new DeliveriesModel(service.webhooks(), this);
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *bar = new QHBoxLayout;
    m_filter = new QComboBox(body);
    for (const char *s : {"", "pending", "delivered", "failed"})
        m_filter->addItem(QString(), QLatin1String(s));
    m_redeliver = new QPushButton(icon(Icon::Send), QString(), body);
    m_redeliverFailed = new QPushButton(icon(Icon::Send), QString(), body);
    bar->addWidget(m_filter);
    bar->addStretch(1);
    bar->addWidget(m_redeliver);
    bar->addWidget(m_redeliverFailed);
    layout->addLayout(bar);
    auto *split = new QSplitter(Qt::Vertical, body);
    m_view = new QTableView(split);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(DeliveriesModel::Target, QHeaderView::Stretch);
    auto *detail = new QWidget(split);
    auto *d = new QVBoxLayout(detail);
    d->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(detail);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->addWidget(m_heading);
    m_attempts = new QTableWidget(0, 5, detail);
    m_attempts->verticalHeader()->hide();
    m_attempts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attempts->horizontalHeader()->setStretchLastSection(true);
    d->addWidget(m_attempts, 1);
    layout->addWidget(split, 1);
    setWidget(body);

    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this,
            [this] { m_model->setStatusFilter(m_filter->currentData().toString()); });
    addAction(refresh);

    connect(m_filter, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setStatusFilter(m_filter->currentData().toString()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).id : QString();
                showCurrent();
            });
    connect(m_redeliver, &QPushButton::clicked, this, [this] {
        const QString id = m_current; // the row may move while it is redelivered
        if (!id.isEmpty())
            m_service.webhooks().redeliver(id);
    });
    connect(m_redeliverFailed, &QPushButton::clicked, this,
            [this] { m_service.webhooks().redeliverFailed(QString()); });
    connect(&service.webhooks(), &webhooks::WebhookQueue::deliveryChanged, this,
            [this](const QString &id) {
                if (id == m_current)
                    showCurrent();
            });
    retranslateUi();
    showCurrent();
}

void DeliveriesDock::filterByStatus(const QString &status)
{
    m_filter->setCurrentIndex(qMax(0, m_filter->findData(status))); // the model follows
}

bool DeliveriesDock::select(const QString &deliveryId)
{
    const int row = m_model->fetchRowOf(deliveryId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    m_current = deliveryId;
    showCurrent();
    return true;
}

void DeliveriesDock::showCurrent()
{
    m_attempts->setRowCount(0);
    const auto d = m_current.isEmpty() ? std::nullopt : m_service.webhooks().find(m_current, true);
    m_redeliver->setEnabled(d.has_value());
    if (!d) {
        m_heading->setText(tr("Select a delivery to see its attempts."));
        return;
    }
    m_heading->setText(
        tr("<b>%1</b> %2 to %3 — %4").arg(d->id, d->event, d->url.toHtmlEscaped(), d->status));
    for (const webhooks::AttemptRecord &a : d->attemptLog) {
        const int row = m_attempts->rowCount();
        m_attempts->insertRow(row);
        const QStringList cells{
            QLocale().toString(QDateTime::fromMSecsSinceEpoch(a.at), QLocale::LongFormat),
            a.statusCode > 0 ? QString::number(a.statusCode) : QStringLiteral("—"),
            QStringLiteral("%1 ms").arg(a.latencyMs), a.response.left(200), a.error};
        for (int c = 0; c < cells.size(); ++c)
            m_attempts->setItem(row, c, new QTableWidgetItem(cells.at(c)));
    }
}

void DeliveriesDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void DeliveriesDock::retranslateUi()
{
    setWindowTitle(tr("Webhook deliveries"));
    const QStringList labels{tr("All deliveries"), tr("Pending"), tr("Delivered"), tr("Failed")};
    for (int i = 0; i < labels.size(); ++i)
        m_filter->setItemText(i, labels.at(i));
    m_redeliver->setText(tr("Redeliver"));
    m_redeliverFailed->setText(tr("Redeliver all failed"));
    m_attempts->setHorizontalHeaderLabels(
        {tr("Time"), tr("Status"), tr("Latency"), tr("Reply"), tr("Error")});
    m_model->retranslate();
    if (m_current.isEmpty())
        m_heading->setText(tr("Select a delivery to see its attempts."));
}

} // namespace ph::ui
