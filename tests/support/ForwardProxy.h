#pragma once

#include <QFile>
#include <QHostAddress>
#include <QNetworkProxy>
#include <QPointer>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QStringList>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QUrl>
#include <QtEndian>

namespace ph::test {

// A forward proxy on loopback for tests of `settings.proxy`: HTTP (CONNECT tunnels and
// absolute-form requests), the same over TLS to the proxy (HTTPS: a certificate for
// 127.0.0.1 made by openssl at start(), which the test trusts through certificate()), or
// SOCKS5 (no authentication, or username/password), with optional credentials. It records what it
// was asked to reach (`targets`, as "CONNECT host:port", "GET http://…" or "SOCKS host:port") and
// how often it refused the credentials (`refusedCredentials`).
class ForwardProxy : public QTcpServer
{
public:
    enum class Kind { Http, Https, Socks5 };
    explicit ForwardProxy(Kind kind, QByteArray user = {}, QByteArray password = {})
        : m_kind(kind)
        , m_user(std::move(user))
        , m_password(std::move(password))
    {}

    bool start()
    {
        if (m_kind == Kind::Https && !makeCertificate())
            return false;
        return listen(QHostAddress::LocalHost, 0);
    }
    // The HTTPS proxy's self-signed certificate (its own authority).
    QSslCertificate certificate() const { return m_certificate; }
    quint16 port() const { return serverPort(); }
    QString url(const QString &credentials = {}) const
    {
        const QString scheme = m_kind == Kind::Http    ? QStringLiteral("http://")
                               : m_kind == Kind::Https ? QStringLiteral("https://")
                                                       : QStringLiteral("socks5://");
        const QString userInfo = credentials.isEmpty() ? QString() : credentials + QLatin1Char('@');
        return scheme + userInfo + QStringLiteral("127.0.0.1:") + QString::number(port());
    }

    QStringList targets;
    int refusedCredentials = 0;

protected:
    void incomingConnection(qintptr descriptor) override
    {
        QTcpSocket *client = nullptr;
        if (m_kind == Kind::Https) {
            auto *tls = new QSslSocket(this);
            tls->setSocketDescriptor(descriptor);
            tls->setLocalCertificate(m_certificate);
            tls->setPrivateKey(m_key);
            tls->startServerEncryption();
            client = tls;
        } else {
            client = new QTcpSocket(this);
            client->setSocketDescriptor(descriptor);
        }
        auto *buffer = new QByteArray;
        auto *step = new int(0);
        connect(client, &QTcpSocket::disconnected, client, [client, buffer, step] {
            delete buffer;
            delete step;
            client->deleteLater();
        });
        connect(client, &QTcpSocket::readyRead, this, [this, client, buffer, step] {
            if (*step < 0)
                return; // relaying
            buffer->append(client->readAll());
            if (m_kind != Kind::Socks5)
                httpHead(client, buffer, step);
            else
                socks(client, buffer, step);
        });
    }

private:
    bool makeCertificate()
    {
        if (!m_dir.isValid())
            return false;
        const QString cert = m_dir.filePath(QStringLiteral("cert.pem"));
        const QString key = m_dir.filePath(QStringLiteral("key.pem"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"),
                       QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert,
                       QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                       QStringLiteral("subjectAltName=IP:127.0.0.1")});
        if (!openssl.waitForFinished(30000) || openssl.exitCode() != 0)
            return false;
        QFile certFile(cert);
        QFile keyFile(key);
        if (!certFile.open(QIODevice::ReadOnly) || !keyFile.open(QIODevice::ReadOnly))
            return false;
        m_certificate = QSslCertificate(&certFile, QSsl::Pem);
        m_key = QSslKey(&keyFile, QSsl::Rsa, QSsl::Pem);
        return !m_certificate.isNull() && !m_key.isNull();
    }

    bool credentialsOk(const QByteArray &user, const QByteArray &password)
    {
        if (m_user.isEmpty() || (user == m_user && password == m_password))
            return true;
        ++refusedCredentials;
        return false;
    }

    void httpHead(QTcpSocket *client, QByteArray *buffer, int *step)
    {
        const qsizetype end = buffer->indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buffer->left(end).split('\n');
        const QByteArray rest = buffer->mid(end + 4);
        const QList<QByteArray> request = lines.value(0).trimmed().split(' ');
        QByteArray credentials;
        QByteArray headers;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            if (line.toLower().startsWith("proxy-authorization: basic "))
                credentials = QByteArray::fromBase64(line.mid(27).trimmed());
            else if (!line.toLower().startsWith("proxy-"))
                headers += line + "\r\n";
        }
        const qsizetype colon = credentials.indexOf(':');
        if (!credentialsOk(credentials.left(colon),
                           colon < 0 ? QByteArray() : credentials.mid(colon + 1))) {
            client->write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: "
                          "Basic realm=\"test\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            client->disconnectFromHost();
            *step = -1;
            return;
        }
        const QByteArray method = request.value(0);
        const QByteArray target = request.value(1);
        targets << QString::fromLatin1(method + ' ' + target);
        *step = -1;
        if (method == "CONNECT") {
            const qsizetype c = target.lastIndexOf(':');
            relay(client, QString::fromLatin1(target.left(c)), quint16(target.mid(c + 1).toUInt()),
                  "HTTP/1.1 200 Connection Established\r\n\r\n", rest);
            return;
        }
        const QUrl url(QString::fromLatin1(target));
        const QByteArray origin =
            url.path(QUrl::FullyEncoded).toLatin1() +
            (url.hasQuery() ? '?' + url.query(QUrl::FullyEncoded).toLatin1() : QByteArray());
        relay(client, url.host(), quint16(url.port(80)), {},
              method + ' ' + (origin.isEmpty() ? QByteArray("/") : origin) + " HTTP/1.1\r\n" +
                  headers + "\r\n" + rest);
    }

    void socks(QTcpSocket *client, QByteArray *buffer, int *step)
    {
        if (*step == 0) { // greeting
            if (buffer->size() < 2 || buffer->size() < 2 + quint8(buffer->at(1)))
                return;
            const QByteArray methods = buffer->mid(2, quint8(buffer->at(1)));
            buffer->remove(0, 2 + methods.size());
            const char wanted = m_user.isEmpty() ? 0x00 : 0x02;
            if (!methods.contains(wanted)) {
                client->write(QByteArray("\x05\xff", 2));
                client->disconnectFromHost();
                *step = -1;
                return;
            }
            client->write(QByteArray("\x05", 1) + wanted);
            *step = m_user.isEmpty() ? 2 : 1;
        }
        if (*step == 1) { // username/password
            if (buffer->size() < 2)
                return;
            const int ulen = quint8(buffer->at(1));
            if (buffer->size() < 3 + ulen)
                return;
            const int plen = quint8(buffer->at(2 + ulen));
            if (buffer->size() < 3 + ulen + plen)
                return;
            const QByteArray user = buffer->mid(2, ulen);
            const QByteArray password = buffer->mid(3 + ulen, plen);
            buffer->remove(0, 3 + ulen + plen);
            if (!credentialsOk(user, password)) {
                client->write(QByteArray("\x01\x01", 2));
                client->disconnectFromHost();
                *step = -1;
                return;
            }
            client->write(QByteArray("\x01\x00", 2));
            *step = 2;
        }
        if (*step == 2) { // connect
            if (buffer->size() < 5)
                return;
            const quint8 type = quint8(buffer->at(3));
            QString host;
            qsizetype at = 4;
            if (type == 0x03) {
                const int len = quint8(buffer->at(4));
                if (buffer->size() < 5 + len + 2)
                    return;
                host = QString::fromLatin1(buffer->mid(5, len));
                at = 5 + len;
            } else if (type == 0x01) {
                if (buffer->size() < 10)
                    return;
                host = QHostAddress(qFromBigEndian<quint32>(buffer->constData() + 4)).toString();
                at = 8;
            } else {
                client->disconnectFromHost();
                *step = -1;
                return;
            }
            const quint16 port =
                quint16((quint8(buffer->at(at)) << 8) | quint8(buffer->at(at + 1)));
            const QByteArray rest = buffer->mid(at + 2);
            targets << QStringLiteral("SOCKS %1:%2").arg(host).arg(port);
            *step = -1;
            relay(client, host, port, QByteArray("\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00", 10),
                  rest);
        }
    }

    // Connects to host:port, answers `greeting` to the client, sends `first` upstream,
    // then copies bytes both ways until either side closes.
    void relay(QTcpSocket *client, const QString &host, quint16 port, const QByteArray &greeting,
               const QByteArray &first)
    {
        auto *upstream = new QTcpSocket(client);
        upstream->setProxy(QNetworkProxy::NoProxy);
        QPointer<QTcpSocket> c(client);
        connect(upstream, &QTcpSocket::connected, client, [c, upstream, greeting, first] {
            if (!greeting.isEmpty())
                c->write(greeting);
            if (!first.isEmpty())
                upstream->write(first);
        });
        connect(upstream, &QTcpSocket::readyRead, client,
                [c, upstream] { c->write(upstream->readAll()); });
        connect(client, &QTcpSocket::readyRead, upstream,
                [c, upstream] { upstream->write(c->readAll()); });
        connect(upstream, &QTcpSocket::disconnected, client, [c] { c->disconnectFromHost(); });
        connect(upstream, &QTcpSocket::errorOccurred, client, [c, upstream] {
            if (upstream->state() != QAbstractSocket::ConnectedState)
                c->disconnectFromHost();
        });
        connect(client, &QTcpSocket::disconnected, upstream,
                [upstream] { upstream->disconnectFromHost(); });
        upstream->connectToHost(host, port);
    }

    Kind m_kind;
    QByteArray m_user;
    QByteArray m_password;
    QTemporaryDir m_dir;
    QSslCertificate m_certificate;
    QSslKey m_key;
};

} // namespace ph::test
