#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QPair>
#include <QString>
#include <QUrl>

#include <initializer_list>
#include <memory>

namespace ph::test {

struct HttpResponse
{
    int status = 0;                        // 0: no response (connection failed or timed out)
    QHash<QByteArray, QByteArray> headers; // lowercased names
    QByteArray body;
    QString error;

    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QByteArray header(const QByteArray &name) const { return headers.value(name.toLower()); }
    // For helpers that return a response's body to the test: records a failure of the
    // running test (with the body) unless the status is one of `expected`, so a helper
    // never hands on a body of the wrong kind silently. Returns whether it matched.
    bool expectStatus(std::initializer_list<int> expected, const char *file, int line) const;
};

// A synchronous HTTP client for tests: spins the event loop until the answer arrives,
// so the server under test (same thread) keeps running meanwhile.
class HttpClient
{
public:
    explicit HttpClient(QString base = {});

    using Headers = QList<QPair<QByteArray, QByteArray>>;
    HttpResponse send(const QByteArray &method, const QString &pathOrUrl,
                      const QByteArray &body = {}, const Headers &headers = {},
                      int timeoutMs = 60000);
    HttpResponse get(const QString &path, const Headers &headers = {});
    HttpResponse post(const QString &path, const QJsonObject &body, const Headers &headers = {});
    HttpResponse postRaw(const QString &path, const QByteArray &body, const Headers &headers = {});

    // Raw socket exchange for what QNetworkAccessManager cannot express (oversized
    // declared bodies, streams): sends `request` and reads until the peer closes or
    // `until` appears in the reply or the time is up.
    // Long-polls `url` (GET with Prefer: wait=10, up to `rounds` times) until its JSON
    // `status` is one of `statuses`; returns the last answer (A2W runs, v1 tasks).
    static QJsonObject pollUntil(const QString &url, const QStringList &statuses, int rounds = 12);
    static QByteArray raw(quint16 port, const QByteArray &request, int timeoutMs = 10000,
                          const QByteArray &until = {});

    // send() from another client as the server sees it: over a socket bound to `local`
    // (another loopback address, 127.0.0.2 …), HTTP/1.1 with Connection: close, to the
    // host and port of `url`.
    static HttpResponse sendFrom(const QString &local, const QByteArray &method, const QUrl &url,
                                 const QByteArray &body = {}, const Headers &headers = {},
                                 int timeoutMs = 10000);

    QString base() const { return m_base; }
    void setBearer(const QString &key) { m_bearer = key; }

private:
    QString m_base;
    QString m_bearer;
    std::unique_ptr<QNetworkAccessManager> m_nam = std::make_unique<QNetworkAccessManager>();
};

} // namespace ph::test
