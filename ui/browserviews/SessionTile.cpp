#include "SessionTile.h"

#include "ScreencastView.h"

#include "browser/LiveFrameSource.h"
#include "browser/SessionBrowser.h"
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/DomainError.h"

#include "common/DateText.h"
#include "common/Icons.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

namespace ph::ui {

SessionTile::SessionTile(const ConsoleServices &services, const sessions::BrowserSessionInfo &info,
                         QWidget *parent)
    : QFrame(parent)
    , m_services(services)
    , m_info(info)
{
    setObjectName(QStringLiteral("sessionTile"));
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    m_caption = new QLabel(this);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption->setWordWrap(true);
    m_screen = new ScreencastView(nullptr, this);
    // The session's clients drive the page: the operator watches until taking over.
    m_screen->setEnabled(false);
    m_takeOver = new QCheckBox(this);
    m_release = new QPushButton(icon(Icon::Stop), QString(), this);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_message->hide();
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_takeOver, 1);
    buttons->addWidget(m_release);
    layout->addWidget(m_caption);
    layout->addWidget(m_screen, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_message);
    connect(m_takeOver, &QCheckBox::toggled, this, [this](bool on) {
        m_screen->setEnabled(on);
        if (on)
            m_screen->setFocus();
    });
    connect(m_release, &QPushButton::clicked, this, &SessionTile::release);
    // The countdown to the session's end.
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &SessionTile::showCaption);
    m_countdown.start();
    attachFrames();
    retranslateUi();
}

SessionTile::~SessionTile() = default;

void SessionTile::attachFrames()
{
    if (m_screen && m_screen->hasSource())
        return;
    SessionBrowser *browser = nullptr;
    try {
        browser = m_services.sessions.browserOf(m_info.keyId, m_info.id);
    } catch (const DomainError &) {
        return; // not running (yet, or any more)
    }
    std::unique_ptr<LiveFrameSource> source = browser ? browser->liveFrames(nullptr) : nullptr;
    if (!source)
        return; // no page open yet: tried again when the session changes
    auto *screen = new ScreencastView(std::move(source), this);
    screen->setEnabled(m_takeOver && m_takeOver->isChecked());
    screen->setAccessibleName(m_screen->accessibleName());
    delete layout()->replaceWidget(m_screen, screen);
    delete m_screen;
    m_screen = screen;
    m_screen->show();
}

void SessionTile::refresh(const sessions::BrowserSessionInfo &info)
{
    m_info = info;
    attachFrames();
    showCaption();
}

QString SessionTile::remaining() const
{
    if (!m_info.expiresAt.isValid())
        return {};
    const qint64 left = m_info.expiresAt.toMSecsSinceEpoch() - m_services.clock.nowMs();
    if (left <= 0)
        return tr("expires now");
    const qint64 s = left / 1000;
    const QString clock =
        s >= 3600 ? QStringLiteral("%1:%2:%3")
                        .arg(s / 3600)
                        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
                        .arg(s % 60, 2, 10, QLatin1Char('0'))
                  : QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return tr("expires in %1 (at %2)")
        .arg(clock, shortDateTime(m_info.expiresAt.toMSecsSinceEpoch()));
}

QString SessionTile::keyLabel() const
{
    const auto key = m_services.keyService.lookup(m_info.keyId);
    return key ? key->key.label : m_info.keyId;
}

void SessionTile::showCaption()
{
    const QString profile = m_info.profile.isEmpty()
                                ? tr("no profile")
                                : tr("profile %1").arg(m_info.profile.toHtmlEscaped());
    m_caption->setText(QStringLiteral("<b>%1</b> — %2 — %3<br>%4 · %5 · %6")
                           .arg(m_info.id.toHtmlEscaped(),
                                tr("key %1").arg(keyLabel().toHtmlEscaped()), profile,
                                m_info.status.toHtmlEscaped(), remaining(),
                                tr("clients connected: %1").arg(m_info.clients)));
}

bool SessionTile::release()
{
    // The session may end while the operator reads the question (its tile then goes):
    // the box belongs to the window, and the tile is checked for after it.
    const QString id = m_info.id;
    QPointer<SessionTile> self(this);
    QMessageBox box(QMessageBox::Warning, tr("Release session"),
                    tr("End the browser session %1 of key %2? Its browser closes and every "
                       "connected client is disconnected; its profile is kept.")
                        .arg(id, keyLabel()),
                    QMessageBox::NoButton, window());
    box.setObjectName(QStringLiteral("confirmReleaseSession"));
    QPushButton *confirm = box.addButton(tr("Release session"), QMessageBox::DestructiveRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(cancel);
    box.exec();
    if (box.clickedButton() != confirm || !self)
        return false;
    try {
        m_services.sessions.release(m_services.operatorPrincipal(), id);
    } catch (const DomainError &e) {
        if (self) {
            m_message->setText(tr("%1 (%2)").arg(e.message(), e.code()));
            m_message->show();
        }
        return false;
    }
    return true;
}

void SessionTile::retranslateUi()
{
    m_takeOver->setText(tr("Take over"));
    m_takeOver->setToolTip(tr("Click and type in this session's page yourself; its clients "
                              "keep their connection. Untick to only watch again."));
    m_release->setText(tr("Release"));
    m_release->setToolTip(tr("End this session (its browser closes; its profile is kept)."));
    m_release->setAccessibleName(tr("Release session %1").arg(m_info.id));
    m_takeOver->setAccessibleName(tr("Take over session %1").arg(m_info.id));
    m_screen->setAccessibleName(tr("Live page of session %1").arg(m_info.id));
    showCaption();
}

} // namespace ph::ui
