#include "data/internal/OfficeXml.h"

#include "data/internal/ZipArchive.h"
#include "data/internal/ZipWriter.h"

#include <QDateTime>
#include <QXmlStreamWriter>

namespace ph::data::internal {

namespace {
constexpr qint64 kMaxPartBytes = 64LL * 1024 * 1024;
}

QString xmlText(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        const char16_t u = c.unicode();
        if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            out += c;
            out += text.at(++i);
            continue;
        }
        if (c.isSurrogate() || u == 0xFFFE || u == 0xFFFF)
            continue;
        if (u < 0x20 && u != u'\t' && u != u'\n' && u != u'\r')
            continue;
        out += c;
    }
    return out;
}

QString isoNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

QByteArray coreProperties(const QString &title)
{
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.writeStartDocument(QStringLiteral("1.0"), true);
    w.writeStartElement(QStringLiteral("cp:coreProperties"));
    w.writeAttribute(
        QStringLiteral("xmlns:cp"),
        QStringLiteral("http://schemas.openxmlformats.org/package/2006/metadata/core-properties"));
    w.writeAttribute(QStringLiteral("xmlns:dc"),
                     QStringLiteral("http://purl.org/dc/elements/1.1/"));
    w.writeAttribute(QStringLiteral("xmlns:dcterms"), QStringLiteral("http://purl.org/dc/terms/"));
    w.writeAttribute(QStringLiteral("xmlns:xsi"),
                     QStringLiteral("http://www.w3.org/2001/XMLSchema-instance"));
    w.writeTextElement(QStringLiteral("dc:title"), xmlText(title));
    w.writeTextElement(QStringLiteral("dc:creator"), QStringLiteral("Pilothouse"));
    for (const QString &when :
         {QStringLiteral("dcterms:created"), QStringLiteral("dcterms:modified")}) {
        w.writeStartElement(when);
        w.writeAttribute(QStringLiteral("xsi:type"), QStringLiteral("dcterms:W3CDTF"));
        w.writeCharacters(isoNow());
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

Result<QByteArray> zipParts(const QList<QPair<QString, QByteArray>> &parts, bool storedFirst)
{
    ZipWriter zip;
    bool first = true;
    for (const auto &[name, bytes] : parts) {
        zip.add(name, bytes,
                first && storedFirst ? ZipWriter::Method::Stored : ZipWriter::Method::Deflated);
        first = false;
    }
    const QByteArray out = zip.finish();
    if (out.isEmpty())
        return DataError::io(QStringLiteral("the document's zip archive could not be written"));
    return out;
}

Result<QByteArray> rezip(ZipArchive &zip, const QHash<QString, QByteArray> &replaced,
                         bool storedFirst)
{
    QList<QPair<QString, QByteArray>> parts;
    for (const QString &name : zip.names()) {
        if (replaced.contains(name)) {
            parts.append({name, replaced.value(name)});
            continue;
        }
        QByteArray bytes;
        if (zip.read(name, kMaxPartBytes, &bytes) != ZipArchive::Status::Ok)
            return DataError::malformed(QStringLiteral("%1 could not be read").arg(name));
        parts.append({name, bytes});
    }
    return zipParts(parts, storedFirst);
}

void writeOdfText(QXmlStreamWriter &w, const QString &raw)
{
    const QString text = xmlText(raw);
    QString chunk;
    auto flush = [&] {
        if (!chunk.isEmpty())
            w.writeCharacters(chunk);
        chunk.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\n')) {
            flush();
            w.writeEmptyElement(QStringLiteral("text:line-break"));
        } else if (c == QLatin1Char('\t')) {
            flush();
            w.writeEmptyElement(QStringLiteral("text:tab"));
        } else if (c == QLatin1Char('\r')) {
            continue;
        } else if (c == QLatin1Char(' ')) {
            // The first space of a run is text unless it starts the paragraph; the others
            // are <text:s text:c="n"/>.
            qsizetype n = 1;
            while (i + n < text.size() && text.at(i + n) == QLatin1Char(' '))
                ++n;
            qsizetype extra = n;
            if (i > 0) {
                chunk += QLatin1Char(' ');
                extra = n - 1;
            }
            if (extra > 0) {
                flush();
                w.writeEmptyElement(QStringLiteral("text:s"));
                if (extra > 1)
                    w.writeAttribute(QStringLiteral("text:c"), QString::number(extra));
            }
            i += n - 1;
        } else {
            chunk += c;
        }
    }
    flush();
}

void writeOdfLists(QXmlStreamWriter &w, const QList<OdfListItem> &items)
{
    // open[d]: the list at depth d+1 is open; item[d]: its current item is open.
    QList<bool> itemOpen;
    QList<int> listIds;
    auto closeTop = [&] {
        if (itemOpen.last())
            w.writeEndElement(); // text:list-item
        w.writeEndElement();     // text:list
        itemOpen.removeLast();
        listIds.removeLast();
    };
    for (const OdfListItem &item : items) {
        const int depth = qMax(0, item.depth);
        while (itemOpen.size() > depth + 1)
            closeTop();
        if (itemOpen.size() == depth + 1 && listIds.last() != item.list)
            closeTop();
        if (itemOpen.size() == depth + 1 && itemOpen.last()) {
            w.writeEndElement(); // the sibling item
            itemOpen.last() = false;
        }
        while (itemOpen.size() < depth + 1) {
            if (!itemOpen.isEmpty() && !itemOpen.last()) {
                w.writeStartElement(QStringLiteral("text:list-item"));
                itemOpen.last() = true;
            }
            w.writeStartElement(QStringLiteral("text:list"));
            if (!item.style.isEmpty())
                w.writeAttribute(QStringLiteral("text:style-name"), item.style);
            itemOpen.append(false);
            listIds.append(item.list);
        }
        w.writeStartElement(QStringLiteral("text:list-item"));
        itemOpen.last() = true;
        item.paragraph(w);
    }
    while (!itemOpen.isEmpty())
        closeTop();
}

} // namespace ph::data::internal
