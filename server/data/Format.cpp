#include "data/Format.h"

#include "data/internal/TextDecoding.h"

#include <QStringList>
#include <QUrl>

namespace ph::data {

namespace {

const char *const kNames[] = {"text", "markdown", "csv", "tsv", "json", "xlsx", "parquet"};

// Delimiters outside double quotes on one line.
int countOutsideQuotes(QStringView line, QChar delimiter)
{
    int n = 0;
    bool quoted = false;
    for (const QChar c : line) {
        if (c == u'"')
            quoted = !quoted;
        else if (c == delimiter && !quoted)
            ++n;
    }
    return n;
}

bool isTableDelimiterRow(QStringView line)
{
    const QStringView t = line.trimmed();
    if (!t.contains(u'-'))
        return false;
    bool sawDash = false;
    for (const QChar c : t) {
        if (c == u'-')
            sawDash = true;
        else if (c != u'|' && c != u':' && c != u' ' && c != u'\t')
            return false;
    }
    return sawDash && t.contains(u'|');
}

} // namespace

QString formatName(Format format)
{
    return QLatin1String(kNames[int(format)]);
}

std::optional<Format> formatFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    for (int i = 0; i < int(std::size(kNames)); ++i) {
        if (n == QLatin1String(kNames[i]))
            return Format(i);
    }
    if (n == QLatin1String("txt"))
        return Format::Text;
    if (n == QLatin1String("md"))
        return Format::Markdown;
    if (n == QLatin1String("tab"))
        return Format::Tsv;
    if (n == QLatin1String("pq"))
        return Format::Parquet;
    return std::nullopt;
}

std::optional<Format> formatFromExtension(const QString &nameOrUrl)
{
    QString path = nameOrUrl.trimmed();
    const QUrl url(path);
    if (url.isValid() && !url.scheme().isEmpty() && url.scheme().size() > 1)
        path = url.path(); // drops ?query and #fragment; a one-letter scheme is a drive
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    const QString file = path.mid(slash + 1);
    const qsizetype dot = file.lastIndexOf(QLatin1Char('.'));
    if (dot < 0)
        return std::nullopt;
    const QString ext = file.mid(dot + 1).toLower();
    if (ext == QLatin1String("csv"))
        return Format::Csv;
    if (ext == QLatin1String("tsv") || ext == QLatin1String("tab"))
        return Format::Tsv;
    if (ext == QLatin1String("json"))
        return Format::Json;
    if (ext == QLatin1String("xlsx") || ext == QLatin1String("xlsm"))
        return Format::Xlsx;
    if (ext == QLatin1String("parquet") || ext == QLatin1String("pq"))
        return Format::Parquet;
    if (ext == QLatin1String("md") || ext == QLatin1String("markdown"))
        return Format::Markdown;
    if (ext == QLatin1String("txt") || ext == QLatin1String("text"))
        return Format::Text;
    return std::nullopt;
}

std::optional<Format> formatFromContentType(const QString &contentType)
{
    const QString type = contentType.section(QLatin1Char(';'), 0, 0).trimmed().toLower();
    if (type == QLatin1String("text/csv") || type == QLatin1String("application/csv"))
        return Format::Csv;
    if (type == QLatin1String("text/tab-separated-values"))
        return Format::Tsv;
    if (type == QLatin1String("application/json") || type == QLatin1String("text/json") ||
        (type.startsWith(QLatin1String("application/")) && type.endsWith(QLatin1String("+json"))))
        return Format::Json;
    if (type == QLatin1String("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))
        return Format::Xlsx;
    if (type == QLatin1String("application/vnd.apache.parquet") ||
        type == QLatin1String("application/parquet") ||
        type == QLatin1String("application/x-parquet"))
        return Format::Parquet;
    if (type == QLatin1String("text/markdown") || type == QLatin1String("text/x-markdown"))
        return Format::Markdown;
    return std::nullopt; // text/plain and octet-streams say nothing: look at the content
}

Format sniffFormat(const QByteArray &firstBytes)
{
    if (firstBytes.startsWith("PK\x03\x04"))
        return Format::Xlsx;
    if (firstBytes.startsWith("PAR1"))
        return Format::Parquet;
    // A prefix may end inside a UTF-8 sequence: decode leniently for sniffing.
    const QString text = internal::decodeTextLenient(firstBytes.left(64 * 1024));
    const QStringView trimmed = QStringView(text).trimmed();
    if (trimmed.startsWith(u'[') || trimmed.startsWith(u'{'))
        return Format::Json;

    QList<QStringView> lines;
    for (const QStringView line : QStringView(text).split(u'\n')) {
        const QStringView l = line.endsWith(u'\r') ? line.chopped(1) : line;
        if (!l.trimmed().isEmpty())
            lines << l;
    }
    // A prefix may cut the last line short.
    if (lines.size() > 2 && firstBytes.size() >= 64 * 1024)
        lines.removeLast();

    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        if (lines[i].contains(u'|') && isTableDelimiterRow(lines[i + 1]))
            return Format::Markdown;
    }
    const auto consistent = [&](QChar delimiter) {
        if (lines.size() < 2)
            return false;
        const qsizetype sample = std::min<qsizetype>(lines.size(), 20);
        const int first = countOutsideQuotes(lines[0], delimiter);
        if (first == 0)
            return false;
        int agree = 0;
        for (qsizetype i = 1; i < sample; ++i) {
            if (countOutsideQuotes(lines[i], delimiter) == first)
                ++agree;
        }
        // Quoted fields with line breaks disturb a few lines; most must agree.
        return agree * 10 >= (sample - 1) * 8;
    };
    if (consistent(u'\t'))
        return Format::Tsv;
    if (consistent(u','))
        return Format::Csv;
    return Format::Text;
}

Format inferFormat(const QString &nameOrUrl, const QString &contentType,
                   const QByteArray &firstBytes)
{
    if (const auto f = formatFromExtension(nameOrUrl))
        return *f;
    if (const auto f = formatFromContentType(contentType))
        return *f;
    return sniffFormat(firstBytes);
}

} // namespace ph::data
