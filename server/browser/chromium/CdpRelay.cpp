#include "browser/chromium/CdpRelay.h"

#include "browser/chromium/CdpConnection.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QTimer>
#include <QWebSocket>

Q_DECLARE_LOGGING_CATEGORY(lcCdp)

namespace ph {

namespace {

// JSON-RPC's codes, as Chromium answers them.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kServerError = -32000;
constexpr int kSessionNotFound = -32001;

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

} // namespace

CdpRelay::CdpRelay(CdpConnection *browser, const CdpFilter::Scope &scope,
                   std::unique_ptr<QWebSocket> socket, QObject *parent)
    : QObject(parent)
    , m_browser(browser)
    , m_filter(scope)
    , m_socket(socket.release())
{
    m_socket->setParent(this);
    m_socket->setMaxAllowedIncomingMessageSize(quint64(kMaxMessage));
    connect(m_socket, &QWebSocket::textMessageReceived, this, &CdpRelay::onText);
    connect(m_socket, &QWebSocket::binaryMessageReceived, this, [this](const QByteArray &) {
        error(QJsonValue(), {}, kInvalidRequest,
              QStringLiteral("DevTools commands are text frames (JSON)"));
    });
    connect(m_socket, &QWebSocket::disconnected, this, &CdpRelay::close);
}

CdpRelay::~CdpRelay()
{
    detachAll();
}

void CdpRelay::start()
{
    if (!m_browser || !m_browser->isOpen()) {
        close();
        return;
    }
    m_browser->send(QStringLiteral("Target.attachToBrowserTarget"), {}, {}, this,
                    [this](const QJsonObject &r, const QString &e) {
                        m_root = str(r, "sessionId");
                        if (m_closed) { // the client went while its session was being made
                            detachAll();
                            return;
                        }
                        if (!e.isEmpty() || m_root.isEmpty()) {
                            qCWarning(lcCdp) << "a DevTools client got no browser session:" << e;
                            close();
                            return;
                        }
                        watch(m_root);
                        const QList<QJsonObject> queued = std::exchange(m_queued, {});
                        for (const QJsonObject &c : queued)
                            if (!m_closed)
                                handle(c);
                    });
}

void CdpRelay::watch(const QString &sessionId)
{
    QPointer<CdpRelay> self(this);
    m_browser->setSink(sessionId, [self, sessionId](const QString &method, const QJsonObject &p) {
        if (self)
            self->onEvent(sessionId, method, p);
    });
}

void CdpRelay::onText(const QString &text)
{
    if (m_closed)
        return;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        error(QJsonValue(), {}, kParseError, QStringLiteral("Message must be a JSON object"));
        return;
    }
    const QJsonObject command = doc.object();
    if (m_root.isEmpty()) {
        if (m_queued.size() >= 1000) {
            error(command.value(QStringLiteral("id")), {}, kServerError,
                  QStringLiteral("too many commands before the session opened"));
            return;
        }
        m_queued.append(command);
        return;
    }
    handle(command);
}

void CdpRelay::handle(const QJsonObject &command)
{
    const QJsonValue id = command.value(QStringLiteral("id"));
    const QJsonValue method = command.value(QStringLiteral("method"));
    const QJsonValue sessionValue = command.value(QStringLiteral("sessionId"));
    const QString sessionId = sessionValue.toString();
    if (!id.isDouble() || id.toDouble() != double(id.toInteger()) || !method.isString() ||
        method.toString().isEmpty() || !(sessionValue.isUndefined() || sessionValue.isString())) {
        error(id.isDouble() ? id : QJsonValue(), {}, kInvalidRequest,
              QStringLiteral("A command needs an integer 'id' and a string 'method'"));
        return;
    }
    const QJsonValue paramsValue = command.value(QStringLiteral("params"));
    if (!paramsValue.isUndefined() && !paramsValue.isObject()) {
        error(id, sessionId, kInvalidRequest, QStringLiteral("'params' must be an object"));
        return;
    }
    if (!sessionId.isEmpty() && !m_children.contains(sessionId)) {
        error(id, sessionId, kSessionNotFound, QStringLiteral("Session with given id not found."));
        return;
    }
    const QJsonObject params = paramsValue.toObject();
    const CdpFilter::Verdict verdict = m_filter.judge(method.toString(), params, sessionId);
    switch (verdict.kind) {
    case CdpFilter::Verdict::Kind::Refuse:
        qCInfo(lcCdp) << "a DevTools client was refused:" << verdict.reason;
        error(id, sessionId, kServerError, verdict.reason);
        return;
    case CdpFilter::Verdict::Kind::Answer:
        reply(id, sessionId, verdict.params);
        if (verdict.closeClient)
            QTimer::singleShot(0, this, &CdpRelay::close);
        return;
    case CdpFilter::Verdict::Kind::Rewrite:
        forward(id, method.toString(), verdict.params, sessionId);
        return;
    case CdpFilter::Verdict::Kind::Allow:
        forward(id, method.toString(), params, sessionId);
        return;
    }
}

void CdpRelay::forward(const QJsonValue &id, const QString &method, const QJsonObject &params,
                       const QString &sessionId)
{
    if (!m_browser) {
        error(id, sessionId, kServerError, QStringLiteral("the browser is gone"));
        return;
    }
    Q_EMIT activity();
    const QString target = sessionId.isEmpty() ? m_root : sessionId;
    m_browser->send(method, params, target, this,
                    [this, id, method, params, sessionId](const QJsonObject &r, const QString &e) {
                        if (!e.isEmpty()) {
                            error(id, sessionId, kServerError, e);
                            return;
                        }
                        m_filter.observeResult(method, params, sessionId, r);
                        // A flat attach answers with the new session: it is the client's.
                        if (method == QLatin1String("Target.attachToTarget")) {
                            const QString child = str(r, "sessionId");
                            if (!child.isEmpty() && !m_children.contains(child)) {
                                m_children.insert(child);
                                watch(child);
                            }
                        }
                        reply(id, sessionId, r);
                    });
}

void CdpRelay::onEvent(const QString &sessionId, const QString &method, const QJsonObject &params)
{
    if (m_closed)
        return;
    m_filter.observeEvent(method, params);
    if (method == QLatin1String("Target.attachedToTarget")) {
        const QString child = str(params, "sessionId");
        if (!child.isEmpty() && !m_children.contains(child)) {
            m_children.insert(child);
            watch(child);
        }
    } else if (method == QLatin1String("Target.detachedFromTarget")) {
        const QString child = str(params, "sessionId");
        if (m_children.remove(child) && m_browser)
            m_browser->removeSink(child);
    }
    QJsonObject event{{QStringLiteral("method"), method}, {QStringLiteral("params"), params}};
    if (sessionId != m_root)
        event.insert(QStringLiteral("sessionId"), sessionId);
    write(event);
}

void CdpRelay::reply(const QJsonValue &id, const QString &sessionId, const QJsonObject &result)
{
    QJsonObject message{{QStringLiteral("id"), id}, {QStringLiteral("result"), result}};
    if (!sessionId.isEmpty())
        message.insert(QStringLiteral("sessionId"), sessionId);
    write(message);
}

void CdpRelay::error(const QJsonValue &id, const QString &sessionId, int code,
                     const QString &message)
{
    QJsonObject m{{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code},
                                                        {QStringLiteral("message"), message}}}};
    if (!id.isUndefined() && !id.isNull())
        m.insert(QStringLiteral("id"), id);
    if (!sessionId.isEmpty())
        m.insert(QStringLiteral("sessionId"), sessionId);
    write(m);
}

void CdpRelay::write(const QJsonObject &message)
{
    if (m_closed || !m_socket)
        return;
    m_socket->sendTextMessage(
        QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
}

void CdpRelay::detachAll()
{
    if (!m_browser) {
        m_children.clear();
        m_root.clear();
        return;
    }
    for (const QString &child : std::as_const(m_children)) {
        m_browser->removeSink(child);
        m_browser->send(QStringLiteral("Target.detachFromTarget"),
                        {{QStringLiteral("sessionId"), child}}, m_root, nullptr);
    }
    m_children.clear();
    if (!m_root.isEmpty()) {
        m_browser->removeSink(m_root);
        m_browser->send(QStringLiteral("Target.detachFromTarget"),
                        {{QStringLiteral("sessionId"), m_root}}, {}, nullptr);
        m_root.clear();
    }
}

void CdpRelay::close()
{
    if (m_closed)
        return;
    m_closed = true;
    detachAll();
    if (m_socket) {
        m_socket->disconnect(this);
        if (m_socket->state() == QAbstractSocket::ConnectedState)
            m_socket->close();
    }
    Q_EMIT closed();
}

} // namespace ph
