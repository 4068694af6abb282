#include "ChromiumEngine.h"

#include "CdpConnection.h"

#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>

#include <csignal>
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
    m_profileDir = std::make_unique<QTemporaryDir>();
    m_stderr.clear();
    m_process = new QProcess(this);
    // A group of its own, so that ending it ends whatever a launcher script started; and
    // it goes when Pilothouse goes, even if Pilothouse is killed.
    m_process->setChildProcessModifier([] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
    QStringList args{
        QStringLiteral("--headless"),
        QStringLiteral("--remote-debugging-port=0"),
        QStringLiteral("--user-data-dir=") + m_profileDir->path(),
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
        QStringLiteral("--disable-features=Translate,MediaRouter,OptimizationHints,"
                       "InterestFeedContentSuggestions,AutofillServerCommunication,"
                       "BackForwardCache,SpareRendererForSitePerProcess"),
        QStringLiteral("--metrics-recording-only"),
        QStringLiteral("--password-store=basic"),
        QStringLiteral("--use-mock-keychain"),
        QStringLiteral("--mute-audio"),
        QStringLiteral("--hide-scrollbars"),
        QStringLiteral("--force-webrtc-ip-handling-policy=disable_non_proxied_udp"),
        QStringLiteral("--window-size=1280,800"),
        // Every connection leaves through the egress proxy; nothing is bypassed.
        QStringLiteral("--proxy-server=http://127.0.0.1:%1").arg(m_proxyPort),
        QStringLiteral("--proxy-bypass-list=<-loopback>"),
    };
    if (::geteuid() == 0)
        args << QStringLiteral("--no-sandbox");
    args << QStringLiteral("about:blank");
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_process->readAllStandardError();
        if (m_state != State::Starting || m_connection)
            return;
        static const QRegularExpression listening(
            QStringLiteral("DevTools listening on (ws://\\S+)"));
        const QRegularExpressionMatch m = listening.match(QString::fromUtf8(m_stderr));
        if (!m.hasMatch())
            return;
        m_connection = new CdpConnection(this);
        connect(m_connection, &CdpConnection::opened, this, &ChromiumEngine::connected);
        connect(m_connection, &CdpConnection::closed, this,
                [this] { onEnded(QStringLiteral("the DevTools connection closed")); });
        m_connection->open(QUrl(m.captured(1)));
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
            qCWarning(lcChromium) << "chromium did not open its DevTools socket in time";
            onEnded(
                QStringLiteral("chromium did not start within %1 s").arg(kStartTimeoutMs / 1000));
        }
    });
    qCInfo(lcChromium) << "starting" << program;
    m_process->start(program, args);
    m_group = m_process->processId();
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

void ChromiumEngine::kill()
{
    if (m_process) {
        signalGroup(SIGKILL);
        m_process->kill();
    }
}

} // namespace ph
