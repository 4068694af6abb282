#pragma once

#include "HttpReplyParser.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace ph::webhooks {

// The webhook queue's HTTP/1.1 client: POSTs over keep-alive connections, at most
// `connectionsPerOrigin` per origin with a queue behind them, one request per connection
// at a time. An origin is scheme, host, port and the address the host was checked at:
// connections go to that address (TLS still names the host) and never through a proxy.
// Every request has `timeoutMs` from the moment its connection starts or it leaves; an
// idle connection closes after `idleMs`. A reply is read to its end; the first
// `snippetBytes` of its body are kept.
class PostClient : public QObject
{
public:
    struct Endpoint
    {
        QString host; // ACE form, as certificates and SNI have it
        quint16 port = 0;
        bool tls = false;
        QHostAddress address; // where the connection goes
        quint16 dialPort = 0;
    };
    struct Reply
    {
        int status = 0; // 0: no answer (see error)
        QByteArray snippet;
        QString error;
        QByteArray headers; // the reply's header lines (HttpReplyParser::headers)
    };
    // The request's bytes, built when the request leaves (so a signature's timestamp is
    // the time it was sent).
    using Request = std::function<QByteArray()>;
    using Done = std::function<void(const Reply &)>;

    PostClient(int connectionsPerOrigin, int timeoutMs, int snippetBytes, int idleMs,
               QObject *parent = nullptr);
    ~PostClient() override;

    // Sends to `to`; `done` is called once, from the event loop.
    void send(const Endpoint &to, Request request, Done done);
    int pending() const { return int(m_jobs.size()); }

private:
    struct Origin;
    class Connection;
    struct Job
    {
        QString origin;
        Request request;
        Done done;
        Connection *connection = nullptr; // while its request is out
        qint64 deadline = 0;              // monotonic ms, set with `connection`
    };

    void dispatch(const QString &origin);
    Connection *open(Origin &origin);
    void assign(Connection *c, quint64 job);
    void write(Connection *c, Job &job);
    void onReady(Connection *c);
    void onReadyRead(Connection *c);
    void onClosed(Connection *c, const QString &error);
    void complete(Connection *c, const Reply &reply);
    void close(Connection *c);
    void checkDeadlines();

    const int m_connectionsPerOrigin;
    const int m_timeoutMs;
    const int m_snippetBytes;
    const int m_idleMs;
    QTimer m_deadlines; // the earliest request deadline
    QElapsedTimer m_monotonic;
    QHash<quint64, Job> m_jobs;
    quint64 m_nextJob = 1;
    QHash<QString, Origin *> m_origins; // owned
};

} // namespace ph::webhooks
