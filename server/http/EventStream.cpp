#include "EventStream.h"

#include "Exchange.h"

#include <QDateTime>
#include <QJsonDocument>

namespace ph::http {

bool EventStream::framingFromAccept(const QByteArray &accept, Framing *framing)
{
    const QByteArray a = accept.toLower();
    if (a.contains("text/event-stream")) {
        *framing = Framing::Sse;
        return true;
    }
    if (a.contains("application/x-ndjson") || a.contains("application/ndjson")) {
        *framing = Framing::Ndjson;
        return true;
    }
    return false;
}

EventStream::EventStream(Exchange &exchange, Framing framing, int heartbeatMs, QObject *parent)
    : QObject(parent)
    , m_exchange(&exchange)
    , m_framing(framing)
{
    exchange.beginStream(200, framing == Framing::Sse ? "text/event-stream; charset=utf-8"
                                                      : "application/x-ndjson");
    if (!exchange.isStreaming()) {
        // Refused (429 over a cap on open streams): closed, once whoever made this listens.
        QMetaObject::invokeMethod(this, &EventStream::closed, Qt::QueuedConnection);
        return;
    }
    connect(&exchange, &Exchange::finished, this, [this] {
        m_heartbeat.stop();
        Q_EMIT closed();
    });
    if (heartbeatMs > 0) {
        m_heartbeat.setInterval(heartbeatMs);
        connect(&m_heartbeat, &QTimer::timeout, this, &EventStream::heartbeat);
        m_heartbeat.start();
    }
}

bool EventStream::isOpen() const
{
    return m_exchange && m_exchange->isStreaming() && m_exchange->isOpen();
}

qint64 EventStream::unsentBytes() const
{
    return m_exchange ? m_exchange->unsentBytes() : 0;
}

void EventStream::send(const QString &type, const QJsonObject &data, qint64 id)
{
    if (!isOpen())
        return;
    const QByteArray json = QJsonDocument(data).toJson(QJsonDocument::Compact);
    if (m_framing == Framing::Sse) {
        QByteArray frame;
        if (id > 0)
            frame += "id: " + QByteArray::number(id) + '\n';
        frame += "event: " + type.toUtf8() + "\ndata: " + json + "\n\n";
        m_exchange->writeChunk(frame);
    } else {
        QJsonObject line{{QStringLiteral("type"), type}, {QStringLiteral("data"), data}};
        if (id > 0)
            line.insert(QStringLiteral("id"), id);
        m_exchange->writeChunk(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
    }
}

void EventStream::sendEnvelope(const QJsonObject &envelope, qint64 id)
{
    if (m_framing == Framing::Sse) {
        send(envelope.value(QStringLiteral("type")).toString(), envelope, id);
        return;
    }
    if (isOpen())
        m_exchange->writeChunk(QJsonDocument(envelope).toJson(QJsonDocument::Compact) + '\n');
}

void EventStream::sendEnvelope(const QJsonObject &envelope)
{
    if (!isOpen())
        return;
    const QByteArray json = QJsonDocument(envelope).toJson(QJsonDocument::Compact);
    if (m_framing == Framing::Ndjson) {
        m_exchange->writeChunk(json + '\n');
        return;
    }
    QByteArray id = envelope.value(QStringLiteral("id")).toString().toUtf8();
    id.replace('\n', "").replace('\r', "");
    QByteArray frame;
    if (!id.isEmpty())
        frame += "id: " + id + '\n';
    frame += "event: " + envelope.value(QStringLiteral("type")).toString().toUtf8() +
             "\ndata: " + json + "\n\n";
    m_exchange->writeChunk(frame);
}

void EventStream::heartbeat()
{
    if (!isOpen())
        return;
    if (m_framing == Framing::Sse) {
        m_exchange->writeChunk(": ping\n\n");
    } else {
        const QJsonObject ping{{QStringLiteral("type"), QStringLiteral("ping")},
                               {QStringLiteral("ts"), QDateTime::currentMSecsSinceEpoch()}};
        m_exchange->writeChunk(QJsonDocument(ping).toJson(QJsonDocument::Compact) + '\n');
    }
}

void EventStream::close()
{
    m_heartbeat.stop();
    if (m_exchange)
        m_exchange->endStream();
}

} // namespace ph::http
