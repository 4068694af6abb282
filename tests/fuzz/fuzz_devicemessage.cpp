// The device message reader (server/devices/DeviceMessage): every text frame the extension's
// WebSocket (/devices/socket) delivers, before the device is known or after.
#include "FuzzInput.h"

#include "devices/DeviceMessage.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::devices::DeviceMessage;
    const QByteArray frame = bytesOf(data, size);
    QString problem;
    const auto m = DeviceMessage::read(frame, &problem);
    require(m.has_value() || !problem.isEmpty(), "a refused message names no reason");
    require(!m.has_value() || problem.isEmpty(), "a read message with a problem");
    if (!m)
        return 0;
    if (m->type == DeviceMessage::Type::Hello)
        require(!m->token.isEmpty() && m->token.size() <= 200, "a hello without a fitting token");
    if (m->type == DeviceMessage::Type::Result)
        require(!m->id.isEmpty(), "a result for no call");
    require(m->name.size() <= 200 && m->version.size() <= 50 && m->error.size() <= 4096,
            "a field over its cap");
    require(m->tabs.size() <= 1001, "more tabs than the cap");
    for (const auto &t : m->tabs)
        require(t.toObject().value(QStringLiteral("url")).toString().size() <= 8192,
                "a tab url over its cap");
    return 0;
}
