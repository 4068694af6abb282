#include "browser/chromium/CdpConnection.h"

#include <QJsonDocument>
#include <QList>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcCdp, "pilothouse.browser.cdp", QtWarningMsg)

namespace ph {

namespace {

// A message larger than this is not a DevTools answer we asked for (the largest are
// screenshots and PDFs); the channel is dropped rather than grow without end.
constexpr qsizetype kMaxMessage = 512ll * 1024 * 1024;
// What one wake-up reads at most before the event loop gets a turn.
constexpr int kReadsPerWakeUp = 16;
constexpr qsizetype kReadChunk = 256 * 1024;

void setNonBlocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Writing to a pipe whose reader is gone raises SIGPIPE, which would end Pilothouse with
// the browser: ignored, as Qt's own sockets and QProcess do; the write fails with EPIPE.
void ignoreSigPipe()
{
    struct sigaction current = {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
        struct sigaction ignore = {};
        ignore.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ignore, nullptr);
    }
}

// The commands that open a document at a URL of the caller's choosing.
bool opensUrl(const QString &method)
{
    return method == QLatin1String("Page.navigate") ||
           method == QLatin1String("Target.createTarget");
}

} // namespace

QString CdpConnection::targetRefusal(const QString &url)
{
    // As the URL standard parses: leading and trailing C0 controls and spaces go, tabs and
    // newlines anywhere go; the scheme is what precedes the first ':'.
    QString s = url;
    auto isC0OrSpace = [](QChar c) { return c.unicode() <= 0x20; };
    while (!s.isEmpty() && isC0OrSpace(s.front()))
        s.remove(0, 1);
    while (!s.isEmpty() && isC0OrSpace(s.back()))
        s.chop(1);
    s.remove(QLatin1Char('\t')).remove(QLatin1Char('\n')).remove(QLatin1Char('\r'));
    const qsizetype colon = s.indexOf(QLatin1Char(':'));
    const QString scheme = colon > 0 ? s.left(colon).toLower() : QString();
    bool wellFormed = !scheme.isEmpty() && scheme.front().isLetter();
    for (QChar c : scheme)
        wellFormed = wellFormed && c.unicode() < 0x80 &&
                     (c.isLetterOrNumber() || c == QLatin1Char('+') || c == QLatin1Char('-') ||
                      c == QLatin1Char('.'));
    if (!wellFormed)
        return QStringLiteral("is not an absolute URL");
    if (scheme == QLatin1String("http") || scheme == QLatin1String("https") ||
        scheme == QLatin1String("data"))
        return {};
    if (scheme == QLatin1String("about")) {
        const QString rest = s.mid(colon + 1);
        const qsizetype end = rest.indexOf(QRegularExpression(QStringLiteral("[?#]")));
        if (rest.left(end < 0 ? rest.size() : end)
                .compare(QLatin1String("blank"), Qt::CaseInsensitive) == 0)
            return {};
    }
    return QStringLiteral("uses the scheme '%1'; the chromium engine opens only http(s), data: "
                          "and about:blank")
        .arg(scheme);
}

CdpConnection::CdpConnection(QObject *parent)
    : QObject(parent)
{}

CdpConnection::~CdpConnection()
{
    delete m_readNotifier;
    delete m_writeNotifier;
    if (m_readFd >= 0)
        ::close(m_readFd);
    if (m_writeFd >= 0)
        ::close(m_writeFd);
}

void CdpConnection::open(int readFd, int writeFd)
{
    ignoreSigPipe();
    m_readFd = readFd;
    m_writeFd = writeFd;
    setNonBlocking(m_readFd);
    setNonBlocking(m_writeFd);
    m_readNotifier = new QSocketNotifier(m_readFd, QSocketNotifier::Read, this);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &CdpConnection::onReadable);
    m_writeNotifier = new QSocketNotifier(m_writeFd, QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &CdpConnection::flush);
    m_open = true;
    QTimer::singleShot(0, this, [this] {
        if (m_open)
            Q_EMIT opened();
    });
}

void CdpConnection::close()
{
    shut(false);
}

void CdpConnection::shut(bool lost)
{
    const bool was = m_open;
    m_open = false;
    delete m_readNotifier;
    m_readNotifier = nullptr;
    delete m_writeNotifier;
    m_writeNotifier = nullptr;
    if (m_readFd >= 0)
        ::close(m_readFd);
    if (m_writeFd >= 0)
        ::close(m_writeFd);
    m_readFd = m_writeFd = -1;
    m_in.clear();
    m_out.clear();
    m_outAt = 0;
    QPointer<CdpConnection> self(this);
    failAll(QStringLiteral("the browser's DevTools connection closed"));
    if (self && was && lost)
        Q_EMIT closed();
}

void CdpConnection::send(const QString &method, const QJsonObject &params, const QString &sessionId,
                         QObject *context, Reply reply)
{
    const qint64 id = m_nextId++;
    QJsonObject message{{QStringLiteral("id"), id}, {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    if (!sessionId.isEmpty())
        message.insert(QStringLiteral("sessionId"), sessionId);
    QString refusal;
    if (opensUrl(method)) {
        refusal = targetRefusal(params.value(QStringLiteral("url")).toString());
        if (!refusal.isEmpty()) {
            refusal = QStringLiteral("%1 refused: the URL %2").arg(method, refusal);
            qCWarning(lcCdp) << refusal;
        }
    }
    if (!m_open || !refusal.isEmpty()) {
        if (refusal.isEmpty())
            refusal = QStringLiteral("the browser's DevTools connection is closed");
        if (reply) {
            QPointer<QObject> guard(context);
            const bool hasContext = context != nullptr;
            QTimer::singleShot(0, this, [guard, hasContext, reply, refusal] {
                if (!hasContext || guard)
                    reply({}, refusal);
            });
        }
        return;
    }
    if (reply)
        m_pending.insert(id, {QPointer<QObject>(context), context != nullptr, std::move(reply)});
    qCDebug(lcCdp) << "->" << method << sessionId;
    m_out += QJsonDocument(message).toJson(QJsonDocument::Compact);
    m_out += '\0';
    // Written from the event loop when the pipe is full; an error ends the channel there
    // too, never inside send().
    if (!m_writeNotifier->isEnabled())
        flush();
}

void CdpConnection::flush()
{
    if (!m_open)
        return;
    while (m_outAt < m_out.size()) {
        const ssize_t n = ::write(m_writeFd, m_out.constData() + m_outAt, m_out.size() - m_outAt);
        if (n > 0) {
            m_outAt += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            m_writeNotifier->setEnabled(true);
            if (m_outAt > (1 << 20)) { // do not keep what is written
                m_out.remove(0, m_outAt);
                m_outAt = 0;
            }
            return;
        }
        qCWarning(lcCdp) << "writing to chromium's DevTools pipe failed:" << ::strerror(errno);
        m_writeNotifier->setEnabled(false);
        QTimer::singleShot(0, this, [this] {
            if (m_open)
                shut(true);
        });
        return;
    }
    m_out.clear();
    m_outAt = 0;
    m_writeNotifier->setEnabled(false);
}

void CdpConnection::onReadable()
{
    if (!m_open)
        return;
    bool ended = false;
    qsizetype scanFrom = m_in.size();
    for (int i = 0; i < kReadsPerWakeUp; ++i) {
        const qsizetype had = m_in.size();
        m_in.resize(had + kReadChunk);
        const ssize_t n = ::read(m_readFd, m_in.data() + had, kReadChunk);
        m_in.resize(had + qMax<ssize_t>(n, 0));
        if (n > 0)
            continue;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        ended = true; // end of file: Chromium's end is closed; or the pipe failed
        break;
    }
    // The complete messages, then each in turn (a reply may end this connection).
    QList<QByteArray> messages;
    qsizetype start = 0;
    for (qsizetype nul = m_in.indexOf('\0', scanFrom); nul >= 0; nul = m_in.indexOf('\0', start)) {
        messages.append(m_in.mid(start, nul - start));
        start = nul + 1;
    }
    if (start > 0)
        m_in.remove(0, start);
    if (m_in.size() > kMaxMessage) {
        qCWarning(lcCdp) << "a DevTools message from chromium is larger than" << kMaxMessage;
        ended = true;
    }
    QPointer<CdpConnection> self(this);
    for (const QByteArray &m : std::as_const(messages)) {
        onMessage(m);
        if (!self || !m_open)
            return;
    }
    if (ended)
        shut(true);
}

void CdpConnection::setSink(const QString &sessionId, Sink sink)
{
    m_sinks.insert(sessionId, std::move(sink));
}

void CdpConnection::removeSink(const QString &sessionId)
{
    m_sinks.remove(sessionId);
}

void CdpConnection::onMessage(const QByteArray &text)
{
    const QJsonObject message = QJsonDocument::fromJson(text).object();
    if (message.contains(QStringLiteral("id"))) {
        const qint64 id = message.value(QStringLiteral("id")).toInteger();
        const Pending pending = m_pending.take(id);
        if (!pending.reply || (pending.hasContext && !pending.context))
            return;
        const QJsonObject error = message.value(QStringLiteral("error")).toObject();
        if (!error.isEmpty() || message.contains(QStringLiteral("error")))
            pending.reply({},
                          error.value(QStringLiteral("message")).toString(QStringLiteral("error")));
        else
            pending.reply(message.value(QStringLiteral("result")).toObject(), QString());
        return;
    }
    const QString method = message.value(QStringLiteral("method")).toString();
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    const QString sessionId = message.value(QStringLiteral("sessionId")).toString();
    qCDebug(lcCdp) << "<-" << method << sessionId;
    if (sessionId.isEmpty()) {
        Q_EMIT browserEvent(method, params);
        return;
    }
    const auto sink = m_sinks.constFind(sessionId);
    if (sink != m_sinks.constEnd()) {
        const Sink copy = *sink; // a sink may remove itself
        copy(method, params);
    }
}

void CdpConnection::failAll(const QString &error)
{
    const QHash<qint64, Pending> pending = std::exchange(m_pending, {});
    for (const Pending &p : pending) {
        if (p.reply && (!p.hasContext || p.context))
            p.reply({}, error);
    }
}

QString CdpConnection::landingRefusal(const QString &url)
{
    if (url.startsWith(QLatin1String("blob:")) || url.startsWith(QLatin1String("about:srcdoc")) ||
        url.startsWith(QLatin1String("chrome-error://chromewebdata/")))
        return {};
    return targetRefusal(url);
}

} // namespace ph
