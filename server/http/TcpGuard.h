#pragma once

#include "ConnectionLimits.h"

#include "core/TrustedProxies.h"

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QTcpServer>

#include <functional>

class QTcpSocket;
class QTimer;

namespace ph::http {

// The listening socket of the HTTP layer. It sees every connection's bytes before
// QHttpServer parses them, so it can refuse what must not be buffered or held:
//  - a declared Content-Length over the body limit: 413 at once, before the body comes;
//  - a body (chunked or not) that grows past the limit while arriving: 413;
//  - request headers over 64 KiB: 431;
//  - a connection over the global cap (503) or the per-address cap (429), answered
//    and closed before QHttpServer ever sees it;
//  - a request from a trusted proxy (http.trustedProxies) whose client already has
//    the per-address cap of connections busy (429). A trusted proxy's connections are
//    not counted for the proxy's address: each counts for the client its current
//    request is from (Forwarded / X-Forwarded-For, read here from the raw head in the
//    order the lines came), from the end of that request's head until its answer is
//    complete. clientOf() gives the server that client for the request's identity.
//  - a request whose headers or body do not arrive in time (ConnectionLimits): 408,
//    or a quiet close when nothing of a request came at all.
// The read timeouts run only while the connection waits for a request: from the moment
// a request is complete until its answer is (streams, long-polls), nothing is timed.
// It also answers `Expect: 100-continue`, which QHttpServer 6.4 ignores. A request that
// upgrades to a WebSocket keeps its connection counted until it closes, untimed.
// A refused connection is drained briefly and closed.
class TcpGuard : public QTcpServer
{
    Q_OBJECT
public:
    // The raw response for a refusal: `status` with the limit it hit (bytes for 413,
    // milliseconds for 408, connections for 429/503).
    using Rejection = std::function<QByteArray(int status, qint64 limit)>;

    TcpGuard(const ConnectionLimits &limits, Rejection render, QObject *parent = nullptr);
    void setLimits(const ConnectionLimits &limits);
    const ConnectionLimits &limits() const { return m_limits; }
    void setMaxBodyBytes(qint64 bytes) { m_limits.maxBodyBytes = bytes; }
    qint64 maxBodyBytes() const { return m_limits.maxBodyBytes; }
    // Called by the server when a request on `socket` was parsed completely, so the
    // next bytes belong to the next request, and the connection is busy with it.
    void requestComplete(QTcpSocket *socket);
    // Called when the answer to a request on `socket` is complete (or abandoned): the
    // connection waits for its next request again.
    void responseComplete(QTcpSocket *socket);
    QList<QTcpSocket *> openSockets() const;
    int connectionsFrom(const QHostAddress &address) const;
    // Whose Forwarded / X-Forwarded-For headers are believed. Applies to open
    // connections too.
    void setTrustedProxies(const TrustedProxies &proxies);
    // The client of the request on `socket` whose head was read last: its peer, or the
    // client a trusted proxy names.
    QHostAddress clientOf(QTcpSocket *socket) const;

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
        bool started = false; // a byte of the next request has arrived
        int busy = 0;         // requests handed over whose answer is not complete
        QHostAddress peer;    // canonical
        bool proxied = false; // the peer is a trusted proxy
        QHostAddress client;  // of the request whose head was read last
        QString address;      // whom the connection counts for now; empty: nobody
        QElapsedTimer phase;  // since waiting, the first byte, or the end of the head
        QTimer *timer = nullptr;
    };
    void inspect(QTcpSocket *socket);
    void reject(QTcpSocket *socket, int status, qint64 limit);
    void refuseConnection(QTcpSocket *socket, int status, qint64 limit);
    // (Re)starts the read timer of a connection for the phase it is in.
    void arm(Tracker &t);
    void timedOut(QTcpSocket *socket);
    // Counts a trusted proxy's connection for `client`; false (and 429) over the cap.
    bool countFor(QTcpSocket *socket, Tracker &t, const QHostAddress &client);
    void uncount(Tracker &t);
    static QString addressKey(const QHostAddress &address);

    ConnectionLimits m_limits;
    Rejection m_render;
    QHash<QTcpSocket *, Tracker> m_trackers;
    QHash<QString, int> m_perAddress;
    TrustedProxies m_trusted;
};

} // namespace ph::http
