#include "data/internal/XlsxReader.h"

#include "data/Reader.h"
#include "data/internal/Inference.h"

#include "data/internal/ZipArchive.h"

#include <QDate>
#include <QHash>
#include <QXmlStreamReader>

#include <cmath>
#include <map>
#include <memory>
#include <optional>

namespace ph::data::internal {

namespace {

struct Failure
{
    DataError error;
};

[[noreturn]] void fail(DataError error)
{
    throw Failure{std::move(error)};
}

[[noreturn]] void corrupt(const QString &message)
{
    fail(DataError::malformed(QStringLiteral("not a readable xlsx workbook: %1").arg(message)));
}

// Row numbers up to 2^31 - 1 are read (Excel writes at most 1,048,576).
constexpr qint64 kMaxRowNumber = 2147483647;

// What a cell's number format makes of its number.
enum class DateKind { None, Date, Time, DateTime };

DateKind dateKindOfCode(const QString &code)
{
    // Only the first section (positive numbers) decides.
    bool date = false;
    bool time = false;
    bool quoted = false;
    for (qsizetype i = 0; i < code.size(); ++i) {
        const QChar c = code[i];
        if (quoted) {
            if (c == u'"')
                quoted = false;
            continue;
        }
        if (c == u'"') {
            quoted = true;
        } else if (c == u'\\' || c == u'_' || c == u'*') {
            ++i; // an escaped, padding or fill character
        } else if (c == u'[') {
            const qsizetype close = code.indexOf(u']', i);
            if (close < 0)
                break;
            const QString tag = code.mid(i + 1, close - i - 1).toLower();
            // [h], [mm], [ss]: elapsed time; anything else ([Red], [$-409]) is not.
            if (!tag.isEmpty() && (tag.count(tag[0]) == tag.size()) &&
                (tag[0] == u'h' || tag[0] == u'm' || tag[0] == u's'))
                time = true;
            i = close;
        } else if (c == u';') {
            break;
        } else {
            const QChar l = c.toLower();
            if (l == u'd' || l == u'y')
                date = true;
            else if (l == u'h' || l == u's')
                time = true;
            else if (l == u'm')
                date = date || !time; // m after h is minutes; alone it is a month
            else if (l == u'e' && i + 1 < code.size() && code[i + 1] == u'+')
                return DateKind::None; // scientific notation: 0.00E+00
        }
    }
    if (code.compare(QLatin1String("General"), Qt::CaseInsensitive) == 0)
        return DateKind::None;
    if (date && time)
        return DateKind::DateTime;
    if (date)
        return DateKind::Date;
    if (time)
        return DateKind::Time;
    return DateKind::None;
}

DateKind dateKindOfBuiltin(int id)
{
    if (id >= 14 && id <= 17)
        return DateKind::Date;
    if (id >= 18 && id <= 21)
        return DateKind::Time;
    if (id == 22)
        return DateKind::DateTime;
    if ((id >= 27 && id <= 31) || (id >= 34 && id <= 36) || (id >= 50 && id <= 58))
        return DateKind::Date; // locale-specific date formats (CJK)
    if (id == 32 || id == 33 || (id >= 45 && id <= 47))
        return DateKind::Time;
    return DateKind::None;
}

// An Excel serial number as ISO text, or a null value when it is out of range.
QJsonValue serialToIso(double serial, DateKind kind, bool date1904)
{
    if (!std::isfinite(serial) || serial < 0 || serial > 2958466) // past 9999-12-31
        return QJsonValue(serial);
    const qint64 totalMs = std::llround(serial * 86400000.0);
    qint64 days = totalMs / 86400000;
    const qint64 ms = totalMs % 86400000;
    QDate date;
    if (date1904) {
        date = QDate(1904, 1, 1).addDays(days);
    } else if (days == 0 && kind == DateKind::Time) {
        date = QDate(1899, 12, 31);
    } else if (days < 60) {
        date = QDate(1899, 12, 31).addDays(days);
    } else if (days == 60) {
        date = QDate(1900, 2, 28); // Excel's 1900-02-29, a day that never was
    } else {
        date = QDate(1899, 12, 30).addDays(days);
    }
    const QString clock =
        QStringLiteral("%1:%2:%3")
            .arg(ms / 3600000, 2, 10, QLatin1Char('0'))
            .arg(ms / 60000 % 60, 2, 10, QLatin1Char('0'))
            .arg(ms / 1000 % 60, 2, 10, QLatin1Char('0')) +
        (ms % 1000 ? QStringLiteral(".%1").arg(ms % 1000, 3, 10, QLatin1Char('0')) : QString());
    switch (kind) {
    case DateKind::Date:
        return date.toString(Qt::ISODate);
    case DateKind::Time:
        if (days == 0)
            return clock;
        [[fallthrough]];
    default:
        return date.toString(Qt::ISODate) + QLatin1Char('T') + clock;
    }
}

// OOXML escapes characters XML cannot hold as _xHHHH_.
QString unescapeOoxml(QString s)
{
    if (!s.contains(QLatin1String("_x")))
        return s;
    QString out;
    out.reserve(s.size());
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s[i] == u'_' && i + 6 < s.size() && s[i + 1] == u'x' && s[i + 6] == u'_') {
            bool ok = false;
            const uint code = QStringView(s).sliced(i + 2, 4).toUInt(&ok, 16);
            if (ok) {
                out += QChar(char16_t(code));
                i += 6;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

// "BC12" → column 54 (0-based), row 12. False when it is not a cell reference.
bool parseReference(QStringView ref, qint64 *column, qint64 *row)
{
    qsizetype i = 0;
    qint64 col = 0;
    while (i < ref.size() && ref[i].isLetter() && ref[i].unicode() < 128) {
        col = col * 26 + (ref[i].toUpper().unicode() - 'A' + 1);
        if (col > 1'000'000)
            return false;
        ++i;
    }
    if (i == 0)
        return false;
    bool ok = false;
    const qint64 r = ref.sliced(i).toLongLong(&ok);
    if (!ok || r < 1)
        return false;
    *column = col - 1;
    *row = r;
    return true;
}

QString cellReference(qint64 column, qint64 row)
{
    QString letters;
    for (qint64 c = column + 1; c > 0; c = (c - 1) / 26)
        letters.prepend(QChar(char16_t(u'A' + (c - 1) % 26)));
    return letters + QString::number(row);
}

QString headerText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (std::floor(d) == d && std::fabs(d) < 1e15)
            return QString::number(qint64(d));
        return QString::number(d, 'g', QLocale::FloatingPointShortest);
    }
    return {};
}

// A relationship target resolved against the directory of its source part, as a
// member name of the archive; nullopt when it climbs above the archive's root
// ("../../x/workbook.xml" from the root), which no workbook writer produces.
std::optional<QString> resolvePath(const QString &base, const QString &target)
{
    QString path = target.startsWith(QLatin1Char('/')) ? target.mid(1) : base + target;
    QStringList out;
    for (const QString &part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (part == QLatin1String("..")) {
            if (out.isEmpty())
                return std::nullopt;
            out.removeLast();
        } else if (part != QLatin1String(".")) {
            out << part;
        }
    }
    return out.join(QLatin1Char('/'));
}

QString directoryOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash + 1);
}

QString relsPathOf(const QString &part)
{
    return directoryOf(part) + QLatin1String("_rels/") +
           part.mid(part.lastIndexOf(QLatin1Char('/')) + 1) + QLatin1String(".rels");
}

class Workbook
{
public:
    Workbook(const QByteArray &bytes, const Limits &limits)
        : m_bytes(bytes)
        , m_limits(limits)
    {}

    QList<Sheet> read(bool firstOnly)
    {
        if (m_bytes.startsWith("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")) {
            if (m_bytes.contains(QByteArray("E\0n\0c\0r\0y\0p\0t\0e\0d\0P\0a\0c\0k\0a\0g\0e", 31)))
                fail(DataError::encrypted(
                    QStringLiteral("the workbook is password-protected, which is not supported")));
            fail(DataError::unsupported(QStringLiteral(
                "not an xlsx workbook: this is a legacy .xls file; save it as .xlsx")));
        }
        if (!m_bytes.startsWith("PK"))
            fail(DataError::malformed(QStringLiteral("not an xlsx workbook: not a zip archive")));
        m_zip = std::make_unique<ZipArchive>(m_bytes);
        if (!m_zip->isOpen())
            fail(DataError::malformed(
                QStringLiteral("not an xlsx workbook: the zip archive is damaged")));

        QString workbookPath = QStringLiteral("xl/workbook.xml");
        relationships(QStringLiteral("_rels/.rels"), QString()); // finds m_officeDocument
        if (!m_officeDocument.isEmpty())
            workbookPath = m_officeDocument;
        if (!hasPart(workbookPath))
            fail(DataError::malformed(
                QStringLiteral("not an xlsx workbook: it has no workbook part (%1)")
                    .arg(workbookPath)));

        const QString base = directoryOf(workbookPath);
        const auto rels = relationships(relsPathOf(workbookPath), base);
        struct SheetRef
        {
            QString name;
            QString path;
        };
        QList<SheetRef> sheets;
        {
            QXmlStreamReader xml(part(workbookPath));
            while (!xml.atEnd()) {
                xml.readNext();
                if (!xml.isStartElement())
                    continue;
                if (xml.name() == QLatin1String("workbookPr")) {
                    const QStringView v = xml.attributes().value(QLatin1String("date1904"));
                    m_date1904 = v == QLatin1String("1") || v == QLatin1String("true");
                } else if (xml.name() == QLatin1String("sheet")) {
                    QString rid;
                    for (const QXmlStreamAttribute &a : xml.attributes()) {
                        if (a.name() == QLatin1String("id") && !a.prefix().isEmpty())
                            rid = a.value().toString();
                    }
                    sheets.append({xml.attributes().value(QLatin1String("name")).toString(),
                                   rels.value(rid)});
                }
            }
            if (xml.hasError())
                corrupt(QStringLiteral("%1 is not well-formed XML: %2")
                            .arg(workbookPath, xml.errorString()));
        }
        if (sheets.isEmpty())
            corrupt(QStringLiteral("the workbook lists no sheets"));

        for (const auto &[id, target] : rels.asKeyValueRange()) {
            const QString type = m_types.value(id);
            if (type.endsWith(QLatin1String("/sharedStrings")))
                readSharedStrings(target);
            else if (type.endsWith(QLatin1String("/styles")))
                readStyles(target);
        }

        QList<Sheet> out;
        for (const SheetRef &ref : std::as_const(sheets)) {
            if (ref.path.isEmpty() || !hasPart(ref.path))
                corrupt(QStringLiteral("sheet '%1' has no part in the archive").arg(ref.name));
            std::optional<Sheet> sheet = readSheet(ref.name, ref.path);
            if (!sheet)
                continue; // a chart sheet
            out.append(std::move(*sheet));
            if (firstOnly)
                break;
        }
        if (out.isEmpty())
            fail(DataError::malformed(QStringLiteral("the workbook has no worksheet")));
        return out;
    }

private:
    bool hasPart(const QString &path) { return m_zip->contains(path); }

    QByteArray part(const QString &path)
    {
        QByteArray data;
        switch (m_zip->read(path, m_limits.maxExpandedBytes - m_expanded, &data)) {
        case ZipArchive::Status::Ok:
            break;
        case ZipArchive::Status::Missing:
            corrupt(QStringLiteral("%1 is missing").arg(path));
        case ZipArchive::Status::Damaged:
            corrupt(QStringLiteral("%1 is damaged").arg(path));
        case ZipArchive::Status::TooLarge:
            tooLarge();
        }
        m_expanded += data.size();
        if (m_limits.expandedMeter)
            *m_limits.expandedMeter += data.size();
        return data;
    }

    [[noreturn]] void tooLarge()
    {
        fail(DataError::tooLarge(
            QStringLiteral("the workbook decompresses past the limit of %1 bytes")
                .arg(m_limits.maxExpandedBytes)));
    }

    // Relationship id → target part path, resolved against `base`.
    QHash<QString, QString> relationships(const QString &path, const QString &base)
    {
        QHash<QString, QString> out;
        m_types.clear();
        if (!hasPart(path))
            return out;
        QXmlStreamReader xml(part(path));
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement() || xml.name() != QLatin1String("Relationship"))
                continue;
            const auto attrs = xml.attributes();
            if (attrs.value(QLatin1String("TargetMode")) == QLatin1String("External"))
                continue;
            const QString given = attrs.value(QLatin1String("Target")).toString();
            const std::optional<QString> resolved = resolvePath(base, given);
            if (!resolved)
                corrupt(QStringLiteral("%1 points outside the archive (%2)").arg(path, given));
            const QString target = *resolved;
            const QString id = attrs.value(QLatin1String("Id")).toString();
            out.insert(id, target);
            m_types.insert(id, attrs.value(QLatin1String("Type")).toString());
            if (attrs.value(QLatin1String("Type")).endsWith(QLatin1String("/officeDocument")))
                m_officeDocument = target;
        }
        if (xml.hasError())
            corrupt(QStringLiteral("%1 is not well-formed XML: %2").arg(path, xml.errorString()));
        return out;
    }

    // Text of <t> elements inside the current element, skipping phonetic runs.
    QString richText(QXmlStreamReader &xml)
    {
        QString text;
        const QString outer = xml.name().toString();
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isEndElement() && xml.name() == outer)
                break;
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("rPh") || xml.name() == QLatin1String("phoneticPr"))
                xml.skipCurrentElement();
            else if (xml.name() == QLatin1String("t"))
                text += xml.readElementText(QXmlStreamReader::IncludeChildElements);
        }
        return unescapeOoxml(text);
    }

    void readSharedStrings(const QString &path)
    {
        if (!hasPart(path))
            return;
        QXmlStreamReader xml(part(path));
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("si"))
                m_strings.append(richText(xml));
        }
        if (xml.hasError())
            corrupt(QStringLiteral("%1 is not well-formed XML: %2").arg(path, xml.errorString()));
    }

    void readStyles(const QString &path)
    {
        if (!hasPart(path))
            return;
        QHash<int, DateKind> custom;
        QXmlStreamReader xml(part(path));
        bool inCellXfs = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isEndElement() && xml.name() == QLatin1String("cellXfs"))
                inCellXfs = false;
            if (!xml.isStartElement())
                continue;
            const auto attrs = xml.attributes();
            if (xml.name() == QLatin1String("numFmt")) {
                custom.insert(attrs.value(QLatin1String("numFmtId")).toInt(),
                              dateKindOfCode(attrs.value(QLatin1String("formatCode")).toString()));
            } else if (xml.name() == QLatin1String("cellXfs")) {
                inCellXfs = true;
            } else if (inCellXfs && xml.name() == QLatin1String("xf")) {
                const int id = attrs.value(QLatin1String("numFmtId")).toInt();
                m_styles.append(custom.contains(id) ? custom.value(id) : dateKindOfBuiltin(id));
                xml.skipCurrentElement();
            }
        }
        if (xml.hasError())
            corrupt(QStringLiteral("%1 is not well-formed XML: %2").arg(path, xml.errorString()));
    }

    QJsonValue cellValue(const QString &type, const QString &v, const QString &inlineText,
                         int style, qint64 column, qint64 row)
    {
        if (type == QLatin1String("s")) {
            if (v.trimmed().isEmpty())
                return QJsonValue::Null;
            bool ok = false;
            const qint64 index = v.trimmed().toLongLong(&ok);
            if (!ok || index < 0 || index >= m_strings.size())
                corrupt(QStringLiteral("cell %1 refers to shared string %2 of %3")
                            .arg(cellReference(column, row), v)
                            .arg(m_strings.size()));
            return m_strings[index];
        }
        if (type == QLatin1String("inlineStr"))
            return inlineText;
        if (type == QLatin1String("str") || type == QLatin1String("e") ||
            type == QLatin1String("d"))
            return unescapeOoxml(v);
        if (type == QLatin1String("b"))
            return v.trimmed() == QLatin1String("1") ||
                   v.trimmed().compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
        if (v.isEmpty())
            return QJsonValue::Null;
        bool ok = false;
        const double d = v.trimmed().toDouble(&ok);
        if (!ok)
            return v; // not a number after all: keep the text
        const DateKind kind =
            style >= 0 && style < m_styles.size() ? m_styles[style] : DateKind::None;
        if (kind != DateKind::None)
            return serialToIso(d, kind, m_date1904);
        return numberValue(d);
    }

    std::optional<Sheet> readSheet(const QString &name, const QString &path)
    {
        QXmlStreamReader xml(part(path));
        m_cells = 0;
        // Row number → cells by column.
        std::map<qint64, QList<QJsonValue>> rows;
        qint64 rowNumber = 0;
        qint64 width = 0;
        bool sawRoot = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (!sawRoot) {
                sawRoot = true;
                if (xml.name() != QLatin1String("worksheet"))
                    return std::nullopt; // chartsheet, dialogsheet, macrosheet
            }
            if (xml.name() == QLatin1String("row")) {
                const QStringView r = xml.attributes().value(QLatin1String("r"));
                bool ok = false;
                const qint64 n = r.toLongLong(&ok);
                rowNumber = ok && n > rowNumber ? n : rowNumber + 1;
                // Excel stops at 1,048,576; far past it the next row's number would
                // overflow.
                if (rowNumber > kMaxRowNumber)
                    corrupt(QStringLiteral("sheet '%1' has a row numbered past %2")
                                .arg(name)
                                .arg(kMaxRowNumber));
                qint64 column = -1;
                while (xml.readNextStartElement()) {
                    if (xml.name() != QLatin1String("c")) {
                        xml.skipCurrentElement();
                        continue;
                    }
                    const auto attrs = xml.attributes();
                    qint64 refColumn = 0, refRow = 0;
                    if (parseReference(attrs.value(QLatin1String("r")), &refColumn, &refRow))
                        column = refColumn;
                    else
                        ++column;
                    if (column >= m_limits.maxColumns)
                        fail(DataError::tooLarge(
                            QStringLiteral("sheet '%1' has a cell in column %2, over the limit "
                                           "of %3 columns")
                                .arg(name)
                                .arg(column + 1)
                                .arg(m_limits.maxColumns)));
                    const QString type = attrs.value(QLatin1String("t")).toString();
                    const int style = attrs.hasAttribute(QLatin1String("s"))
                                          ? attrs.value(QLatin1String("s")).toInt()
                                          : 0;
                    QString v;
                    QString inlineText;
                    while (xml.readNextStartElement()) {
                        if (xml.name() == QLatin1String("v"))
                            v = xml.readElementText();
                        else if (xml.name() == QLatin1String("is"))
                            inlineText = richText(xml);
                        else
                            xml.skipCurrentElement(); // <f> formulas: the cached <v> counts
                    }
                    QJsonValue value = cellValue(type, v, inlineText, style, column, rowNumber);
                    if (value.isString() && value.toString().isEmpty())
                        value = QJsonValue::Null;
                    if (value.isNull())
                        continue;
                    auto it = rows.find(rowNumber);
                    if (it == rows.end()) {
                        if (qint64(rows.size()) > m_limits.maxRows)
                            fail(DataError::tooLarge(
                                QStringLiteral("sheet '%1' has more than %2 rows, the limit")
                                    .arg(name)
                                    .arg(m_limits.maxRows)));
                        it = rows.emplace(rowNumber, QList<QJsonValue>()).first;
                    }
                    QList<QJsonValue> &cells = it->second;
                    // Cells held, nulls before a far-right cell included.
                    m_cells += std::max<qint64>(1, column + 1 - cells.size());
                    if (m_cells > m_limits.maxCells)
                        fail(DataError::tooLarge(
                            QStringLiteral("sheet '%1' has more than %2 cells, the limit")
                                .arg(name)
                                .arg(m_limits.maxCells)));
                    while (cells.size() <= column)
                        cells.append(QJsonValue::Null);
                    cells[column] = value;
                    width = std::max(width, column + 1);
                }
            }
        }
        if (xml.hasError())
            corrupt(QStringLiteral("%1 is not well-formed XML: %2").arg(path, xml.errorString()));

        Sheet sheet;
        sheet.title = name;
        if (rows.empty())
            return sheet;
        // Sparse cells far apart would make a huge grid of nulls.
        if (auto e = checkCells(qint64(rows.size()), width, m_limits))
            fail(DataError::tooLarge(QStringLiteral("sheet '%1': %2").arg(name, e->message)));
        const QList<QJsonValue> &headerCells = rows.begin()->second;
        QStringList header;
        for (qint64 c = 0; c < width; ++c)
            header << (c < headerCells.size() ? headerText(headerCells[c]) : QString());
        for (const QString &columnName : cleanHeader(header))
            sheet.columns.append(Column{columnName, ColumnType::Empty});
        sheet.rows.reserve(qsizetype(rows.size()) - 1);
        for (auto it = std::next(rows.begin()); it != rows.end(); ++it) {
            QJsonArray row;
            for (qint64 c = 0; c < width; ++c)
                row.append(c < it->second.size() ? it->second[c] : QJsonValue(QJsonValue::Null));
            sheet.rows.append(row);
        }
        sheet.inferTypes();
        return sheet;
    }

    const QByteArray &m_bytes;
    const Limits &m_limits;
    std::unique_ptr<ZipArchive> m_zip;
    QHash<QString, QString> m_types; // relationship id → type, of the last .rels read
    QString m_officeDocument;
    QList<QString> m_strings;
    QList<DateKind> m_styles;
    bool m_date1904 = false;
    qint64 m_expanded = 0;
    qint64 m_cells = 0;
};

} // namespace

bool isDateFormatCode(const QString &code)
{
    return dateKindOfCode(code) != DateKind::None;
}

Result<QList<Sheet>> readXlsx(const QByteArray &bytes, const Limits &limits, bool firstOnly)
{
    try {
        Workbook workbook(bytes, limits);
        return workbook.read(firstOnly);
    } catch (const Failure &f) {
        return f.error;
    } catch (const std::bad_alloc &) {
        return DataError::tooLarge(
            QStringLiteral("the workbook needs more memory than is available"));
    }
}

} // namespace ph::data::internal
