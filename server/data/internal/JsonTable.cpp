#include "data/internal/JsonTable.h"

#include "data/Reader.h"
#include "data/internal/Inference.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace ph::data::internal {

namespace {

QString kindOf(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    default:
        return QStringLiteral("null");
    }
}

// Reads object keys in source order from JSON text that QJsonDocument has accepted.
class KeyScanner
{
public:
    explicit KeyScanner(const QByteArray &json)
        : m_p(json.constData())
        , m_end(json.constData() + json.size())
    {}

    // Keys of the objects in the array at the root (property empty) or at the root
    // object's `property`, in first-seen order; of the root object itself when it is
    // an object and property is empty.
    QStringList keys(const QString &property)
    {
        QStringList out;
        QSet<QString> seen;
        ws();
        if (property.isEmpty() && peek() == '{') {
            objectKeys(&out, &seen);
            return out;
        }
        if (!property.isEmpty()) {
            if (!eat('{'))
                return out;
            while (true) {
                ws();
                if (peek() != '"')
                    return out;
                const QString key = string();
                ws();
                eat(':');
                ws();
                if (key == property)
                    break;
                skipValue();
                ws();
                if (!eat(','))
                    return out;
            }
        }
        if (!eat('['))
            return out;
        while (true) {
            ws();
            if (peek() == '{')
                objectKeys(&out, &seen);
            else
                skipValue();
            ws();
            if (!eat(','))
                return out;
        }
    }

private:
    char peek() const { return m_p < m_end ? *m_p : '\0'; }
    bool eat(char c)
    {
        if (peek() != c)
            return false;
        ++m_p;
        return true;
    }
    void ws()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            ++m_p;
    }
    QString string()
    {
        // The raw string with its quotes, decoded by Qt's own JSON parser.
        const char *start = m_p;
        skipString();
        const QByteArrayView raw(start, m_p - start);
        if (raw.size() >= 2 && !raw.contains('\\'))
            return QString::fromUtf8(raw.sliced(1, raw.size() - 2));
        const QByteArray wrapped = "[" + QByteArray(start, m_p - start) + "]";
        return QJsonDocument::fromJson(wrapped).array().at(0).toString();
    }
    void skipString()
    {
        if (!eat('"'))
            return;
        while (m_p < m_end && *m_p != '"') {
            if (*m_p == '\\')
                ++m_p;
            ++m_p;
        }
        if (m_p < m_end)
            ++m_p;
    }
    void skipValue()
    {
        int depth = 0;
        do {
            ws();
            const char c = peek();
            if (c == '"') {
                skipString();
            } else if (c == '{' || c == '[') {
                ++depth;
                ++m_p;
            } else if (c == '}' || c == ']') {
                --depth;
                ++m_p;
            } else if (c == ',' || c == ':') {
                ++m_p;
            } else if (c == '\0') {
                return;
            } else {
                while (m_p < m_end && *m_p != ',' && *m_p != '}' && *m_p != ']' && *m_p != ' ' &&
                       *m_p != '\n' && *m_p != '\r' && *m_p != '\t')
                    ++m_p;
            }
        } while (depth > 0 && m_p < m_end);
    }

    void objectKeys(QStringList *out, QSet<QString> *seen)
    {
        eat('{');
        while (m_p < m_end) {
            ws();
            if (eat('}'))
                return;
            const QString key = string();
            if (!seen->contains(key)) {
                seen->insert(key);
                *out << key;
            }
            ws();
            eat(':');
            ws();
            skipValue();
            ws();
            if (!eat(',')) {
                eat('}');
                return;
            }
        }
    }

    const char *m_p;
    const char *m_end;
};

Result<Sheet> fromArrays(const QJsonArray &items, const QString &title, const Limits &limits)
{
    const QJsonArray first = items.at(0).toArray();
    bool header = !first.isEmpty();
    for (const QJsonValue &v : first)
        header = header && v.isString();
    qsizetype width = first.size();
    QStringList names;
    if (header) {
        for (const QJsonValue &v : first)
            names << v.toString();
    } else {
        for (const QJsonValue &item : items)
            width = std::max(width, item.toArray().size());
        for (qsizetype c = 0; c < width; ++c)
            names << QString();
    }
    if (width > limits.maxColumns)
        return DataError::tooLarge(QStringLiteral("the input has %1 columns, over the limit of %2")
                                       .arg(width)
                                       .arg(limits.maxColumns));
    if (auto e = checkCells(items.size(), width, limits))
        return *e;
    Sheet sheet;
    sheet.title = title;
    for (const QString &name : cleanHeader(names))
        sheet.columns.append(Column{name, ColumnType::Empty});
    for (qsizetype i = header ? 1 : 0; i < items.size(); ++i) {
        QJsonArray row = items[i].toArray();
        if (header && row.size() != width)
            return DataError::malformed(QStringLiteral("item %1 has %2 values but the header "
                                                       "(item 1) has %3")
                                            .arg(i + 1)
                                            .arg(row.size())
                                            .arg(width));
        while (row.size() < width)
            row.append(QJsonValue::Null);
        sheet.rows.append(row);
    }
    sheet.inferTypes();
    return sheet;
}

} // namespace

Result<Sheet> parseJsonTable(const QByteArray &utf8, const QString &title, const Limits &limits)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(utf8, &error);
    if (error.error != QJsonParseError::NoError) {
        const qsizetype offset = std::clamp<qsizetype>(error.offset, 0, utf8.size());
        const QByteArray before = utf8.left(offset);
        const qsizetype line = before.count('\n') + 1;
        const qsizetype column = offset - (before.lastIndexOf('\n') + 1) + 1;
        return DataError::malformed(QStringLiteral("invalid JSON at offset %1 (line %2, column "
                                                   "%3): %4")
                                        .arg(offset)
                                        .arg(line)
                                        .arg(column)
                                        .arg(error.errorString()));
    }

    QJsonArray items;
    QString property;
    if (doc.isArray()) {
        items = doc.array();
    } else {
        const QJsonObject root = doc.object();
        QStringList arrays;
        for (auto it = root.begin(); it != root.end(); ++it) {
            if (it.value().isArray())
                arrays << it.key();
        }
        if (arrays.size() > 1)
            return DataError::malformed(
                QStringLiteral("the JSON object has %1 array properties (%2); give an array of "
                               "objects, or an object with one array property")
                    .arg(arrays.size())
                    .arg(arrays.join(QStringLiteral(", "))));
        if (arrays.isEmpty()) {
            items.append(root);
        } else {
            property = arrays.first();
            items = root.value(property).toArray();
        }
    }
    if (items.size() > limits.maxRows)
        return DataError::tooLarge(QStringLiteral("the input has %1 rows, over the limit of %2")
                                       .arg(items.size())
                                       .arg(limits.maxRows));

    // All objects (nulls allowed), all arrays, or all scalars.
    qsizetype firstObject = -1, firstArray = -1, firstScalar = -1;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonValue v = items[i];
        qsizetype *slot = v.isObject() ? &firstObject : v.isArray() ? &firstArray : &firstScalar;
        if (v.isNull())
            continue;
        if (*slot < 0)
            *slot = i;
    }
    const int kinds = (firstObject >= 0) + (firstArray >= 0) + (firstScalar >= 0);
    if (kinds > 1) {
        QList<qsizetype> firsts;
        for (qsizetype f : {firstObject, firstArray, firstScalar}) {
            if (f >= 0)
                firsts << f;
        }
        std::sort(firsts.begin(), firsts.end());
        return DataError::malformed(QStringLiteral("item %1 is %2 but item %3 is %4; give an "
                                                   "array of objects")
                                        .arg(firsts[1] + 1)
                                        .arg(kindOf(items[firsts[1]]))
                                        .arg(firsts[0] + 1)
                                        .arg(kindOf(items[firsts[0]])));
    }
    if (firstArray >= 0 && items.at(0).isArray())
        return fromArrays(items, title, limits);
    if (firstArray >= 0)
        return DataError::malformed(QStringLiteral("item 1 is null; an array of arrays starts "
                                                   "with its header"));

    QStringList order;
    QSet<QString> present;
    if (firstObject >= 0) {
        for (const QJsonValue &v : std::as_const(items)) {
            const QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it)
                present.insert(it.key());
        }
        if (present.size() > limits.maxColumns)
            return DataError::tooLarge(
                QStringLiteral("the objects have %1 different keys, over the column limit of %2")
                    .arg(present.size())
                    .arg(limits.maxColumns));
        if (auto e = checkCells(items.size(), present.size(), limits))
            return *e;
        for (const QString &key : KeyScanner(utf8).keys(property)) {
            if (present.contains(key))
                order << key;
        }
        // Null items are rows of nulls.
        for (qsizetype i = 0; i < items.size(); ++i) {
            if (items[i].isNull())
                items[i] = QJsonObject();
        }
    }
    return Sheet::fromObjects(title, items, order);
}

} // namespace ph::data::internal
