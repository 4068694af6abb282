#include "StatusBar.h"

#include "Service.h"
#include "browser/BrowserPool.h"
#include "common/Icons.h"

#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QToolButton>

namespace ph::ui {

StatusBar::StatusBar(Service &service, QWidget *parent)
    : QStatusBar(parent)
    , m_service(service)
    , m_sessionKey(service.mintedApiKey())
{
    m_address = new QLabel(this);
    m_address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_copyKey = new QToolButton(this);
    m_copyKey->setIcon(icon(Icon::Copy));
    m_copyKey->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    connect(m_copyKey, &QToolButton::clicked, this, &StatusBar::copyKey);
    m_pool = new QLabel(this);
    addWidget(m_address);
    addWidget(m_copyKey);
    addPermanentWidget(m_pool);
    connect(&service.pool(), &BrowserPool::statsChanged, this, &StatusBar::updatePool);
    retranslateUi();
}

QString StatusBar::addressText() const
{
    return m_address->text();
}

QString StatusBar::poolText() const
{
    return m_pool->text();
}

void StatusBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QStatusBar::changeEvent(event);
}

void StatusBar::retranslateUi()
{
    m_address->setText(tr("API: %1").arg(m_service.apiAddress()));
    m_copyKey->setText(tr("Copy API key"));
    m_copyKey->setToolTip(m_sessionKey.isEmpty()
                              ? tr("Mint a new owner API key and copy it to the clipboard")
                              : tr("Copy this session's API key to the clipboard"));
    updatePool();
}

void StatusBar::updatePool()
{
    const auto s = m_service.pool().stats();
    m_pool->setText(
        tr("Browser pool: %1 of %2 busy, %3 waiting").arg(s.busy).arg(s.size).arg(s.queued));
}

void StatusBar::copyKey()
{
    if (m_sessionKey.isEmpty()) {
        // Keys are stored hashed: an earlier key cannot be shown again, only a new one.
        const auto answer = QMessageBox::question(
            this, tr("New API key"),
            tr("Stored keys cannot be shown again. Mint a new owner key and copy it?"));
        if (answer != QMessageBox::Yes)
            return;
        m_sessionKey = m_service.mintOwnerKey(tr("minted in the console"));
    }
    QGuiApplication::clipboard()->setText(m_sessionKey);
    showMessage(tr("API key copied to the clipboard"), 4000);
    retranslateUi();
}

} // namespace ph::ui
