#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {

// Reads fields of a JSON request body with typed errors that name the field by its
// full path ("urls[3]", "accessibilityTree.maxNodes"). Every reader throws DomainError 400.
class JsonFields
{
public:
    explicit JsonFields(QJsonObject object, QString path = {});

    const QJsonObject &object() const { return m_object; }
    bool has(const QString &key) const;
    QString path(const QString &key) const;

    QString requiredString(const QString &key) const;
    std::optional<QString> optionalString(const QString &key) const;
    std::optional<bool> optionalBool(const QString &key) const;
    // Whole numbers only, within [min, max].
    std::optional<qint64> optionalInt(const QString &key, qint64 min, qint64 max) const;
    std::optional<double> optionalNumber(const QString &key, double min, double max) const;
    // An array of strings; `required` makes a missing key an error.
    std::optional<QStringList> stringArray(const QString &key, bool required) const;
    std::optional<QJsonArray> optionalArray(const QString &key) const;
    std::optional<JsonFields> optionalObject(const QString &key) const;
    // One of `allowed`.
    std::optional<QString> optionalEnum(const QString &key, const QStringList &allowed) const;
    // Refuses keys outside `allowed` (contract areas that forbid unknown properties).
    void rejectUnknown(const QStringList &allowed) const;

private:
    QJsonObject m_object;
    QString m_path;
};

} // namespace ph
