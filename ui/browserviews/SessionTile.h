#pragma once

#include "common/ConsoleServices.h"

#include "sessions/SessionService.h"

#include <QFrame>
#include <QTimer>

class QCheckBox;
class QLabel;
class QPushButton;

namespace ph::ui {

class ScreencastView;

// One browser session (issue 30) in the live views, beside the runs' pages: its id, the
// key it belongs to, its profile, how long it has left and how many DevTools clients are
// connected; its page live (SessionBrowser::liveFrames, the same screencast view as a
// chromium run's page); "Take over" hands the operator's clicks and keys to that page;
// "Release" ends the session through SessionService::release after a confirmation.
class SessionTile : public QFrame
{
    Q_OBJECT
public:
    SessionTile(const ConsoleServices &services, const sessions::BrowserSessionInfo &info,
                QWidget *parent = nullptr);
    ~SessionTile() override;

    QString sessionId() const { return m_info.id; }
    const sessions::BrowserSessionInfo &info() const { return m_info; }
    // The session's page (null until the session's browser has one to show).
    ScreencastView *screen() const { return m_screen; }
    QLabel *caption() const { return m_caption; }
    QCheckBox *takeOver() const { return m_takeOver; }
    QPushButton *releaseButton() const { return m_release; }
    QLabel *messageLabel() const { return m_message; }

    // The session as the service has it now (sessionChanged).
    void refresh(const sessions::BrowserSessionInfo &info);
    // Asks, then ends the session; true when it was released.
    bool release();
    void retranslateUi();

private:
    void attachFrames();
    void showCaption();
    QString remaining() const;
    QString keyLabel() const;

    ConsoleServices m_services;
    sessions::BrowserSessionInfo m_info;
    QLabel *m_caption;
    ScreencastView *m_screen = nullptr;
    QCheckBox *m_takeOver;
    QPushButton *m_release;
    QLabel *m_message;
    QTimer m_countdown;
};

} // namespace ph::ui
