#include "data/internal/Inference.h"

#include "data/Reader.h"

#include <QDate>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace ph::data::internal {

namespace {

bool digits(QStringView s, qsizetype from, qsizetype count)
{
    if (from + count > s.size())
        return false;
    for (qsizetype i = from; i < from + count; ++i) {
        if (!s[i].isDigit() || s[i].unicode() > '9')
            return false;
    }
    return true;
}

int number(QStringView s, qsizetype from, qsizetype count)
{
    int n = 0;
    for (qsizetype i = from; i < from + count; ++i)
        n = n * 10 + (s[i].unicode() - '0');
    return n;
}

// Length of a valid "YYYY-MM-DD" prefix, or 0.
bool datePrefix(QStringView s)
{
    if (s.size() < 10 || !digits(s, 0, 4) || s[4] != u'-' || !digits(s, 5, 2) || s[7] != u'-' ||
        !digits(s, 8, 2))
        return false;
    return QDate::isValid(number(s, 0, 4), number(s, 5, 2), number(s, 8, 2));
}

enum class TextKind { Integer, LeadingZeroInteger, Number, Boolean, Date, DateTime, Other };

TextKind classify(QStringView s)
{
    if (s.isEmpty())
        return TextKind::Other;
    const QChar c0 = s[0];
    if (c0 == u't' || c0 == u'T' || c0 == u'f' || c0 == u'F') {
        if (s.compare(u"true", Qt::CaseInsensitive) == 0 ||
            s.compare(u"false", Qt::CaseInsensitive) == 0)
            return TextKind::Boolean;
        return TextKind::Other;
    }
    if (s.size() >= 10 && datePrefix(s)) {
        if (s.size() == 10)
            return TextKind::Date;
        return isIsoDateTime(s) ? TextKind::DateTime : TextKind::Other;
    }
    // -?digits(.digits)?([eE][+-]?digits)?
    qsizetype i = 0;
    if (s[i] == u'-' || s[i] == u'+')
        ++i;
    const qsizetype intStart = i;
    while (i < s.size() && s[i] >= u'0' && s[i] <= u'9')
        ++i;
    const qsizetype intDigits = i - intStart;
    bool fraction = false;
    bool exponent = false;
    if (i < s.size() && s[i] == u'.') {
        ++i;
        const qsizetype fracStart = i;
        while (i < s.size() && s[i] >= u'0' && s[i] <= u'9')
            ++i;
        if (i == fracStart)
            return TextKind::Other;
        fraction = true;
    }
    if (intDigits == 0)
        return TextKind::Other;
    if (i < s.size() && (s[i] == u'e' || s[i] == u'E')) {
        ++i;
        if (i < s.size() && (s[i] == u'+' || s[i] == u'-'))
            ++i;
        const qsizetype expStart = i;
        while (i < s.size() && s[i] >= u'0' && s[i] <= u'9')
            ++i;
        if (i == expStart)
            return TextKind::Other;
        exponent = true;
    }
    if (i != s.size())
        return TextKind::Other;
    const bool leadingZero = intDigits > 1 && s[intStart] == u'0';
    if (leadingZero)
        return TextKind::LeadingZeroInteger; // "007", "00.5": identifiers, not numbers
    if (fraction || exponent)
        return TextKind::Number;
    if (s[0] == u'+')
        return TextKind::Number; // "+5" reads as 5 but is not how integers are written
    return TextKind::Integer;
}

} // namespace

bool isIsoDate(QStringView s)
{
    return s.size() == 10 && datePrefix(s);
}

bool isIsoDateTime(QStringView s)
{
    if (s.size() < 16 || !datePrefix(s) || (s[10] != u'T' && s[10] != u' '))
        return false;
    if (!digits(s, 11, 2) || s[13] != u':' || !digits(s, 14, 2))
        return false;
    if (number(s, 11, 2) > 23 || number(s, 14, 2) > 59)
        return false;
    qsizetype i = 16;
    if (i < s.size() && s[i] == u':') {
        if (!digits(s, i + 1, 2) || number(s, i + 1, 2) > 60)
            return false;
        i += 3;
        if (i < s.size() && s[i] == u'.') {
            ++i;
            const qsizetype start = i;
            while (i < s.size() && s[i] >= u'0' && s[i] <= u'9')
                ++i;
            if (i == start || i - start > 9)
                return false;
        }
    }
    if (i == s.size())
        return true;
    if (s[i] == u'Z')
        return i + 1 == s.size();
    if (s[i] != u'+' && s[i] != u'-')
        return false;
    ++i;
    if (!digits(s, i, 2))
        return false;
    i += 2;
    if (i < s.size() && s[i] == u':')
        ++i;
    return digits(s, i, 2) && i + 2 == s.size();
}

ColumnType typeOf(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return ColumnType::Empty;
    case QJsonValue::Bool:
        return ColumnType::Boolean;
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) <= double(kMaxExactInteger))
            return ColumnType::Integer;
        return ColumnType::Number;
    }
    case QJsonValue::String: {
        const QString s = value.toString();
        if (isIsoDate(s))
            return ColumnType::Date;
        if (isIsoDateTime(s))
            return ColumnType::DateTime;
        return ColumnType::String;
    }
    case QJsonValue::Array:
    case QJsonValue::Object:
        return ColumnType::Json;
    }
    return ColumnType::String;
}

ColumnType mergeTypes(ColumnType a, ColumnType b)
{
    if (a == b || b == ColumnType::Empty)
        return a;
    if (a == ColumnType::Empty)
        return b;
    if (a == ColumnType::Json || b == ColumnType::Json)
        return ColumnType::Json;
    const auto pair = [&](ColumnType x, ColumnType y) {
        return (a == x && b == y) || (a == y && b == x);
    };
    if (pair(ColumnType::Integer, ColumnType::Number))
        return ColumnType::Number;
    if (pair(ColumnType::Date, ColumnType::DateTime))
        return ColumnType::DateTime;
    return ColumnType::String;
}

QStringList cleanHeader(const QStringList &raw)
{
    QStringList names;
    names.reserve(raw.size());
    QSet<QString> seen;
    // Generated and given names must not collide: reserve the given ones first.
    QHash<QString, int> given;
    QHash<QString, int> nextSuffix; // folded name → first suffix not yet tried
    for (const QString &name : raw)
        given[name.trimmed().toCaseFolded()] += 1;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        QString name = raw[i].trimmed();
        if (name.isEmpty()) {
            name = QStringLiteral("column_%1").arg(i + 1);
            while (seen.contains(name.toCaseFolded()) || given.contains(name.toCaseFolded()))
                name += QLatin1Char('_');
        }
        if (seen.contains(name.toCaseFolded())) {
            // Each name remembers the suffix it got to: names only ever become taken, so
            // the next duplicate goes on from there (a header of 16,384 copies of one
            // name took seconds when every copy counted up from 2).
            int &next = nextSuffix[name.toCaseFolded()];
            for (int n = std::max(next, 2);; ++n) {
                const QString candidate = QStringLiteral("%1_%2").arg(name).arg(n);
                const QString folded = candidate.toCaseFolded();
                if (!seen.contains(folded) && !given.contains(folded)) {
                    name = candidate;
                    next = n + 1;
                    break;
                }
            }
        }
        seen.insert(name.toCaseFolded());
        names << name;
    }
    return names;
}

std::optional<DataError> checkCells(qint64 rows, qint64 columns, const Limits &limits)
{
    if (columns > 0 && rows > limits.maxCells / columns)
        return DataError::tooLarge(QStringLiteral("the input has %1 rows × %2 columns, over the "
                                                  "limit of %3 cells")
                                       .arg(rows)
                                       .arg(columns)
                                       .arg(limits.maxCells));
    return std::nullopt;
}

QJsonValue numberValue(double d)
{
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) <= double(kMaxExactInteger))
        return QJsonValue(qint64(d));
    return QJsonValue(d);
}

ColumnType convertTextColumn(const QList<QStringView> &cells, QList<QJsonValue> *out)
{
    bool allInteger = true;
    bool allNumber = true;
    bool allBoolean = true;
    bool allDate = true;
    bool allDateTime = true; // dates and datetimes mixed
    bool any = false;
    for (const QStringView raw : cells) {
        const QStringView cell = raw.trimmed();
        if (cell.isEmpty())
            continue;
        any = true;
        const TextKind kind = classify(cell);
        if (kind == TextKind::Integer) {
            bool ok = false;
            const qint64 n = cell.toLongLong(&ok);
            if (!ok || n > kMaxExactInteger || n < -kMaxExactInteger) {
                allInteger = false; // a long identifier: precision would be lost
                allNumber = false;
            }
        } else {
            allInteger = false;
            if (kind != TextKind::Number)
                allNumber = false;
        }
        if (kind != TextKind::Boolean)
            allBoolean = false;
        if (kind != TextKind::Date)
            allDate = false;
        if (kind != TextKind::Date && kind != TextKind::DateTime)
            allDateTime = false;
        if (!allInteger && !allNumber && !allBoolean && !allDateTime)
            break;
    }
    out->clear();
    out->reserve(cells.size());
    ColumnType type = ColumnType::String;
    if (!any)
        type = ColumnType::Empty;
    else if (allInteger)
        type = ColumnType::Integer;
    else if (allNumber)
        type = ColumnType::Number;
    else if (allBoolean)
        type = ColumnType::Boolean;
    else if (allDate)
        type = ColumnType::Date;
    else if (allDateTime)
        type = ColumnType::DateTime;
    for (const QStringView raw : cells) {
        const QStringView cell = raw.trimmed();
        if (cell.isEmpty()) {
            out->append(QJsonValue::Null);
            continue;
        }
        switch (type) {
        case ColumnType::Integer:
            out->append(QJsonValue(cell.toLongLong()));
            break;
        case ColumnType::Number:
            out->append(QJsonValue(cell.toDouble()));
            break;
        case ColumnType::Boolean:
            out->append(QJsonValue(cell.compare(u"true", Qt::CaseInsensitive) == 0));
            break;
        case ColumnType::Date:
        case ColumnType::DateTime:
            out->append(QJsonValue(cell.toString()));
            break;
        default:
            out->append(QJsonValue(raw.toString()));
            break;
        }
    }
    return type;
}

} // namespace ph::data::internal
