#include "data/internal/TextTable.h"

#include "data/Reader.h"
#include "data/internal/Inference.h"

namespace ph::data::internal {

namespace {

QList<QStringView> splitLines(const QString &text)
{
    QList<QStringView> lines;
    const QStringView all(text);
    qsizetype start = 0;
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (all[i] == u'\n' || all[i] == u'\r') {
            lines << all.sliced(start, i - start);
            if (all[i] == u'\r' && i + 1 < all.size() && all[i + 1] == u'\n')
                ++i;
            start = i + 1;
        }
    }
    if (start < all.size())
        lines << all.sliced(start);
    return lines;
}

DataError tooManyRows(const Limits &limits)
{
    return DataError::tooLarge(
        QStringLiteral("the input has more than %1 rows, the limit").arg(limits.maxRows));
}

// Cells of one pipe-table row: outer pipes optional, "\|" is a literal pipe.
QStringList tableCells(QStringView line)
{
    QStringView t = line.trimmed();
    if (t.startsWith(u'|'))
        t = t.sliced(1);
    if (t.endsWith(u'|') && !t.endsWith(u"\\|"))
        t.chop(1);
    QStringList cells;
    QString cell;
    for (qsizetype i = 0; i < t.size(); ++i) {
        if (t[i] == u'\\' && i + 1 < t.size() && t[i + 1] == u'|') {
            cell += u'|';
            ++i;
        } else if (t[i] == u'|') {
            cells << cell.trimmed();
            cell.clear();
        } else {
            cell += t[i];
        }
    }
    cells << cell.trimmed();
    return cells;
}

bool isDelimiterRow(QStringView line, qsizetype *cells)
{
    const QStringList parts = tableCells(line);
    for (const QString &p : parts) {
        QStringView v(p);
        if (v.startsWith(u':'))
            v = v.sliced(1);
        if (v.endsWith(u':'))
            v.chop(1);
        if (v.isEmpty())
            return false;
        for (const QChar c : v) {
            if (c != u'-')
                return false;
        }
    }
    *cells = parts.size();
    return true;
}

bool hasUnescapedPipe(QStringView line)
{
    for (qsizetype i = 0; i < line.size(); ++i) {
        if (line[i] == u'|' && (i == 0 || line[i - 1] != u'\\'))
            return true;
    }
    return false;
}

QStringView withoutListMarker(QStringView line)
{
    if (line.size() >= 2 && (line[0] == u'-' || line[0] == u'*' || line[0] == u'+') &&
        line[1] == u' ')
        return line.sliced(2).trimmed();
    qsizetype i = 0;
    while (i < line.size() && i < 9 && line[i] >= u'0' && line[i] <= u'9')
        ++i;
    if (i > 0 && i + 1 < line.size() && (line[i] == u'.' || line[i] == u')') && line[i + 1] == u' ')
        return line.sliced(i + 2).trimmed();
    return line;
}

Result<Sheet> lines(const QString &text, const QString &title, const Limits &limits, bool markdown)
{
    Sheet sheet;
    sheet.title = title;
    sheet.columns.append(Column{QStringLiteral("text"), ColumnType::Empty});
    for (const QStringView line : splitLines(text)) {
        QStringView t = line.trimmed();
        if (markdown)
            t = withoutListMarker(t);
        if (t.isEmpty())
            continue;
        if (sheet.rows.size() >= limits.maxRows)
            return tooManyRows(limits);
        sheet.rows.append(QJsonArray{t.toString()});
    }
    if (!sheet.rows.isEmpty())
        sheet.columns[0].type = ColumnType::String;
    return sheet;
}

} // namespace

Result<Sheet> parseTextLines(const QString &text, const QString &title, const Limits &limits)
{
    return lines(text, title, limits, false);
}

Result<Sheet> parseMarkdown(const QString &text, const QString &title, const Limits &limits)
{
    const QList<QStringView> all = splitLines(text);
    for (qsizetype i = 0; i + 1 < all.size(); ++i) {
        qsizetype width = 0;
        if (!hasUnescapedPipe(all[i]) || !isDelimiterRow(all[i + 1], &width))
            continue;
        const QStringList header = tableCells(all[i]);
        if (header.size() != width)
            continue; // GFM: the delimiter row must match the header row
        if (width > limits.maxColumns)
            return DataError::tooLarge(QStringLiteral("the table has %1 columns, over the "
                                                      "limit of %2")
                                           .arg(width)
                                           .arg(limits.maxColumns));
        QList<QStringList> rows;
        for (qsizetype r = i + 2; r < all.size(); ++r) {
            if (all[r].trimmed().isEmpty() || !hasUnescapedPipe(all[r]))
                break;
            QStringList cells = tableCells(all[r]);
            while (cells.size() < width)
                cells << QString();
            cells = cells.mid(0, width);
            if (rows.size() >= limits.maxRows)
                return tooManyRows(limits);
            if (auto e = checkCells(rows.size() + 1, width, limits))
                return *e;
            rows << cells;
        }
        return Sheet::fromStrings(title, header, rows);
    }
    return lines(text, title, limits, true);
}

} // namespace ph::data::internal
