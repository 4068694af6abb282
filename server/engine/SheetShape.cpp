#include "SheetShape.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>

namespace ph::engine {

namespace {

QString normalKey(const QString &s)
{
    QString out;
    for (const QChar c : s.toLower())
        if (c.isLetterOrNumber())
            out += c;
    return out;
}

QString singular(const QString &s)
{
    if (s.endsWith(QLatin1String("ies")))
        return s.chopped(3) + QLatin1Char('y');
    if (s.endsWith(QLatin1String("ses")) || s.endsWith(QLatin1String("xes")))
        return s.chopped(2);
    if (s.endsWith(QLatin1Char('s')) && s.size() > 3)
        return s.chopped(1);
    return s;
}

// How well a header names a property: 3 same, 2 plural/singular or synonym, 1 contains.
int headerScore(const QString &property, const QString &header)
{
    static const QHash<QString, QStringList> synonyms{
        {QStringLiteral("name"),
         {QStringLiteral("title"), QStringLiteral("fullname"), QStringLiteral("label"),
          QStringLiteral("product")}},
        {QStringLiteral("title"), {QStringLiteral("name"), QStringLiteral("headline")}},
        {QStringLiteral("price"),
         {QStringLiteral("cost"), QStringLiteral("amount"), QStringLiteral("preis")}},
        {QStringLiteral("url"),
         {QStringLiteral("link"), QStringLiteral("href"), QStringLiteral("website"),
          QStringLiteral("address")}},
        {QStringLiteral("email"), {QStringLiteral("mail"), QStringLiteral("emailaddress")}},
        {QStringLiteral("city"),
         {QStringLiteral("town"), QStringLiteral("stadt"), QStringLiteral("ort")}},
        {QStringLiteral("population"),
         {QStringLiteral("inhabitants"), QStringLiteral("einwohner")}},
        {QStringLiteral("company"),
         {QStringLiteral("organisation"), QStringLiteral("organization"), QStringLiteral("firm")}},
    };
    const QString p = normalKey(property);
    const QString h = normalKey(header);
    if (p.isEmpty() || h.isEmpty())
        return 0;
    if (p == h)
        return 3;
    const QString ps = singular(p);
    const QString hs = singular(h);
    if (ps == hs || synonyms.value(ps).contains(hs) || synonyms.value(hs).contains(ps))
        return 2;
    if ((ps.size() >= 3 && h.contains(ps)) || (hs.size() >= 3 && p.contains(hs)))
        return 1;
    return 0;
}

QString typeOf(const QJsonObject &schema)
{
    const QJsonValue t = schema.value(QStringLiteral("type"));
    if (t.isArray()) {
        for (const QJsonValue &v : t.toArray())
            if (v.toString() != QLatin1String("null"))
                return v.toString();
    }
    return t.toString();
}

// A cell as the field's type: numbers written as text (1,234 / 1 234) read as numbers.
QJsonValue asField(const QJsonValue &cell, const QJsonObject &schema)
{
    const QString type = typeOf(schema);
    if ((type == QLatin1String("number") || type == QLatin1String("integer")) && cell.isString()) {
        QString t = cell.toString().trimmed();
        t.remove(QRegularExpression(QStringLiteral("[\\s,'\u00a0\u202f]")));
        bool ok = false;
        const double d = t.toDouble(&ok);
        if (ok)
            return type == QLatin1String("integer") ? QJsonValue(qint64(std::llround(d)))
                                                    : QJsonValue(d);
        return QJsonValue(QJsonValue::Null);
    }
    if (type == QLatin1String("string") && !cell.isString() && !cell.isNull())
        return cell.isDouble() ? QJsonValue(QString::number(cell.toDouble(), 'g', 15))
                               : QJsonValue(cell.toVariant().toString());
    return cell;
}

// The header of `rows` that best names `property` (empty: none does).
QString bestHeader(const QString &property, const QJsonArray &rows)
{
    if (rows.isEmpty())
        return {};
    QString best;
    int bestScore = 0;
    const QJsonObject first = rows.first().toObject();
    for (auto it = first.begin(); it != first.end(); ++it) {
        const int score = headerScore(property, it.key());
        if (score > bestScore) {
            bestScore = score;
            best = it.key();
        }
    }
    return best;
}

QJsonArray column(const QJsonArray &rows, const QString &header, const QJsonObject &items)
{
    QJsonArray out;
    for (const QJsonValue &r : rows) {
        const QJsonValue v = asField(r.toObject().value(header), items);
        if (!v.isNull() && !v.isUndefined() && !(v.isString() && v.toString().isEmpty()))
            out.append(v);
    }
    return out;
}

QJsonArray objectRows(const QJsonObject &itemSchema, const QJsonArray &rows, const QString &path,
                      QStringList *warnings)
{
    const QJsonObject props = itemSchema.value(QStringLiteral("properties")).toObject();
    if (props.isEmpty())
        return rows;
    QHash<QString, QString> headers;
    for (auto it = props.begin(); it != props.end(); ++it)
        headers.insert(it.key(), bestHeader(it.key(), rows));
    for (const QJsonValue &r : itemSchema.value(QStringLiteral("required")).toArray())
        if (headers.value(r.toString()).isEmpty() && warnings)
            *warnings << QStringLiteral("%1[].%2: no column of the sheet matches it")
                             .arg(path, r.toString());
    QJsonArray out;
    for (const QJsonValue &r : rows) {
        const QJsonObject row = r.toObject();
        QJsonObject o;
        for (auto it = props.begin(); it != props.end(); ++it) {
            const QString h = headers.value(it.key());
            if (h.isEmpty())
                continue;
            const QJsonValue v = asField(row.value(h), it.value().toObject());
            if (!v.isNull() && !v.isUndefined())
                o.insert(it.key(), v);
        }
        if (!o.isEmpty())
            out.append(o);
    }
    return out;
}

bool isScalarArray(const QJsonObject &schema)
{
    if (typeOf(schema) != QLatin1String("array"))
        return false;
    const QString t = typeOf(schema.value(QStringLiteral("items")).toObject());
    return t != QLatin1String("object") && t != QLatin1String("array");
}

} // namespace

QJsonValue shapeRows(const QJsonObject &schema, const QJsonArray &rows, QStringList *warnings)
{
    if (schema.isEmpty())
        return rows;
    if (isScalarArray(schema)) {
        const QJsonObject items = schema.value(QStringLiteral("items")).toObject();
        QString header = bestHeader(schema.value(QStringLiteral("title")).toString(), rows);
        if (header.isEmpty() && !rows.isEmpty()) {
            // The first column whose cells are of the item type.
            const QJsonObject first = rows.first().toObject();
            for (auto it = first.begin(); it != first.end() && header.isEmpty(); ++it)
                if (!column(rows, it.key(), items).isEmpty())
                    header = it.key();
        }
        return header.isEmpty() ? QJsonArray() : column(rows, header, items);
    }
    if (typeOf(schema) == QLatin1String("array"))
        return objectRows(schema.value(QStringLiteral("items")).toObject(), rows,
                          QStringLiteral("$"), warnings);
    const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    const WorkflowShape shape = workflowShape(schema);
    if (!shape.wrapKey.isEmpty())
        return QJsonObject{
            {shape.wrapKey, objectRows(shape.rowSchema, rows, shape.wrapKey, warnings)}};
    QJsonObject out;
    const QJsonObject first = rows.isEmpty() ? QJsonObject() : rows.first().toObject();
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QJsonObject sub = it.value().toObject();
        if (isScalarArray(sub)) {
            const QString h = bestHeader(it.key(), rows);
            if (!h.isEmpty())
                out.insert(it.key(),
                           column(rows, h, sub.value(QStringLiteral("items")).toObject()));
        } else if (typeOf(sub) == QLatin1String("array")) {
            out.insert(it.key(), objectRows(sub.value(QStringLiteral("items")).toObject(), rows,
                                            it.key(), warnings));
        } else {
            const QString h = bestHeader(it.key(), rows);
            if (!h.isEmpty())
                out.insert(it.key(), asField(first.value(h), sub));
        }
    }
    for (const QJsonValue &r : schema.value(QStringLiteral("required")).toArray())
        if (!out.contains(r.toString()) && warnings)
            *warnings << QStringLiteral("%1: no column of the sheet matches it").arg(r.toString());
    return out;
}

WorkflowShape workflowShape(const QJsonObject &schema)
{
    WorkflowShape shape;
    if (schema.isEmpty())
        return shape;
    const QString type = schema.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("array")) {
        shape.rowSchema = schema.value(QStringLiteral("items")).toObject();
        return shape;
    }
    const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    QString arrayProp;
    int arrays = 0;
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QJsonObject p = it.value().toObject();
        if (p.value(QStringLiteral("type")).toString() == QLatin1String("array") &&
            p.value(QStringLiteral("items")).toObject().value(QStringLiteral("type")).toString() ==
                QLatin1String("object")) {
            ++arrays;
            arrayProp = it.key();
        }
    }
    if (arrays == 1 && props.size() == 1) {
        shape.rowSchema =
            props.value(arrayProp).toObject().value(QStringLiteral("items")).toObject();
        shape.wrapKey = arrayProp;
        return shape;
    }
    shape.rowSchema = schema;
    return shape;
}

} // namespace ph::engine
