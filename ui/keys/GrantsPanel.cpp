#include "GrantsPanel.h"

#include "GrantsModel.h"

#include "core/DomainError.h"
#include "oauth/OAuthService.h"

#include "common/EmptyState.h"
#include "common/Icons.h"
#include "common/TableViews.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

GrantsPanel::GrantsPanel(const ConsoleServices &services, QWidget *parent)
    : QGroupBox(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("grantsPanel"));
    m_model = new GrantsModel(services.oauth, services.keyService, this);
    auto *layout = new QVBoxLayout(this);
    m_view = makeTableView(m_model, GrantsModel::Client, this);
    m_view->setMinimumHeight(80);
    m_empty = new EmptyState(m_view);
    m_revoke = new QPushButton(icon(Icon::Delete), QString(), this);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *row = new QHBoxLayout;
    row->addWidget(m_message, 1);
    row->addWidget(m_revoke);
    layout->addWidget(m_view, 1);
    layout->addLayout(row);
    connect(m_revoke, &QPushButton::clicked, this, [this] { revokeSelected(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_message->clear();
        updateButtons();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, &GrantsPanel::updateButtons);
    retranslateUi();
}

bool GrantsPanel::select(const QString &grantId)
{
    const int row = m_model->rowOf(grantId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    updateButtons();
    return true;
}

void GrantsPanel::updateButtons()
{
    const QModelIndex current = m_view->currentIndex();
    m_revoke->setEnabled(current.isValid() && current.row() < m_model->rowCount() &&
                         m_model->rowAt(current).active);
}

bool GrantsPanel::revokeSelected(bool confirmed)
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid() || current.row() >= m_model->rowCount())
        return false;
    const GrantRow grant = m_model->rowAt(current);
    if (!confirmed) {
        QMessageBox box(QMessageBox::Warning, tr("Revoke access"),
                        tr("Revoke the access of %1 (acting as key %2)? The client has to sign "
                           "in again.")
                            .arg(grant.clientName, grant.keyLabel),
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("confirmRevokeGrant"));
        QPushButton *confirm = box.addButton(tr("Revoke access"), QMessageBox::DestructiveRole);
        QPushButton *cancel = box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(cancel);
        box.exec();
        if (box.clickedButton() != confirm)
            return false;
    }
    try {
        m_services.oauth.revokeGrant(grant.id);
    } catch (const DomainError &e) {
        m_message->setStyleSheet(QStringLiteral("color: #c0392b"));
        m_message->setText(tr("%1 (%2)").arg(e.message(), e.code()));
        return false;
    }
    m_message->setStyleSheet(QString());
    m_message->setText(tr("Revoked the access of %1.").arg(grant.clientName));
    updateButtons();
    return true;
}

void GrantsPanel::retranslateUi()
{
    setTitle(tr("OAuth grants of MCP clients"));
    m_view->setAccessibleName(tr("OAuth grants of MCP clients"));
    m_empty->setText(tr("No MCP client has signed in with OAuth yet. Add %1/mcp as a connector "
                        "in an MCP client; you sign in and choose the key it acts as.")
                         .arg(m_services.apiAddress()));
    m_revoke->setText(tr("Revoke access"));
    m_revoke->setAccessibleName(tr("Revoke access"));
    m_model->retranslate();
    updateButtons();
}

} // namespace ph::ui
