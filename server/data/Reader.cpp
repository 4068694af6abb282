#include "data/Reader.h"

#include "data/internal/Delimited.h"
#include "data/internal/JsonTable.h"
#include "data/internal/ParquetReader.h"
#include "data/internal/PdfText.h"
#include "data/internal/TextDecoding.h"
#include "data/internal/TextTable.h"
#include "data/internal/XlsxReader.h"

namespace ph::data {

using namespace internal;

namespace {

QString mebibytes(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 bytes").arg(bytes);
    if (bytes < 1024 * 1024)
        return QString::number(double(bytes) / 1024.0, 'f', 1) + QStringLiteral(" KiB");
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" MiB");
}

} // namespace

Reader::Reader(const Limits &limits)
    : m_limits(limits)
{}

Result<Sheet> Reader::parse(const QByteArray &bytes, Format format, const QString &title) const
{
    if (bytes.size() > m_limits.maxBytes)
        return DataError::tooLarge(QStringLiteral("the input is %1, over the limit of %2")
                                       .arg(mebibytes(bytes.size()), mebibytes(m_limits.maxBytes)));
    switch (format) {
    case Format::Xlsx: {
        auto sheets = readXlsx(bytes, m_limits, true);
        if (!sheets)
            return sheets.error();
        Sheet sheet = std::move(sheets.value().first());
        if (!title.isEmpty())
            sheet.title = title;
        return sheet;
    }
    case Format::Parquet:
        return readParquet(bytes, title, m_limits);
    case Format::Json: {
        // QJsonDocument reads UTF-8: re-encode other encodings, validate UTF-8 first.
        auto text = decodeText(bytes);
        if (!text)
            return text.error();
        const bool plainUtf8 = !bytes.startsWith("\xFF\xFE") && !bytes.startsWith("\xFE\xFF");
        return parseJsonTable(
            plainUtf8 && !bytes.startsWith("\xEF\xBB\xBF") ? bytes : text.value().toUtf8(), title,
            m_limits);
    }
    default:
        break;
    }
    auto text = decodeText(bytes);
    if (!text)
        return text.error();
    switch (format) {
    case Format::Csv:
        return parseDelimited(text.value(), u',', title, m_limits);
    case Format::Tsv:
        return parseDelimited(text.value(), u'\t', title, m_limits);
    case Format::Markdown:
        return parseMarkdown(text.value(), title, m_limits);
    default:
        return parseTextLines(text.value(), title, m_limits);
    }
}

Result<QList<Sheet>> Reader::parseAll(const QByteArray &bytes, Format format,
                                      const QString &title) const
{
    if (format != Format::Xlsx) {
        auto sheet = parse(bytes, format, title);
        if (!sheet)
            return sheet.error();
        return QList<Sheet>{std::move(sheet).value()};
    }
    if (bytes.size() > m_limits.maxBytes)
        return DataError::tooLarge(QStringLiteral("the input is %1, over the limit of %2")
                                       .arg(mebibytes(bytes.size()), mebibytes(m_limits.maxBytes)));
    return readXlsx(bytes, m_limits, false);
}

Result<QString> Reader::pdfText(const QByteArray &bytes) const
{
    if (bytes.size() > m_limits.maxBytes)
        return DataError::tooLarge(QStringLiteral("the input is %1, over the limit of %2")
                                       .arg(mebibytes(bytes.size()), mebibytes(m_limits.maxBytes)));
    return extractPdfText(bytes);
}

} // namespace ph::data
