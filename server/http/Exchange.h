#pragma once

#include "Request.h"
#include "Route.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>

#include <memory>

class QTcpSocket;
class QJsonDocument;

namespace ph {
class DomainError;
}

namespace ph::http {

class OpenStreams;

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
    // The WWW-Authenticate value of a 401 answer (RFC 9728 on the MCP endpoints); empty:
    // "Bearer".
    void setChallenge(const QByteArray &challenge) { m_challenge = challenge; }
    // A header every response of this exchange carries (CORS on cross-origin areas).
    void addResponseHeader(const QByteArray &name, const QByteArray &value)
    {
        m_extraHeaders.append({name, value});
    }

    // The site this exchange serves. Controllers of site-scoped routes (A2W runs, v1
    // tasks, the runtime) set it before they hold the answer open, so it counts against
    // http.maxStreamsPerSite.
    void setSite(const QString &siteId) { m_site = siteId; }
    const QString &site() const { return m_site; }
    // The answer is about to be held open (a stream, a long-poll): counts it against the
    // caps on open streams per client and per site, until the exchange finishes. False
    // when a cap is reached; with `refuse`, the exchange is then answered 429
    // TOO_MANY_STREAMS (Retry-After, details naming the setting). The owner's requests
    // are not counted. beginStream() refuses; LongPoll answers at once instead.
    bool holdOpen(bool refuse = true);
    void setOpenStreams(std::shared_ptr<OpenStreams> streams) { m_streams = std::move(streams); }

    // Streaming: status line and headers now, chunks as they come, then the end.
    // Refused with 429 instead when the caps on open streams are reached (holdOpen()).
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
    QByteArray m_challenge;
    QString m_site;
    std::shared_ptr<OpenStreams> m_streams;
    bool m_held = false;
    QPair<QString, QString> m_heldAs; // the client and site counted
};

} // namespace ph::http
