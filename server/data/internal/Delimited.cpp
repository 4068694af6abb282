#include "data/internal/Delimited.h"

#include "data/Reader.h"
#include "data/internal/Inference.h"

namespace ph::data::internal {

Result<Sheet> parseDelimited(const QString &text, QChar delimiter, const QString &title,
                             const Limits &limits)
{
    const QChar *p = text.constData();
    const qsizetype n = text.size();
    qsizetype i = 0;
    qsizetype line = 1; // physical line, for messages about quotes
    qsizetype record = 0;

    QStringList header;
    QList<QStringList> rows;
    QStringList fields;
    QString field;

    const auto tooManyRows = [&]() {
        return DataError::tooLarge(
            QStringLiteral("the input has more than %1 rows, the limit").arg(limits.maxRows));
    };

    while (i < n) {
        // One record.
        fields.clear();
        bool sawQuote = false;
        bool endOfRecord = false;
        while (!endOfRecord) {
            field.clear();
            if (i < n && p[i] == u'"') {
                sawQuote = true;
                const qsizetype quoteLine = line;
                ++i;
                bool closed = false;
                while (i < n) {
                    const QChar c = p[i];
                    if (c == u'"') {
                        if (i + 1 < n && p[i + 1] == u'"') {
                            field += u'"';
                            i += 2;
                            continue;
                        }
                        ++i;
                        closed = true;
                        break;
                    }
                    if (c == u'\n' || (c == u'\r' && (i + 1 >= n || p[i + 1] != u'\n')))
                        ++line;
                    field += c;
                    ++i;
                }
                if (!closed)
                    return DataError::malformed(
                        QStringLiteral("row %1 has a quoted field, opened on line %2, that "
                                       "is never closed")
                            .arg(record + 1)
                            .arg(quoteLine));
                if (i < n && p[i] != delimiter && p[i] != u'\n' && p[i] != u'\r')
                    return DataError::malformed(
                        QStringLiteral("row %1 has text after the closing quote of field %2 "
                                       "(line %3)")
                            .arg(record + 1)
                            .arg(fields.size() + 1)
                            .arg(line));
            } else {
                const qsizetype start = i;
                while (i < n && p[i] != delimiter && p[i] != u'\n' && p[i] != u'\r')
                    ++i;
                field = QString(p + start, i - start);
            }
            fields << field;
            if (i >= n) {
                endOfRecord = true;
            } else if (p[i] == delimiter) {
                ++i;
                if (i >= n) { // "a,b," at the very end: one more empty field
                    fields << QString();
                    endOfRecord = true;
                }
            } else { // a line break
                if (p[i] == u'\r' && i + 1 < n && p[i + 1] == u'\n')
                    ++i;
                ++i;
                ++line;
                endOfRecord = true;
            }
        }
        // A blank line holds no record (a lone "" does: one empty field).
        if (fields.size() == 1 && fields[0].isEmpty() && !sawQuote)
            continue;
        ++record;
        if (record == 1) {
            if (fields.size() > limits.maxColumns)
                return DataError::tooLarge(QStringLiteral("the header has %1 columns, over the "
                                                          "limit of %2")
                                               .arg(fields.size())
                                               .arg(limits.maxColumns));
            header = fields;
            continue;
        }
        if (fields.size() != header.size())
            return DataError::malformed(
                QStringLiteral("row %1 has %2 field%3 but the header has %4")
                    .arg(record)
                    .arg(fields.size())
                    .arg(fields.size() == 1 ? QString() : QStringLiteral("s"))
                    .arg(header.size()));
        if (rows.size() >= limits.maxRows)
            return tooManyRows();
        if (auto e = checkCells(rows.size() + 1, header.size(), limits))
            return *e;
        rows.append(fields);
    }
    if (record == 0)
        return DataError::malformed(QStringLiteral("the input is empty: no header row"));
    return Sheet::fromStrings(title, header, rows);
}

} // namespace ph::data::internal
