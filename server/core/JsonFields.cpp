#include "core/JsonFields.h"

#include "core/DomainError.h"

#include <cmath>

namespace ph {

namespace {
const char *typeName(QJsonValue::Type t)
{
    switch (t) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return "a boolean";
    case QJsonValue::Double:
        return "a number";
    case QJsonValue::String:
        return "a string";
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    default:
        return "missing";
    }
}

[[noreturn]] void wrongType(const QString &path, const char *expected, const QJsonValue &v)
{
    throw DomainError::invalidField(
        path, QStringLiteral("must be %1, got %2")
                  .arg(QLatin1String(expected), QLatin1String(typeName(v.type()))));
}
} // namespace

JsonFields::JsonFields(QJsonObject object, QString path)
    : m_object(std::move(object))
    , m_path(std::move(path))
{}

bool JsonFields::has(const QString &key) const
{
    return m_object.contains(key) && !m_object.value(key).isNull();
}

QString JsonFields::path(const QString &key) const
{
    return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
}

QString JsonFields::requiredString(const QString &key) const
{
    if (!has(key))
        throw DomainError::missingField(path(key));
    const auto v = optionalString(key);
    if (v->trimmed().isEmpty())
        throw DomainError::invalidField(path(key), QStringLiteral("must not be empty"));
    return *v;
}

std::optional<QString> JsonFields::optionalString(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!v.isString())
        wrongType(path(key), "a string", v);
    return v.toString();
}

std::optional<bool> JsonFields::optionalBool(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!v.isBool())
        wrongType(path(key), "a boolean", v);
    return v.toBool();
}

std::optional<qint64> JsonFields::optionalInt(const QString &key, qint64 min, qint64 max) const
{
    const auto n = optionalNumber(key, double(min), double(max));
    if (!n)
        return std::nullopt;
    if (*n != std::floor(*n))
        throw DomainError::invalidField(path(key), QStringLiteral("must be a whole number"));
    return qint64(*n);
}

std::optional<double> JsonFields::optionalNumber(const QString &key, double min, double max) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!v.isDouble())
        wrongType(path(key), "a number", v);
    const double n = v.toDouble();
    if (n < min || n > max)
        throw DomainError::invalidField(
            path(key), QStringLiteral("must be between %1 and %2").arg(min).arg(max));
    return n;
}

std::optional<QStringList> JsonFields::stringArray(const QString &key, bool required) const
{
    if (!has(key)) {
        if (required)
            throw DomainError::missingField(path(key));
        return std::nullopt;
    }
    const QJsonValue v = m_object.value(key);
    if (!v.isArray())
        wrongType(path(key), "an array of strings", v);
    QStringList out;
    const QJsonArray a = v.toArray();
    out.reserve(a.size());
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!a.at(i).isString())
            wrongType(QStringLiteral("%1[%2]").arg(path(key)).arg(i), "a string", a.at(i));
        out.append(a.at(i).toString());
    }
    return out;
}

std::optional<QJsonArray> JsonFields::optionalArray(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!v.isArray())
        wrongType(path(key), "an array", v);
    return v.toArray();
}

std::optional<JsonFields> JsonFields::optionalObject(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    const QJsonValue v = m_object.value(key);
    if (!v.isObject())
        wrongType(path(key), "an object", v);
    return JsonFields(v.toObject(), path(key));
}

std::optional<QString> JsonFields::optionalEnum(const QString &key,
                                                const QStringList &allowed) const
{
    const auto v = optionalString(key);
    if (v && !allowed.contains(*v))
        throw DomainError::invalidField(
            path(key), QStringLiteral("must be one of %1").arg(allowed.join(QStringLiteral(", "))));
    return v;
}

void JsonFields::rejectUnknown(const QStringList &allowed) const
{
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!allowed.contains(it.key()))
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_FIELD"),
                              QStringLiteral("%1 is not a known field").arg(path(it.key())),
                              path(it.key()));
    }
}

} // namespace ph
