#pragma once

#include "net/NetworkPolicy.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QWebSocket;

namespace ph {

class BrowserLease;
class LiveFrameSource;

// What a browser session's browser is made of (POST /sessions, docs/api/sessions.md).
struct SessionBrowserSpec
{
    QString label;       // the session's id, for logs
    QString userDataDir; // a profile's directory (kept after stop), or empty: a throw-away one
    int width = 1280;    // the viewport of its pages
    int height = 800;
    QString userAgent; // empty: the browser's own (HeadlessChrome said as Chrome)
    EgressGrant grant; // the key's network grant, with the request's settings.proxy upstream
};

// The browser of one browser session (issue 30; docs/decisions.md, "Browser sessions"):
// a Chromium process of its own on its own user-data directory, whose only door for a
// client is a filtered DevTools relay (attachClient), and whose every connection leaves
// through the egress proxy with the session's grant. Engine-neutral on purpose: the
// sessions area holds it through this interface; browser/chromium/ implements it.
class SessionBrowser : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~SessionBrowser() override = default;

    // Starts the browser. `ready` runs once, from the event loop: with an empty error when
    // it answers, else with why it could not start.
    virtual void start(std::function<void(const QString &error)> ready) = 0;
    virtual bool isRunning() const = 0;

    // Takes a client's DevTools connection, already authenticated for this session. From
    // then on the client sees only this session's browser, through the filter: what it may
    // not do is answered with a protocol error and never reaches the browser.
    virtual void attachClient(std::unique_ptr<QWebSocket> socket) = 0;
    virtual int clientCount() const = 0;

    // What /json/version answers (Browser, Protocol-Version, User-Agent, V8-Version,
    // WebKit-Version); webSocketDebuggerUrl is added by the caller.
    virtual QJsonObject version() const = 0;
    virtual qint64 processId() const = 0;

    // A page of this browser for Pilothouse's own work inside the session (browserSession
    // on /scrape, /agent, /execute, the bridge): a tab in the session's context that acts
    // with the session's grant. `granted` runs once from the event loop, with the lease or
    // with null and why; never after `context` is gone.
    virtual void
    openPage(const QString &label, QObject *context,
             std::function<void(std::unique_ptr<BrowserLease>, const QString &error)> granted) = 0;

    // The pixels of the session's current page and a way to hand it an operator's input
    // (the console's live browser views: watch, take over). Null when no page is open.
    // Made while someone watches; deleting it stops the capture.
    virtual std::unique_ptr<LiveFrameSource> liveFrames(QObject *parent) = 0;

    // Closes the clients and ends the process; the profile directory is complete on disk
    // when `done` runs (from the event loop). ended() is not emitted for it.
    virtual void stop(std::function<void()> done) = 0;

Q_SIGNALS:
    // A client's command went through (the session's idle timer restarts).
    void activity();
    // The browser process ended or its channel closed without stop(): a crash.
    void ended(const QString &reason);
    void clientsChanged(int count);
};

// The chromium session browser (browser/chromium/ChromiumSession): `executable` as the
// pool's chromiumPath (empty: the installed one). Egress through EgressProxy::instance().
std::unique_ptr<SessionBrowser> makeChromiumSessionBrowser(const QString &executable,
                                                           const SessionBrowserSpec &spec,
                                                           const NetworkPolicy &policy,
                                                           QObject *parent = nullptr);

} // namespace ph
