#include "JsonSchema.h"

#include <QJsonArray>
#include <QStringList>

#include <cmath>

namespace ph::JsonSchema {

namespace {

QString typeOf(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("boolean");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    default:
        return QStringLiteral("undefined");
    }
}

bool hasType(const QJsonValue &v, const QString &type)
{
    if (type == QLatin1String("integer"))
        return v.isDouble() && v.toDouble() == std::floor(v.toDouble());
    return typeOf(v) == type;
}

QString joinPath(const QString &path, const QString &key)
{
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

} // namespace

QString check(const QJsonObject &schema, const QJsonValue &value, const QString &path)
{
    const QString where = path.isEmpty() ? QStringLiteral("arguments") : path;
    const QJsonValue type = schema.value(QStringLiteral("type"));
    if (type.isString() && !hasType(value, type.toString()))
        return QStringLiteral("%1 must be %2, got %3").arg(where, type.toString(), typeOf(value));
    if (type.isArray()) {
        bool any = false;
        for (const QJsonValue &t : type.toArray())
            any = any || hasType(value, t.toString());
        if (!any)
            return QStringLiteral("%1 has the wrong type (%2)").arg(where, typeOf(value));
    }
    const QJsonArray allowed = schema.value(QStringLiteral("enum")).toArray();
    if (!allowed.isEmpty() && !allowed.contains(value)) {
        QStringList names;
        for (const QJsonValue &a : allowed)
            names.append(a.toVariant().toString());
        return QStringLiteral("%1 must be one of %2").arg(where, names.join(QStringLiteral(", ")));
    }
    if (value.isString()) {
        const qsizetype n = value.toString().size();
        if (schema.contains(QStringLiteral("minLength")) &&
            n < schema.value(QStringLiteral("minLength")).toInteger())
            return QStringLiteral("%1 is too short").arg(where);
        if (schema.contains(QStringLiteral("maxLength")) &&
            n > schema.value(QStringLiteral("maxLength")).toInteger())
            return QStringLiteral("%1 is too long").arg(where);
    }
    if (value.isDouble()) {
        const double n = value.toDouble();
        if (schema.contains(QStringLiteral("minimum")) &&
            n < schema.value(QStringLiteral("minimum")).toDouble())
            return QStringLiteral("%1 is below the minimum").arg(where);
        if (schema.contains(QStringLiteral("maximum")) &&
            n > schema.value(QStringLiteral("maximum")).toDouble())
            return QStringLiteral("%1 is above the maximum").arg(where);
    }
    if (value.isArray()) {
        const QJsonArray items = value.toArray();
        if (schema.contains(QStringLiteral("maxItems")) &&
            items.size() > schema.value(QStringLiteral("maxItems")).toInteger())
            return QStringLiteral("%1 has too many items").arg(where);
        const QJsonObject itemSchema = schema.value(QStringLiteral("items")).toObject();
        for (qsizetype i = 0; i < items.size() && !itemSchema.isEmpty(); ++i) {
            const QString problem =
                check(itemSchema, items.at(i), QStringLiteral("%1[%2]").arg(where).arg(i));
            if (!problem.isEmpty())
                return problem;
        }
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
        for (const QJsonValue &r : schema.value(QStringLiteral("required")).toArray()) {
            if (!object.contains(r.toString()))
                return QStringLiteral("%1 is required").arg(joinPath(path, r.toString()));
        }
        const bool closed =
            schema.value(QStringLiteral("additionalProperties")) == QJsonValue(false);
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (properties.contains(it.key())) {
                const QString problem = check(properties.value(it.key()).toObject(), it.value(),
                                              joinPath(path, it.key()));
                if (!problem.isEmpty())
                    return problem;
            } else if (closed) {
                return QStringLiteral("%1 is not a known argument").arg(joinPath(path, it.key()));
            }
        }
    }
    return {};
}

} // namespace ph::JsonSchema
