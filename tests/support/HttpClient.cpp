#include "HttpClient.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkReply>
#include <QTcpSocket>
#include <QTimer>
#include <QtTest>

namespace ph::test {

HttpClient::HttpClient(QString base)
    : m_base(std::move(base))
{}

HttpResponse HttpClient::send(const QByteArray &method, const QString &pathOrUrl,
                              const QByteArray &body, const Headers &headers, int timeoutMs)
{
    const QUrl url =
        pathOrUrl.startsWith(QLatin1String("http")) ? QUrl(pathOrUrl) : QUrl(m_base + pathOrUrl);
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    if (!m_bearer.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_bearer.toUtf8());
    bool hasType = false;
    for (const auto &h : headers) {
        request.setRawHeader(h.first, h.second);
        hasType |= h.first.toLower() == "content-type";
    }
    if (!hasType && !body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_nam->sendCustomRequest(request, method, body);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    loop.exec();
    HttpResponse r;
    if (!reply->isFinished()) {
        r.error = QStringLiteral("timed out");
        reply->abort();
    }
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    for (const auto &pair : reply->rawHeaderPairs())
        r.headers.insert(pair.first.toLower(), pair.second);
    r.body = reply->readAll();
    if (r.error.isEmpty() && reply->error() != QNetworkReply::NoError && r.status == 0)
        r.error = reply->errorString();
    reply->deleteLater();
    return r;
}

HttpResponse HttpClient::get(const QString &path, const Headers &headers)
{
    return send("GET", path, {}, headers);
}

HttpResponse HttpClient::post(const QString &path, const QJsonObject &body, const Headers &headers)
{
    return send("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact), headers);
}

HttpResponse HttpClient::postRaw(const QString &path, const QByteArray &body,
                                 const Headers &headers)
{
    return send("POST", path, body, headers);
}

namespace {

// Connects `socket` to host:port, writes `request` and reads until the peer closes,
// `until` appears in the answer or `timeoutMs` pass: what came back.
QByteArray roundTrip(QTcpSocket &socket, const QString &host, quint16 port,
                     const QByteArray &request, int timeoutMs, const QByteArray &until = {})
{
    socket.connectToHost(host, port);
    QByteArray out;
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&socket, &QTcpSocket::connected, &loop, [&] { socket.write(request); });
    QObject::connect(&socket, &QTcpSocket::readyRead, &loop, [&] {
        out += socket.readAll();
        if (!until.isEmpty() && out.contains(until))
            loop.quit();
    });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    QObject::connect(&socket, &QTcpSocket::errorOccurred, &loop, [&] {
        if (socket.error() != QAbstractSocket::RemoteHostClosedError)
            loop.quit();
    });
    timer.start(timeoutMs);
    loop.exec();
    out += socket.readAll();
    return out;
}

} // namespace

QByteArray HttpClient::raw(quint16 port, const QByteArray &request, int timeoutMs,
                           const QByteArray &until)
{
    QTcpSocket socket;
    return roundTrip(socket, QStringLiteral("127.0.0.1"), port, request, timeoutMs, until);
}

HttpResponse HttpClient::sendFrom(const QString &local, const QByteArray &method, const QUrl &url,
                                  const QByteArray &body, const Headers &headers, int timeoutMs)
{
    QByteArray request = method + ' ' + url.path(QUrl::FullyEncoded).toUtf8();
    if (url.hasQuery())
        request += '?' + url.query(QUrl::FullyEncoded).toUtf8();
    request += " HTTP/1.1\r\nHost: " + url.host().toUtf8() + ':' + QByteArray::number(url.port()) +
               "\r\nConnection: close\r\nContent-Length: " + QByteArray::number(body.size()) +
               "\r\n";
    for (const auto &h : headers)
        request += h.first + ": " + h.second + "\r\n";
    request += "\r\n" + body;

    HttpResponse r;
    QTcpSocket socket;
    if (!socket.bind(QHostAddress(local))) {
        r.error = QStringLiteral("cannot bind %1: %2").arg(local, socket.errorString());
        return r;
    }
    const QByteArray out = roundTrip(socket, url.host(), quint16(url.port()), request, timeoutMs);
    const qsizetype end = out.indexOf("\r\n\r\n");
    if (end < 0) {
        r.error = QStringLiteral("no answer: %1").arg(socket.errorString());
        return r;
    }
    const QList<QByteArray> lines = out.left(end).split('\n');
    r.status = lines.first().split(' ').value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0)
            r.headers.insert(lines.at(i).left(colon).trimmed().toLower(),
                             lines.at(i).mid(colon + 1).trimmed());
    }
    r.body = out.mid(end + 4);
    if (r.header("transfer-encoding").toLower() == "chunked") {
        QByteArray whole;
        qsizetype at = 0;
        for (;;) {
            const qsizetype eol = r.body.indexOf("\r\n", at);
            bool ok = false;
            const qsizetype size =
                eol < 0 ? 0 : r.body.mid(at, eol - at).trimmed().toLongLong(&ok, 16);
            if (!ok || size == 0)
                break;
            whole += r.body.mid(eol + 2, size);
            at = eol + 2 + size + 2;
        }
        r.body = whole;
    }
    return r;
}

bool HttpResponse::expectStatus(std::initializer_list<int> expected, const char *file,
                                int line) const
{
    for (int e : expected) {
        if (status == e)
            return true;
    }
    QStringList wanted;
    for (int e : expected)
        wanted << QString::number(e);
    const QByteArray message =
        QStringLiteral("HTTP status %1, expected %2: %3")
            .arg(status)
            .arg(wanted.join(QStringLiteral(" or ")), QString::fromUtf8(body.left(2000)))
            .toUtf8();
    QTest::qFail(message.constData(), file, line);
    return false;
}

QJsonObject HttpClient::pollUntil(const QString &url, const QStringList &statuses, int rounds)
{
    QJsonObject last;
    for (int i = 0; i < rounds; ++i) {
        const HttpResponse r = HttpClient().send("GET", url, {}, {{"Prefer", "wait=10"}});
        r.expectStatus({200}, __FILE__, __LINE__);
        last = r.json();
        if (statuses.contains(last.value(QStringLiteral("status")).toString()))
            return last;
    }
    return last;
}

} // namespace ph::test
