#include "data/Sheet.h"

#include "data/CellText.h"

#include "data/internal/Inference.h"

#include <QHash>
#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ph::data {

using namespace internal;

namespace {

const char *const kTypeNames[] = {"empty",   "string", "integer",  "number",
                                  "boolean", "date",   "datetime", "json"};

bool isHttpUrl(const QString &s)
{
    const QString t = s.trimmed();
    if (!t.startsWith(QLatin1String("http://"), Qt::CaseInsensitive) &&
        !t.startsWith(QLatin1String("https://"), Qt::CaseInsensitive))
        return false;
    const qsizetype hostStart = t.indexOf(QLatin1String("//")) + 2;
    return t.size() > hostStart && !t.contains(QLatin1Char(' ')) && t[hostStart] != u'/';
}

bool hasUrlName(const QString &name)
{
    static const QRegularExpression words(QStringLiteral("[^a-z0-9]+"));
    // Split camelCase too: "pageUrl" → "page url".
    QString spaced;
    for (qsizetype i = 0; i < name.size(); ++i) {
        if (i > 0 && name[i].isUpper() && name[i - 1].isLower())
            spaced += QLatin1Char(' ');
        spaced += name[i];
    }
    const QStringList parts = spaced.toLower().split(words, Qt::SkipEmptyParts);
    for (const QString &p : parts) {
        if (p == QLatin1String("url") || p == QLatin1String("urls") || p == QLatin1String("link") ||
            p == QLatin1String("links") || p == QLatin1String("href") ||
            p == QLatin1String("website") || p == QLatin1String("page") ||
            p == QLatin1String("uri"))
            return true;
    }
    return false;
}

QString markdownCell(const QJsonValue &v)
{
    QString s = cellText(v);
    s.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    s.replace(QLatin1Char('|'), QLatin1String("\\|"));
    s.replace(QLatin1String("\r\n"), QLatin1String("<br>"));
    s.replace(QLatin1Char('\n'), QLatin1String("<br>"));
    s.replace(QLatin1Char('\r'), QLatin1String("<br>"));
    return s;
}

} // namespace

QString columnTypeName(ColumnType type)
{
    return QLatin1String(kTypeNames[int(type)]);
}

std::optional<ColumnType> columnTypeFromName(const QString &name)
{
    for (int i = 0; i < int(std::size(kTypeNames)); ++i) {
        if (name.compare(QLatin1String(kTypeNames[i]), Qt::CaseInsensitive) == 0)
            return ColumnType(i);
    }
    return std::nullopt;
}

QStringList Sheet::columnNames() const
{
    QStringList names;
    names.reserve(columns.size());
    for (const Column &c : columns)
        names << c.name;
    return names;
}

int Sheet::column(const QString &name) const
{
    for (qsizetype i = 0; i < columns.size(); ++i) {
        if (columns[i].name == name)
            return int(i);
    }
    const QString trimmed = name.trimmed();
    for (qsizetype i = 0; i < columns.size(); ++i) {
        if (columns[i].name.compare(trimmed, Qt::CaseInsensitive) == 0)
            return int(i);
    }
    return -1;
}

QJsonValue Sheet::value(int row, int col) const
{
    if (row < 0 || row >= rows.size() || col < 0 || col >= columns.size())
        return QJsonValue::Null;
    const QJsonArray &r = rows[row];
    return col < r.size() ? r[col] : QJsonValue(QJsonValue::Null);
}

QJsonValue Sheet::value(int row, const QString &name) const
{
    return value(row, column(name));
}

QJsonArray Sheet::toObjects() const
{
    QJsonArray out;
    for (qsizetype r = 0; r < rows.size(); ++r) {
        QJsonObject o;
        for (qsizetype c = 0; c < columns.size(); ++c)
            o.insert(columns[c].name, value(int(r), int(c)));
        out.append(o);
    }
    return out;
}

Sheet Sheet::fromObjects(const QString &title, const QJsonArray &objects,
                         const QStringList &keyOrder)
{
    Sheet sheet;
    sheet.title = title;
    QHash<QString, int> index;
    const auto columnFor = [&](const QString &name) {
        auto it = index.constFind(name);
        if (it != index.constEnd())
            return *it;
        const int i = int(sheet.columns.size());
        sheet.columns.append(Column{name, ColumnType::Empty});
        index.insert(name, i);
        return i;
    };
    // First pass: the columns in first-seen order.
    for (const QString &key : keyOrder)
        columnFor(key);
    for (const QJsonValue &item : objects) {
        if (item.isObject()) {
            const QJsonObject o = item.toObject();
            // QJsonObject iterates keys sorted; that is the best order it can give.
            for (auto it = o.begin(); it != o.end(); ++it)
                columnFor(it.key());
        } else {
            columnFor(QStringLiteral("value"));
        }
    }
    sheet.rows.reserve(objects.size());
    const QJsonValue null(QJsonValue::Null);
    for (const QJsonValue &item : objects) {
        QJsonArray row;
        for (qsizetype c = 0; c < sheet.columns.size(); ++c)
            row.append(null);
        if (item.isObject()) {
            const QJsonObject o = item.toObject();
            for (auto it = o.begin(); it != o.end(); ++it)
                row[index.value(it.key())] = it.value();
        } else {
            row[index.value(QStringLiteral("value"))] = item;
        }
        sheet.rows.append(row);
    }
    sheet.inferTypes();
    return sheet;
}

Sheet Sheet::fromStrings(const QString &title, const QStringList &header,
                         const QList<QStringList> &rows)
{
    Sheet sheet;
    sheet.title = title;
    qsizetype width = header.size();
    for (const QStringList &r : rows)
        width = std::max(width, r.size());
    QStringList names = header;
    while (names.size() < width)
        names << QString();
    names = cleanHeader(names);

    QList<QList<QJsonValue>> converted(width);
    QList<QStringView> cells;
    cells.reserve(rows.size());
    static const QString empty;
    for (qsizetype c = 0; c < width; ++c) {
        cells.clear();
        for (const QStringList &r : rows)
            cells.append(c < r.size() ? QStringView(r[c]) : QStringView(empty));
        const ColumnType type = convertTextColumn(cells, &converted[c]);
        sheet.columns.append(Column{names[c], type});
    }
    sheet.rows.reserve(rows.size());
    for (qsizetype r = 0; r < rows.size(); ++r) {
        QJsonArray row;
        for (qsizetype c = 0; c < width; ++c)
            row.append(converted[c][r]);
        sheet.rows.append(row);
    }
    return sheet;
}

void Sheet::inferTypes()
{
    for (qsizetype c = 0; c < columns.size(); ++c) {
        ColumnType type = ColumnType::Empty;
        for (const QJsonArray &r : rows) {
            if (c < r.size())
                type = mergeTypes(type, typeOf(r[c]));
            if (type == ColumnType::String || type == ColumnType::Json)
                break;
        }
        columns[c].type = type;
    }
}

QJsonObject Sheet::describe(int sampleRows) const
{
    QJsonArray cols;
    for (const Column &c : columns)
        cols.append(QJsonObject{{QStringLiteral("name"), c.name},
                                {QStringLiteral("type"), columnTypeName(c.type)}});
    QJsonArray sample;
    for (int r = 0; r < std::min(sampleRows, rowCount()); ++r) {
        QJsonObject o;
        for (int c = 0; c < columnCount(); ++c)
            o.insert(columns[c].name, value(r, c));
        sample.append(o);
    }
    return QJsonObject{{QStringLiteral("title"), title},
                       {QStringLiteral("columns"), cols},
                       {QStringLiteral("rowCount"), rowCount()},
                       {QStringLiteral("sample"), sample}};
}

QString Sheet::toCsv() const
{
    const auto field = [](const QString &s) {
        if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
            s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r'))) {
            QString q = s;
            q.replace(QLatin1Char('"'), QLatin1String("\"\""));
            return QLatin1Char('"') + q + QLatin1Char('"');
        }
        return s;
    };
    QString out;
    QStringList line;
    for (const Column &c : columns)
        line << field(c.name);
    out += line.join(QLatin1Char(',')) + QLatin1String("\r\n");
    for (int r = 0; r < rowCount(); ++r) {
        line.clear();
        for (int c = 0; c < columnCount(); ++c)
            line << field(cellText(value(r, c)));
        out += line.join(QLatin1Char(',')) + QLatin1String("\r\n");
    }
    return out;
}

QString Sheet::toMarkdown(int maxRows) const
{
    if (columns.isEmpty())
        return {};
    QString out;
    QStringList line;
    for (const Column &c : columns)
        line << markdownCell(c.name);
    out += QLatin1String("| ") + line.join(QLatin1String(" | ")) + QLatin1String(" |\n");
    line.clear();
    for (qsizetype c = 0; c < columns.size(); ++c)
        line << QStringLiteral("---");
    out += QLatin1String("| ") + line.join(QLatin1String(" | ")) + QLatin1String(" |\n");
    const int shown = std::clamp(maxRows, 0, rowCount());
    for (int r = 0; r < shown; ++r) {
        line.clear();
        for (int c = 0; c < columnCount(); ++c)
            line << markdownCell(value(r, c));
        out += QLatin1String("| ") + line.join(QLatin1String(" | ")) + QLatin1String(" |\n");
    }
    if (shown < rowCount())
        out += QStringLiteral("\n… and %1 more rows\n").arg(rowCount() - shown);
    return out;
}

QList<int> Sheet::urlColumns() const
{
    struct Candidate
    {
        int column;
        int score;
    };
    QList<Candidate> found;
    for (int c = 0; c < columnCount(); ++c) {
        int nonEmpty = 0;
        int urls = 0;
        int strings = 0;
        for (int r = 0; r < rowCount(); ++r) {
            const QJsonValue v = value(r, c);
            if (v.isNull() || v.isUndefined())
                continue;
            ++nonEmpty;
            if (v.isString()) {
                ++strings;
                if (isHttpUrl(v.toString()))
                    ++urls;
            }
        }
        const bool named = hasUrlName(columns[c].name) && strings == nonEmpty;
        const bool mostlyUrls = nonEmpty > 0 && urls * 5 >= nonEmpty * 4;
        const int score = (named ? 2 : 0) + (mostlyUrls ? 1 : 0);
        if (score > 0)
            found.append({c, score});
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
    QList<int> out;
    for (const Candidate &c : found)
        out << c.column;
    return out;
}

int Sheet::urlColumn() const
{
    const QList<int> all = urlColumns();
    return all.isEmpty() ? -1 : all.first();
}

} // namespace ph::data
