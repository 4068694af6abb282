#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QVariant>

#include <optional>

namespace ph {

// How the repositories keep JSON and optional values in SQLite columns, and how JSON is
// written compactly (stored, sealed, logged).
namespace JsonText {

inline QString from(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

inline QString from(const QJsonArray &a)
{
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

// Any value: objects and arrays as documents, scalars as their JSON text ("a", 1, null).
inline QString from(const QJsonValue &v)
{
    if (v.isArray())
        return from(v.toArray());
    if (v.isObject())
        return from(v.toObject());
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

inline QJsonObject object(const QVariant &column)
{
    return QJsonDocument::fromJson(column.toString().toUtf8()).object();
}

inline QJsonArray array(const QVariant &column)
{
    return QJsonDocument::fromJson(column.toString().toUtf8()).array();
}

// A null QString binds as SQL NULL; text columns that are NOT NULL, and comparisons
// with '', need the empty string.
inline QString text(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

// NULL for an empty string, for nullable text columns.
inline QVariant nullableText(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(s);
}

inline QVariant nullableInt(std::optional<qint64> v)
{
    return v ? QVariant(*v) : QVariant(QMetaType::fromType<qint64>());
}

inline std::optional<qint64> optionalInt(const QVariant &column)
{
    return column.isNull() ? std::nullopt : std::optional<qint64>(column.toLongLong());
}

} // namespace JsonText
} // namespace ph
