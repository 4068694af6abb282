#include "browser/chromium/ChromiumEngine.h"

#include "browser/chromium/CdpConnection.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcChromium, "pilothouse.browser.chromium")

namespace ph {

namespace {
constexpr int kStartTimeoutMs = 30000;

// Debian's chromium-headless-shell binary: its /usr/bin launcher runs it as a child
// instead of replacing itself, so the launcher's process is not the browser's.
constexpr const char *kDebianHeadlessShell = "/usr/lib/chromium/chromium-headless-shell";
} // namespace

ChromiumEngine::ChromiumEngine(QString executable, quint16 proxyPort, QObject *parent)
    : QObject(parent)
    , m_executable(std::move(executable))
    , m_proxyPort(proxyPort)
{}

ChromiumEngine::~ChromiumEngine()
{
    stop();
}

QString ChromiumEngine::findExecutable(const QString &configured)
{
    if (!configured.isEmpty()) {
        if (configured.contains(QLatin1Char('/')))
            return QFileInfo(configured).isExecutable() ? configured : QString();
        return QStandardPaths::findExecutable(configured);
    }
    if (QFileInfo(QString::fromLatin1(kDebianHeadlessShell)).isExecutable())
        return QString::fromLatin1(kDebianHeadlessShell);
    for (const char *name :
         {"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"}) {
        const QString found = QStandardPaths::findExecutable(QString::fromLatin1(name));
        if (!found.isEmpty())
            return found;
    }
    return {};
}

qint64 ChromiumEngine::processId() const
{
    return m_process ? m_process->processId() : 0;
}

void ChromiumEngine::whenReady(QObject *context, std::function<void(const QString &)> ready)
{
    if (m_state == State::Ready) {
        QPointer<QObject> guard(context);
        const bool hasContext = context != nullptr;
        QTimer::singleShot(0, this, [guard, hasContext, ready] {
            if (!hasContext || guard)
                ready(QString());
        });
        return;
    }
    m_waiters.append({QPointer<QObject>(context), context != nullptr, std::move(ready)});
    if (m_state == State::Stopped)
        start();
}

void ChromiumEngine::start()
{
    const QString program = findExecutable(m_executable);
    if (program.isEmpty()) {
        settle(m_executable.isEmpty()
                   ? QStringLiteral("no chromium is installed (apt-get install "
                                    "chromium-headless-shell)")
                   : QStringLiteral("browser.chromiumPath '%1' is not an executable")
                         .arg(m_executable));
        return;
    }
    m_state = State::Starting;
    ++m_starts;
    if (m_options.userDataDir.isEmpty())
        m_profileDir = std::make_unique<QTemporaryDir>();
    else
        QDir().mkpath(m_options.userDataDir);
    m_stderr.clear();
    // The DevTools channel: two pipes, no socket (`--remote-debugging-pipe`), so nobody
    // but this process can talk to the browser. Close-on-exec here, so that no other child
    // of Pilothouse inherits them; the child's copies on fds 3 and 4 are made below.
    int commands[2] = {-1, -1}; // we write, Chromium reads on its fd 3
    int answers[2] = {-1, -1};  // Chromium writes on its fd 4, we read
    if (const QString error = openPipes(commands, answers); !error.isEmpty()) {
        m_state = State::Stopped;
        m_profileDir.reset();
        settle(error);
        return;
    }
    const int childIn = commands[0];
    const int childOut = answers[1];
    m_connection = new CdpConnection(this);
    connect(m_connection, &CdpConnection::opened, this, &ChromiumEngine::connected);
    connect(m_connection, &CdpConnection::closed, this,
            [this] { onEnded(QStringLiteral("the DevTools pipe closed")); });
    m_connection->open(answers[0], commands[1]);
    m_process = new QProcess(this);
    // A group of its own, so that ending it ends whatever a launcher script started; and
    // it goes when Pilothouse goes, even if Pilothouse is killed. Between fork and exec
    // (async-signal-safe calls only): the pipe ends go to fds 3 and 4, first moved above
    // them (either may be 3 or 4 already); dup2's copies are not close-on-exec, every
    // other copy is, so Chromium gets exactly these two.
    m_process->setChildProcessModifier([childIn, childOut] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        const int in = ::fcntl(childIn, F_DUPFD_CLOEXEC, 10);
        const int out = ::fcntl(childOut, F_DUPFD_CLOEXEC, 10);
        if (in < 0 || out < 0 || ::dup2(in, 3) != 3 || ::dup2(out, 4) != 4)
            ::_exit(127);
    });
    const QStringList args = arguments();
    watchProcess();
    qCInfo(lcChromium) << "starting" << program;
    m_process->start(program, args);
    // The child has its copies (or never started): ours of its ends go.
    ::close(childIn);
    ::close(childOut);
    if (m_process)
        m_group = m_process->processId();
}

QStringList ChromiumEngine::arguments() const
{
    QStringList args{
        QStringLiteral("--headless"),
        // DevTools over fds 3 and 4 only: no TCP port, no DevToolsActivePort file.
        QStringLiteral("--remote-debugging-pipe"),
        QStringLiteral("--user-data-dir=") +
            (m_profileDir ? m_profileDir->path() : m_options.userDataDir),
        QStringLiteral("--no-first-run"),
        QStringLiteral("--no-default-browser-check"),
        QStringLiteral("--disable-gpu"),
        QStringLiteral("--disable-background-networking"),
        QStringLiteral("--disable-component-update"),
        QStringLiteral("--disable-sync"),
        QStringLiteral("--disable-extensions"),
        QStringLiteral("--disable-default-apps"),
        QStringLiteral("--disable-breakpad"),
        QStringLiteral("--disable-domain-reliability"),
        QStringLiteral("--disable-client-side-phishing-detection"),
        // A lease's context is disposed after one use: a page kept for going back, or a
        // renderer started ahead for the next navigation, would be thrown away unused.
        // RenderDocument: a same-site navigation reuses the frame's renderer-side frame and
        // compositor instead of building new ones for every document; a session's warm tab
        // navigates again and again, and the new ones cost about a quarter of the CPU of
        // each page (bench/scrape --sessions; docs/decisions.md, "Session scrape speed").
        QStringLiteral("--disable-features=Translate,MediaRouter,OptimizationHints,"
                       "InterestFeedContentSuggestions,AutofillServerCommunication,"
                       "BackForwardCache,SpareRendererForSitePerProcess,RenderDocument"),
        QStringLiteral("--metrics-recording-only"),
        QStringLiteral("--password-store=basic"),
        QStringLiteral("--use-mock-keychain"),
        QStringLiteral("--mute-audio"),
        QStringLiteral("--hide-scrollbars"),
        // WebRTC sends no UDP that does not go through the proxy (which is none: the
        // proxy takes no UDP), so no peer connection leaves beside the egress proxy.
        QStringLiteral("--force-webrtc-ip-handling-policy=disable_non_proxied_udp"),
        QStringLiteral("--webrtc-ip-handling-policy=disable_non_proxied_udp"),
        QStringLiteral("--window-size=%1,%2").arg(m_options.width).arg(m_options.height),
        // Every connection leaves through the egress proxy; nothing is bypassed.
        QStringLiteral("--proxy-server=http://127.0.0.1:%1").arg(m_proxyPort),
        QStringLiteral("--proxy-bypass-list=<-loopback>"),
    };
    if (!m_options.userAgent.isEmpty())
        args << QStringLiteral("--user-agent=") + m_options.userAgent;
    if (::geteuid() == 0)
        args << QStringLiteral("--no-sandbox");
    args << QStringLiteral("about:blank");
    return args;
}

QString ChromiumEngine::openPipes(int commands[2], int answers[2])
{
    if (::pipe2(commands, O_CLOEXEC) == 0 && ::pipe2(answers, O_CLOEXEC) == 0)
        return {};
    const QString error =
        QStringLiteral("the DevTools pipes could not be made: %1").arg(qt_error_string(errno));
    for (int fd : {commands[0], commands[1], answers[0], answers[1]})
        if (fd >= 0)
            ::close(fd);
    return error;
}

void ChromiumEngine::watchProcess()
{
    // Read so that the browser never blocks on a full pipe; the tail is kept for the log.
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_process->readAllStandardError();
        if (m_stderr.size() > 65536)
            m_stderr = m_stderr.right(16384);
    });
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        onEnded(status == QProcess::CrashExit
                    ? QStringLiteral("the chromium process crashed")
                    : QStringLiteral("the chromium process exited with code %1").arg(code));
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onEnded(
                QStringLiteral("chromium could not be started: %1").arg(m_process->errorString()));
    });
    QTimer::singleShot(kStartTimeoutMs, this, [this, starts = m_starts] {
        if (m_state == State::Starting && starts == m_starts) {
            qCWarning(lcChromium) << "chromium did not answer on its DevTools pipe in time";
            onEnded(
                QStringLiteral("chromium did not start within %1 s").arg(kStartTimeoutMs / 1000));
        }
    });
}

void ChromiumEngine::signalGroup(int signal)
{
    if (m_group > 0)
        ::kill(-pid_t(m_group), signal);
}

void ChromiumEngine::connected()
{
    m_connection->send(QStringLiteral("Browser.getVersion"), {}, {}, this,
                       [this](const QJsonObject &r, const QString &error) {
                           if (!error.isEmpty()) {
                               onEnded(error);
                               return;
                           }
                           m_version = r.value(QStringLiteral("product")).toString();
                           m_userAgent = r.value(QStringLiteral("userAgent")).toString();
                           m_userAgent.replace(QStringLiteral("HeadlessChrome/"),
                                               QStringLiteral("Chrome/"));
                           m_state = State::Ready;
                           qCInfo(lcChromium) << "ready:" << m_version;
                           settle(QString());
                       });
}

void ChromiumEngine::settle(const QString &error)
{
    const QList<Waiter> waiters = std::exchange(m_waiters, {});
    for (const Waiter &w : waiters) {
        if (!w.hasContext || w.context)
            w.ready(error);
    }
}

void ChromiumEngine::onEnded(const QString &reason)
{
    if (m_state == State::Stopped)
        return;
    const bool wasReady = m_state == State::Ready;
    m_state = State::Stopped;
    qCWarning(lcChromium) << "chromium ended:" << reason;
    if (!wasReady && !m_stderr.isEmpty()) // why it never answered, in its own words
        qCWarning(lcChromium).noquote() << "chromium's last output:" << m_stderr.right(2000);
    if (m_connection) {
        m_connection->disconnect(this);
        m_connection->deleteLater();
        m_connection = nullptr;
    }
    if (m_process) {
        m_process->disconnect(this);
        signalGroup(SIGKILL);
        m_process->kill();
        m_process->waitForFinished(2000);
        m_process->deleteLater();
        m_process = nullptr;
    }
    m_group = 0;
    m_profileDir.reset();
    if (wasReady)
        Q_EMIT lost(reason);
    settle(reason);
}

void ChromiumEngine::stop()
{
    if (m_state == State::Stopped)
        return;
    m_state = State::Stopped;
    if (m_connection) {
        m_connection->disconnect(this);
        delete m_connection;
        m_connection = nullptr;
    }
    if (m_process) {
        m_process->disconnect(this);
        signalGroup(SIGTERM);
        m_process->terminate();
        if (!m_process->waitForFinished(3000)) {
            signalGroup(SIGKILL);
            m_process->kill();
        }
        m_process->waitForFinished(1000);
        // Whatever of the group outlived its leader (a launcher that went first) goes too.
        signalGroup(SIGKILL);
        delete m_process;
        m_process = nullptr;
    }
    m_group = 0;
    m_profileDir.reset();
    settle(QStringLiteral("the browser pool is shutting down"));
}

void ChromiumEngine::close(int timeoutMs, std::function<void()> done)
{
    if (m_state == State::Stopped || !m_process) {
        stop();
        QTimer::singleShot(0, this, std::move(done));
        return;
    }
    // From now on the end is expected: no lost(), no waiter is told of a crash.
    QProcess *process = m_process;
    process->disconnect(this);
    if (m_connection)
        m_connection->disconnect(this);
    auto finished = std::make_shared<bool>(false);
    auto finish = [this, finished, done] {
        if (std::exchange(*finished, true))
            return;
        // Not inside the process's own signal: stop() deletes it.
        QTimer::singleShot(0, this, [this, done] {
            stop(); // what is left of the group, the pipes, a throw-away profile
            done();
        });
    };
    connect(process, &QProcess::finished, this, finish);
    QTimer::singleShot(timeoutMs, this, finish);
    if (m_connection && m_connection->isOpen())
        m_connection->send(QStringLiteral("Browser.close"), {}, {}, nullptr);
    else
        process->terminate();
}

void ChromiumEngine::kill()
{
    if (m_process) {
        signalGroup(SIGKILL);
        m_process->kill();
    }
}

} // namespace ph
