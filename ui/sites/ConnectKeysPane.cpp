#include "ConnectKeysPane.h"

#include "SitesModel.h"

#include "sites/ConnectKeyRepository.h"

#include "common/Icons.h"
#include "common/TableViews.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ph::ui {

ConnectKeysPane::ConnectKeysPane(ConnectKeysModel *model, QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_count = new QLabel(this);
    m_count->setWordWrap(true);
    layout->addWidget(m_count);
    m_view = makeTableView(model, ConnectKeysModel::Label, this);
    layout->addWidget(m_view, 1);
    auto *row = new QHBoxLayout;
    m_label = new QLineEdit(this);
    m_create = new QPushButton(icon(Icon::Add), QString(), this);
    m_revoke = new QPushButton(icon(Icon::Delete), QString(), this);
    row->addWidget(m_label, 1);
    row->addWidget(m_create);
    row->addWidget(m_revoke);
    layout->addLayout(row);

    onDeleteKey(m_view, this, &ConnectKeysPane::revokeRequested);
    connect(m_create, &QPushButton::clicked, this, &ConnectKeysPane::createRequested);
    connect(m_label, &QLineEdit::returnPressed, this, &ConnectKeysPane::createRequested);
    connect(m_revoke, &QPushButton::clicked, this, &ConnectKeysPane::revokeRequested);
}

void ConnectKeysPane::showState(int activeCount, bool canRevoke)
{
    if (activeCount < 0)
        m_count->clear();
    else
        m_count->setText(
            tr("%1 of at most %2 Connect AI keys are active. Each lets an AI read this site's "
               "configuration and propose changes for your review.")
                .arg(activeCount)
                .arg(sites::ConnectKeyRepository::kMaxActivePerSite));
    m_label->setEnabled(activeCount >= 0);
    m_create->setEnabled(activeCount >= 0);
    m_revoke->setEnabled(canRevoke);
}

void ConnectKeysPane::retranslateUi()
{
    m_label->setPlaceholderText(tr("Which AI, e.g. Claude (default: Connect AI)"));
    m_label->setAccessibleName(tr("Name of the new Connect AI key"));
    m_view->setAccessibleName(tr("Connect AI keys"));
    m_create->setText(tr("Create Connect AI key"));
    m_revoke->setText(tr("Revoke (Del)"));
}

} // namespace ph::ui
