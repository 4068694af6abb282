#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTest>

#include <optional>

namespace ph::test {

struct SseEvent
{
    QByteArray type;
    QJsonObject data;
};

// A Server-Sent Events client over a raw socket (chunked transfer), read as it comes.
class SseStream
{
public:
    bool open(quint16 port, const QString &pathAndQuery)
    {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!m_socket.waitForConnected(5000))
            return false;
        m_socket.write("GET " + pathAndQuery.toUtf8() +
                       " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n");
        return QTest::qWaitFor([this] { return pump(), m_status != 0; }, 10000);
    }
    // The same for a stream a POST opens (MCP's subscriptions/listen): `headers` are
    // whole lines without CRLF ("Name: value").
    bool post(quint16 port, const QString &path, const QList<QByteArray> &headers,
              const QByteArray &body)
    {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!m_socket.waitForConnected(5000))
            return false;
        QByteArray request = "POST " + path.toUtf8() +
                             " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Content-Length: " +
                             QByteArray::number(body.size()) + "\r\n";
        for (const QByteArray &h : headers)
            request += h + "\r\n";
        m_socket.write(request + "\r\n" + body);
        return QTest::qWaitFor([this] { return pump(), m_status != 0; }, 10000);
    }
    int status() const { return m_status; }
    QByteArray headers() const { return m_headers; }
    bool closed() { return pump(), m_closed; }
    // The first event of `type` after the ones already taken, within `timeoutMs`.
    std::optional<SseEvent> next(const QByteArray &type, int timeoutMs = 20000)
    {
        std::optional<SseEvent> found;
        (void)QTest::qWaitFor(
            [&] {
                pump();
                while (m_taken < m_events.size()) {
                    const SseEvent &e = m_events.at(m_taken++);
                    if (e.type == type) {
                        found = e;
                        return true;
                    }
                }
                return m_closed;
            },
            timeoutMs);
        return found;
    }

private:
    void pump()
    {
        m_raw += m_socket.readAll();
        if (m_status == 0) {
            const qsizetype end = m_raw.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            m_headers = m_raw.left(end);
            m_status = m_headers.mid(9, 3).toInt();
            m_raw.remove(0, end + 4);
        }
        // Chunks: "<hex size>\r\n<data>\r\n"; a size of 0 ends the stream.
        for (;;) {
            const qsizetype line = m_raw.indexOf("\r\n");
            if (line < 0)
                break;
            bool ok = false;
            const qsizetype size = m_raw.left(line).toLongLong(&ok, 16);
            if (!ok || m_raw.size() < line + 2 + size + 2)
                break;
            m_body += m_raw.mid(line + 2, size);
            m_raw.remove(0, line + 2 + size + 2);
            if (size == 0)
                m_closed = true;
        }
        for (qsizetype end = m_body.indexOf("\n\n"); end >= 0; end = m_body.indexOf("\n\n")) {
            const QByteArray block = m_body.left(end);
            m_body.remove(0, end + 2);
            SseEvent e;
            for (const QByteArray &l : block.split('\n')) {
                if (l.startsWith("event: "))
                    e.type = l.mid(7);
                else if (l.startsWith("data: "))
                    e.data = QJsonDocument::fromJson(l.mid(6)).object();
            }
            if (!e.type.isEmpty())
                m_events.append(e);
        }
        if (m_socket.state() != QAbstractSocket::ConnectedState)
            m_closed = true;
    }

    QTcpSocket m_socket;
    QByteArray m_raw;
    QByteArray m_headers;
    QByteArray m_body;
    QList<SseEvent> m_events;
    qsizetype m_taken = 0;
    int m_status = 0;
    bool m_closed = false;
};

} // namespace ph::test
