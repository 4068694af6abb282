#pragma once

#include "browser/chromium/CdpFilter.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

#include <memory>

class QWebSocket;

namespace ph {

class CdpConnection;

// Internal to the browser area: one DevTools client of a browser session (a Playwright,
// Puppeteer or raw WebSocket connection, already authenticated by the session's token)
// relayed to the session's browser over the browser's pipe.
//
// The client gets a browser-level session of its own (Target.attachToBrowserTarget), so
// its browser-level commands and its auto-attach never mix with the session's own (which
// keeps every target's request checks, ChromiumSession). What the client sends without a
// sessionId goes to that session; its child sessions (what it attached, or auto-attached)
// pass through by their own ids; ids it never got are answered "not found". Every command
// is judged by the CdpFilter first. Events of other sessions never reach it. Its message
// ids are its own: each command is sent under ours and answered under its id.
//
// Text JSON frames only, at most kMaxMessage bytes each; a frame that is not a command is
// answered with a protocol error. When the client goes, its sessions are detached; the
// browser keeps running.
class CdpRelay : public QObject
{
    Q_OBJECT
public:
    // The largest command a client may send (Playwright's setContent of a large page fits).
    static constexpr qint64 kMaxMessage = 64ll * 1024 * 1024;

    CdpRelay(CdpConnection *browser, const CdpFilter::Scope &scope,
             std::unique_ptr<QWebSocket> socket, QObject *parent = nullptr);
    ~CdpRelay() override;

    // Opens the client's browser-level session; commands that come before it wait.
    void start();
    // Detaches the client's sessions and closes its connection (closed() follows).
    void close();
    bool isOpen() const { return !m_closed; }
    const CdpFilter &filter() const { return m_filter; }

Q_SIGNALS:
    void activity();
    void closed();

private:
    void onText(const QString &text);
    void handle(const QJsonObject &command);
    void forward(const QJsonValue &id, const QString &method, const QJsonObject &params,
                 const QString &sessionId);
    void onEvent(const QString &sessionId, const QString &method, const QJsonObject &params);
    void watch(const QString &sessionId);
    void reply(const QJsonValue &id, const QString &sessionId, const QJsonObject &result);
    void error(const QJsonValue &id, const QString &sessionId, int code, const QString &message);
    void write(const QJsonObject &message);
    void detachAll();

    QPointer<CdpConnection> m_browser;
    CdpFilter m_filter;
    QWebSocket *m_socket = nullptr;
    QString m_root;              // the client's browser-level session
    QSet<QString> m_children;    // the child sessions it attached
    QList<QJsonObject> m_queued; // commands before m_root exists
    bool m_closed = false;
};

} // namespace ph
