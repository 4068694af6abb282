#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace ph::data {

// The formats of ApiTabularInput.format.
enum class Format { Text, Markdown, Csv, Tsv, Json, Xlsx, Parquet };

// "text", "markdown", "csv", "tsv", "json", "xlsx", "parquet".
QString formatName(Format format);
// The names above, case-insensitive, plus the aliases "txt", "md", "tab" and "pq".
std::optional<Format> formatFromName(const QString &name);
// From the file extension of a path, file name or URL (query and fragment ignored).
std::optional<Format> formatFromExtension(const QString &nameOrUrl);
// From a MIME type ("text/csv; charset=utf-8"). Generic types (text/plain,
// application/octet-stream) say nothing and give nullopt.
std::optional<Format> formatFromContentType(const QString &contentType);
// From the content: PK zip magic → xlsx, PAR1 → parquet, [ or { → json, consistent
// tabs → tsv, consistent commas → csv, a pipe table → markdown, otherwise text.
Format sniffFormat(const QByteArray &firstBytes);

// The extension first, then the content type, then the content.
Format inferFormat(const QString &nameOrUrl, const QString &contentType,
                   const QByteArray &firstBytes);

} // namespace ph::data
