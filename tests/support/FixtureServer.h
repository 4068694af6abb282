#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QTcpServer>

#include <functional>

class QTcpSocket;

namespace ph::test {

struct FixtureRequest
{
    QByteArray method;
    QByteArray path;                       // with the query
    QHash<QByteArray, QByteArray> headers; // lowercased names
    QByteArray body;
};

struct FixtureResponse
{
    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    int delayMs = 0;   // wait before answering
    bool hang = false; // send the head and the body, then never finish
    // Answer only once the route has been hit this many times: requests that must be in
    // flight side by side (loaded one after the other, the first is never answered).
    int holdUntilHits = 0;
    static FixtureResponse html(const QByteArray &body, const QByteArray &charset = "utf-8");
};

// A small web server for tests, on loopback, started by the test itself. Routes map a
// path to a handler; every hit is counted.
// A small HTML document (UTF-8) for fixture pages.
inline QByteArray htmlPage(const QString &title, const QString &body)
{
    return QStringLiteral("<!doctype html><html><head><meta charset=\"utf-8\"><title>%1</title>"
                          "</head><body>%2</body></html>")
        .arg(title, body)
        .toUtf8();
}

class FixtureServer : public QTcpServer
{
    Q_OBJECT
public:
    using Handler = std::function<FixtureResponse(const FixtureRequest &)>;

    explicit FixtureServer(QObject *parent = nullptr);
    bool start();
    QString url(const QString &path) const;
    quint16 port() const { return serverPort(); }
    // "127.0.0.1:<port>": the private host a site's owner lists for a site served here
    // (TestService::listPrivateHosts), since its port is not the scheme's standard one.
    QString hostPort() const { return QStringLiteral("127.0.0.1:%1").arg(serverPort()); }

    void route(const QByteArray &path, Handler handler);
    void page(const QByteArray &path, const QByteArray &html);
    // A route that always answers `status` with `body` and no headers of its own (a
    // webhook receiver that accepts, or one that is down).
    void respond(const QByteArray &path, int status, const QByteArray &body);
    int hits(const QByteArray &path) const { return m_hits.value(path); }
    QList<FixtureRequest> requests(const QByteArray &path) const { return m_log.value(path); }

private:
    void onReadyRead(QTcpSocket *socket);
    void answer(QTcpSocket *socket, const FixtureRequest &request);

    QHash<QByteArray, Handler> m_routes;
    QHash<QByteArray, int> m_hits;
    QHash<QByteArray, QList<FixtureRequest>> m_log;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QHash<QByteArray, QList<QPair<int, std::function<void()>>>> m_held; // by route
};

} // namespace ph::test
