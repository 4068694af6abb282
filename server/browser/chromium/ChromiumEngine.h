#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

class QProcess;
class QTemporaryDir;

namespace ph {

class CdpConnection;

// Internal to the browser area: the `chromium` engine's process (Debian's current
// Chromium, headless) and the DevTools channel to it (CdpConnection: two pipes on the
// child's fds 3 and 4, `--remote-debugging-pipe`; no TCP port, so no other local user or
// process can reach the browser; no Node in the path). Started on first need, with a
// throw-away profile directory, every connection sent to the egress proxy (nothing
// bypassed, not even loopback) and WebRTC kept from sending UDP beside it. When the
// process ends unexpectedly, lost() tells the pages that lived in it, and the next
// whenReady() starts a new one.
class ChromiumEngine : public QObject
{
    Q_OBJECT
public:
    // `executable`: a path or a name on PATH; empty: Debian's `chromium-headless-shell`
    // (the same Chromium built for automation: a lease costs about a sixth of the CPU,
    // docs/engines.md), then `chromium`, `chromium-browser`, `google-chrome`.
    // `proxyPort`: the egress proxy's port on 127.0.0.1.
    ChromiumEngine(QString executable, quint16 proxyPort, QObject *parent = nullptr);
    ~ChromiumEngine() override;

    // What a browser session's browser differs in from the pool's (set before the start).
    struct Options
    {
        QString userDataDir; // kept (a profile); empty: a throw-away one
        int width = 1280;    // the window
        int height = 800;
        QString userAgent; // empty: the browser's own
    };
    void setOptions(const Options &options) { m_options = options; }

    // The executable that would run, or empty when none is installed.
    static QString findExecutable(const QString &configured);

    // Calls `ready` once the browser answers on its DevTools pipe (starting it if need
    // be), with an empty error, or with why it could not start. Never after `context`
    // is gone.
    void whenReady(QObject *context, std::function<void(const QString &error)> ready);
    bool isReady() const { return m_state == State::Ready; }
    CdpConnection *connection() const { return m_connection; }
    // The browser's own user agent with "HeadlessChrome" said as "Chrome".
    QString userAgent() const { return m_userAgent; }
    QString version() const { return m_version; }
    qint64 processId() const;
    int starts() const { return m_starts; }

    // Ends the process (the pool's shutdown; tests simulate a crash with it).
    void stop();
    // Asks the browser to close (Browser.close: it writes its profile out) and waits for its
    // process to end, at most `timeoutMs`, then ends it; `done` runs from the event loop.
    // lost() is not emitted for it.
    void close(int timeoutMs, std::function<void()> done);
    void kill();

Q_SIGNALS:
    // The process ended or its DevTools pipe closed while pages lived in it.
    void lost(const QString &reason);

private:
    enum class State { Stopped, Starting, Ready };
    void start();
    // Chromium's command line: headless, DevTools on fds 3 and 4, every connection
    // through the egress proxy.
    QStringList arguments() const;
    // The two DevTools pipes, close-on-exec; the error when they could not be made.
    static QString openPipes(int commands[2], int answers[2]);
    // The process's output, its end, and the start's deadline.
    void watchProcess();
    void connected();
    void settle(const QString &error);
    void onEnded(const QString &reason);
    // Signals the browser's process group: a launcher script and what it started.
    void signalGroup(int signal);

    QString m_executable;
    quint16 m_proxyPort;
    Options m_options;
    State m_state = State::Stopped;
    QProcess *m_process = nullptr;
    qint64 m_group = 0; // the process group, named by its leader's pid
    std::unique_ptr<QTemporaryDir> m_profileDir;
    CdpConnection *m_connection = nullptr;
    QByteArray m_stderr;
    QString m_userAgent;
    QString m_version;
    int m_starts = 0;
    struct Waiter
    {
        QPointer<QObject> context;
        bool hasContext = false;
        std::function<void(const QString &)> ready;
    };
    QList<Waiter> m_waiters;
};

} // namespace ph
