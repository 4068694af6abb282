#pragma once

#include "Request.h"
#include "Route.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>

class QTcpSocket;
class QJsonDocument;

namespace ph {
class DomainError;
}

namespace ph::http {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// One request in flight and the means to answer it, now or later. The server creates
// it, calls the route handler, and deletes it (deleteLater) once the response is
// complete or the client has gone. Handlers that answer later keep a QPointer to it.
//
// Every response carries X-Request-Id. Streams use chunked transfer encoding, so the
// connection stays usable after the stream ends. A header name that is not a token, or
// a value with a control character (CR, LF, …), is never written: the answer becomes a
// 500 and the HTTP log names the header.
class Exchange : public QObject
{
    Q_OBJECT
public:
    Exchange(Request request, QTcpSocket *socket, ErrorEnvelope envelope, QObject *parent);
    ~Exchange() override;

    const Request &request() const { return m_request; }
    Request &request() { return m_request; }

    bool isOpen() const; // the client is still connected
    bool isAnswered() const { return m_state != State::Pending; }

    void respond(int status, const QByteArray &body, const QByteArray &contentType,
                 const HeaderList &headers = {});
    void respondJson(int status, const QJsonObject &body, const HeaderList &headers = {});
    void fail(const DomainError &error);
    void setErrorEnvelope(ErrorEnvelope envelope) { m_envelope = envelope; }
    // A header every response of this exchange carries (CORS on cross-origin areas).
    void addResponseHeader(const QByteArray &name, const QByteArray &value)
    {
        m_extraHeaders.append({name, value});
    }

    // Streaming: status line and headers now, chunks as they come, then the end.
    void beginStream(int status, const QByteArray &contentType, const HeaderList &headers = {});
    void writeChunk(const QByteArray &data);
    void endStream();
    bool isStreaming() const { return m_state == State::Streaming; }
    // Bytes written and not yet sent to the client (a stream's backlog).
    qint64 unsentBytes() const;

    static QByteArray reasonPhrase(int status);

Q_SIGNALS:
    // The client closed the connection before the response was complete.
    void clientDisconnected();
    // The response is complete (or can no longer be sent); the object is about to go.
    void finished();

private:
    enum class State { Pending, Streaming, Done };
    QByteArray head(int status, const HeaderList &headers) const;
    // Answers 500 instead when a header name or value could split the response.
    bool refuseUnsafeHeaders(const HeaderList &headers, const QByteArray &contentType);
    void complete();

    Request m_request;
    QPointer<QTcpSocket> m_socket;
    ErrorEnvelope m_envelope;
    State m_state = State::Pending;
    bool m_closeAfter = false;
    HeaderList m_extraHeaders;
};

} // namespace ph::http
