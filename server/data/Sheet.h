#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph::data {

// What a column holds, inferred from its non-null values (docs/data-formats.md).
// Date and DateTime values are ISO 8601 strings ("2024-03-01", "2024-03-01T09:30:00",
// with "Z" or an offset when the source said so); Json columns hold objects/arrays.
enum class ColumnType { Empty, String, Integer, Number, Boolean, Date, DateTime, Json };

// "empty", "string", "integer", "number", "boolean", "date", "datetime", "json".
QString columnTypeName(ColumnType type);
std::optional<ColumnType> columnTypeFromName(const QString &name);

struct Column
{
    QString name;
    ColumnType type = ColumnType::Empty;

    friend bool operator==(const Column &, const Column &) = default;
};

// An in-memory table: what every input format becomes and what xlsx output is made
// from. Each row is a QJsonArray aligned with `columns`; an empty cell is null.
// Rows shorter than `columns` read as null in the missing cells.
struct Sheet
{
    QString title;
    QList<Column> columns;
    QList<QJsonArray> rows;

    int rowCount() const { return int(rows.size()); }
    int columnCount() const { return int(columns.size()); }
    QStringList columnNames() const;

    // Index of the column named `name`: an exact match first, then case-insensitive.
    // -1 when there is none.
    int column(const QString &name) const;
    // The cell, or null when the row or column does not exist.
    QJsonValue value(int row, int column) const;
    QJsonValue value(int row, const QString &column) const;

    // [{column: value}, …] in column order; null cells are kept as null.
    QJsonArray toObjects() const;
    // One row per element. Objects: the union of their keys in first-seen order,
    // nested values kept as JSON. Any other element goes to a column named "value".
    // Column types are inferred. QJsonObject keeps its keys sorted, so the order
    // within an object is alphabetical unless `keyOrder` names the keys first (the
    // JSON reader passes the order of the source text).
    static Sheet fromObjects(const QString &title, const QJsonArray &objects,
                             const QStringList &keyOrder = {});
    // Text cells, typed the way CSV is: header names cleaned (empty → column_N,
    // duplicates → name_2 …), then each column converted when all its non-empty
    // cells are integers, numbers, booleans, dates or datetimes. Short rows are padded.
    static Sheet fromStrings(const QString &title, const QStringList &header,
                             const QList<QStringList> &rows);

    // Re-infers every column's type from the values (after the caller edited rows).
    void inferTypes();

    // {title, columns:[{name,type}], rowCount, sample:[first sampleRows rows as objects]}
    QJsonObject describe(int sampleRows = 5) const;
    // RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote, CR or LF.
    // Null → empty field, booleans true/false, nested JSON as compact JSON text.
    QString toCsv() const;
    // A GitHub pipe table of at most maxRows rows (pipes escaped, line breaks as
    // <br>), followed by "… and N more rows" when cut.
    QString toMarkdown(int maxRows = 50) const;

    // Columns that hold the URLs to visit, best first: a column named url, link,
    // href, website or page (also "page url", "product_link" … any name whose words
    // include one of those), then columns whose non-empty values are mostly (≥ 80 %)
    // http(s) URLs. Each column appears once.
    QList<int> urlColumns() const;
    // The best of urlColumns(), or -1.
    int urlColumn() const;
};

} // namespace ph::data
