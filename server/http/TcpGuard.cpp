#include "TcpGuard.h"

#include <QTcpSocket>
#include <QTimer>

namespace ph::http {

TcpGuard::TcpGuard(qint64 maxBodyBytes, Rejection render, QObject *parent)
    : QTcpServer(parent)
    , m_maxBody(maxBodyBytes)
    , m_render(std::move(render))
{}

void TcpGuard::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    m_trackers.insert(socket, Tracker{});
    // Connected before QHttpServer connects its own readyRead slot, so this runs first
    // and can peek at bytes the parser has not consumed yet.
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { inspect(socket); });
    connect(socket, &QObject::destroyed, this, [this, socket] { m_trackers.remove(socket); });
    addPendingConnection(socket);
}

void TcpGuard::requestComplete(QTcpSocket *socket)
{
    auto it = m_trackers.find(socket);
    if (it != m_trackers.end() && !it->rejected)
        *it = Tracker{};
}

QList<QTcpSocket *> TcpGuard::openSockets() const
{
    return m_trackers.keys();
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
    if (!t.headDone) {
        t.head += fresh;
        const qsizetype end = t.head.indexOf("\r\n\r\n");
        if (end < 0) {
            if (t.head.size() > kMaxHeaderBytes)
                reject(socket, 431);
            return;
        }
        t.headDone = true;
        t.bodySeen = t.head.size() - (end + 4);
        const QByteArray head = t.head.left(end).toLower();
        t.head.clear();
        bool expectContinue = false;
        for (const QByteArray &line : head.split('\n')) {
            const QByteArray l = line.trimmed();
            if (l.startsWith("content-length:"))
                t.declared = l.mid(15).trimmed().toLongLong();
            else if (l.startsWith("expect:") && l.contains("100-continue"))
                expectContinue = true;
        }
        if (t.declared > m_maxBody) {
            reject(socket, 413);
            return;
        }
        if (expectContinue && t.bodySeen == 0)
            socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    } else {
        t.bodySeen += fresh.size();
    }
    // Chunked bodies carry framing bytes; allow a little slack over the limit for them.
    if (t.bodySeen > m_maxBody + 64 * 1024)
        reject(socket, 413);
}

void TcpGuard::reject(QTcpSocket *socket, int status)
{
    Tracker &t = m_trackers[socket];
    t.rejected = true;
    // Stop QHttpServer from parsing this connection any further.
    if (QObject *server = parent())
        disconnect(socket, &QTcpSocket::readyRead, server, nullptr);
    socket->readAll();
    socket->write(m_render(status, m_maxBody));
    socket->flush();
    QPointer<QTcpSocket> guard(socket);
    // Give the client a moment to read the answer before the connection goes.
    QTimer::singleShot(1000, socket, [guard] {
        if (guard)
            guard->disconnectFromHost();
    });
}

} // namespace ph::http
