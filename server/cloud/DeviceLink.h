#pragma once

#include <QJsonObject>
#include <QString>

#include <functional>

namespace ph::cloud {

// What the browser bridge asks of a caller's own browsers (server/devices implements it;
// Service hands it to the cloud area). Device ids belong to one API key each.
class DeviceLink
{
public:
    virtual ~DeviceLink() = default;
    // The connected device of `keyId` named `deviceId`, or the key's most recently active
    // connected device when `deviceId` is empty; empty when there is none.
    virtual QString choose(const QString &keyId, const QString &deviceId) const = 0;
    // Whether the owner let `keyId` run execute_javascript on its devices (opt-in).
    virtual bool scriptsAllowed(const QString &keyId) const = 0;
    // Asks a connected device to do `method`; `answer` is called exactly once, with the
    // result or with why it failed (the device went away, timed out, or reported an error).
    using Answer = std::function<void(const QJsonObject &result, const QString &error)>;
    virtual void request(const QString &deviceId, const QString &method, const QJsonObject &params,
                         int timeoutMs, Answer answer) = 0;
};

} // namespace ph::cloud
