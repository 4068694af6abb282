#pragma once

// Compact text forms of a data::Sheet for table-driven tests: the columns as
// "name:type,name:type" and the rows as compact JSON, so a failing row shows both
// sides readably.
#include "data/Sheet.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace ph::test {

inline QString columnsText(const ph::data::Sheet &sheet)
{
    QStringList parts;
    for (const ph::data::Column &c : sheet.columns)
        parts << c.name + QLatin1Char(':') + ph::data::columnTypeName(c.type);
    return parts.join(QLatin1Char(','));
}

inline QString rowsText(const ph::data::Sheet &sheet)
{
    QJsonArray rows;
    for (const QJsonArray &r : sheet.rows)
        rows.append(r);
    return QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Compact));
}

// Normalises hand-written JSON to the compact form rowsText() gives.
inline QString compactJson(const char *json)
{
    return QString::fromUtf8(
        QJsonDocument::fromJson(QByteArray(json)).toJson(QJsonDocument::Compact));
}

} // namespace ph::test
