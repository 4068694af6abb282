#pragma once

#include <QObject>

#include <memory>

class QWebSocket;

namespace ph::devices {

class DeviceService;

// The extension's WebSocket (/devices/socket on the API's port). The first message must be
// hello with the device token (never in the address); then heartbeats, tab reports and the
// results of the calls DeviceService sends. A connection silent for kSilentMs is closed.
class DeviceGateway : public QObject
{
    Q_OBJECT
public:
    static constexpr int kHelloMs = 10 * 1000;
    static constexpr int kSilentMs = 70 * 1000;
    static constexpr const char *kPath = "/devices/socket";

    explicit DeviceGateway(DeviceService &devices, QObject *parent = nullptr);
    ~DeviceGateway() override;
    void accept(std::unique_ptr<QWebSocket> socket);

private:
    void onMessage(QWebSocket *socket, const QString &text);
    DeviceService &m_devices;
};

} // namespace ph::devices
