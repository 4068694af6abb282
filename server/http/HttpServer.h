#pragma once

#include "ConnectionLimits.h"
#include "Route.h"

#include "core/TrustedProxies.h"

#include <QAbstractHttpServer>
#include <QHostAddress>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>

class QWebSocket;

namespace ph {
class Clock;
}

namespace ph::http {

class Authenticator;
class Exchange;
class OpenStreams;
class TcpGuard;

// The HTTP layer: QHttpServer's connection handling and parser under our own route
// table. For every request it assigns X-Request-Id, enforces the body limit (413),
// routes (404/405), authenticates (401/403), calls the handler and maps DomainError and
// unexpected exceptions to the error envelope. Handlers answer through an Exchange,
// at once or later (long-poll, streams).
class HttpServer : public QAbstractHttpServer
{
    Q_OBJECT
public:
    HttpServer(Authenticator &authenticator, const Clock &clock, QObject *parent = nullptr);
    ~HttpServer() override;

    void addController(Controller &controller);
    void addRoute(const Route &route);
    // Paths under `prefix` are called from other origins (the embed SDK on a site):
    // every answer allows any origin (no cookies: these routes take bearer tokens), and
    // OPTIONS preflights are answered.
    void allowCrossOrigin(const QString &prefix) { m_crossOrigin.append(prefix); }
    // Who takes the WebSocket connections upgraded on the API's port (the sessions' CDP
    // gateway). It owns each socket and closes what it does not know; with none set,
    // every upgrade is closed as a policy violation.
    using WebSocketHandler = std::function<void(std::unique_ptr<QWebSocket>)>;
    void setWebSocketHandler(WebSocketHandler handler) { m_webSocketHandler = std::move(handler); }
    // Routes refused while the table was built (a duplicate): the service does not start.
    QStringList routeProblems() const { return m_routeProblems; }
    QList<Route> routes() const { return m_router.routes(); }

    // Listens on address:port (0 picks a free port). Returns the port, 0 on failure.
    quint16 listenOn(const QHostAddress &address, quint16 port, QString *error);
    QHostAddress address() const { return m_address; }
    quint16 port() const { return m_port; }

    void setMaxBodyBytes(qint64 bytes);
    qint64 maxBodyBytes() const;
    // Connection caps and read timeouts (the body limit included), applied to open
    // connections too.
    void setConnectionLimits(const ConnectionLimits &limits);
    ConnectionLimits connectionLimits() const { return m_limits; }
    // Open connections from `address` (the per-address cap counts these).
    int connectionsFrom(const QHostAddress &address) const;
    // The reverse proxies whose Forwarded / X-Forwarded-For headers name the client
    // (Request::remoteAddress); see TcpGuard and core/TrustedProxies.
    void setTrustedProxies(const TrustedProxies &proxies);
    // Streams and long-polls held open by a client, and by the callers of a site.
    int openStreamsOf(const QHostAddress &client) const;
    int openStreamsOfSite(const QString &siteId) const;

    int inFlight() const { return int(m_inFlight.size()); }
    // Stops accepting connections; in-flight exchanges continue.
    void stopListening();
    // Fails every exchange still in flight with 503 SHUTTING_DOWN.
    void failInFlight();
    // Calls `done` once every answer written so far has left the process (or after
    // `timeoutMs`), so a shutdown never cuts a response short.
    void drain(int timeoutMs, std::function<void()> done);

Q_SIGNALS:
    void requestFinished(const QString &requestId);
    void idle(); // the last in-flight exchange finished

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    void dispatch(Exchange &exchange, const Route &route);
    void takeWebSockets();

    Authenticator &m_authenticator;
    const Clock &m_clock;
    Router m_router;
    QStringList m_routeProblems;
    QStringList m_crossOrigin;
    QPointer<TcpGuard> m_guard;
    ConnectionLimits m_limits;
    TrustedProxies m_trusted;
    std::shared_ptr<OpenStreams> m_streams;
    QHostAddress m_address;
    quint16 m_port = 0;
    QSet<Exchange *> m_inFlight;
    WebSocketHandler m_webSocketHandler;
};

} // namespace ph::http
