#pragma once

#include <QString>

#include <memory>

class QWebSocket;

namespace ph::sessions {

class SessionService;

// The DevTools WebSocket door of browser sessions: ws://HOST:PORT/cdp/{token}/devtools/
// browser[/…] on the API's own port (HttpServer hands every upgraded connection here).
// The token names the session (compared by its SHA-256); the socket goes to that
// session's browser, whose relay filters what the client sends. Anything else is closed
// with 1008 (policy violation) and no hint of why.
class CdpGateway
{
public:
    explicit CdpGateway(SessionService &sessions);

    void accept(std::unique_ptr<QWebSocket> socket);
    // The token in a gateway path, or empty when the path is not one.
    static QString tokenOf(const QString &path);

private:
    SessionService &m_sessions;
};

} // namespace ph::sessions
