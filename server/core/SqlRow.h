#pragma once

#include "core/JsonText.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {

// One result row read column by column in the order the SELECT names them, so a
// repository's row mapping says what each column is, not at which index it stands:
//
//     SqlRow row(q);
//     s.id = row.text();
//     s.createdAt = row.integer();
//     s.endedAt = row.optionalInt();   // NULL → std::nullopt
//     s.context = row.object();        // a JSON column
class SqlRow
{
public:
    explicit SqlRow(const Sql &query, int firstColumn = 0)
        : m_query(query)
        , m_column(firstColumn)
    {}

    QVariant value() { return m_query.value(m_column++); }
    QString text() { return value().toString(); }
    qint64 integer() { return value().toLongLong(); }
    int number() { return value().toInt(); }
    bool flag() { return value().toBool(); }
    std::optional<qint64> optionalInt() { return JsonText::optionalInt(value()); }
    std::optional<int> optionalNumber()
    {
        const QVariant v = value();
        return v.isNull() ? std::nullopt : std::optional<int>(v.toInt());
    }
    QJsonObject object() { return JsonText::object(value()); }
    QJsonArray array() { return JsonText::array(value()); }
    // A JSON array of strings.
    QStringList strings()
    {
        QStringList out;
        for (const QJsonValue &v : array())
            out.append(v.toString());
        return out;
    }
    void skip(int columns = 1) { m_column += columns; }

private:
    const Sql &m_query;
    int m_column;
};

namespace SqlRows {

// The first row of an executed query mapped by `fromRow`, or none.
template <class F> auto one(Sql &query, F fromRow) -> std::optional<decltype(fromRow(query))>
{
    if (!query.next())
        return std::nullopt;
    return fromRow(query);
}

// Every row of an executed query mapped by `fromRow`.
template <class F> auto all(Sql &query, F fromRow) -> QList<decltype(fromRow(query))>
{
    QList<decltype(fromRow(query))> out;
    while (query.next())
        out.append(fromRow(query));
    return out;
}

} // namespace SqlRows
} // namespace ph
