#include "browser/LeaseOptions.h"

#include "core/JsonFields.h"

namespace ph {

const QStringList &LeaseOptions::engines()
{
    static const QStringList names = {QStringLiteral("qtwebengine"), QStringLiteral("chromium")};
    return names;
}

LeaseOptions LeaseOptions::read(const JsonFields &parent, const QString &key)
{
    LeaseOptions o;
    const auto fields = parent.optionalObject(key);
    if (!fields)
        return o;
    fields->rejectUnknown({QStringLiteral("engine"), QStringLiteral("polyfills")});
    o.engine = fields->optionalEnum(QStringLiteral("engine"), engines()).value_or(QString());
    o.polyfills = fields->optionalBool(QStringLiteral("polyfills"));
    return o;
}

QJsonObject LeaseOptions::toJson() const
{
    QJsonObject out;
    if (!engine.isEmpty())
        out.insert(QStringLiteral("engine"), engine);
    if (polyfills)
        out.insert(QStringLiteral("polyfills"), *polyfills);
    return out;
}

} // namespace ph
