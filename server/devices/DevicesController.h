#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph::devices {

class DeviceService;

// docs/api/devices.md:
//   POST   /devices/pair            a pairing code for the calling key
//   POST   /devices/claim           {code, name, version} from the extension → {deviceId, token}
//   GET    /devices                 the calling key's devices
//   DELETE /devices/{id}            revoke and disconnect
//   PUT    /devices/scripts/{keyId} {allowed} the owner lets a key run execute_javascript
class DevicesController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    explicit DevicesController(DeviceService &devices, QObject *parent = nullptr);
    QList<http::Route> routes() override;

private:
    void pair(http::Exchange &ex);
    void claim(http::Exchange &ex);
    void list(http::Exchange &ex);
    void revoke(http::Exchange &ex);
    void grantScripts(http::Exchange &ex);
    DeviceService &m_devices;
};

} // namespace ph::devices
