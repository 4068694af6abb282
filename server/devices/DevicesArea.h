#pragma once

#include <QList>

#include <memory>

class QWebSocket;

namespace ph {
class Clock;
class Store;
namespace http {
class Controller;
}
} // namespace ph

namespace ph::devices {

class DeviceGateway;
class DeviceService;
class DevicesController;

// Devices as one piece for Service: the domain service (also the bridge's DeviceLink),
// its REST controller and the extension's WebSocket gateway.
class DevicesArea
{
public:
    DevicesArea(Store &store, const Clock &clock);
    ~DevicesArea();

    DeviceService &service() { return *m_service; }
    QList<http::Controller *> controllers();
    // Whether a WebSocket upgraded on `path` is the extension's.
    static bool isDevicePath(const QString &path);
    void acceptWebSocket(std::unique_ptr<QWebSocket> socket);

private:
    std::unique_ptr<DeviceService> m_service;
    std::unique_ptr<DevicesController> m_controller;
    std::unique_ptr<DeviceGateway> m_gateway;
};

} // namespace ph::devices
