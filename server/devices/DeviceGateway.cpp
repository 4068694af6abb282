#include "DeviceGateway.h"

#include "DeviceMessage.h"
#include "DeviceService.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>
#include <QWebSocket>

Q_LOGGING_CATEGORY(lcDevices, "pilothouse.devices")

namespace ph::devices {

namespace {
const char *kDeviceProperty = "ph_deviceId";
const char *kTimerProperty = "ph_silence";

void closeWith(QWebSocket *socket, QWebSocketProtocol::CloseCode code, const QString &why)
{
    socket->close(code, why);
    QTimer::singleShot(2000, socket, &QObject::deleteLater);
}
} // namespace

DeviceGateway::DeviceGateway(DeviceService &devices, QObject *parent)
    : QObject(parent)
    , m_devices(devices)
{}

DeviceGateway::~DeviceGateway() = default;

void DeviceGateway::accept(std::unique_ptr<QWebSocket> owned)
{
    if (!owned)
        return;
    QWebSocket *socket = owned.release();
    socket->setParent(this);
    socket->setMaxAllowedIncomingMessageSize(DeviceMessage::kMaxBytes);
    auto *silence = new QTimer(socket);
    silence->setSingleShot(true);
    silence->start(kHelloMs);
    socket->setProperty(kTimerProperty, QVariant::fromValue<QObject *>(silence));
    connect(silence, &QTimer::timeout, socket, [socket] {
        closeWith(socket, QWebSocketProtocol::CloseCodeGoingAway, QStringLiteral("silent"));
    });
    connect(socket, &QWebSocket::textMessageReceived, this,
            [this, socket](const QString &text) { onMessage(socket, text); });
    connect(socket, &QWebSocket::disconnected, this, [this, socket] {
        const QString id = socket->property(kDeviceProperty).toString();
        if (!id.isEmpty())
            m_devices.detach(id);
        socket->setProperty(kDeviceProperty, QString());
        socket->deleteLater();
    });
}

void DeviceGateway::onMessage(QWebSocket *socket, const QString &text)
{
    QString problem;
    const std::optional<DeviceMessage> m = DeviceMessage::read(text.toUtf8(), &problem);
    QString id = socket->property(kDeviceProperty).toString();
    if (!m || (id.isEmpty() != (m->type == DeviceMessage::Type::Hello))) {
        // Never the message in the log: a hello holds the device token.
        qCInfo(lcDevices) << "a device connection sent a message out of turn and was closed";
        const QString gone = id;
        socket->setProperty(kDeviceProperty, QString());
        if (!gone.isEmpty())
            m_devices.detach(gone);
        closeWith(socket, QWebSocketProtocol::CloseCodePolicyViolated,
                  m ? QStringLiteral("out of turn") : problem);
        return;
    }
    if (auto *silence = qobject_cast<QTimer *>(socket->property(kTimerProperty).value<QObject *>()))
        silence->start(kSilentMs);
    switch (m->type) {
    case DeviceMessage::Type::Hello: {
        QPointer<QWebSocket> guard(socket);
        DeviceService::Connection c;
        c.send = [guard](const QByteArray &frame) {
            if (guard)
                guard->sendTextMessage(QString::fromUtf8(frame));
        };
        c.close = [guard] {
            if (guard) {
                guard->setProperty(kDeviceProperty, QString());
                closeWith(guard, QWebSocketProtocol::CloseCodeNormal, QStringLiteral("revoked"));
            }
        };
        id = m_devices.attach(m->token, m->name, m->version, c);
        if (id.isEmpty()) {
            qCInfo(lcDevices) << "a device connection with no valid token was closed";
            closeWith(socket, QWebSocketProtocol::CloseCodePolicyViolated,
                      QStringLiteral("unknown or revoked device token"));
            return;
        }
        socket->setProperty(kDeviceProperty, id);
        socket->sendTextMessage(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("welcome")},
                                      {QStringLiteral("deviceId"), id}})
                .toJson(QJsonDocument::Compact)));
        return;
    }
    case DeviceMessage::Type::Heartbeat:
        m_devices.seen(id);
        socket->sendTextMessage(QStringLiteral("{\"type\":\"pong\"}"));
        return;
    case DeviceMessage::Type::Tabs:
        m_devices.setTabs(id, m->tabs);
        return;
    case DeviceMessage::Type::Result:
        m_devices.resolve(id, m->id, m->result, m->error);
        return;
    }
}

} // namespace ph::devices
