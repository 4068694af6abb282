#include "data/XlsxWriter.h"

#include "data/internal/Inference.h"

#include <QDate>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTime>

#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>

namespace ph::data {

namespace {

constexpr int kMaxCellChars = 32767; // Excel's limit for one cell
constexpr qsizetype kMaxRows = 1048576;
constexpr qsizetype kMaxColumns = 16384;

// "2024-03-01", "2024-03-01T09:30:00[.123][Z|±hh:mm]" → Excel's date parts. A
// timezone is dropped: Excel has none.
bool parseIsoDate(const QString &s, lxw_datetime *out)
{
    const QStringView v(s);
    if (!internal::isIsoDate(v.left(10)))
        return false;
    if (v.size() > 10 && !internal::isIsoDateTime(v))
        return false;
    *out = lxw_datetime{};
    out->year = v.sliced(0, 4).toInt();
    out->month = v.sliced(5, 2).toInt();
    out->day = v.sliced(8, 2).toInt();
    if (v.size() > 10) {
        out->hour = v.sliced(11, 2).toInt();
        out->min = v.sliced(14, 2).toInt();
        if (v.size() >= 19 && v[16] == u':') {
            qsizetype end = 19;
            if (end < v.size() && v[end] == u'.') {
                ++end;
                while (end < v.size() && v[end].isDigit())
                    ++end;
            }
            out->sec = v.sliced(17, end - 17).toDouble();
        }
    }
    // Excel's dates start in 1900.
    return out->year >= 1900;
}

QString text(const QJsonValue &v)
{
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    return v.toString();
}

struct Workbook
{
    lxw_workbook *book = nullptr;
    ~Workbook()
    {
        if (book)
            workbook_close(book); // on failure paths: frees it and writes what it has
    }
};

} // namespace

QStringList excelSheetNames(const QStringList &titles)
{
    QStringList names;
    QSet<QString> used;
    for (qsizetype i = 0; i < titles.size(); ++i) {
        QString name = titles[i];
        for (QChar &c : name) {
            if (c == u'[' || c == u']' || c == u':' || c == u'*' || c == u'?' || c == u'/' ||
                c == u'\\' || c.category() == QChar::Other_Control)
                c = u'_';
        }
        name = name.trimmed();
        while (name.startsWith(QLatin1Char('\'')))
            name.remove(0, 1);
        while (name.endsWith(QLatin1Char('\'')))
            name.chop(1);
        if (name.isEmpty() || name.compare(QLatin1String("History"), Qt::CaseInsensitive) == 0)
            name = QStringLiteral("Sheet%1").arg(i + 1);
        name = name.left(31);
        if (name.back().isHighSurrogate())
            name.chop(1);
        const QString base = name;
        for (int n = 2; used.contains(name.toCaseFolded()); ++n) {
            const QString suffix = QStringLiteral(" (%1)").arg(n);
            name = base.left(31 - suffix.size()) + suffix;
        }
        used.insert(name.toCaseFolded());
        names << name;
    }
    return names;
}

Result<QByteArray> writeXlsx(const QList<Sheet> &sheets)
{
    for (const Sheet &sheet : sheets) {
        if (sheet.rowCount() + 1 > kMaxRows)
            return DataError::tooLarge(
                QStringLiteral("sheet '%1' has %2 rows; an xlsx worksheet holds at most %3")
                    .arg(sheet.title)
                    .arg(sheet.rowCount())
                    .arg(kMaxRows - 1));
        if (sheet.columnCount() > kMaxColumns)
            return DataError::tooLarge(
                QStringLiteral("sheet '%1' has %2 columns; an xlsx worksheet holds at most %3")
                    .arg(sheet.title)
                    .arg(sheet.columnCount())
                    .arg(kMaxColumns));
    }

    QTemporaryDir dir;
    if (!dir.isValid())
        return DataError::io(
            QStringLiteral("cannot create a temporary directory: %1").arg(dir.errorString()));
    const QByteArray path = QFile::encodeName(dir.filePath(QStringLiteral("out.xlsx")));
    const QByteArray tmp = QFile::encodeName(dir.path());

    lxw_workbook_options options{};
    options.constant_memory = LXW_FALSE;
    options.tmpdir = const_cast<char *>(tmp.constData());
    options.use_zip64 = LXW_TRUE;
    Workbook wb;
    wb.book = workbook_new_opt(path.constData(), &options);
    if (!wb.book)
        return DataError::io(QStringLiteral("libxlsxwriter could not start a workbook"));

    lxw_format *bold = workbook_add_format(wb.book);
    format_set_bold(bold);
    lxw_format *dateFormat = workbook_add_format(wb.book);
    format_set_num_format(dateFormat, "yyyy-mm-dd");
    lxw_format *dateTimeFormat = workbook_add_format(wb.book);
    format_set_num_format(dateTimeFormat, "yyyy-mm-dd hh:mm:ss");

    QStringList titles;
    for (const Sheet &s : sheets)
        titles << s.title;
    if (titles.isEmpty())
        titles << QString();
    const QStringList names = excelSheetNames(titles);

    for (qsizetype si = 0; si < names.size(); ++si) {
        const QByteArray name = names[si].toUtf8();
        lxw_worksheet *ws = workbook_add_worksheet(wb.book, name.constData());
        if (!ws)
            return DataError::io(
                QStringLiteral("libxlsxwriter refused the worksheet '%1'").arg(names[si]));
        if (si >= sheets.size())
            break;
        const Sheet &sheet = sheets[si];
        QList<double> widths(sheet.columnCount(), 0);
        const auto widen = [&](int c, qsizetype chars) {
            widths[c] = std::max(widths[c], double(std::min<qsizetype>(chars, 80)));
        };
        const auto checked = [&](lxw_error e, int row, int col) -> std::optional<DataError> {
            if (e == LXW_NO_ERROR)
                return std::nullopt;
            return DataError::io(QStringLiteral("libxlsxwriter could not write row %1, column "
                                                "%2 of sheet '%3': %4")
                                     .arg(row)
                                     .arg(col + 1)
                                     .arg(names[si], QString::fromUtf8(lxw_strerror(e))));
        };

        for (int c = 0; c < sheet.columnCount(); ++c) {
            const QString header = sheet.columns[c].name.left(kMaxCellChars);
            if (auto e = checked(
                    worksheet_write_string(ws, 0, lxw_col_t(c), header.toUtf8().constData(), bold),
                    0, c))
                return *e;
            widen(c, header.size() + 2);
        }
        if (sheet.columnCount() > 0)
            worksheet_freeze_panes(ws, 1, 0);

        for (int r = 0; r < sheet.rowCount(); ++r) {
            const lxw_row_t row = lxw_row_t(r + 1);
            for (int c = 0; c < sheet.columnCount(); ++c) {
                const QJsonValue v = sheet.value(r, c);
                const ColumnType type = sheet.columns[c].type;
                lxw_error e = LXW_NO_ERROR;
                switch (v.type()) {
                case QJsonValue::Null:
                case QJsonValue::Undefined:
                    continue;
                case QJsonValue::Bool:
                    e = worksheet_write_boolean(ws, row, lxw_col_t(c), v.toBool(), nullptr);
                    widen(c, 5);
                    break;
                case QJsonValue::Double: {
                    const double d = v.toDouble();
                    if (!std::isfinite(d))
                        continue;
                    e = worksheet_write_number(ws, row, lxw_col_t(c), d, nullptr);
                    widen(c, QString::number(d, 'g', 12).size());
                    break;
                }
                case QJsonValue::String: {
                    const QString s = v.toString();
                    lxw_datetime dt;
                    if ((type == ColumnType::Date || type == ColumnType::DateTime) &&
                        parseIsoDate(s, &dt)) {
                        const bool withTime = s.size() > 10;
                        e = worksheet_write_datetime(ws, row, lxw_col_t(c), &dt,
                                                     withTime ? dateTimeFormat : dateFormat);
                        widen(c, withTime ? 19 : 10);
                        break;
                    }
                    const QString cell = s.left(kMaxCellChars);
                    e = worksheet_write_string(ws, row, lxw_col_t(c), cell.toUtf8().constData(),
                                               nullptr);
                    widen(c, cell.size());
                    break;
                }
                case QJsonValue::Array:
                case QJsonValue::Object: {
                    const QString cell = text(v).left(kMaxCellChars);
                    e = worksheet_write_string(ws, row, lxw_col_t(c), cell.toUtf8().constData(),
                                               nullptr);
                    widen(c, cell.size());
                    break;
                }
                }
                if (auto err = checked(e, r + 2, c))
                    return *err;
            }
        }
        for (int c = 0; c < sheet.columnCount(); ++c)
            worksheet_set_column(ws, lxw_col_t(c), lxw_col_t(c), std::max(8.43, widths[c] + 1),
                                 nullptr);
    }

    const lxw_error closed = workbook_close(wb.book);
    wb.book = nullptr;
    if (closed != LXW_NO_ERROR)
        return DataError::io(QStringLiteral("libxlsxwriter could not write the workbook: %1")
                                 .arg(QString::fromUtf8(lxw_strerror(closed))));
    QFile file(QFile::decodeName(path));
    if (!file.open(QIODevice::ReadOnly))
        return DataError::io(
            QStringLiteral("cannot read the written workbook: %1").arg(file.errorString()));
    return file.readAll();
}

} // namespace ph::data
