#include "OverviewDock.h"

#include "Service.h"
#include "core/Clock.h"
#include "core/RequestLog.h"
#include "core/Store.h"

#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace ph::ui {

OverviewDock::OverviewDock(Service &service, QWidget *parent)
    : QDockWidget(parent)
    , m_service(service)
{
    setObjectName(QStringLiteral("overviewDock"));
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    m_title = new QLabel(this);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    m_title->setFont(f);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_example = new QPlainTextEdit(this);
    m_example->setReadOnly(true);
    m_example->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_example->setMaximumHeight(90);
    m_activityTitle = new QLabel(this);
    m_activity = new QPlainTextEdit(this);
    m_activity->setReadOnly(true);
    m_activity->setMaximumBlockCount(500);
    m_activity->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_title);
    layout->addWidget(m_intro);
    layout->addWidget(m_example);
    layout->addWidget(m_activityTitle);
    layout->addWidget(m_activity, 1);
    setWidget(page);
    connect(&service.store(), &Store::changed, this, &OverviewDock::onStoreChanged);
    retranslateUi();
}

void OverviewDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void OverviewDock::retranslateUi()
{
    setWindowTitle(tr("Overview"));
    m_title->setText(tr("Pilothouse is running"));
    m_intro->setText(tr("The API listens at %1. Send your API key as "
                        "\"Authorization: Bearer <key>\". For example:")
                         .arg(m_service.apiAddress()));
    m_example->setPlainText(
        QStringLiteral("curl -s -H \"Authorization: Bearer $KEY\" \\\n  -d "
                       "'{\"urls\":[\"https://example.org/\"]}' \\\n  %1/scrape")
            .arg(m_service.apiAddress()));
    m_activityTitle->setText(tr("Requests"));
    m_example->setAccessibleName(tr("Example request"));
    m_activity->setAccessibleName(tr("Requests"));
}

void OverviewDock::onStoreChanged(const QString &table, const QString &id)
{
    if (table != QLatin1String("api_requests"))
        return;
    const auto record = m_service.store().requests().find(id);
    if (!record)
        return;
    const QString time =
        QDateTime::fromMSecsSinceEpoch(record->finishedAt.value_or(record->startedAt))
            .toLocalTime()
            .toString(QStringLiteral("HH:mm:ss"));
    m_activity->appendPlainText(
        QStringLiteral("%1  %2  %3  %4").arg(time, record->endpoint, record->status, record->id));
}

} // namespace ph::ui
