#include "DeliveriesDock.h"

#include "DeliveriesModel.h"

#include "common/CurlText.h"
#include "common/DateText.h"
#include "common/EmptyState.h"
#include "common/Icons.h"
#include "common/JsonView.h"
#include "webhooks/WebhookQueue.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
QPlainTextEdit *textPane(QWidget *parent)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setTabChangesFocus(true);
    return edit;
}
} // namespace

DeliveriesDock::DeliveriesDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("deliveriesDock"));
    m_model = new DeliveriesModel(services.webhooks, this);
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *bar = new QHBoxLayout;
    m_filter = new QComboBox(body);
    for (const char *s : {"", "pending", "delivered", "failed"})
        m_filter->addItem(QString(), QLatin1String(s));
    m_redeliver = new QPushButton(icon(Icon::Send), QString(), body);
    m_redeliverFailed = new QPushButton(icon(Icon::Send), QString(), body);
    m_copyCurl = new QPushButton(icon(Icon::Copy), QString(), body);
    bar->addWidget(m_filter);
    bar->addStretch(1);
    bar->addWidget(m_copyCurl);
    bar->addWidget(m_redeliver);
    bar->addWidget(m_redeliverFailed);
    layout->addLayout(bar);
    auto *split = new QSplitter(Qt::Vertical, body);
    split->setObjectName(QStringLiteral("deliveriesSplit"));
    m_view = new QTableView(split);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(DeliveriesModel::Target, QHeaderView::Stretch);
    m_empty = new EmptyState(m_view);
    for (const int column : {int(DeliveriesModel::NextAttempt), int(DeliveriesModel::Created)})
        m_view->horizontalHeader()->resizeSection(column, dateColumnWidth(m_view->fontMetrics()));
    makeDetail(split);
    layout->addWidget(split, 1);
    setWidget(body);

    connectActions();
    retranslateUi();
    showCurrent();
}

void DeliveriesDock::connectActions()
{
    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this,
            [this] { m_model->setStatusFilter(m_filter->currentData().toString()); });
    addAction(refresh);
    // Ctrl+Shift+C copies the selected delivery as curl, Ctrl+Shift+R redelivers it.
    auto *copy = new QAction(this);
    copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    copy->setProperty("help",
                      QT_TRANSLATE_NOOP("ph::ui::ShortcutsDialog", "Copy the delivery as curl"));
    connect(copy, &QAction::triggered, this, &DeliveriesDock::copyCurl);
    addAction(copy);
    auto *redeliver = new QAction(this);
    redeliver->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    redeliver->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    redeliver->setProperty(
        "help", QT_TRANSLATE_NOOP("ph::ui::ShortcutsDialog", "Redeliver the selected delivery"));
    connect(redeliver, &QAction::triggered, m_redeliver, &QPushButton::click);
    addAction(redeliver);

    connect(m_filter, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setStatusFilter(m_filter->currentData().toString()); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).id : QString();
                m_attemptRow = -1;
                showCurrent();
            });
    connect(m_attempts, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0 && row != m_attemptRow) {
            m_attemptRow = row;
            showAttempt();
        }
    });
    connect(m_redeliver, &QPushButton::clicked, this, [this] {
        const QString id = m_current; // the row may move while it is redelivered
        if (!id.isEmpty())
            m_services.webhooks.redeliver(id);
    });
    connect(m_redeliverFailed, &QPushButton::clicked, this,
            [this] { m_services.webhooks.redeliverFailed(QString()); });
    connect(m_copyCurl, &QPushButton::clicked, this, &DeliveriesDock::copyCurl);
    connect(&m_services.webhooks, &webhooks::WebhookQueue::deliveryChanged, this,
            [this](const QString &id) {
                if (id == m_current)
                    showCurrent();
            });
}

void DeliveriesDock::makeDetail(QWidget *split)
{
    auto *detail = new QWidget(split);
    auto *d = new QVBoxLayout(detail);
    d->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(detail);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->addWidget(m_heading);
    auto *inner = new QSplitter(Qt::Horizontal, detail);
    inner->setObjectName(QStringLiteral("deliveryDetailSplit"));
    m_attempts = new QTableWidget(0, 5, inner);
    m_attempts->verticalHeader()->hide();
    m_attempts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attempts->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_attempts->setSelectionMode(QAbstractItemView::SingleSelection);
    m_attempts->horizontalHeader()->setStretchLastSection(true);
    m_attempts->horizontalHeader()->resizeSection(0, dateColumnWidth(m_attempts->fontMetrics()));
    // The selected attempt: what went out, what came back.
    auto *request = new QWidget(inner);
    auto *r = new QVBoxLayout(request);
    r->setContentsMargins(0, 0, 0, 0);
    m_requestCaption = new QLabel(request);
    m_requestHeaders = textPane(request);
    m_requestBody = new JsonView(request);
    m_requestCaption->setBuddy(m_requestHeaders);
    r->addWidget(m_requestCaption);
    r->addWidget(m_requestHeaders, 2);
    r->addWidget(m_requestBody, 3);
    auto *answer = new QWidget(inner);
    auto *a = new QVBoxLayout(answer);
    a->setContentsMargins(0, 0, 0, 0);
    m_answerCaption = new QLabel(answer);
    m_answer = textPane(answer);
    m_answerCaption->setBuddy(m_answer);
    a->addWidget(m_answerCaption);
    a->addWidget(m_answer, 1);
    d->addWidget(inner, 1);
}

DeliveriesDock::~DeliveriesDock() = default;

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
    m_attemptRow = -1;
    showCurrent();
    return true;
}

void DeliveriesDock::selectAttempt(int row)
{
    if (row < 0 || row >= m_attempts->rowCount())
        return;
    m_attempts->setCurrentCell(row, 0);
    m_attemptRow = row;
    showAttempt();
}

void DeliveriesDock::showCurrent()
{
    const auto d = m_current.isEmpty() ? std::nullopt : m_services.webhooks.find(m_current, true);
    m_redeliver->setEnabled(d.has_value());
    m_copyCurl->setEnabled(d.has_value());
    m_shown.reset();
    const QSignalBlocker quiet(m_attempts);
    m_attempts->setRowCount(0);
    if (!d) {
        m_heading->setText(tr("Select a delivery to see its attempts."));
        showAttempt();
        return;
    }
    m_shown = std::make_unique<webhooks::DeliveryRecord>(*d);
    m_heading->setText(
        tr("<b>%1</b> %2 to %3 — %4").arg(d->id, d->event, d->url.toHtmlEscaped(), d->status));
    for (const webhooks::AttemptRecord &a : d->attemptLog) {
        const int row = m_attempts->rowCount();
        m_attempts->insertRow(row);
        const QStringList cells{
            shortDateTime(a.at),
            a.statusCode > 0 ? QString::number(a.statusCode) : QStringLiteral("—"),
            QStringLiteral("%1 ms").arg(a.latencyMs), a.response.left(200), a.error};
        for (int c = 0; c < cells.size(); ++c)
            m_attempts->setItem(row, c, new QTableWidgetItem(cells.at(c)));
        m_attempts->item(row, 0)->setToolTip(fullDateTime(a.at));
    }
    // The newest attempt unless another one was picked (and is still there).
    if (m_attemptRow < 0 || m_attemptRow >= m_attempts->rowCount())
        m_attemptRow = m_attempts->rowCount() - 1;
    if (m_attemptRow >= 0)
        m_attempts->setCurrentCell(m_attemptRow, 0);
    showAttempt();
}

void DeliveriesDock::showAttempt()
{
    const webhooks::AttemptRecord *a =
        m_shown && m_attemptRow >= 0 && m_attemptRow < m_shown->attemptLog.size()
            ? &m_shown->attemptLog.at(m_attemptRow)
            : nullptr;
    if (!m_shown) {
        m_requestHeaders->clear();
        m_requestBody->setJson(QJsonValue(QJsonValue::Undefined));
        m_answer->clear();
        return;
    }
    QString head = QStringLiteral("POST %1\n").arg(m_shown->url);
    if (a && !a->requestHeaders.isEmpty())
        head += a->requestHeaders;
    else if (a && a->statusCode == 0 && !a->error.isEmpty())
        head += tr("(nothing was sent: %1)").arg(a->error);
    else if (a)
        head += tr("(headers of this attempt were not recorded)");
    else
        head += tr("(no attempt yet)");
    m_requestHeaders->setPlainText(head);
    const QJsonDocument doc = QJsonDocument::fromJson(m_shown->payload);
    m_requestBody->setJson(doc.isObject() ? QJsonValue(doc.object())
                                          : QJsonValue(QString::fromUtf8(m_shown->payload)));
    if (!a) {
        m_answer->clear();
        return;
    }
    QString answer;
    if (a->statusCode > 0)
        answer = QStringLiteral("HTTP %1\n%2\n%3")
                     .arg(a->statusCode)
                     .arg(a->responseHeaders, a->response);
    else
        answer = tr("No answer: %1").arg(a->error);
    m_answer->setPlainText(answer);
}

QString DeliveriesDock::curlCommand(const webhooks::DeliveryRecord &delivery,
                                    const webhooks::AttemptRecord *attempt)
{
    QList<std::pair<QString, QString>> headers;
    const QStringList lines =
        attempt ? attempt->requestHeaders.split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                : QStringList();
    for (const QString &line : lines) {
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            continue;
        const QString name = line.left(colon).trimmed();
        // curl writes these itself from the URL and the body.
        if (name.compare(QLatin1String("Host"), Qt::CaseInsensitive) == 0 ||
            name.compare(QLatin1String("Content-Length"), Qt::CaseInsensitive) == 0)
            continue;
        headers.append({name, line.mid(colon + 1).trimmed()});
    }
    if (headers.isEmpty()) // an attempt logged before headers were kept, or none yet
        headers = {{QStringLiteral("Content-Type"), QStringLiteral("application/json")},
                   {QStringLiteral("X-Svc-Event"), delivery.event},
                   {QStringLiteral("X-Svc-Delivery-Id"), delivery.id}};
    return ui::curlCommand(QStringLiteral("POST"), delivery.url, headers,
                           QString::fromUtf8(delivery.payload));
}

QString DeliveriesDock::currentCurl() const
{
    if (!m_shown)
        return {};
    const webhooks::AttemptRecord *a =
        m_attemptRow >= 0 && m_attemptRow < m_shown->attemptLog.size()
            ? &m_shown->attemptLog.at(m_attemptRow)
            : nullptr;
    return curlCommand(*m_shown, a);
}

void DeliveriesDock::copyCurl()
{
    const QString text = currentCurl();
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
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
    m_filter->setAccessibleName(tr("Show deliveries"));
    m_view->setAccessibleName(tr("Deliveries"));
    m_attempts->setAccessibleName(tr("Attempts"));
    m_requestHeaders->setAccessibleName(tr("Request headers"));
    m_requestBody->setAccessibleName(tr("Request body"));
    m_answer->setAccessibleName(tr("Receiver's answer"));
    m_requestCaption->setText(tr("Request sent"));
    m_answerCaption->setText(tr("Answer"));
    m_redeliver->setText(tr("Redeliver"));
    m_redeliver->setToolTip(tr("Send the selected delivery again (Ctrl+Shift+R)"));
    m_redeliverFailed->setText(tr("Redeliver all failed"));
    m_copyCurl->setText(tr("Copy as curl"));
    m_copyCurl->setToolTip(
        tr("Copy the webhook request as a curl command (Ctrl+Shift+C); credential headers "
           "read [redacted]"));
    m_attempts->setHorizontalHeaderLabels(
        {tr("Time"), tr("Status"), tr("Latency"), tr("Reply"), tr("Error")});
    m_empty->setText(tr("No webhook deliveries yet. Runs started with a \"webhooks\" list, "
                        "or POST /webhooks/test, send them; each one and its attempts appear "
                        "here."));
    m_model->retranslate();
    if (m_current.isEmpty())
        m_heading->setText(tr("Select a delivery to see its attempts."));
}

} // namespace ph::ui
