#include "PostClient.h"

#include <QNetworkProxy>
#include <QSslSocket>
#include <QTcpSocket>

#include <limits>

namespace ph::webhooks {

struct PostClient::Origin
{
    QString key;
    Endpoint endpoint;
    QList<Connection *> connections;
    QList<quint64> waiting; // jobs without a connection yet, oldest first
};

class PostClient::Connection : public QObject
{
public:
    Connection(Origin &o, int snippetBytes, QObject *parent)
        : QObject(parent)
        , origin(o)
        , reply(snippetBytes)
    {
        idle.setSingleShot(true);
    }

    Origin &origin;
    QTcpSocket *socket = nullptr; // a child: goes with the connection
    QTimer idle;                  // closes it when unused for a while
    quint64 job = 0;              // the job whose request is out on it; 0: idle
    HttpReplyParser reply;
    QByteArray in;
    bool ready = false;  // connected (and encrypted, for https)
    bool closed = false; // closed and left by its origin; deleted later
};

PostClient::PostClient(int connectionsPerOrigin, int timeoutMs, int snippetBytes, int idleMs,
                       QObject *parent)
    : QObject(parent)
    , m_connectionsPerOrigin(connectionsPerOrigin)
    , m_timeoutMs(timeoutMs)
    , m_snippetBytes(snippetBytes)
    , m_idleMs(idleMs)
{
    m_deadlines.setSingleShot(true);
    m_deadlines.setTimerType(Qt::PreciseTimer);
    connect(&m_deadlines, &QTimer::timeout, this, &PostClient::checkDeadlines);
    m_monotonic.start();
}

PostClient::~PostClient()
{
    for (Origin *o : std::as_const(m_origins)) {
        for (Connection *c : std::as_const(o->connections)) {
            c->socket->disconnect();
            delete c;
        }
        delete o;
    }
}

void PostClient::send(const Endpoint &to, Request request, Done done)
{
    const QString key = QStringLiteral("%1://%2:%3@%4:%5")
                            .arg(to.tls ? QStringLiteral("https") : QStringLiteral("http"), to.host)
                            .arg(to.port)
                            .arg(to.address.toString())
                            .arg(to.dialPort);
    Origin *&o = m_origins[key];
    if (!o) {
        o = new Origin;
        o->key = key;
        o->endpoint = to;
    }
    const quint64 id = m_nextJob++;
    m_jobs.insert(id, Job{key, std::move(request), std::move(done)});
    o->waiting.append(id);
    dispatch(key);
}

// Gives the waiting jobs of an origin the idle connections, opening new ones up to the
// cap.
void PostClient::dispatch(const QString &key)
{
    Origin *o = m_origins.value(key);
    if (!o)
        return;
    while (!o->waiting.isEmpty()) {
        Connection *c = nullptr;
        for (Connection *candidate : std::as_const(o->connections)) {
            if (candidate->ready && candidate->job == 0) {
                c = candidate;
                break;
            }
        }
        if (!c && o->connections.size() >= m_connectionsPerOrigin)
            return;
        const quint64 job = o->waiting.takeFirst();
        if (!m_jobs.contains(job))
            continue;
        assign(c ? c : open(*o), job);
    }
    if (o->connections.isEmpty()) {
        m_origins.remove(key);
        delete o;
    }
}

// Socket state changes arrive queued: connectToHost() and flush() may report them at
// once, and the handlers must not run inside dispatch(), which is iterating. Every
// handler first checks that the connection is still open.
PostClient::Connection *PostClient::open(Origin &o)
{
    // A child: one closed with deleteLater() and not yet deleted goes with the client,
    // and with it any socket event still queued for it.
    auto *c = new Connection(o, m_snippetBytes, this);
#if QT_CONFIG(ssl)
    if (o.endpoint.tls) {
        auto *ssl = new QSslSocket(c);
        connect(
            ssl, &QSslSocket::encrypted, c, [this, c] { onReady(c); }, Qt::QueuedConnection);
        c->socket = ssl;
    }
#endif
    if (!c->socket) {
        c->socket = new QTcpSocket(c);
        connect(
            c->socket, &QTcpSocket::connected, c, [this, c] { onReady(c); }, Qt::QueuedConnection);
    }
    c->socket->setReadBufferSize(64 * 1024); // the parser keeps only the snippet
    // Straight to the checked address: never through a proxy.
    c->socket->setProxy(QNetworkProxy::NoProxy);
    connect(c->socket, &QTcpSocket::readyRead, c, [this, c] { onReadyRead(c); });
    connect(
        c->socket, &QTcpSocket::disconnected, c, [this, c] { onClosed(c, QString()); },
        Qt::QueuedConnection);
    connect(
        c->socket, &QTcpSocket::errorOccurred, c,
        [this, c] { onClosed(c, c->socket->errorString()); }, Qt::QueuedConnection);
    connect(&c->idle, &QTimer::timeout, c, [this, c] {
        if (c->closed || c->job != 0)
            return;
        const QString key = c->origin.key;
        close(c);
        dispatch(key); // drops the origin when it has nothing left
    });
    o.connections.append(c);
    return c;
}

void PostClient::assign(Connection *c, quint64 id)
{
    Job &job = m_jobs[id];
    c->idle.stop();
    c->job = id;
    c->reply = HttpReplyParser(m_snippetBytes);
    c->in.clear();
    job.connection = c;
    // The request's time starts now: its connection starts, or its request leaves.
    job.deadline = m_monotonic.elapsed() + m_timeoutMs;
    if (!m_deadlines.isActive())
        m_deadlines.start(m_timeoutMs);
    if (c->ready) {
        write(c, job);
    } else if (c->socket->state() == QAbstractSocket::UnconnectedState) {
        const Endpoint &e = c->origin.endpoint;
#if QT_CONFIG(ssl)
        if (auto *ssl = qobject_cast<QSslSocket *>(c->socket))
            ssl->connectToHostEncrypted(e.address.toString(), e.dialPort, e.host);
        else
#endif
            c->socket->connectToHost(e.address, e.dialPort);
    }
}

void PostClient::write(Connection *c, Job &job)
{
    c->socket->write(job.request());
    c->socket->flush();
}

void PostClient::onReady(Connection *c)
{
    if (c->closed)
        return;
    c->ready = true;
    c->socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (const auto it = m_jobs.find(c->job); it != m_jobs.end())
        write(c, *it);
    else
        dispatch(c->origin.key);
}

void PostClient::onReadyRead(Connection *c)
{
    if (c->closed)
        return;
    c->in += c->socket->readAll();
    const QString key = c->origin.key;
    if (c->job == 0) { // nothing asked: the server is closing it, or is broken
        close(c);
        dispatch(key);
        return;
    }
    switch (c->reply.feed(c->in)) {
    case HttpReplyParser::NeedMore:
        return;
    case HttpReplyParser::Complete: {
        const bool reusable = c->reply.keepAlive() && c->in.isEmpty();
        complete(c, {c->reply.status(), c->reply.snippet(), QString(), c->reply.headers()});
        if (reusable)
            c->idle.start(m_idleMs);
        else
            close(c);
        break;
    }
    case HttpReplyParser::Failed:
        complete(c, {0, {}, c->reply.error(), {}});
        close(c);
        break;
    }
    dispatch(key);
}

void PostClient::onClosed(Connection *c, const QString &error)
{
    if (c->closed)
        return;
    const QString key = c->origin.key;
    if (c->job != 0) {
        // Not sent again on another connection: a request that may have arrived is only
        // repeated by the caller, as a new request.
        if (c->reply.peerClosed() == HttpReplyParser::Complete)
            complete(c, {c->reply.status(), c->reply.snippet(), QString(), c->reply.headers()});
        else
            complete(c, {0, {}, error.isEmpty() ? c->reply.error() : error, {}});
    }
    close(c);
    dispatch(key);
}

void PostClient::complete(Connection *c, const Reply &reply)
{
    const auto it = m_jobs.find(c->job);
    c->job = 0;
    if (it == m_jobs.end())
        return;
    const Done done = std::move(it->done);
    m_jobs.erase(it);
    done(reply);
}

void PostClient::close(Connection *c)
{
    Q_ASSERT(c->job == 0);
    if (c->closed)
        return;
    c->closed = true;
    c->origin.connections.removeOne(c);
    c->idle.stop();
    c->socket->disconnect();
    c->socket->abort();
    c->deleteLater();
}

void PostClient::checkDeadlines()
{
    const qint64 now = m_monotonic.elapsed();
    QList<Connection *> expired;
    qint64 next = std::numeric_limits<qint64>::max();
    for (const Job &job : std::as_const(m_jobs)) {
        if (!job.connection)
            continue;
        if (job.deadline <= now)
            expired.append(job.connection);
        else
            next = qMin(next, job.deadline);
    }
    for (Connection *c : std::as_const(expired)) {
        const QString key = c->origin.key;
        // A status that arrived is an answer, even if the body is still coming.
        if (c->reply.status() > 0)
            complete(c, {c->reply.status(), c->reply.snippet(), QString(), c->reply.headers()});
        else
            complete(c, {0, {}, QStringLiteral("no answer within %1 ms").arg(m_timeoutMs), {}});
        close(c);
        dispatch(key);
    }
    if (next != std::numeric_limits<qint64>::max())
        m_deadlines.start(int(qMax<qint64>(1, next - now)));
}

} // namespace ph::webhooks
