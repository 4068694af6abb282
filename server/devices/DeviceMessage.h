#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace ph::devices {

// One message the extension sends on /devices/socket (docs/api/devices.md):
//   {"type":"hello","token":…,"name":…,"version":…}   first, and only first
//   {"type":"heartbeat"}                                 every 20 s
//   {"type":"tabs","tabs":[{id,url,title,active}…]}      when tabs change
//   {"type":"result","id":…,"result":{…}} or {"type":"result","id":…,"error":"…"}
struct DeviceMessage
{
    enum class Type { Hello, Heartbeat, Tabs, Result };
    Type type = Type::Heartbeat;
    QString token, name, version; // hello
    QJsonArray tabs;              // tabs
    QString id;                   // result: the call it answers
    QJsonObject result;
    QString error;

    static constexpr qsizetype kMaxBytes = 8 * 1024 * 1024;
    // Reads one text frame; nullopt with `problem` set for anything else.
    static std::optional<DeviceMessage> read(const QByteArray &frame, QString *problem);
};

} // namespace ph::devices
