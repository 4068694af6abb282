#include "CdpConnection.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkProxy>
#include <QTimer>
#include <QWebSocket>

Q_LOGGING_CATEGORY(lcCdp, "pilothouse.browser.cdp", QtWarningMsg)

namespace ph {

CdpConnection::CdpConnection(QObject *parent)
    : QObject(parent)
    , m_socket(new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, this))
{
    // The DevTools endpoint is on loopback and never behind the application's proxy
    // (which is the egress proxy the pages leave by).
    m_socket->setProxy(QNetworkProxy::NoProxy);
    m_socket->setMaxAllowedIncomingMessageSize(512ll * 1024 * 1024);
    connect(m_socket, &QWebSocket::connected, this, [this] {
        m_open = true;
        Q_EMIT opened();
    });
    connect(m_socket, &QWebSocket::disconnected, this, [this] {
        const bool was = m_open;
        m_open = false;
        failAll(QStringLiteral("the browser's DevTools connection closed"));
        if (was)
            Q_EMIT closed();
    });
    connect(m_socket, &QWebSocket::textMessageReceived, this, &CdpConnection::onMessage);
}

CdpConnection::~CdpConnection()
{
    m_socket->disconnect(this);
    m_socket->abort();
}

void CdpConnection::open(const QUrl &url)
{
    m_socket->open(url);
}

void CdpConnection::close()
{
    m_socket->close();
}

void CdpConnection::send(const QString &method, const QJsonObject &params, const QString &sessionId,
                         QObject *context, Reply reply)
{
    const qint64 id = m_nextId++;
    QJsonObject message{{QStringLiteral("id"), id}, {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    if (!sessionId.isEmpty())
        message.insert(QStringLiteral("sessionId"), sessionId);
    if (!m_open) {
        if (reply) {
            QPointer<QObject> guard(context);
            const bool hasContext = context != nullptr;
            QTimer::singleShot(0, this, [guard, hasContext, reply] {
                if (!hasContext || guard)
                    reply({}, QStringLiteral("the browser's DevTools connection is closed"));
            });
        }
        return;
    }
    if (reply)
        m_pending.insert(id, {QPointer<QObject>(context), context != nullptr, std::move(reply)});
    qCDebug(lcCdp) << "->" << method << sessionId;
    m_socket->sendTextMessage(
        QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
}

void CdpConnection::setSink(const QString &sessionId, Sink sink)
{
    m_sinks.insert(sessionId, std::move(sink));
}

void CdpConnection::removeSink(const QString &sessionId)
{
    m_sinks.remove(sessionId);
}

void CdpConnection::onMessage(const QString &text)
{
    const QJsonObject message = QJsonDocument::fromJson(text.toUtf8()).object();
    if (message.contains(QStringLiteral("id"))) {
        const qint64 id = message.value(QStringLiteral("id")).toInteger();
        const Pending pending = m_pending.take(id);
        if (!pending.reply || (pending.hasContext && !pending.context))
            return;
        const QJsonObject error = message.value(QStringLiteral("error")).toObject();
        if (!error.isEmpty() || message.contains(QStringLiteral("error")))
            pending.reply({},
                          error.value(QStringLiteral("message")).toString(QStringLiteral("error")));
        else
            pending.reply(message.value(QStringLiteral("result")).toObject(), QString());
        return;
    }
    const QString method = message.value(QStringLiteral("method")).toString();
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    const QString sessionId = message.value(QStringLiteral("sessionId")).toString();
    qCDebug(lcCdp) << "<-" << method << sessionId;
    if (sessionId.isEmpty()) {
        Q_EMIT browserEvent(method, params);
        return;
    }
    const auto sink = m_sinks.constFind(sessionId);
    if (sink != m_sinks.constEnd()) {
        const Sink copy = *sink; // a sink may remove itself
        copy(method, params);
    }
}

void CdpConnection::failAll(const QString &error)
{
    const QHash<qint64, Pending> pending = std::exchange(m_pending, {});
    for (const Pending &p : pending) {
        if (p.reply && (!p.hasContext || p.context))
            p.reply({}, error);
    }
}

} // namespace ph
