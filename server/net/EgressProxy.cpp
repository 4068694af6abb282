#include "net/EgressProxy.h"

#include "core/Ids.h"
#include "net/HostResolver.h"

#include <QHash>
#include <QLoggingCategory>
#include <QMessageAuthenticationCode>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QPointer>
#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <functional>

Q_LOGGING_CATEGORY(lcEgress, "pilothouse.egress", QtWarningMsg)

namespace ph {

namespace egress {

namespace {

constexpr qsizetype kMaxHeadBytes = 64 * 1024;
constexpr qint64 kHighWater = 512 * 1024; // bytes queued towards a slow side
constexpr int kReadBufferBytes = 256 * 1024;
constexpr int kHeadTimeoutMs = 20000;
constexpr int kDialTimeoutMs = 15000;
constexpr int kIdleTimeoutMs = 5 * 60 * 1000;

} // namespace

struct Entry
{
    QByteArray password;
    EgressGrant grant;
    std::shared_ptr<const HostResolver> resolver;
};

// Identities, shared by the owning thread (which opens and closes them) and the proxy
// thread (which checks them on every connection).
class Registry
{
public:
    std::optional<Entry> find(const QString &user, const QByteArray &password) const
    {
        QMutexLocker lock(&m_mutex);
        const auto it = m_entries.constFind(user);
        if (it == m_entries.cend() || !Ids::equalConstantTime(it->password, password))
            return std::nullopt;
        return *it;
    }
    void insert(const QString &user, Entry entry)
    {
        QMutexLocker lock(&m_mutex);
        m_entries.insert(user, std::move(entry));
    }
    void setGrant(const QString &user, const EgressGrant &grant)
    {
        QMutexLocker lock(&m_mutex);
        const auto it = m_entries.find(user);
        if (it != m_entries.end())
            it->grant = grant;
    }
    void remove(const QString &user)
    {
        QMutexLocker lock(&m_mutex);
        m_entries.remove(user);
    }
    EgressGrant grant(const QString &user) const
    {
        QMutexLocker lock(&m_mutex);
        return m_entries.value(user).grant;
    }

    std::atomic<int> connections{0};
    // Called on the proxy thread; posts to the owner's thread.
    std::function<void(QString, QString, QString, bool)> refused;
    // The run's own proxy failed a connection (refused it, its credentials, or closed).
    std::function<void(QString, QString, QString)> proxyFailed;

private:
    mutable QMutex m_mutex;
    QHash<QString, Entry> m_entries;
};

// One client connection: a CONNECT tunnel, or one plain http request forwarded with
// `Connection: close` (so no later request on it can reach a host nobody checked).
class Connection : public QObject
{
public:
    Connection(qintptr descriptor, std::shared_ptr<Registry> registry)
        : m_registry(std::move(registry))
        , m_client(new QTcpSocket(this))
    {
        ++m_registry->connections;
        m_client->setSocketDescriptor(descriptor);
        m_client->setReadBufferSize(kReadBufferBytes);
        m_timer.setSingleShot(true);
        m_timer.callOnTimeout(this, [this] { abort(); });
        m_timer.start(kHeadTimeoutMs);
        connect(m_client, &QTcpSocket::readyRead, this, &Connection::onClientData);
        connect(m_client, &QTcpSocket::bytesWritten, this, [this] { pump(m_upstream, m_client); });
        connect(m_client, &QTcpSocket::disconnected, this, [this] { onClosed(m_client); });
        connect(m_client, &QTcpSocket::errorOccurred, this, [this] {
            if (m_client->state() != QAbstractSocket::ConnectedState)
                onClosed(m_client);
        });
    }
    ~Connection() override { --m_registry->connections; }

private:
    enum class State { Head, Resolving, Dialing, Handshake, Open, Done };

    void onClientData()
    {
        if (m_state == State::Open) {
            pump(m_client, m_upstream);
            return;
        }
        if (m_state != State::Head) {
            // Bytes after the head (a request body, TLS hello) wait for the upstream.
            if (m_pending.size() < kHighWater)
                m_pending.append(m_client->read(kHighWater - m_pending.size()));
            return;
        }
        m_head.append(m_client->readAll());
        const qsizetype end = m_head.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_head.size() > kMaxHeadBytes)
                answer(431, "Request Header Fields Too Large", "the request head is too long");
            return;
        }
        m_pending = m_head.mid(end + 4);
        m_head.truncate(end);
        handleHead();
    }

    void handleHead()
    {
        const QList<QByteArray> lines = m_head.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1.")) {
            answer(400, "Bad Request", "not an HTTP/1.x proxy request");
            return;
        }
        m_method = requestLine.at(0);
        const QByteArray target = requestLine.at(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            m_headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
        }
        if (!authenticate())
            return;

        if (m_method == "CONNECT") {
            m_tunnel = true;
            if (!splitAuthority(target, &m_host, &m_port)) {
                answer(400, "Bad Request", "CONNECT needs host:port");
                return;
            }
            m_target = QStringLiteral("%1:%2").arg(m_host).arg(m_port);
        } else {
            const QUrl url = QUrl::fromEncoded(target, QUrl::StrictMode);
            if (url.scheme() != QLatin1String("http") || url.host().isEmpty()) {
                refuse(QStringLiteral("uses the scheme '%1'; only http and https are allowed")
                           .arg(url.scheme()),
                       false);
                return;
            }
            m_host = url.host();
            m_port = quint16(url.port(80));
            m_target = url.toString(QUrl::RemoveUserInfo);
            // The origin form keeps the exact bytes the client sent after the authority.
            const qsizetype schemeEnd = target.indexOf("//") + 2;
            const qsizetype pathStart = target.indexOf('/', schemeEnd);
            const qsizetype queryStart = target.indexOf('?', schemeEnd);
            qsizetype start = pathStart;
            if (start < 0 || (queryStart >= 0 && queryStart < start))
                start = queryStart;
            m_originForm = start < 0 ? QByteArray("/") : target.mid(start);
            if (m_originForm.startsWith('?'))
                m_originForm.prepend('/');
        }

        // A tunnel (CONNECT: https, wss) is judged by host and port; an absolute-form
        // request is http.
        m_scheme = m_tunnel ? QString() : QStringLiteral("http");
        if (const QString problem =
                NetworkPolicy::literalRefusal(m_scheme, m_host, m_port, m_entry.grant);
            !problem.isEmpty()) {
            refuse(problem, false);
            return;
        }
        m_state = State::Resolving;
        QPointer<Connection> self(this);
        m_entry.resolver->lookup(m_host, this, [self](const HostResolver::Answer &answer) {
            if (self)
                self->onResolved(answer);
        });
    }

    bool authenticate()
    {
        QByteArray credentials;
        for (const auto &[name, value] : std::as_const(m_headers)) {
            if (name.compare("Proxy-Authorization", Qt::CaseInsensitive) == 0 &&
                value.left(6).compare("Basic ", Qt::CaseInsensitive) == 0)
                credentials = QByteArray::fromBase64(value.mid(6).trimmed());
        }
        const qsizetype colon = credentials.indexOf(':');
        std::optional<Entry> entry;
        if (colon > 0)
            entry = m_registry->find(QString::fromLatin1(credentials.left(colon)),
                                     credentials.mid(colon + 1));
        if (!entry) {
            write("HTTP/1.1 407 Proxy Authentication Required\r\n"
                  "Proxy-Authenticate: Basic realm=\"pilothouse\"\r\n"
                  "Content-Length: 0\r\nConnection: close\r\nProxy-Connection: close\r\n\r\n");
            finish();
            return false;
        }
        m_user = QString::fromLatin1(credentials.left(colon));
        m_entry = std::move(*entry);
        return true;
    }

    static bool splitAuthority(const QByteArray &authority, QString *host, quint16 *port)
    {
        qsizetype colon = authority.lastIndexOf(':');
        if (authority.startsWith('[')) {
            const qsizetype close = authority.indexOf(']');
            if (close < 0 || colon < close)
                return false;
            *host = QString::fromLatin1(authority.mid(1, close - 1));
        } else {
            if (colon <= 0)
                return false;
            *host = QString::fromLatin1(authority.left(colon));
        }
        bool ok = false;
        const uint p = authority.mid(colon + 1).toUInt(&ok);
        if (!ok || p == 0 || p > 65535 || host->isEmpty())
            return false;
        *port = quint16(p);
        return true;
    }

    void onResolved(const HostResolver::Answer &answer)
    {
        if (m_state != State::Resolving)
            return;
        if (!answer.error.isEmpty()) {
            notifyRefused(answer.error, true);
            answer502(answer.error);
            return;
        }
        const QString problem = NetworkPolicy::addressRefusal(m_host, answer.addresses,
                                                              m_entry.grant, m_scheme, m_port);
        if (!problem.isEmpty()) {
            refuse(problem, false);
            return;
        }
        if (const auto &proxy = m_entry.grant.upstream) {
            // The run's own proxy: its address is judged by the same policy, then the
            // connection goes through it.
            QPointer<Connection> self(this);
            m_entry.resolver->lookup(proxy->host, this,
                                     [self](const HostResolver::Answer &proxyAnswer) {
                                         if (self)
                                             self->onProxyResolved(proxyAnswer);
                                     });
            return;
        }
        dial(answer.addresses, m_port);
    }

    void onProxyResolved(const HostResolver::Answer &answer)
    {
        if (m_state != State::Resolving)
            return;
        const UpstreamProxy &proxy = *m_entry.grant.upstream;
        if (!answer.error.isEmpty()) {
            answer502(QStringLiteral("the proxy %1: %2").arg(proxy.host, answer.error));
            return;
        }
        const QString problem = NetworkPolicy::addressRefusal(proxy.host, answer.addresses,
                                                              m_entry.grant, QString(), proxy.port);
        if (!problem.isEmpty()) {
            refuse(QStringLiteral("the proxy %1").arg(problem), false);
            return;
        }
        dial(answer.addresses, proxy.port);
    }

    void dial(const QList<QHostAddress> &addresses, quint16 port)
    {
        m_candidates = addresses;
        m_dialPort = port;
        m_state = State::Dialing;
        m_timer.start(kDialTimeoutMs);
        dialNext();
    }

    void dialNext()
    {
        if (m_candidates.isEmpty()) {
            answer502(QStringLiteral("could not connect to %1").arg(m_target));
            return;
        }
        const QHostAddress address = m_candidates.takeFirst();
        const HostResolver::Endpoint endpoint = m_entry.resolver->dialTarget(address, m_dialPort);
        if (m_upstream)
            m_upstream->deleteLater();
        const auto &proxy = m_entry.grant.upstream;
        const bool tls = proxy && proxy->kind == UpstreamProxy::Kind::Https;
        m_upstream = tls ? new QSslSocket(this) : new QTcpSocket(this);
        // The application proxy is this proxy: the upstream connection must not use it.
        m_upstream->setProxy(QNetworkProxy::NoProxy);
        m_upstream->setReadBufferSize(kReadBufferBytes);
        QTcpSocket *socket = m_upstream;
        if (tls) {
            auto *ssl = static_cast<QSslSocket *>(socket);
            connect(ssl, &QSslSocket::encrypted, this, [this, socket] {
                if (socket == m_upstream)
                    onUpstreamConnected();
            });
        } else {
            connect(socket, &QTcpSocket::connected, this, [this, socket] {
                if (socket == m_upstream)
                    onUpstreamConnected();
            });
        }
        connect(socket, &QTcpSocket::errorOccurred, this, [this, socket] {
            if (socket != m_upstream)
                return;
            if (m_state == State::Dialing)
                dialNext();
            else if (socket->state() != QAbstractSocket::ConnectedState)
                onClosed(socket);
        });
        if (tls)
            static_cast<QSslSocket *>(socket)->connectToHostEncrypted(endpoint.address.toString(),
                                                                      endpoint.port, proxy->host);
        else
            socket->connectToHost(endpoint.address, endpoint.port);
    }

    void onUpstreamConnected()
    {
        connect(m_upstream, &QTcpSocket::readyRead, this, [this] {
            if (m_state == State::Handshake)
                onHandshakeData();
            else
                pump(m_upstream, m_client);
        });
        connect(m_upstream, &QTcpSocket::bytesWritten, this,
                [this] { pump(m_client, m_upstream); });
        connect(m_upstream, &QTcpSocket::disconnected, this, [this] {
            if (m_state == State::Handshake)
                proxyFailed(QStringLiteral("closed the connection"));
            else
                onClosed(m_upstream);
        });
        const auto &proxy = m_entry.grant.upstream;
        if (!proxy) {
            openRelay(m_originForm, {});
            return;
        }
        m_state = State::Handshake;
        if (proxy->kind == UpstreamProxy::Kind::Socks5) {
            m_socksStep = SocksStep::Greeting;
            m_upstream->write(proxy->user.isEmpty() ? QByteArray("\x05\x01\x00", 3)
                                                    : QByteArray("\x05\x02\x00\x02", 4));
            return;
        }
        if (!m_tunnel) {
            // A plain http request goes to an HTTP proxy in absolute form.
            const QString host =
                m_host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(m_host) : m_host;
            const QByteArray absolute =
                "http://" + host.toUtf8() +
                (m_port == 80 ? QByteArray() : ':' + QByteArray::number(m_port)) + m_originForm;
            openRelay(absolute, proxyAuthorization(*proxy));
            return;
        }
        m_upstream->write("CONNECT " + authority() + " HTTP/1.1\r\nHost: " + authority() + "\r\n" +
                          proxyAuthorization(*proxy) + "\r\n");
    }

    QByteArray authority() const
    {
        const QString host =
            m_host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(m_host) : m_host;
        return host.toUtf8() + ':' + QByteArray::number(m_port);
    }

    static QByteArray proxyAuthorization(const UpstreamProxy &proxy)
    {
        if (proxy.user.isEmpty())
            return {};
        return "Proxy-Authorization: Basic " +
               (proxy.user + QLatin1Char(':') + proxy.password).toUtf8().toBase64() + "\r\n";
    }

    // The run's proxy answered the handshake (HTTP CONNECT or SOCKS5) so far.
    void onHandshakeData()
    {
        m_proxyReply.append(m_upstream->readAll());
        const UpstreamProxy &proxy = *m_entry.grant.upstream;
        if (proxy.kind != UpstreamProxy::Kind::Socks5) {
            const qsizetype end = m_proxyReply.indexOf("\r\n\r\n");
            if (end < 0) {
                if (m_proxyReply.size() > kMaxHeadBytes)
                    proxyFailed(QStringLiteral("answered with an over-long head"));
                return;
            }
            const QByteArray statusLine = m_proxyReply.left(m_proxyReply.indexOf("\r\n"));
            const int status = statusLine.mid(9, 3).toInt();
            if (status < 200 || status > 299) {
                proxyFailed(QStringLiteral("answered %1")
                                .arg(QString::fromLatin1(statusLine.mid(9)).trimmed()));
                return;
            }
            m_proxyReply.remove(0, end + 4);
            openRelay({}, {});
            return;
        }
        socksStep(proxy);
    }

    void socksStep(const UpstreamProxy &proxy)
    {
        const auto byte = [this](qsizetype i) { return quint8(m_proxyReply.at(i)); };
        switch (m_socksStep) {
        case SocksStep::Greeting: {
            if (m_proxyReply.size() < 2)
                return;
            const quint8 method = byte(1);
            m_proxyReply.remove(0, 2);
            if (method == 0x02 && !proxy.user.isEmpty()) {
                const QByteArray user = proxy.user.toUtf8().left(255);
                const QByteArray password = proxy.password.toUtf8().left(255);
                m_upstream->write(QByteArray("\x01", 1) + char(user.size()) + user +
                                  char(password.size()) + password);
                m_socksStep = SocksStep::Auth;
                return;
            }
            if (method != 0x00) {
                proxyFailed(QStringLiteral("(SOCKS5) accepts none of our authentication methods"));
                return;
            }
            sendSocksConnect();
            return;
        }
        case SocksStep::Auth:
            if (m_proxyReply.size() < 2)
                return;
            if (byte(1) != 0x00) {
                proxyFailed(QStringLiteral("(SOCKS5) refused the credentials"));
                return;
            }
            m_proxyReply.remove(0, 2);
            sendSocksConnect();
            return;
        case SocksStep::Connect: {
            if (m_proxyReply.size() < 5)
                return;
            if (byte(1) != 0x00) {
                proxyFailed(QStringLiteral("(SOCKS5) could not connect to %1 (reply %2)")
                                .arg(m_target)
                                .arg(byte(1)));
                return;
            }
            const quint8 type = byte(3);
            const qsizetype length = type == 0x01   ? 4 + 4 + 2
                                     : type == 0x04 ? 4 + 16 + 2
                                                    : 4 + 1 + byte(4) + 2;
            if (m_proxyReply.size() < length)
                return;
            m_proxyReply.remove(0, length);
            openRelay(m_originForm, {});
            return;
        }
        }
    }

    void sendSocksConnect()
    {
        // The name goes to the proxy (it resolves it where it is); the name was judged
        // here first.
        const QByteArray host = m_host.toUtf8().left(255);
        m_upstream->write(QByteArray("\x05\x01\x00\x03", 4) + char(host.size()) + host +
                          char(m_port >> 8) + char(m_port & 0xff));
        m_socksStep = SocksStep::Connect;
    }

    void proxyFailed(const QString &what)
    {
        const UpstreamProxy &proxy = *m_entry.grant.upstream;
        const QString reason =
            QStringLiteral("the proxy %1:%2 %3").arg(proxy.host).arg(proxy.port).arg(what);
        qCInfo(lcEgress) << "proxy failed" << m_target << reason;
        if (m_registry->proxyFailed)
            m_registry->proxyFailed(m_user, m_target, reason);
        answer502(reason);
    }

    // The upstream (the target, or the run's proxy once through) carries the client's
    // bytes from here on: a tunnel is confirmed, a plain request's head is sent with
    // `requestTarget` (origin form, or absolute form for an HTTP proxy).
    void openRelay(const QByteArray &requestTarget, const QByteArray &extraHeaders)
    {
        m_state = State::Open;
        m_timer.start(kIdleTimeoutMs);
        if (m_tunnel) {
            write("HTTP/1.1 200 Connection Established\r\n\r\n");
            if (!m_proxyReply.isEmpty())
                write(std::exchange(m_proxyReply, {}));
        } else {
            QByteArray head = m_method + ' ' + requestTarget + " HTTP/1.1\r\n";
            for (const auto &[name, value] : std::as_const(m_headers)) {
                static const QList<QByteArray> hopByHop = {"proxy-authorization",
                                                           "proxy-connection",
                                                           "connection",
                                                           "keep-alive",
                                                           "upgrade",
                                                           "te",
                                                           "trailer"};
                if (hopByHop.contains(name.toLower()))
                    continue;
                head += name + ": " + value + "\r\n";
            }
            head += extraHeaders + "Connection: close\r\n\r\n";
            m_upstream->write(head);
        }
        if (!m_pending.isEmpty())
            m_upstream->write(std::exchange(m_pending, {}));
        pump(m_client, m_upstream);
    }

    // Moves bytes from one side to the other while the other side keeps up.
    void pump(QTcpSocket *from, QTcpSocket *to, bool drain = false)
    {
        if (!from || !to || m_state != State::Open)
            return;
        m_timer.start(kIdleTimeoutMs);
        while (from->bytesAvailable() > 0 && (drain || to->bytesToWrite() < kHighWater)) {
            QByteArray chunk = from->read(64 * 1024);
            if (from == m_upstream && !m_tunnel && !m_responseHeadDone) {
                chunk = rewriteResponseHead(chunk);
                if (m_state != State::Open)
                    return;
                if (chunk.isEmpty())
                    continue;
            }
            if (to->state() == QAbstractSocket::ConnectedState)
                to->write(chunk);
        }
    }

    // The response head of a forwarded request gets `Connection: close`, so the client
    // opens a new (checked) connection for its next request.
    QByteArray rewriteResponseHead(const QByteArray &chunk)
    {
        m_responseHead.append(chunk);
        QByteArray out;
        for (;;) {
            const qsizetype end = m_responseHead.indexOf("\r\n\r\n");
            if (end < 0) {
                if (m_responseHead.size() > kMaxHeadBytes) {
                    m_responseHeadDone = true; // not HTTP we can read: pass it on as is
                    out += std::exchange(m_responseHead, {});
                }
                return out;
            }
            const QList<QByteArray> lines = m_responseHead.left(end).split('\n');
            const QByteArray statusLine = lines.value(0).trimmed();
            const bool interim = statusLine.mid(9, 1) == "1";
            // The run's proxy refusing its credentials is no challenge for the browser
            // (the browser's credentials are for this proxy): the load fails.
            if (m_entry.grant.upstream && statusLine.mid(9, 3) == "407") {
                m_responseHeadDone = true;
                m_responseHead.clear();
                proxyFailed(QStringLiteral("refused the credentials (407)"));
                return {};
            }
            out += statusLine + "\r\n";
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines.at(i).trimmed();
                const QByteArray name = line.left(line.indexOf(':')).trimmed().toLower();
                if (name == "connection" || name == "keep-alive" || name == "proxy-connection")
                    continue;
                out += line + "\r\n";
            }
            if (!interim)
                out += "Connection: close\r\nProxy-Connection: close\r\n";
            out += "\r\n";
            m_responseHead.remove(0, end + 4);
            if (!interim) {
                m_responseHeadDone = true;
                out += std::exchange(m_responseHead, {});
                return out;
            }
        }
    }

    void onClosed(QTcpSocket *side)
    {
        if (m_state == State::Done)
            return;
        if (m_state != State::Open) {
            if (side == m_client)
                finish();
            return;
        }
        QTcpSocket *other = side == m_client ? m_upstream : m_client;
        pump(side, other, true);
        if (!m_tunnel && side == m_upstream && !m_responseHeadDone && !m_responseHead.isEmpty())
            other->write(std::exchange(m_responseHead, {}));
        finish();
    }

    void notifyRefused(const QString &reason, bool unresolved)
    {
        qCInfo(lcEgress) << "refused" << m_target << reason;
        if (m_registry->refused)
            m_registry->refused(m_user, m_target, reason, unresolved);
    }

    void refuse(const QString &reason, bool unresolved)
    {
        notifyRefused(reason, unresolved);
        answer(403, "Forbidden", reason);
    }

    void answer502(const QString &reason) { answer(502, "Bad Gateway", reason); }

    void answer(int status, const char *text, const QString &reason)
    {
        const QByteArray body =
            "Pilothouse network policy: " + reason.toUtf8().replace('\r', ' ').replace('\n', ' ');
        write(QByteArray("HTTP/1.1 ") + QByteArray::number(status) + ' ' + text +
              "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " +
              QByteArray::number(body.size()) +
              "\r\nConnection: close\r\nProxy-Connection: close\r\n\r\n" + body);
        finish();
    }

    void write(const QByteArray &bytes)
    {
        if (m_client->state() == QAbstractSocket::ConnectedState)
            m_client->write(bytes);
    }

    // Closes both sides once what was written has left, then goes.
    void finish()
    {
        if (m_state == State::Done)
            return;
        m_state = State::Done;
        m_timer.stop();
        for (QTcpSocket *s : {m_client, m_upstream}) {
            if (s && s->state() != QAbstractSocket::UnconnectedState)
                s->disconnectFromHost();
        }
        auto maybeGo = [this] {
            const bool clientDone = m_client->state() == QAbstractSocket::UnconnectedState;
            const bool upstreamDone =
                !m_upstream || m_upstream->state() == QAbstractSocket::UnconnectedState;
            if (clientDone && upstreamDone)
                deleteLater();
        };
        connect(m_client, &QTcpSocket::stateChanged, this, maybeGo);
        if (m_upstream)
            connect(m_upstream, &QTcpSocket::stateChanged, this, maybeGo);
        // Whatever happens, a closed connection does not linger.
        QTimer::singleShot(10000, this, [this] { deleteLater(); });
        maybeGo();
    }

    void abort()
    {
        m_client->abort();
        if (m_upstream)
            m_upstream->abort();
        m_state = State::Done;
        deleteLater();
    }

    std::shared_ptr<Registry> m_registry;
    QTcpSocket *m_client;
    QTcpSocket *m_upstream = nullptr;
    QTimer m_timer{this};
    State m_state = State::Head;
    QByteArray m_head;
    QByteArray m_pending;
    QByteArray m_method;
    QList<QPair<QByteArray, QByteArray>> m_headers;
    QString m_user;
    Entry m_entry;
    bool m_tunnel = false;
    QString m_host;
    QString m_scheme; // http for an absolute-form request, empty for a tunnel
    quint16 m_port = 0;
    QString m_target;
    QByteArray m_originForm;
    QList<QHostAddress> m_candidates;
    quint16 m_dialPort = 0;
    enum class SocksStep { Greeting, Auth, Connect };
    SocksStep m_socksStep = SocksStep::Greeting;
    QByteArray m_proxyReply;
    QByteArray m_responseHead;
    bool m_responseHeadDone = false;
};

class Listener : public QTcpServer
{
public:
    explicit Listener(std::shared_ptr<Registry> registry)
        : m_registry(std::move(registry))
    {
        setMaxPendingConnections(256);
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        // A child: closing the proxy closes its connections.
        (new Connection(descriptor, m_registry))->setParent(this);
    }

private:
    std::shared_ptr<Registry> m_registry;
};

} // namespace egress

std::shared_ptr<EgressProxy> EgressProxy::instance()
{
    // One for the life of the process: QtWebEngine learns its port once. Never
    // destroyed (its thread would outlive the application object at exit).
    static QMutex mutex;
    static std::shared_ptr<EgressProxy> *proxy = nullptr;
    QMutexLocker lock(&mutex);
    if (!proxy) {
        proxy = new std::shared_ptr<EgressProxy>(new EgressProxy());
        if (!(*proxy)->start())
            qCCritical(lcEgress) << "the egress proxy could not listen on loopback";
    }
    return *proxy;
}

bool EgressProxy::routeChromium()
{
    // WebRTC's UDP would leave beside the proxy (which takes no UDP): Chromium sends none
    // that is not proxied, whatever a page's settings say (docs/security.md).
    const QByteArray webrtc = "--force-webrtc-ip-handling-policy=disable_non_proxied_udp";
    if (!qgetenv("QTWEBENGINE_CHROMIUM_FLAGS").contains(webrtc))
        qputenv("QTWEBENGINE_CHROMIUM_FLAGS",
                (qgetenv("QTWEBENGINE_CHROMIUM_FLAGS") + ' ' + webrtc).trimmed());
    const auto proxy = instance();
    if (!proxy->isListening())
        return false;
    // QtWebEngine takes command-line proxy switches only in the "system configuration"
    // mode; with them, nothing is bypassed (`<-loopback>` removes Chromium's implicit
    // loopback bypass). Qt's own clients that must not use a proxy say so themselves.
    QNetworkProxyFactory::setUseSystemConfiguration(true);
    const QByteArray server =
        "--proxy-server=http://127.0.0.1:" + QByteArray::number(proxy->port());
    QByteArray flags = qgetenv("QTWEBENGINE_CHROMIUM_FLAGS");
    if (flags.contains(server))
        return true;
    flags += ' ' + server + " --proxy-bypass-list=<-loopback>";
    qputenv("QTWEBENGINE_CHROMIUM_FLAGS", flags.trimmed());
    return true;
}

EgressProxy::EgressProxy()
    : m_registry(std::make_shared<egress::Registry>())
{
    QPointer<EgressProxy> self(this);
    m_registry->refused = [self](QString user, QString target, QString reason, bool unresolved) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, user, target, reason, unresolved] {
                if (self)
                    Q_EMIT self->refused(user, target, reason, unresolved);
            },
            Qt::QueuedConnection);
    };
    m_registry->proxyFailed = [self](QString user, QString target, QString reason) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, user, target, reason] {
                if (self)
                    Q_EMIT self->proxyFailed(user, target, reason);
            },
            Qt::QueuedConnection);
    };
}

EgressProxy::~EgressProxy()
{
    if (m_thread) {
        QMetaObject::invokeMethod(
            m_listener, [listener = m_listener] { delete listener; }, Qt::BlockingQueuedConnection);
        m_thread->quit();
        m_thread->wait();
        delete m_thread;
    }
    m_registry->refused = nullptr;
    m_registry->proxyFailed = nullptr;
}

bool EgressProxy::start()
{
    m_thread = new QThread();
    m_thread->setObjectName(QStringLiteral("egress-proxy"));
    m_listener = new egress::Listener(m_registry);
    m_listener->moveToThread(m_thread);
    m_thread->start();
    bool ok = false;
    QMetaObject::invokeMethod(
        m_listener,
        [this, &ok] {
            ok = m_listener->listen(QHostAddress::LocalHost, 0);
            m_port = m_listener->serverPort();
        },
        Qt::BlockingQueuedConnection);
    return ok;
}

EgressProxy::Identity EgressProxy::open(const EgressGrant &grant,
                                        std::shared_ptr<const HostResolver> resolver)
{
    Identity id{QStringLiteral("ph_") + Ids::base62(20), Ids::base62(32)};
    if (!resolver)
        resolver = std::make_shared<HostResolver>();
    m_registry->insert(id.user, egress::Entry{id.password.toLatin1(), grant, std::move(resolver)});
    return id;
}

void EgressProxy::setGrant(const Identity &identity, const EgressGrant &grant)
{
    m_registry->setGrant(identity.user, grant);
}

void EgressProxy::close(const Identity &identity)
{
    m_registry->remove(identity.user);
}

EgressGrant EgressProxy::grantOf(const QString &user) const
{
    return m_registry->grant(user);
}

QNetworkProxy EgressProxy::networkProxy(const Identity &identity) const
{
    return QNetworkProxy(QNetworkProxy::HttpProxy, QStringLiteral("127.0.0.1"), m_port,
                         identity.user, identity.password);
}

QNetworkAccessManager *EgressProxy::createFetcher(const EgressGrant &grant,
                                                  std::shared_ptr<const HostResolver> resolver,
                                                  QObject *parent)
{
    auto *manager = new QNetworkAccessManager(parent);
    const Identity id = open(grant, std::move(resolver));
    manager->setProxy(networkProxy(id));
    std::weak_ptr<egress::Registry> registry = m_registry;
    connect(manager, &QObject::destroyed, [registry, user = id.user] {
        if (auto r = registry.lock())
            r->remove(user);
    });
    return manager;
}

int EgressProxy::openConnections() const
{
    return m_registry->connections.load();
}

} // namespace ph
