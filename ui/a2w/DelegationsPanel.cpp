#include "DelegationsPanel.h"

#include "common/DateText.h"
#include "common/Icons.h"

#include "a2w/A2wService.h"
#include "core/DomainError.h"

#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ph::ui {

DelegationsPanel::DelegationsPanel(const ConsoleServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
{
    auto *s = new QVBoxLayout(this);
    s->setContentsMargins(0, 0, 0, 0);
    m_heading = new QLabel(this);
    s->addWidget(m_heading);
    m_delegations = new QTableWidget(0, 6, this);
    m_delegations->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_delegations->setSelectionMode(QAbstractItemView::SingleSelection);
    m_delegations->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_delegations->horizontalHeader()->setStretchLastSection(true);
    m_delegations->verticalHeader()->hide();
    s->addWidget(m_delegations, 1);
    auto *actions = new QHBoxLayout;
    m_revoke = new QPushButton(icon(Icon::Delete), QString(), this);
    actions->addStretch(1);
    actions->addWidget(m_revoke);
    s->addLayout(actions);

    connect(&services.a2w, &a2w::A2wService::delegationsChanged, this, &DelegationsPanel::refresh);
    connect(m_delegations, &QTableWidget::itemSelectionChanged, this, [this] {
        const QList<QTableWidgetItem *> chosen = m_delegations->selectedItems();
        m_revoke->setEnabled(!chosen.isEmpty() && chosen.first()->data(Qt::UserRole + 1).toBool());
    });
    connect(m_revoke, &QPushButton::clicked, this, &DelegationsPanel::revoke);
    refresh();
    retranslateUi();
}

void DelegationsPanel::revoke()
{
    Q_EMIT error(QString());
    const QList<QTableWidgetItem *> chosen = m_delegations->selectedItems();
    if (chosen.isEmpty())
        return;
    try {
        m_services.a2w.revokeDelegation(chosen.first()->data(Qt::UserRole).toString());
    } catch (const DomainError &e) {
        Q_EMIT error(e.message());
    }
}

void DelegationsPanel::refresh()
{
    const QString chosen =
        m_delegations->selectedItems().isEmpty()
            ? QString()
            : m_delegations->selectedItems().first()->data(Qt::UserRole).toString();
    const QList<a2w::Delegation> list = m_services.a2w.delegations();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_delegations->setRowCount(int(list.size()));
    for (int row = 0; row < list.size(); ++row) {
        const a2w::Delegation &d = list.at(row);
        const bool live = !d.revokedAt && d.expiresAt > now;
        const QString host = m_services.a2w.find(d.runId).value_or(a2w::Run()).host;
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

void DelegationsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void DelegationsPanel::retranslateUi()
{
    m_delegations->setAccessibleName(tr("Delegations"));
    m_heading->setText(tr("Delegated sessions"));
    m_delegations->setHorizontalHeaderLabels(
        {tr("Token"), tr("Site"), tr("Scope"), tr("Spent"), tr("Expires"), tr("State")});
    m_revoke->setText(tr("Revoke session"));
    refresh();
}

} // namespace ph::ui
