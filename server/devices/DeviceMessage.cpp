#include "DeviceMessage.h"

#include <QJsonDocument>

namespace ph::devices {

namespace {

std::optional<DeviceMessage> bad(QString *problem, const QString &why)
{
    if (problem)
        *problem = why;
    return std::nullopt;
}

// Tabs as the extension reports them, kept to the fields we show.
std::optional<QJsonArray> readTabs(const QJsonValue &value)
{
    if (!value.isArray())
        return std::nullopt;
    QJsonArray out;
    for (const QJsonValue &v : value.toArray()) {
        const QJsonObject t = v.toObject();
        if (!t.value(QStringLiteral("id")).isDouble())
            return std::nullopt;
        out.append(QJsonObject{
            {QStringLiteral("id"), t.value(QStringLiteral("id")).toInteger()},
            {QStringLiteral("url"), t.value(QStringLiteral("url")).toString().left(8192)},
            {QStringLiteral("title"), t.value(QStringLiteral("title")).toString().left(1024)},
            {QStringLiteral("active"), t.value(QStringLiteral("active")).toBool()}});
        if (out.size() > 1000)
            return std::nullopt;
    }
    return out;
}

} // namespace

std::optional<DeviceMessage> DeviceMessage::read(const QByteArray &frame, QString *problem)
{
    if (frame.size() > kMaxBytes)
        return bad(problem, QStringLiteral("the message is too large"));
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(frame, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return bad(problem, QStringLiteral("the message is not a JSON object"));
    const QJsonObject o = doc.object();
    const QString type = o.value(QStringLiteral("type")).toString();
    DeviceMessage m;
    if (type == QLatin1String("hello")) {
        m.type = Type::Hello;
        m.token = o.value(QStringLiteral("token")).toString();
        m.name = o.value(QStringLiteral("name")).toString().left(200);
        m.version = o.value(QStringLiteral("version")).toString().left(50);
        if (m.token.isEmpty() || m.token.size() > 200)
            return bad(problem, QStringLiteral("hello needs a token"));
    } else if (type == QLatin1String("heartbeat")) {
        m.type = Type::Heartbeat;
    } else if (type == QLatin1String("tabs")) {
        m.type = Type::Tabs;
        const auto tabs = readTabs(o.value(QStringLiteral("tabs")));
        if (!tabs)
            return bad(problem, QStringLiteral("tabs must be a list of tabs with an id"));
        m.tabs = *tabs;
    } else if (type == QLatin1String("result")) {
        m.type = Type::Result;
        m.id = o.value(QStringLiteral("id")).toString();
        if (m.id.isEmpty())
            return bad(problem, QStringLiteral("result needs the id of its call"));
        m.result = o.value(QStringLiteral("result")).toObject();
        const QJsonValue err = o.value(QStringLiteral("error"));
        if (!err.isUndefined() && !err.isNull())
            m.error = err.isString() ? err.toString().left(4096) : QStringLiteral("error");
    } else {
        return bad(problem, QStringLiteral("unknown message type"));
    }
    return m;
}

} // namespace ph::devices
