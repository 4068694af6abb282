#pragma once

#include <QHash>
#include <QPointer>
#include <QTcpServer>

#include <functional>

class QTcpSocket;

namespace ph::http {

// The listening socket of the HTTP layer. It sees every connection's bytes before
// QHttpServer parses them, so it can refuse what must not be buffered:
//  - a declared Content-Length over the body limit: 413 at once, before the body comes;
//  - a body (chunked or not) that grows past the limit while arriving: 413;
//  - request headers over 64 KiB: 431.
// It also answers `Expect: 100-continue`, which QHttpServer 6.4 ignores.
// A refused connection is drained briefly and closed.
class TcpGuard : public QTcpServer
{
    Q_OBJECT
public:
    using Rejection = std::function<QByteArray(int status, qint64 limit)>;

    TcpGuard(qint64 maxBodyBytes, Rejection render, QObject *parent = nullptr);
    void setMaxBodyBytes(qint64 bytes) { m_maxBody = bytes; }
    qint64 maxBodyBytes() const { return m_maxBody; }
    // Called by the server when a request on `socket` was parsed completely, so the
    // next bytes belong to the next request.
    void requestComplete(QTcpSocket *socket);
    QList<QTcpSocket *> openSockets() const;

    static constexpr qint64 kMaxHeaderBytes = 64 * 1024;

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    struct Tracker
    {
        QByteArray head;
        bool headDone = false;
        qint64 declared = -1;
        qint64 bodySeen = 0;
        bool rejected = false;
    };
    void inspect(QTcpSocket *socket);
    void reject(QTcpSocket *socket, int status);

    qint64 m_maxBody;
    Rejection m_render;
    QHash<QTcpSocket *, Tracker> m_trackers;
};

} // namespace ph::http
