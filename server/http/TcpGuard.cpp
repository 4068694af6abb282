#include "TcpGuard.h"

#include <QTcpSocket>
#include <QTimer>

#include <climits>

namespace ph::http {

namespace {
// How long a refused connection is drained before it is closed, so the client reads
// the answer instead of a reset.
constexpr int kLingerMs = 200;
} // namespace

TcpGuard::TcpGuard(const ConnectionLimits &limits, Rejection render, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
    , m_render(std::move(render))
{}

void TcpGuard::setLimits(const ConnectionLimits &limits)
{
    m_limits = limits;
    for (auto it = m_trackers.begin(); it != m_trackers.end(); ++it)
        arm(*it);
}

QString TcpGuard::addressKey(const QHostAddress &address)
{
    // An IPv4 client on a dual-stack socket is the same client as on an IPv4 one.
    return TrustedProxies::canonical(address).toString();
}

void TcpGuard::setTrustedProxies(const TrustedProxies &proxies)
{
    m_trusted = proxies;
    for (auto it = m_trackers.begin(); it != m_trackers.end(); ++it) {
        Tracker &t = *it;
        const bool proxied = m_trusted.contains(t.peer);
        if (proxied == t.proxied)
            continue;
        uncount(t);
        t.proxied = proxied;
        t.client = t.peer;
        if (!proxied) {
            t.address = addressKey(t.peer);
            ++m_perAddress[t.address];
        }
    }
}

QHostAddress TcpGuard::clientOf(QTcpSocket *socket) const
{
    const auto it = m_trackers.constFind(socket);
    return it == m_trackers.cend() ? QHostAddress() : it->client;
}

bool TcpGuard::countFor(QTcpSocket *socket, Tracker &t, const QHostAddress &client)
{
    const QString key = addressKey(client);
    if (key == t.address)
        return true;
    uncount(t);
    if (m_perAddress.value(key) >= m_limits.maxConnectionsPerAddress) {
        reject(socket, 429, m_limits.maxConnectionsPerAddress);
        return false;
    }
    ++m_perAddress[key];
    t.address = key;
    return true;
}

void TcpGuard::uncount(Tracker &t)
{
    if (t.address.isEmpty())
        return;
    auto it = m_perAddress.find(t.address);
    if (it != m_perAddress.end() && --*it <= 0)
        m_perAddress.erase(it);
    t.address.clear();
}

int TcpGuard::connectionsFrom(const QHostAddress &address) const
{
    return m_perAddress.value(addressKey(address));
}

void TcpGuard::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    const QHostAddress peer = TrustedProxies::canonical(socket->peerAddress());
    const QString address = addressKey(peer);
    if (m_trackers.size() >= m_limits.maxConnections) {
        refuseConnection(socket, 503, m_limits.maxConnections);
        return;
    }
    // A trusted proxy's connections count for the clients of their requests (inspect).
    const bool proxied = m_trusted.contains(peer);
    if (!proxied && m_perAddress.value(address) >= m_limits.maxConnectionsPerAddress) {
        refuseConnection(socket, 429, m_limits.maxConnectionsPerAddress);
        return;
    }
    Tracker t;
    t.peer = peer;
    t.client = peer;
    t.proxied = proxied;
    if (!proxied)
        t.address = address;
    t.timer = new QTimer(socket);
    t.timer->setSingleShot(true);
    t.timer->setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5% early
    t.phase.start();
    connect(t.timer, &QTimer::timeout, this, [this, socket] { timedOut(socket); });
    m_trackers.insert(socket, t);
    if (!proxied)
        ++m_perAddress[address];
    // Connected before QHttpServer connects its own readyRead slot, so this runs first
    // and can peek at bytes the parser has not consumed yet.
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { inspect(socket); });
    // On the timer, a child of the socket: QHttpServer disconnects every signal of a
    // socket it upgrades to a WebSocket, the socket's own destroyed() among them.
    connect(t.timer, &QObject::destroyed, this, [this, socket] {
        auto it = m_trackers.find(socket);
        if (it == m_trackers.end())
            return;
        uncount(*it);
        m_trackers.erase(it);
    });
    arm(m_trackers[socket]);
    addPendingConnection(socket);
}

void TcpGuard::refuseConnection(QTcpSocket *socket, int status, qint64 limit)
{
    // QHttpServer never sees this connection: answered here, drained, closed.
    connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    socket->write(m_render(status, limit));
    socket->flush();
    QTimer::singleShot(kLingerMs, socket, [socket] { socket->disconnectFromHost(); });
    QTimer::singleShot(kLingerMs + 2000, socket, [socket] {
        socket->abort();
        socket->deleteLater();
    });
}

void TcpGuard::requestComplete(QTcpSocket *socket)
{
    auto it = m_trackers.find(socket);
    if (it == m_trackers.end() || it->rejected)
        return;
    Tracker &t = *it;
    t.head.clear();
    t.headDone = false;
    t.declared = -1;
    t.bodySeen = 0;
    t.started = false;
    ++t.busy;
    arm(t);
}

void TcpGuard::responseComplete(QTcpSocket *socket)
{
    auto it = m_trackers.find(socket);
    if (it == m_trackers.end() || it->busy == 0)
        return;
    Tracker &t = *it;
    if (--t.busy > 0)
        return;
    // A trusted proxy's idle connection counts for nobody until its next request.
    if (t.proxied && !t.started)
        uncount(t);
    t.phase.restart();
    arm(t);
}

QList<QTcpSocket *> TcpGuard::openSockets() const
{
    return m_trackers.keys();
}

void TcpGuard::arm(Tracker &t)
{
    if (!t.timer)
        return;
    if (t.rejected || t.busy > 0) {
        t.timer->stop();
        return;
    }
    qint64 allowed = m_limits.headerTimeoutMs;
    if (t.headDone) {
        allowed = m_limits.bodyTimeoutMs;
        if (m_limits.bodyMinBytesPerSecond > 0)
            allowed += t.bodySeen * 1000 / m_limits.bodyMinBytesPerSecond;
    }
    const qint64 left = allowed - t.phase.elapsed();
    t.timer->start(int(qBound(qint64(0), left, qint64(INT_MAX))));
}

void TcpGuard::timedOut(QTcpSocket *socket)
{
    auto it = m_trackers.find(socket);
    if (it == m_trackers.end() || it->rejected || it->busy > 0)
        return;
    if (!it->started) {
        // Waiting, and nothing of a request came: an idle connection is let go quietly.
        it->rejected = true;
        socket->disconnectFromHost();
        return;
    }
    reject(socket, 408, it->headDone ? m_limits.bodyTimeoutMs : m_limits.headerTimeoutMs);
}

void TcpGuard::inspect(QTcpSocket *socket)
{
    auto it = m_trackers.find(socket);
    if (it == m_trackers.end())
        return;
    Tracker &t = *it;
    if (t.rejected) {
        socket->readAll(); // drain what the client still sends, then close
        return;
    }
    const QByteArray fresh = socket->peek(socket->bytesAvailable());
    if (fresh.isEmpty())
        return;
    if (!t.headDone) {
        if (!t.started) {
            // The head's time runs from its first byte.
            t.started = true;
            t.phase.restart();
            arm(t);
        }
        t.head += fresh;
        const qsizetype end = t.head.indexOf("\r\n\r\n");
        if (end < 0) {
            if (t.head.size() > kMaxHeaderBytes)
                reject(socket, 431, kMaxHeaderBytes);
            return;
        }
        t.headDone = true;
        t.phase.restart(); // the body's time runs from the end of the head
        t.bodySeen = t.head.size() - (end + 4);
        const QByteArray head = t.head.left(end).toLower();
        t.head.clear();
        bool expectContinue = false;
        bool upgrade = false;
        QByteArray forwarded;
        QByteArray forwardedFor;
        auto join = [](QByteArray &to, const QByteArray &value) {
            to += (to.isEmpty() ? QByteArray() : QByteArray(",")) + value.trimmed();
        };
        for (const QByteArray &line : head.split('\n')) {
            const QByteArray l = line.trimmed();
            if (l.startsWith("content-length:"))
                t.declared = l.mid(15).trimmed().toLongLong();
            else if (l.startsWith("expect:") && l.contains("100-continue"))
                expectContinue = true;
            else if (l.startsWith("forwarded:"))
                join(forwarded, l.mid(10));
            else if (l.startsWith("x-forwarded-for:"))
                join(forwardedFor, l.mid(16));
            else if (l.startsWith("upgrade:") && l.contains("websocket"))
                upgrade = true;
        }
        if (t.proxied) {
            t.client = m_trusted.clientOf(t.peer, forwarded, forwardedFor);
            if (!countFor(socket, t, t.client))
                return;
        }
        if (upgrade) {
            // A WebSocket from here on (the sessions' DevTools connections): it stays
            // counted for its client until it closes, and no read timeout applies.
            t.busy = 1;
            arm(t);
            return;
        }
        if (t.declared > m_limits.maxBodyBytes) {
            reject(socket, 413, m_limits.maxBodyBytes);
            return;
        }
        if (expectContinue && t.bodySeen == 0)
            socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    } else {
        t.bodySeen += fresh.size();
    }
    // Chunked bodies carry framing bytes; allow a little slack over the limit for them.
    if (t.bodySeen > m_limits.maxBodyBytes + 64 * 1024) {
        reject(socket, 413, m_limits.maxBodyBytes);
        return;
    }
    arm(t); // a body that keeps coming earns its time
}

void TcpGuard::reject(QTcpSocket *socket, int status, qint64 limit)
{
    Tracker &t = m_trackers[socket];
    t.rejected = true;
    if (t.timer)
        t.timer->stop();
    // Stop QHttpServer from parsing this connection any further.
    if (QObject *server = parent())
        disconnect(socket, &QTcpSocket::readyRead, server, nullptr);
    socket->readAll();
    socket->write(m_render(status, limit));
    socket->flush();
    QPointer<QTcpSocket> guard(socket);
    // Give the client a moment to read the answer before the connection goes.
    QTimer::singleShot(1000, socket, [guard] {
        if (guard)
            guard->disconnectFromHost();
    });
}

} // namespace ph::http
