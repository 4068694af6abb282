#pragma once

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace ph::http {

class Exchange;

// A response that sends events as they happen, in one of two framings:
//   Sse    text/event-stream: "id: N\nevent: TYPE\ndata: {json}\n\n", heartbeats as ": ping"
//   Ndjson application/x-ndjson: one JSON object a line, heartbeats as {"type":"ping"}
// The stream owns nothing but the exchange pointer; when the client leaves it emits
// closed() and further sends are dropped. Over a cap on open streams (Exchange::holdOpen)
// the exchange is answered 429 instead and the stream is closed from the start.
class EventStream : public QObject
{
    Q_OBJECT
public:
    enum class Framing { Sse, Ndjson };

    // Picks the framing from the Accept header; nullopt-like `ok` false when the client
    // asked for neither.
    static bool framingFromAccept(const QByteArray &accept, Framing *framing);

    // heartbeatMs 0: no heartbeat (a stream whose clients accept only its own events).
    EventStream(Exchange &exchange, Framing framing, int heartbeatMs = 15000,
                QObject *parent = nullptr);

    // `id` (SSE only) lets clients resume with Last-Event-ID; 0 omits it.
    void send(const QString &type, const QJsonObject &data, qint64 id = 0);
    // An event that is its own envelope ({id, type, ts, data …}): SSE sends it as the
    // data of an event named by its `type`, NDJSON as the line itself.
    void sendEnvelope(const QJsonObject &envelope, qint64 id);
    // The same with the envelope's own `id` (a string) as the SSE id.
    void sendEnvelope(const QJsonObject &envelope);
    void close();
    bool isOpen() const;
    // What the client has not received yet, in bytes (to skip work for slow clients).
    qint64 unsentBytes() const;
    Framing framing() const { return m_framing; }

Q_SIGNALS:
    void closed();

private:
    void heartbeat();

    QPointer<Exchange> m_exchange;
    Framing m_framing;
    QTimer m_heartbeat;
};

} // namespace ph::http
