#include "A2wArtifacts.h"

#include <QJsonDocument>
#include <QStringList>

namespace ph::a2w::TableFiles {

namespace {

bool isTable(const QJsonArray &a)
{
    if (a.isEmpty())
        return false;
    for (const QJsonValue &v : a)
        if (!v.isObject())
            return false;
    return true;
}

QStringList cells(const QString &line)
{
    QString l = line.trimmed();
    if (l.startsWith(QLatin1Char('|')))
        l.remove(0, 1);
    if (l.endsWith(QLatin1Char('|')))
        l.chop(1);
    QStringList out;
    for (const QString &c : l.split(QLatin1Char('|')))
        out << c.trimmed();
    return out;
}

bool isSeparator(const QString &line)
{
    const QStringList parts = cells(line);
    for (const QString &p : parts) {
        QString s = p;
        s.remove(QLatin1Char(':'));
        if (s.isEmpty() || s.count(QLatin1Char('-')) != s.size())
            return false;
    }
    return !parts.isEmpty();
}

QJsonArray markdownTable(const QString &text)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        if (!lines.at(i).trimmed().startsWith(QLatin1Char('|')) || !isSeparator(lines.at(i + 1)))
            continue;
        const QStringList header = cells(lines.at(i));
        QJsonArray rows;
        for (qsizetype j = i + 2; j < lines.size() && lines.at(j).trimmed().startsWith(u'|'); ++j) {
            const QStringList values = cells(lines.at(j));
            QJsonObject row;
            for (qsizetype c = 0; c < header.size(); ++c)
                row.insert(header.at(c), values.value(c));
            rows.append(row);
        }
        return rows;
    }
    return {};
}

QString field(const QJsonValue &v)
{
    QString s;
    if (v.isString())
        s = v.toString();
    else if (v.isDouble())
        s = QString::number(v.toDouble(), 'g', 15);
    else if (v.isBool())
        s = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    else if (v.isArray())
        s = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    else if (v.isObject())
        s = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (s.contains(QLatin1Char('"')) || s.contains(QLatin1Char(',')) ||
        s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r')))
        s = QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
            QLatin1Char('"');
    return s;
}

} // namespace

QJsonArray rowsOf(const QJsonValue &json, const QString &text)
{
    if (json.isArray() && isTable(json.toArray()))
        return json.toArray();
    if (json.isObject()) {
        const QJsonObject o = json.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.value().isArray() && isTable(it.value().toArray()))
                return it.value().toArray();
    }
    return markdownTable(text);
}

QByteArray csv(const QJsonArray &rows)
{
    QStringList columns;
    for (const QJsonValue &r : rows)
        for (const QString &k : r.toObject().keys())
            if (!columns.contains(k))
                columns << k;
    QStringList lines;
    QStringList header;
    for (const QString &c : std::as_const(columns))
        header << field(c);
    lines << header.join(QLatin1Char(','));
    for (const QJsonValue &r : rows) {
        QStringList line;
        for (const QString &c : std::as_const(columns))
            line << field(r.toObject().value(c));
        lines << line.join(QLatin1Char(','));
    }
    return lines.join(QStringLiteral("\r\n")).toUtf8() + "\r\n";
}

QByteArray json(const QJsonArray &rows)
{
    return QJsonDocument(rows).toJson(QJsonDocument::Indented);
}

} // namespace ph::a2w::TableFiles
