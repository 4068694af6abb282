#include "DevicesArea.h"

#include "DeviceGateway.h"
#include "DeviceService.h"
#include "DevicesController.h"

#include <QWebSocket>

namespace ph::devices {

DevicesArea::DevicesArea(Store &store, const Clock &clock)
    : m_service(std::make_unique<DeviceService>(store, clock))
    , m_controller(std::make_unique<DevicesController>(*m_service))
    , m_gateway(std::make_unique<DeviceGateway>(*m_service))
{}

DevicesArea::~DevicesArea()
{
    m_gateway.reset();
}

QList<http::Controller *> DevicesArea::controllers()
{
    return {m_controller.get()};
}

bool DevicesArea::isDevicePath(const QString &path)
{
    return path == QLatin1String(DeviceGateway::kPath);
}

void DevicesArea::acceptWebSocket(std::unique_ptr<QWebSocket> socket)
{
    m_gateway->accept(std::move(socket));
}

} // namespace ph::devices
