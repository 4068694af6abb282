#include "Exchange.h"

#include "ErrorMapping.h"
#include "OpenStreams.h"

#include "core/HeaderText.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTcpSocket>

Q_DECLARE_LOGGING_CATEGORY(lcHttp)

namespace ph::http {

namespace {

// The name of the first header that cannot be written as one header line, or empty.
QByteArray unsafeHeader(const HeaderList &headers, const QByteArray &contentType)
{
    if (!HeaderText::isSafeValue(contentType))
        return "Content-Type";
    for (const auto &h : headers) {
        if (!HeaderText::isToken(h.first) || !HeaderText::isSafeValue(h.second))
            return h.first.isEmpty() ? QByteArray("(empty name)") : h.first;
    }
    return {};
}

} // namespace

Exchange::Exchange(Request request, QTcpSocket *socket, ErrorEnvelope envelope, QObject *parent)
    : QObject(parent)
    , m_request(std::move(request))
    , m_socket(socket)
    , m_envelope(envelope)
{
    m_closeAfter = m_request.header("connection").toLower() == "close";
    if (socket) {
        connect(socket, &QTcpSocket::disconnected, this, [this] {
            if (m_state == State::Done)
                return;
            m_state = State::Done;
            Q_EMIT clientDisconnected();
            complete();
        });
    }
}

Exchange::~Exchange() = default;

bool Exchange::isOpen() const
{
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

qint64 Exchange::unsentBytes() const
{
    return m_socket ? m_socket->bytesToWrite() : 0;
}

QByteArray Exchange::reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

QByteArray Exchange::head(int status, const HeaderList &headers) const
{
    QByteArray out;
    out.reserve(256);
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    out += "X-Request-Id: " + m_request.id.toLatin1() + "\r\n";
    for (const auto &h : headers)
        out += h.first + ": " + h.second + "\r\n";
    for (const auto &h : m_extraHeaders)
        out += h.first + ": " + h.second + "\r\n";
    if (m_closeAfter)
        out += "Connection: close\r\n";
    return out;
}

bool Exchange::refuseUnsafeHeaders(const HeaderList &headers, const QByteArray &contentType)
{
    // The last line of defence against response splitting: inputs are checked where
    // they enter, so reaching this is a bug; the client gets a 500, never a split answer.
    const QByteArray bad = unsafeHeader(headers, contentType);
    if (bad.isEmpty())
        return false;
    qCWarning(lcHttp).noquote() << "refused to write the header" << QString::fromLatin1(bad)
                                << "(a control character in it) for" << m_request.method
                                << m_request.path << m_request.id;
    const DomainError error =
        DomainError::internal(QStringLiteral("the response could not be written safely"));
    respondJson(500, m_envelope ? m_envelope(error, m_request.id) : errorBody(error, m_request.id));
    return true;
}

void Exchange::respond(int status, const QByteArray &body, const QByteArray &contentType,
                       const HeaderList &headers)
{
    if (m_state != State::Pending)
        return;
    if (refuseUnsafeHeaders(headers, contentType))
        return;
    m_state = State::Done;
    if (isOpen()) {
        QByteArray out = head(status, headers);
        if (!contentType.isEmpty())
            out += "Content-Type: " + contentType + "\r\n";
        out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
        if (m_request.method != "HEAD")
            out += body;
        m_socket->write(out);
    }
    complete();
}

void Exchange::respondJson(int status, const QJsonObject &body, const HeaderList &headers)
{
    HeaderList all = headers;
    all.append(qMakePair(QByteArray("Cache-Control"), QByteArray("no-store")));
    respond(status, QJsonDocument(body).toJson(QJsonDocument::Compact), "application/json", all);
}

void Exchange::fail(const DomainError &error)
{
    HeaderList headers;
    if (error.retryAfterSeconds() > 0)
        headers.append(
            qMakePair(QByteArray("Retry-After"), QByteArray::number(error.retryAfterSeconds())));
    if (error.kind() == DomainError::Kind::Unauthenticated)
        headers.append(qMakePair(QByteArray("WWW-Authenticate"),
                                 m_challenge.isEmpty() ? QByteArray("Bearer") : m_challenge));
    const QJsonObject body =
        m_envelope ? m_envelope(error, m_request.id) : errorBody(error, m_request.id);
    respondJson(statusOf(error.kind()), body, headers);
}

bool Exchange::holdOpen(bool refuse)
{
    if (m_held || !m_streams || m_request.principal.owner)
        return true;
    const QString client = m_request.remoteAddress.toString();
    try {
        m_streams->acquire(client, m_site);
    } catch (const DomainError &error) {
        if (refuse)
            fail(error);
        return false;
    }
    m_held = true;
    m_heldAs = {client, m_site};
    return true;
}

void Exchange::beginStream(int status, const QByteArray &contentType, const HeaderList &headers)
{
    if (m_state != State::Pending)
        return;
    if (refuseUnsafeHeaders(headers, contentType))
        return;
    if (!holdOpen())
        return;
    m_state = State::Streaming;
    if (!isOpen())
        return;
    QByteArray out = head(status, headers);
    out += "Content-Type: " + contentType + "\r\n";
    out += "Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\n";
    out += "Transfer-Encoding: chunked\r\n\r\n";
    m_socket->write(out);
    m_socket->flush();
}

void Exchange::writeChunk(const QByteArray &data)
{
    if (m_state != State::Streaming || data.isEmpty() || !isOpen())
        return;
    m_socket->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    m_socket->flush();
}

void Exchange::endStream()
{
    if (m_state != State::Streaming)
        return;
    m_state = State::Done;
    if (isOpen())
        m_socket->write("0\r\n\r\n");
    complete();
}

void Exchange::complete()
{
    if (m_held) {
        m_held = false;
        m_streams->release(m_heldAs.first, m_heldAs.second);
    }
    if (m_closeAfter && isOpen())
        m_socket->disconnectFromHost();
    Q_EMIT finished();
    deleteLater();
}

} // namespace ph::http
