#include "SnapshotBudget.h"

#include "core/DomainError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace ph::cloud {

namespace {

using Structure = SnapshotBudget::Structure;

enum class Kind { Heading, Interactive, Other };

Kind kindOf(const QString &line, Structure structure)
{
    if (structure == Structure::Aria) {
        static const QRegularExpression role(QStringLiteral("^\\s*-\\s+([a-z]+)"));
        const auto m = role.match(line);
        if (!m.hasMatch())
            return Kind::Other;
        const QString r = m.captured(1);
        if (r == QLatin1String("heading"))
            return Kind::Heading;
        static const QStringList interactive = {
            QStringLiteral("button"),    QStringLiteral("link"),      QStringLiteral("textbox"),
            QStringLiteral("searchbox"), QStringLiteral("checkbox"),  QStringLiteral("radio"),
            QStringLiteral("combobox"),  QStringLiteral("listbox"),   QStringLiteral("option"),
            QStringLiteral("menuitem"),  QStringLiteral("tab"),       QStringLiteral("switch"),
            QStringLiteral("slider"),    QStringLiteral("spinbutton")};
        return interactive.contains(r) ? Kind::Interactive : Kind::Other;
    }
    if (structure == Structure::Markdown) {
        static const QRegularExpression heading(QStringLiteral("^\\s{0,3}#{1,6}\\s"));
        if (heading.match(line).hasMatch())
            return Kind::Heading;
        if (line.contains(QLatin1String("](")))
            return Kind::Interactive;
    }
    return Kind::Other;
}

struct Unit
{
    QString text;
    Kind kind;
};

// Lines, and long lines in pieces of at most kUnitChars (never splitting a surrogate pair).
QList<Unit> unitsOf(const QString &text, Structure structure)
{
    QList<Unit> units;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const Kind kind = kindOf(line, structure);
        qsizetype at = 0;
        do {
            qsizetype size = qMin<qsizetype>(SnapshotBudget::kUnitChars, line.size() - at);
            if (size > 1 && at + size < line.size() && line.at(at + size - 1).isHighSurrogate())
                --size;
            units.append({line.mid(at, size), kind});
            at += size;
        } while (at < line.size());
    }
    return units;
}

struct Field
{
    QString path;
    QString text;
    Structure structure;
};

const QString kCursorPrefix = QStringLiteral("c1.");

QJsonObject decodeCursor(const QString &cursor)
{
    const DomainError bad = DomainError::invalidField(
        QStringLiteral("params.cursor"),
        QStringLiteral("is not a cursor this tool gave; pass truncation.cursor of the previous "
                       "answer unchanged"));
    if (!cursor.startsWith(kCursorPrefix))
        throw bad;
    const auto raw = QByteArray::fromBase64Encoding(cursor.mid(kCursorPrefix.size()).toLatin1(),
                                                    QByteArray::Base64UrlEncoding |
                                                        QByteArray::AbortOnBase64DecodingErrors);
    if (!raw)
        throw bad;
    const QJsonDocument doc = QJsonDocument::fromJson(*raw);
    if (!doc.isObject() || doc.object().isEmpty())
        throw bad;
    const QJsonObject map = doc.object();
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (!it.value().isDouble() || it.value().toDouble() < 0)
            throw bad;
    }
    return map;
}

QString encodeCursor(const QJsonObject &map)
{
    return kCursorPrefix + QString::fromLatin1(QJsonDocument(map)
                                                   .toJson(QJsonDocument::Compact)
                                                   .toBase64(QByteArray::Base64UrlEncoding |
                                                             QByteArray::OmitTrailingEquals));
}

qsizetype sizeOf(const QJsonValue &v)
{
    if (v.isString())
        return v.toString().size();
    if (v.isArray())
        return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact).size();
    if (v.isObject())
        return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).size();
    return 0;
}

// The answer's page text (fields) and the bulky structured content it may drop (paths
// with their sizes): scrape's results[], a run's result and output.
void collect(const QJsonObject &answer, QList<Field> *fields,
             QList<QPair<QString, qsizetype>> *bulky)
{
    const QJsonArray results = answer.value(QStringLiteral("results")).toArray();
    for (qsizetype i = 0; i < results.size(); ++i) {
        const QJsonObject r = results.at(i).toObject();
        const QString at = QStringLiteral("results[%1].").arg(i);
        const QPair<const char *, Structure> texts[] = {{"text", Structure::Plain},
                                                        {"markdown", Structure::Markdown},
                                                        {"ariaSnapshot", Structure::Aria}};
        for (const auto &[name, structure] : texts) {
            if (r.value(QLatin1String(name)).isString())
                fields->append(
                    {at + QLatin1String(name), r.value(QLatin1String(name)).toString(), structure});
        }
        for (const char *name : {"accessibilityTree", "elementLinkRecord", "links", "html"}) {
            if (r.contains(QLatin1String(name)))
                bulky->append({at + QLatin1String(name), sizeOf(r.value(QLatin1String(name)))});
        }
    }
    const QJsonObject result = answer.value(QStringLiteral("result")).toObject();
    if (result.value(QStringLiteral("text")).isString())
        fields->append({QStringLiteral("result.text"),
                        result.value(QStringLiteral("text")).toString(), Structure::Markdown});
    const QJsonValue aria =
        result.value(QStringLiteral("json")).toObject().value(QStringLiteral("ariaSnapshot"));
    if (aria.isString())
        fields->append(
            {QStringLiteral("result.json.ariaSnapshot"), aria.toString(), Structure::Aria});
    if (answer.contains(QStringLiteral("output")))
        bulky->append({QStringLiteral("output"), sizeOf(answer.value(QStringLiteral("output")))});
}

// Sets (or, with an undefined value, removes) the field at `path` of collect().
void setAt(QJsonObject &answer, const QString &path, const QJsonValue &value)
{
    auto put = [&value](QJsonObject &o, const QString &key) {
        if (value.isUndefined())
            o.remove(key);
        else
            o.insert(key, value);
    };
    static const QRegularExpression item(QStringLiteral("^results\\[(\\d+)\\]\\.(\\w+)$"));
    if (const auto m = item.match(path); m.hasMatch()) {
        QJsonArray results = answer.value(QStringLiteral("results")).toArray();
        const int i = m.captured(1).toInt();
        QJsonObject r = results.at(i).toObject();
        put(r, m.captured(2));
        results.replace(i, r);
        answer.insert(QStringLiteral("results"), results);
    } else if (path == QLatin1String("output")) {
        put(answer, path);
    } else {
        QJsonObject result = answer.value(QStringLiteral("result")).toObject();
        if (path == QLatin1String("result.text")) {
            put(result, QStringLiteral("text"));
        } else {
            QJsonObject json = result.value(QStringLiteral("json")).toObject();
            put(json, QStringLiteral("ariaSnapshot"));
            result.insert(QStringLiteral("json"), json);
        }
        answer.insert(QStringLiteral("result"), result);
    }
}

} // namespace

SnapshotBudget::Window SnapshotBudget::window(const QString &text, Structure structure,
                                              int maxChars, int offset)
{
    Window w;
    w.totalChars = int(text.size());
    if (text.isEmpty())
        return w;
    const QList<Unit> units = unitsOf(text, structure);
    w.totalUnits = int(units.size());
    QList<int> order;
    for (int i = 0; i < units.size(); ++i) {
        if (units.at(i).kind != Kind::Other)
            order.append(i);
    }
    for (int i = 0; i < units.size(); ++i) {
        if (units.at(i).kind == Kind::Other)
            order.append(i);
    }
    int k = qBound(0, offset, int(order.size()));
    QList<int> taken;
    qsizetype used = 0;
    for (; k < order.size(); ++k) {
        const qsizetype cost = units.at(order.at(k)).text.size() + 1;
        if (!taken.isEmpty() && used + cost > maxChars)
            break;
        taken.append(order.at(k));
        used += cost;
    }
    w.nextOffset = k < order.size() ? k : -1;
    w.returnedUnits = int(taken.size());
    std::sort(taken.begin(), taken.end());
    QStringList lines;
    for (int i : std::as_const(taken))
        lines.append(units.at(i).text);
    w.text = lines.join(QLatin1Char('\n'));
    for (int j = k; j < order.size(); ++j) {
        const Unit &u = units.at(order.at(j));
        w.remainingChars += int(u.text.size()) + 1;
        (u.kind == Kind::Heading       ? w.remainingHeadings
         : u.kind == Kind::Interactive ? w.remainingInteractive
                                       : w.remainingOther)++;
    }
    return w;
}

SnapshotBudget::Request SnapshotBudget::read(const QJsonObject &params)
{
    Request r;
    const QJsonValue max = params.value(QStringLiteral("maxChars"));
    if (!max.isUndefined()) {
        const double v = max.toDouble(-1);
        if (!max.isDouble() || v != double(qint64(v)) || v < kMinMaxChars || v > kMaxMaxChars)
            throw DomainError::invalidField(QStringLiteral("params.maxChars"),
                                            QStringLiteral("must be an integer from %1 to %2")
                                                .arg(kMinMaxChars)
                                                .arg(kMaxMaxChars));
        r.maxChars = int(v);
    }
    const QJsonValue cursor = params.value(QStringLiteral("cursor"));
    if (!cursor.isUndefined()) {
        if (!cursor.isString())
            throw DomainError::invalidField(QStringLiteral("params.cursor"),
                                            QStringLiteral("must be a string"));
        r.cursor = cursor.toString();
        decodeCursor(r.cursor); // refused now, before the page is read
    }
    return r;
}

QJsonObject SnapshotBudget::withoutBudgetFields(QJsonObject params)
{
    for (const char *k : {"maxChars", "scope", "cursor"})
        params.remove(QLatin1String(k));
    return params;
}

QJsonObject SnapshotBudget::apply(const QJsonObject &answer, const Request &request)
{
    QList<Field> fields;
    QList<QPair<QString, qsizetype>> bulky;
    collect(answer, &fields, &bulky);
    const bool continuing = !request.cursor.isEmpty();
    const QJsonObject offsets = continuing ? decodeCursor(request.cursor) : QJsonObject();
    qsizetype total = 0;
    for (const Field &f : std::as_const(fields))
        total += f.text.size();
    for (const auto &b : std::as_const(bulky))
        total += b.second;
    if (!continuing && total <= request.maxChars)
        return answer;

    QJsonObject out = answer;
    QJsonArray dropped;
    for (const auto &b : std::as_const(bulky)) {
        setAt(out, b.first, QJsonValue(QJsonValue::Undefined));
        dropped.append(b.first);
    }
    // Smallest first, so what a small field leaves of its share goes to the larger ones.
    QList<Field> active;
    for (const Field &f : std::as_const(fields)) {
        if (!continuing || offsets.contains(f.path))
            active.append(f);
        else
            setAt(out, f.path, QString()); // delivered whole by an earlier answer
    }
    std::stable_sort(active.begin(), active.end(),
                     [](const Field &a, const Field &b) { return a.text.size() < b.text.size(); });
    qsizetype left = request.maxChars;
    QJsonObject next;
    QJsonArray report;
    for (qsizetype i = 0; i < active.size(); ++i) {
        const Field &f = active.at(i);
        const int share = int(qMax<qsizetype>(left / (active.size() - i), kUnitChars));
        const Window w = window(f.text, f.structure, share, offsets.value(f.path).toInt());
        left = qMax<qsizetype>(0, left - w.text.size());
        setAt(out, f.path, w.text);
        if (w.nextOffset >= 0)
            next.insert(f.path, w.nextOffset);
        report.append(QJsonObject{{QStringLiteral("path"), f.path},
                                  {QStringLiteral("totalChars"), w.totalChars},
                                  {QStringLiteral("returnedChars"), int(w.text.size())},
                                  {QStringLiteral("remainingChars"), w.remainingChars},
                                  {QStringLiteral("remainingHeadings"), w.remainingHeadings},
                                  {QStringLiteral("remainingInteractive"), w.remainingInteractive},
                                  {QStringLiteral("remainingLines"), w.remainingOther},
                                  {QStringLiteral("complete"), w.nextOffset < 0}});
    }
    QJsonObject truncation{{QStringLiteral("maxChars"), request.maxChars},
                           {QStringLiteral("fields"), report},
                           {QStringLiteral("dropped"), dropped}};
    if (!next.isEmpty()) {
        truncation.insert(QStringLiteral("cursor"), encodeCursor(next));
        truncation.insert(
            QStringLiteral("hint"),
            QStringLiteral("Headings and interactive elements came first. For the rest, call the "
                           "same tool again with the same arguments and cursor set to "
                           "truncation.cursor; a larger maxChars or a narrower scope (a CSS "
                           "selector) also helps."));
    } else {
        truncation.insert(QStringLiteral("hint"),
                          QStringLiteral("This answer ends the page's text. Dropped structured "
                                         "fields fit in a larger maxChars."));
    }
    out.insert(QStringLiteral("truncation"), truncation);
    return out;
}

} // namespace ph::cloud
