#include "HttpServer.h"

#include "Authenticator.h"
#include "ErrorMapping.h"
#include "Exchange.h"
#include "OpenStreams.h"
#include "TcpGuard.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/Store.h"

#include <QElapsedTimer>
#include <QHttpServerRequest>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTcpSocket>
#include <QTimer>
#include <QWebSocket>

Q_LOGGING_CATEGORY(lcHttp, "pilothouse.http")

namespace ph::http {

namespace {

QByteArray methodName(QHttpServerRequest::Method m)
{
    switch (m) {
    case QHttpServerRequest::Method::Get:
        return "GET";
    case QHttpServerRequest::Method::Put:
        return "PUT";
    case QHttpServerRequest::Method::Delete:
        return "DELETE";
    case QHttpServerRequest::Method::Post:
        return "POST";
    case QHttpServerRequest::Method::Head:
        return "HEAD";
    case QHttpServerRequest::Method::Options:
        return "OPTIONS";
    case QHttpServerRequest::Method::Patch:
        return "PATCH";
    default:
        return "UNKNOWN";
    }
}

// A raw response for connections the guard refuses before any request object exists.
QByteArray rawError(int status, qint64 limit)
{
    const QString requestId = Ids::make(QStringLiteral("req"), 20);
    DomainError error = DomainError::internal(QStringLiteral("refused"));
    int retryAfter = 0;
    switch (status) {
    case 413:
        error = DomainError::payloadTooLarge(limit);
        break;
    case 431:
        error = DomainError(
            DomainError::Kind::TooLarge, QStringLiteral("HEADERS_TOO_LARGE"),
            QStringLiteral("request headers exceed %1 bytes").arg(TcpGuard::kMaxHeaderBytes));
        break;
    case 408:
        error = DomainError(DomainError::Kind::Timeout, QStringLiteral("REQUEST_TIMEOUT"),
                            QStringLiteral("the request did not arrive within %1 ms").arg(limit),
                            QString(), QJsonObject{{QStringLiteral("timeoutMs"), double(limit)}});
        break;
    case 429:
        retryAfter = 1;
        error =
            DomainError(DomainError::Kind::TooManyRequests, QStringLiteral("TOO_MANY_CONNECTIONS"),
                        QStringLiteral("this client already has %1 connections open "
                                       "(http.maxConnectionsPerAddress)")
                            .arg(limit),
                        QString(), QJsonObject{{QStringLiteral("limit"), double(limit)}});
        break;
    case 503:
        retryAfter = 1;
        error = DomainError(
            DomainError::Kind::Unavailable, QStringLiteral("SERVER_BUSY"),
            QStringLiteral("the server has %1 connections open (http.maxConnections)").arg(limit),
            QString(), QJsonObject{{QStringLiteral("limit"), double(limit)}});
        break;
    default:
        break;
    }
    if (retryAfter > 0)
        error.withRetryAfter(retryAfter);
    const QByteArray body =
        QJsonDocument(errorBody(error, requestId)).toJson(QJsonDocument::Compact);
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' +
                     Exchange::reasonPhrase(status) + "\r\nX-Request-Id: " + requestId.toLatin1();
    if (retryAfter > 0)
        out += "\r\nRetry-After: " + QByteArray::number(retryAfter);
    return out + "\r\nContent-Type: application/json\r\nContent-Length: " +
           QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

// A path as logs may show it: a browser session's DevTools path carries its token
// (/cdp/{token}/…), which no log line names.
QString loggedPath(const QString &path)
{
    if (!path.startsWith(QLatin1String("/cdp/")))
        return path;
    const qsizetype end = path.indexOf(QLatin1Char('/'), 5);
    return QStringLiteral("/cdp/[token]") + (end < 0 ? QString() : path.mid(end));
}

} // namespace

HttpServer::HttpServer(Authenticator &authenticator, const Clock &clock, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_authenticator(authenticator)
    , m_clock(clock)
    , m_streams(std::make_shared<OpenStreams>())
{
    m_streams->setCaps(m_limits.maxStreamsPerClient, m_limits.maxStreamsPerSite);
    // Connected, QHttpServer hands upgrade requests to its WebSocket server instead of
    // refusing them; takeWebSockets passes each on (or closes it).
    connect(this, &QAbstractHttpServer::newWebSocketConnection, this, &HttpServer::takeWebSockets);
}

void HttpServer::takeWebSockets()
{
    while (hasPendingWebSocketConnections()) {
        std::unique_ptr<QWebSocket> socket = nextPendingWebSocketConnection();
        if (!socket)
            continue;
        if (m_webSocketHandler) {
            m_webSocketHandler(std::move(socket));
            continue;
        }
        QWebSocket *s = socket.release();
        connect(s, &QWebSocket::disconnected, s, &QObject::deleteLater);
        s->close(QWebSocketProtocol::CloseCodePolicyViolated, QString());
        QTimer::singleShot(2000, s, &QObject::deleteLater);
    }
}

HttpServer::~HttpServer()
{
    // Exchanges are parented to the server; disconnect so their destruction does not
    // call back into a half-destroyed server.
    for (Exchange *ex : std::as_const(m_inFlight))
        ex->disconnect(this);
}

void HttpServer::addController(Controller &controller)
{
    for (const Route &route : controller.routes())
        addRoute(route);
}

void HttpServer::addRoute(const Route &route)
{
    if (const QString problem = m_router.add(route); !problem.isEmpty())
        m_routeProblems << problem;
}

quint16 HttpServer::listenOn(const QHostAddress &address, quint16 port, QString *error)
{
    auto *guard = new TcpGuard(m_limits, &rawError);
    guard->setTrustedProxies(m_trusted);
    if (!guard->listen(address, port)) {
        if (error)
            *error = guard->errorString();
        delete guard;
        return 0;
    }
    bind(guard); // reparents the guard to this server
    m_guard = guard;
    m_address = address;
    m_port = guard->serverPort();
    return m_port;
}

void HttpServer::setMaxBodyBytes(qint64 bytes)
{
    m_limits.maxBodyBytes = bytes;
    if (m_guard)
        m_guard->setMaxBodyBytes(bytes);
}

qint64 HttpServer::maxBodyBytes() const
{
    return m_limits.maxBodyBytes;
}

void HttpServer::setConnectionLimits(const ConnectionLimits &limits)
{
    m_limits = limits;
    m_streams->setCaps(limits.maxStreamsPerClient, limits.maxStreamsPerSite);
    if (m_guard)
        m_guard->setLimits(limits);
}

void HttpServer::setTrustedProxies(const TrustedProxies &proxies)
{
    m_trusted = proxies;
    if (m_guard)
        m_guard->setTrustedProxies(proxies);
}

int HttpServer::openStreamsOf(const QHostAddress &client) const
{
    return m_streams->ofClient(TrustedProxies::canonical(client).toString());
}

int HttpServer::openStreamsOfSite(const QString &siteId) const
{
    return m_streams->ofSite(siteId);
}

int HttpServer::connectionsFrom(const QHostAddress &address) const
{
    return m_guard ? m_guard->connectionsFrom(address) : 0;
}

void HttpServer::stopListening()
{
    if (m_guard)
        m_guard->close();
}

void HttpServer::failInFlight()
{
    const auto exchanges = m_inFlight;
    for (Exchange *ex : exchanges) {
        if (ex->isStreaming())
            ex->endStream();
        else
            ex->fail(DomainError::unavailable(QStringLiteral("SHUTTING_DOWN"),
                                              QStringLiteral("the server is shutting down")));
    }
}

void HttpServer::drain(int timeoutMs, std::function<void()> done)
{
    QElapsedTimer clock;
    clock.start();
    auto *timer = new QTimer(this);
    auto check = [this, timer, clock, timeoutMs, done] {
        qint64 pending = 0;
        if (m_guard) {
            for (QTcpSocket *socket : m_guard->openSockets()) {
                socket->flush();
                pending += socket->bytesToWrite();
            }
        }
        if (pending == 0 || clock.elapsed() >= timeoutMs) {
            timer->stop();
            timer->deleteLater();
            done();
        }
    };
    connect(timer, &QTimer::timeout, this, check);
    timer->start(10);
}

bool HttpServer::handleRequest(const QHttpServerRequest &raw, QTcpSocket *socket)
{
    // QHttpServer 6.4 asks here first and then upgrades a WebSocket request itself
    // (takeWebSockets): nothing may be answered on that connection.
    if (raw.value(QByteArrayLiteral("upgrade"))
            .compare(QByteArrayLiteral("websocket"), Qt::CaseInsensitive) == 0)
        return true;
    if (m_guard)
        m_guard->requestComplete(socket);

    Request request;
    request.id = Ids::make(QStringLiteral("req"), 20);
    request.method = methodName(raw.method());
    request.path = raw.url().path(QUrl::FullyEncoded);
    request.rawQuery = raw.query().toString(QUrl::FullyEncoded);
    request.query = formQuery(raw.url().query(QUrl::FullyEncoded));
    const auto headers = raw.headers();
    for (const auto &h : headers)
        request.headers.insert(h.first.toLower(), h.second);
    request.body = raw.body();
    // The client as the guard read it from this request's head (a trusted proxy's
    // Forwarded / X-Forwarded-For), so the connection caps and every per-client limit
    // agree on who it is.
    request.peerAddress = TrustedProxies::canonical(raw.remoteAddress());
    request.remoteAddress = m_guard ? m_guard->clientOf(socket) : QHostAddress();
    if (request.remoteAddress.isNull())
        request.remoteAddress = request.peerAddress;
    request.viaTrustedProxy = m_trusted.contains(request.peerAddress);
    request.receivedAtMs = m_clock.nowMs();

    const Router::Match match = m_router.match(request.method, request.path);
    auto *exchange = new Exchange(std::move(request), socket,
                                  match.route ? match.route->envelope : nullptr, this);
    exchange->setOpenStreams(m_streams);
    m_inFlight.insert(exchange);
    const QString requestId = exchange->request().id;
    QPointer<QTcpSocket> connection(socket);
    connect(exchange, &Exchange::finished, this, [this, exchange, requestId, connection] {
        m_inFlight.remove(exchange);
        // The answer is out: the connection's read timeouts run again.
        if (m_guard && connection)
            m_guard->responseComplete(connection);
        Q_EMIT requestFinished(requestId);
        if (m_inFlight.isEmpty())
            Q_EMIT idle();
    });

    const bool crossOrigin =
        std::any_of(m_crossOrigin.cbegin(), m_crossOrigin.cend(), [exchange](const QString &p) {
            return exchange->request().path.startsWith(p);
        });
    if (crossOrigin) {
        exchange->addResponseHeader("Access-Control-Allow-Origin", "*");
        exchange->addResponseHeader("Access-Control-Expose-Headers", "X-Request-Id");
        if (exchange->request().method == "OPTIONS") {
            exchange->respond(204, {}, {},
                              {{"Access-Control-Allow-Methods", "GET, POST, OPTIONS"},
                               {"Access-Control-Allow-Headers", "authorization, content-type"},
                               {"Access-Control-Max-Age", "600"}});
            return true;
        }
    }
    try {
        if (exchange->request().body.size() > m_limits.maxBodyBytes)
            throw DomainError::payloadTooLarge(m_limits.maxBodyBytes);
        if (!match.route) {
            if (!match.allowedMethods.isEmpty()) {
                const QByteArray allow = match.allowedMethods.join(QStringLiteral(", ")).toLatin1();
                const DomainError error = DomainError::methodNotAllowed(
                    QStringLiteral("%1 is not allowed on %2; use %3")
                        .arg(QString::fromLatin1(exchange->request().method),
                             exchange->request().path, QString::fromLatin1(allow)));
                exchange->respondJson(405, errorBody(error, requestId), {{"Allow", allow}});
                return true;
            }
            throw DomainError::notFound(
                QStringLiteral("no endpoint at %1").arg(exchange->request().path));
        }
        exchange->request().params = match.params;
    } catch (const DomainError &error) {
        exchange->fail(error);
        return true;
    }
    // Authentication may need to wait (an ID token whose signing keys are being
    // fetched); the request is kept, not the thread.
    const Route route = *match.route;
    QPointer<Exchange> pending(exchange);
    const bool now =
        m_authenticator.prepare(exchange->request(), route.auth, [this, pending, route] {
            if (pending && !pending->isAnswered())
                dispatch(*pending, route);
        });
    if (now)
        dispatch(*exchange, route);
    return true;
}

void HttpServer::dispatch(Exchange &exchange, const Route &route)
{
    try {
        exchange.setChallenge(m_authenticator.challenge(exchange.request()));
        exchange.request().principal = m_authenticator.authenticate(exchange.request(), route.auth);
        if (!m_authenticator.allows(exchange.request().principal, route.capability))
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("CAPABILITY_DISABLED"),
                              QStringLiteral("this API key may not use %1 (capability %2 is off)")
                                  .arg(exchange.request().path, route.capability));
        route.handler(exchange);
    } catch (const DomainError &error) {
        if (!exchange.isAnswered())
            exchange.fail(error);
    } catch (const StoreError &error) {
        qCWarning(lcHttp) << "store error in" << loggedPath(exchange.request().path)
                          << error.what();
        if (!exchange.isAnswered())
            exchange.fail(DomainError::internal(QStringLiteral("storage error")));
    } catch (const std::exception &error) {
        qCWarning(lcHttp) << "unexpected error in" << loggedPath(exchange.request().path)
                          << error.what();
        if (!exchange.isAnswered())
            exchange.fail(DomainError::internal(QStringLiteral("internal error")));
    }
}

void HttpServer::missingHandler(const QHttpServerRequest &, QTcpSocket *)
{
    // handleRequest answers every request; nothing reaches here.
}

} // namespace ph::http
