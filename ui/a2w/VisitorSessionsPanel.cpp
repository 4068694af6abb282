#include "VisitorSessionsPanel.h"

#include "common/DateText.h"
#include "common/Icons.h"

#include "core/DomainError.h"
#include "runtime/RuntimeService.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ph::ui {

VisitorSessionsPanel::VisitorSessionsPanel(const ConsoleServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
{
    auto *s = new QVBoxLayout(this);
    s->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(this);
    s->addWidget(m_heading);
    m_visitors = new QTableWidget(0, 6, this);
    m_visitors->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_visitors->setSelectionMode(QAbstractItemView::SingleSelection);
    m_visitors->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_visitors->horizontalHeader()->setStretchLastSection(true);
    m_visitors->verticalHeader()->hide();
    s->addWidget(m_visitors, 1);
    auto *actions = new QHBoxLayout;
    m_endRun = new QPushButton(icon(Icon::Stop), QString(), this);
    actions->addStretch(1);
    actions->addWidget(m_endRun);
    s->addLayout(actions);

    // Re-read (at most five times a second) when the runtime says a session or a
    // visitor's run changed.
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(200);
    connect(m_timer, &QTimer::timeout, this, &VisitorSessionsPanel::refresh);
    const auto moved = [this] {
        if (!m_timer->isActive())
            m_timer->start();
    };
    connect(&services.runtime, &runtime::RuntimeService::sessionChanged, this, moved);
    connect(&services.runtime, &runtime::RuntimeService::visitorRunChanged, this, moved);
    connect(m_visitors, &QTableWidget::itemSelectionChanged, this, [this] {
        const QList<QTableWidgetItem *> chosen = m_visitors->selectedItems();
        m_endRun->setEnabled(!chosen.isEmpty() && chosen.first()->data(Qt::UserRole + 1).toBool());
        if (!chosen.isEmpty())
            Q_EMIT sessionChosen(chosen.first()->data(Qt::UserRole).toString());
    });
    connect(m_endRun, &QPushButton::clicked, this, &VisitorSessionsPanel::endRun);
    retranslateUi();
}

void VisitorSessionsPanel::endRun()
{
    Q_EMIT error(QString());
    const QList<QTableWidgetItem *> chosen = m_visitors->selectedItems();
    if (chosen.isEmpty())
        return;
    try {
        m_services.runtime.endActiveRun(chosen.first()->data(Qt::UserRole).toString(),
                                        tr("ended by the operator"));
        refresh();
    } catch (const DomainError &e) {
        Q_EMIT error(e.message());
    }
}

void VisitorSessionsPanel::refresh()
{
    const QString chosen = m_visitors->selectedItems().isEmpty()
                               ? QString()
                               : m_visitors->selectedItems().first()->data(Qt::UserRole).toString();
    runtime::RuntimeService &rt = m_services.runtime;
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

void VisitorSessionsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void VisitorSessionsPanel::retranslateUi()
{
    m_heading->setText(tr("Visitor sessions (embedded runtime)"));
    m_visitors->setHorizontalHeaderLabels(
        {tr("Session"), tr("Site"), tr("Active run"), tr("Tabs"), tr("Last event"), tr("Updated")});
    m_endRun->setText(tr("End the session's run"));
    m_endRun->setAccessibleName(tr("End the selected visitor session's run"));
    m_visitors->setAccessibleName(tr("Visitor sessions"));
    refresh();
}

} // namespace ph::ui
