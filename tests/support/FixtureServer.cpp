#include "FixtureServer.h"

#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

namespace ph::test {

FixtureResponse FixtureResponse::html(const QByteArray &body, const QByteArray &charset)
{
    FixtureResponse r;
    r.headers.append({"Content-Type", "text/html; charset=" + charset});
    r.body = body;
    return r;
}

FixtureServer::FixtureServer(QObject *parent)
    : QTcpServer(parent)
{
    connect(this, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QObject::destroyed, this,
                    [this, socket] { m_buffers.remove(socket); });
        }
    });
}

bool FixtureServer::start()
{
    return listen(QHostAddress::LocalHost, 0);
}

QString FixtureServer::url(const QString &path) const
{
    return QStringLiteral("http://127.0.0.1:%1%2").arg(serverPort()).arg(path);
}

void FixtureServer::route(const QByteArray &path, Handler handler)
{
    m_routes.insert(path, std::move(handler));
}

void FixtureServer::page(const QByteArray &path, const QByteArray &html)
{
    route(path, [html](const FixtureRequest &) { return FixtureResponse::html(html); });
}

void FixtureServer::respond(const QByteArray &path, int status, const QByteArray &body)
{
    route(path, [status, body](const FixtureRequest &) {
        FixtureResponse r;
        r.status = status;
        r.body = body;
        return r;
    });
}

void FixtureServer::onReadyRead(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer += socket->readAll();
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return;
    FixtureRequest request;
    const QList<QByteArray> lines = buffer.left(end).split('\n');
    const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
    request.method = first.value(0);
    request.path = first.value(1);
    qint64 length = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = lines[i].left(colon).trimmed().toLower();
        const QByteArray value = lines[i].mid(colon + 1).trimmed();
        request.headers.insert(name, value);
        if (name == "content-length")
            length = value.toLongLong();
    }
    if (buffer.size() < end + 4 + length)
        return;
    request.body = buffer.mid(end + 4, length);
    buffer.remove(0, end + 4 + length);
    answer(socket, request);
}

void FixtureServer::answer(QTcpSocket *socket, const FixtureRequest &request)
{
    QByteArray route = request.path;
    const qsizetype q = route.indexOf('?');
    if (q >= 0)
        route.truncate(q);
    m_hits[route] += 1;
    m_log[route].append(request);
    FixtureResponse response;
    if (auto it = m_routes.constFind(route); it != m_routes.cend()) {
        response = (*it)(request);
    } else {
        response =
            FixtureResponse::html("<!doctype html><title>Not found</title><h1>Not found</h1>");
        response.status = 404;
    }
    QByteArray head = "HTTP/1.1 " + QByteArray::number(response.status) + " Fixture\r\n";
    bool typed = false;
    for (const auto &h : response.headers) {
        head += h.first + ": " + h.second + "\r\n";
        typed |= h.first.toLower() == "content-type";
    }
    if (!typed)
        head += "Content-Type: text/html; charset=utf-8\r\n";
    if (response.hang) {
        // Promise more than we send: the page never finishes loading.
        head += "Content-Length: " + QByteArray::number(response.body.size() + 100000) + "\r\n\r\n";
    } else {
        head += "Content-Length: " + QByteArray::number(response.body.size()) +
                "\r\nConnection: close\r\n\r\n";
    }
    QPointer<QTcpSocket> guard(socket);
    auto send = [guard, head, response] {
        if (!guard)
            return;
        guard->write(head + response.body);
        guard->flush();
        if (!response.hang)
            guard->disconnectFromHost();
    };
    QPointer<QTcpSocket> owner(socket);
    auto go = [owner, send, delayMs = response.delayMs] {
        if (delayMs > 0 && owner)
            QTimer::singleShot(delayMs, owner, send);
        else
            send();
    };
    if (response.holdUntilHits > m_hits.value(route))
        m_held[route].append({response.holdUntilHits, go});
    else
        go();
    // This hit may release requests held before it.
    auto &held = m_held[route];
    const int hits = m_hits.value(route);
    for (qsizetype i = 0; i < held.size();) {
        if (held[i].first <= hits)
            held.takeAt(i).second();
        else
            ++i;
    }
}

} // namespace ph::test
