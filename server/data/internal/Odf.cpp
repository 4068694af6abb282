// OpenDocument (ODF 1.2, ISO/IEC 26300): text (.odt) and presentation (.odp) packages:
// the mimetype first and stored, META-INF/manifest.xml, content.xml, styles.xml,
// meta.xml.
#include "data/OfficeDocument.h"
#include "data/internal/OfficeXml.h"
#include "data/internal/ZipArchive.h"

#include <QXmlStreamWriter>

namespace ph::data {

namespace {

using internal::OdfListItem;
using internal::writeOdfText;
using internal::xmlText;

const QString kOdtMime = QStringLiteral("application/vnd.oasis.opendocument.text");
const QString kOdpMime = QStringLiteral("application/vnd.oasis.opendocument.presentation");

const QString kNs =
    QStringLiteral("xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
                   "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" "
                   "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" "
                   "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
                   "xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\" "
                   "xmlns:fo=\"urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0\" "
                   "xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                   "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" "
                   "xmlns:meta=\"urn:oasis:names:tc:opendocument:xmlns:meta:1.0\" "
                   "xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\" "
                   "xmlns:presentation=\"urn:oasis:names:tc:opendocument:xmlns:presentation:1.0\" "
                   "office:version=\"1.2\"");

QByteArray declaration()
{
    return QByteArrayLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
}

QByteArray manifest(const QString &mime)
{
    return declaration() +
           QStringLiteral(
               "<manifest:manifest "
               "xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" "
               "manifest:version=\"1.2\"><manifest:file-entry manifest:full-path=\"/\" "
               "manifest:version=\"1.2\" manifest:media-type=\"%1\"/><manifest:file-entry "
               "manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
               "<manifest:file-entry manifest:full-path=\"styles.xml\" "
               "manifest:media-type=\"text/xml\"/><manifest:file-entry "
               "manifest:full-path=\"meta.xml\" manifest:media-type=\"text/xml\"/>"
               "</manifest:manifest>")
               .arg(mime)
               .toUtf8();
}

QByteArray meta(const QString &title)
{
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("office:document-meta"));
    w.writeAttribute(QStringLiteral("xmlns:office"),
                     QStringLiteral("urn:oasis:names:tc:opendocument:xmlns:office:1.0"));
    w.writeAttribute(QStringLiteral("xmlns:meta"),
                     QStringLiteral("urn:oasis:names:tc:opendocument:xmlns:meta:1.0"));
    w.writeAttribute(QStringLiteral("xmlns:dc"),
                     QStringLiteral("http://purl.org/dc/elements/1.1/"));
    w.writeAttribute(QStringLiteral("office:version"), QStringLiteral("1.2"));
    w.writeStartElement(QStringLiteral("office:meta"));
    w.writeTextElement(QStringLiteral("meta:generator"), QStringLiteral("Pilothouse"));
    w.writeTextElement(QStringLiteral("dc:title"), xmlText(title));
    w.writeTextElement(QStringLiteral("meta:creation-date"), internal::isoNow());
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return out;
}

// ------------------------------------------------------------------------------- text

void writeSpan(QXmlStreamWriter &w, const TextRun &run, bool bold)
{
    QStringList styles;
    if (run.bold || bold)
        styles << QStringLiteral("Strong_20_Emphasis");
    if (run.italic)
        styles << QStringLiteral("Emphasis");
    if (run.code)
        styles << QStringLiteral("Source_20_Text");
    if (!run.href.isEmpty()) {
        w.writeStartElement(QStringLiteral("text:a"));
        w.writeAttribute(QStringLiteral("xlink:type"), QStringLiteral("simple"));
        w.writeAttribute(QStringLiteral("xlink:href"), xmlText(run.href));
        w.writeAttribute(QStringLiteral("text:style-name"), QStringLiteral("Internet_20_link"));
    }
    for (const QString &s : std::as_const(styles)) {
        w.writeStartElement(QStringLiteral("text:span"));
        w.writeAttribute(QStringLiteral("text:style-name"), s);
    }
    writeOdfText(w, run.text);
    for (qsizetype i = 0; i < styles.size(); ++i)
        w.writeEndElement();
    if (!run.href.isEmpty())
        w.writeEndElement();
}

void writeParagraph(QXmlStreamWriter &w, const QString &element, const QString &style,
                    const Inline &runs, bool bold = false)
{
    w.writeStartElement(element);
    w.writeAttribute(QStringLiteral("text:style-name"), style);
    for (const TextRun &r : runs)
        writeSpan(w, r, bold);
    w.writeEndElement();
}

void writeTable(QXmlStreamWriter &w, const DocBlock &b, int number)
{
    qsizetype columns = 0;
    for (const auto &row : b.rows)
        columns = qMax(columns, row.size());
    if (columns == 0)
        return;
    w.writeStartElement(QStringLiteral("table:table"));
    w.writeAttribute(QStringLiteral("table:name"), QStringLiteral("Table%1").arg(number));
    w.writeAttribute(QStringLiteral("table:style-name"), QStringLiteral("Table"));
    w.writeEmptyElement(QStringLiteral("table:table-column"));
    w.writeAttribute(QStringLiteral("table:number-columns-repeated"), QString::number(columns));
    for (qsizetype r = 0; r < b.rows.size(); ++r) {
        if (r == 0)
            w.writeStartElement(QStringLiteral("table:table-header-rows"));
        w.writeStartElement(QStringLiteral("table:table-row"));
        for (qsizetype c = 0; c < columns; ++c) {
            w.writeStartElement(QStringLiteral("table:table-cell"));
            w.writeAttribute(QStringLiteral("table:style-name"), QStringLiteral("TableCell"));
            w.writeAttribute(QStringLiteral("office:value-type"), QStringLiteral("string"));
            writeParagraph(w, QStringLiteral("text:p"),
                           r == 0 ? QStringLiteral("Table_20_Heading")
                                  : QStringLiteral("Table_20_Contents"),
                           b.rows.at(r).value(c));
            w.writeEndElement();
        }
        w.writeEndElement();
        if (r == 0)
            w.writeEndElement();
    }
    w.writeEndElement();
}

// The body's XML: headings, paragraphs, lists (nested), tables; `tables` counts the
// tables so far (their names are unique).
QByteArray textBody(const QList<DocBlock> &blocks, int &tables)
{
    QByteArray out;
    QXmlStreamWriter w(&out);
    QList<OdfListItem> items;
    auto flushList = [&] {
        if (!items.isEmpty())
            internal::writeOdfLists(w, items);
        items.clear();
    };
    for (const DocBlock &b : blocks) {
        if (b.kind == DocBlock::Kind::ListItem) {
            const Inline runs = b.runs;
            items.append(
                {b.level, b.list,
                 b.ordered ? QStringLiteral("Numbering_20_123") : QStringLiteral("List_20_Bullet"),
                 [runs](QXmlStreamWriter &x) {
                     writeParagraph(x, QStringLiteral("text:p"), QStringLiteral("List"), runs);
                 }});
            continue;
        }
        flushList();
        switch (b.kind) {
        case DocBlock::Kind::Heading:
            w.writeStartElement(QStringLiteral("text:h"));
            w.writeAttribute(QStringLiteral("text:style-name"),
                             QStringLiteral("Heading_20_%1").arg(b.level));
            w.writeAttribute(QStringLiteral("text:outline-level"), QString::number(b.level));
            for (const TextRun &r : b.runs)
                writeSpan(w, r, false);
            w.writeEndElement();
            break;
        case DocBlock::Kind::Paragraph:
            writeParagraph(w, QStringLiteral("text:p"), QStringLiteral("Text_20_body"), b.runs);
            break;
        case DocBlock::Kind::Code:
            writeParagraph(w, QStringLiteral("text:p"), QStringLiteral("Preformatted_20_Text"),
                           b.runs);
            break;
        case DocBlock::Kind::Quote:
            writeParagraph(w, QStringLiteral("text:p"), QStringLiteral("Quotations"), b.runs);
            break;
        case DocBlock::Kind::Rule:
            w.writeEmptyElement(QStringLiteral("text:p"));
            w.writeAttribute(QStringLiteral("text:style-name"),
                             QStringLiteral("Horizontal_20_Line"));
            break;
        case DocBlock::Kind::Table:
            writeTable(w, b, ++tables);
            break;
        case DocBlock::Kind::ListItem:
            break;
        }
    }
    flushList();
    w.writeCharacters(QString()); // closes a last empty element
    return out;
}

QString paragraphStyle(const QString &name, const QString &display, const QString &parent,
                       const QString &paragraph, const QString &text, const QString &extra = {})
{
    return QStringLiteral("<style:style style:name=\"%1\" style:display-name=\"%2\" "
                          "style:family=\"paragraph\"%3%4><style:paragraph-properties %5/>"
                          "<style:text-properties %6/></style:style>")
        .arg(name, display,
             parent.isEmpty() ? QString()
                              : QStringLiteral(" style:parent-style-name=\"%1\"").arg(parent),
             extra, paragraph, text);
}

QString listStyle(const QString &name, bool numbered)
{
    static const QString bullets[] = {QStringLiteral("\u2022"), QStringLiteral("\u25e6"),
                                      QStringLiteral("\u25aa")};
    QString levels;
    for (int level = 1; level <= 10; ++level) {
        const QString properties =
            QStringLiteral("<style:list-level-properties "
                           "text:list-level-position-and-space-mode=\"label-alignment\">"
                           "<style:list-level-label-alignment text:label-followed-by=\"listtab\" "
                           "text:list-tab-stop-position=\"%1cm\" fo:text-indent=\"-0.635cm\" "
                           "fo:margin-left=\"%1cm\"/></style:list-level-properties>")
                .arg(QString::number(1.27 * level, 'f', 3));
        levels += numbered
                      ? QStringLiteral("<text:list-level-style-number text:level=\"%1\" "
                                       "style:num-suffix=\".\" style:num-format=\"%2\">%3"
                                       "</text:list-level-style-number>")
                            .arg(QString::number(level),
                                 level % 3 == 1   ? QStringLiteral("1")
                                 : level % 3 == 2 ? QStringLiteral("a")
                                                  : QStringLiteral("i"),
                                 properties)
                      : QStringLiteral("<text:list-level-style-bullet text:level=\"%1\" "
                                       "text:bullet-char=\"%2\">%3</text:list-level-style-bullet>")
                            .arg(QString::number(level), bullets[(level - 1) % 3], properties);
    }
    return QStringLiteral("<text:list-style style:name=\"%1\">%2</text:list-style>")
        .arg(name, levels);
}

QByteArray textStyles()
{
    QString headings;
    static const char *sizes[] = {"130%", "115%", "101%", "95%", "85%", "85%"};
    for (int level = 1; level <= 6; ++level)
        headings +=
            paragraphStyle(QStringLiteral("Heading_20_%1").arg(level),
                           QStringLiteral("Heading %1").arg(level), QStringLiteral("Heading"), {},
                           QStringLiteral("fo:font-size=\"%1\" fo:font-weight=\"bold\"")
                               .arg(QLatin1String(sizes[level - 1])),
                           QStringLiteral(" style:next-style-name=\"Text_20_body\" "
                                          "style:default-outline-level=\"%1\"")
                               .arg(level));
    const QString styles =
        QStringLiteral(
            "<style:default-style style:family=\"paragraph\"><style:paragraph-properties "
            "fo:hyphenation-ladder-count=\"no-limit\"/><style:text-properties "
            "fo:font-family=\"'Liberation Sans', Arial, sans-serif\" fo:font-size=\"11pt\" "
            "fo:language=\"en\" fo:country=\"US\"/></style:default-style>"
            "<style:default-style style:family=\"table\"/>") +
        paragraphStyle(QStringLiteral("Standard"), QStringLiteral("Standard"), {}, {}, {}) +
        paragraphStyle(QStringLiteral("Text_20_body"), QStringLiteral("Text body"),
                       QStringLiteral("Standard"),
                       QStringLiteral("fo:margin-top=\"0cm\" fo:margin-bottom=\"0.212cm\""), {}) +
        paragraphStyle(QStringLiteral("Title"), QStringLiteral("Title"), QStringLiteral("Standard"),
                       QStringLiteral("fo:margin-bottom=\"0.423cm\""),
                       QStringLiteral("fo:font-size=\"26pt\""),
                       QStringLiteral(" style:next-style-name=\"Text_20_body\"")) +
        paragraphStyle(QStringLiteral("Heading"), QStringLiteral("Heading"),
                       QStringLiteral("Standard"),
                       QStringLiteral("fo:margin-top=\"0.423cm\" fo:margin-bottom=\"0.212cm\" "
                                      "fo:keep-with-next=\"always\""),
                       QStringLiteral("fo:color=\"#1f3864\""),
                       QStringLiteral(" style:next-style-name=\"Text_20_body\"")) +
        headings +
        paragraphStyle(QStringLiteral("List"), QStringLiteral("List"),
                       QStringLiteral("Text_20_body"), QStringLiteral("fo:margin-bottom=\"0.1cm\""),
                       {}) +
        paragraphStyle(QStringLiteral("Preformatted_20_Text"), QStringLiteral("Preformatted Text"),
                       QStringLiteral("Standard"),
                       QStringLiteral("fo:margin-top=\"0cm\" fo:margin-bottom=\"0cm\" "
                                      "fo:background-color=\"#f2f2f2\""),
                       QStringLiteral("fo:font-family=\"'Liberation Mono', 'Courier New', "
                                      "monospace\" fo:font-size=\"10pt\"")) +
        paragraphStyle(QStringLiteral("Quotations"), QStringLiteral("Quotations"),
                       QStringLiteral("Standard"),
                       QStringLiteral("fo:margin-left=\"1cm\" fo:margin-right=\"1cm\""),
                       QStringLiteral("fo:font-style=\"italic\" fo:color=\"#595959\"")) +
        paragraphStyle(QStringLiteral("Horizontal_20_Line"), QStringLiteral("Horizontal Line"),
                       QStringLiteral("Standard"),
                       QStringLiteral("fo:border-bottom=\"0.5pt solid #808080\" "
                                      "fo:padding=\"0cm\" fo:margin-bottom=\"0.3cm\""),
                       {}) +
        paragraphStyle(QStringLiteral("Table_20_Contents"), QStringLiteral("Table Contents"),
                       QStringLiteral("Standard"), {}, {}) +
        paragraphStyle(QStringLiteral("Table_20_Heading"), QStringLiteral("Table Heading"),
                       QStringLiteral("Table_20_Contents"), {},
                       QStringLiteral("fo:font-weight=\"bold\"")) +
        QStringLiteral(
            "<style:style style:name=\"Strong_20_Emphasis\" style:display-name=\"Strong "
            "Emphasis\" style:family=\"text\"><style:text-properties fo:font-weight=\"bold\"/>"
            "</style:style>"
            "<style:style style:name=\"Emphasis\" style:family=\"text\"><style:text-properties "
            "fo:font-style=\"italic\"/></style:style>"
            "<style:style style:name=\"Source_20_Text\" style:display-name=\"Source Text\" "
            "style:family=\"text\"><style:text-properties fo:font-family=\"'Liberation Mono', "
            "'Courier New', monospace\"/></style:style>"
            "<style:style style:name=\"Internet_20_link\" style:display-name=\"Internet link\" "
            "style:family=\"text\"><style:text-properties fo:color=\"#0563c1\" "
            "style:text-underline-style=\"solid\" style:text-underline-width=\"auto\" "
            "style:text-underline-color=\"font-color\"/></style:style>"
            "<style:style style:name=\"Table\" style:family=\"table\"><style:table-properties "
            "style:width=\"17cm\" table:align=\"margins\"/></style:style>"
            "<style:style style:name=\"TableCell\" style:family=\"table-cell\">"
            "<style:table-cell-properties fo:padding=\"0.1cm\" fo:border=\"0.5pt solid "
            "#000000\"/></style:style>") +
        listStyle(QStringLiteral("List_20_Bullet"), false) +
        listStyle(QStringLiteral("Numbering_20_123"), true);
    return declaration() +
           QStringLiteral(
               "<office:document-styles %1><office:styles>%2</office:styles>"
               "<office:automatic-styles><style:page-layout style:name=\"pm1\">"
               "<style:page-layout-properties fo:page-width=\"21cm\" fo:page-height=\"29.7cm\" "
               "style:print-orientation=\"portrait\" fo:margin-top=\"2cm\" "
               "fo:margin-bottom=\"2cm\" fo:margin-left=\"2cm\" fo:margin-right=\"2cm\"/>"
               "</style:page-layout></office:automatic-styles><office:master-styles>"
               "<style:master-page style:name=\"Standard\" style:page-layout-name=\"pm1\"/>"
               "</office:master-styles></office:document-styles>")
               .arg(kNs, styles)
               .toUtf8();
}

const QByteArray kOfficeTextEnd = QByteArrayLiteral("</office:text>");

// ------------------------------------------------------------------------ presentation

constexpr double kPageWidthCm = 28.0;
constexpr double kPageHeightCm = 15.75;

void writeFrame(QXmlStreamWriter &w, const QString &klass, const QString &style, double x, double y,
                double width, double height)
{
    auto cm = [](double v) { return QString::number(v, 'f', 2) + QStringLiteral("cm"); };
    w.writeStartElement(QStringLiteral("draw:frame"));
    w.writeAttribute(QStringLiteral("presentation:style-name"), style);
    w.writeAttribute(QStringLiteral("draw:layer"), QStringLiteral("layout"));
    w.writeAttribute(QStringLiteral("svg:width"), cm(width));
    w.writeAttribute(QStringLiteral("svg:height"), cm(height));
    w.writeAttribute(QStringLiteral("svg:x"), cm(x));
    w.writeAttribute(QStringLiteral("svg:y"), cm(y));
    w.writeAttribute(QStringLiteral("presentation:class"), klass);
    w.writeStartElement(QStringLiteral("draw:text-box"));
}

void writeLine(QXmlStreamWriter &w, const QString &text)
{
    w.writeStartElement(QStringLiteral("text:p"));
    writeOdfText(w, QString(text).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    w.writeEndElement();
}

QByteArray presentationContent(const Deck &deck)
{
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.writeStartElement(QStringLiteral("office:body"));
    w.writeStartElement(QStringLiteral("office:presentation"));
    int page = 0;
    auto startPage = [&] {
        ++page;
        w.writeStartElement(QStringLiteral("draw:page"));
        w.writeAttribute(QStringLiteral("draw:name"), QStringLiteral("page%1").arg(page));
        w.writeAttribute(QStringLiteral("draw:style-name"), QStringLiteral("dp1"));
        w.writeAttribute(QStringLiteral("draw:master-page-name"), QStringLiteral("Default"));
    };
    auto notes = [&](const QString &text) {
        if (text.trimmed().isEmpty())
            return;
        w.writeStartElement(QStringLiteral("presentation:notes"));
        w.writeEmptyElement(QStringLiteral("draw:page-thumbnail"));
        w.writeAttribute(QStringLiteral("draw:page-number"), QString::number(page));
        w.writeAttribute(QStringLiteral("presentation:class"), QStringLiteral("page"));
        w.writeAttribute(QStringLiteral("svg:width"), QStringLiteral("14cm"));
        w.writeAttribute(QStringLiteral("svg:height"), QStringLiteral("7.88cm"));
        w.writeAttribute(QStringLiteral("svg:x"), QStringLiteral("3.5cm"));
        w.writeAttribute(QStringLiteral("svg:y"), QStringLiteral("2cm"));
        writeFrame(w, QStringLiteral("notes"), QStringLiteral("pr4"), 2, 11, 17, 12);
        for (const QString &line : text.trimmed().split(QLatin1Char('\n')))
            writeLine(w, line);
        w.writeEndElement(); // text-box
        w.writeEndElement(); // frame
        w.writeEndElement(); // notes
    };
    if (!deck.title.trimmed().isEmpty()) {
        startPage();
        writeFrame(w, QStringLiteral("title"), QStringLiteral("pr3"), 2, 4, kPageWidthCm - 4, 3.5);
        writeLine(w, deck.title.trimmed());
        w.writeEndElement();
        w.writeEndElement();
        if (!deck.subtitle.trimmed().isEmpty()) {
            writeFrame(w, QStringLiteral("subtitle"), QStringLiteral("pr5"), 2, 8.2,
                       kPageWidthCm - 4, 3);
            writeLine(w, deck.subtitle.trimmed());
            w.writeEndElement();
            w.writeEndElement();
        }
        w.writeEndElement(); // draw:page
    }
    for (const Slide &s : deck.slides) {
        startPage();
        if (!s.title.isEmpty()) {
            writeFrame(w, QStringLiteral("title"), QStringLiteral("pr1"), 1.4, 0.6,
                       kPageWidthCm - 2.8, 2.6);
            writeLine(w, s.title);
            w.writeEndElement();
            w.writeEndElement();
        }
        if (!s.bullets.isEmpty()) {
            writeFrame(w, QStringLiteral("outline"), QStringLiteral("pr2"), 1.4, 3.6,
                       kPageWidthCm - 2.8, kPageHeightCm - 4.6);
            QList<OdfListItem> items;
            int previous = -1;
            for (const auto &[level, text] : s.bullets) {
                // A level deeper than one below the previous one has no parent: clamp.
                const int depth = qBound(0, level, previous + 1);
                previous = depth;
                const QString line = text;
                items.append({depth, 1, QStringLiteral("L1"),
                              [line](QXmlStreamWriter &x) { writeLine(x, line); }});
            }
            internal::writeOdfLists(w, items);
            w.writeEndElement();
            w.writeEndElement();
        }
        notes(s.notes);
        w.writeEndElement(); // draw:page
    }
    w.writeEndElement();
    w.writeEndElement();
    return out;
}

QByteArray presentationStyles()
{
    return declaration() +
           QStringLiteral(
               "<office:document-styles %1><office:styles><style:default-style "
               "style:family=\"graphic\"><style:text-properties fo:font-family=\"'Liberation "
               "Sans', Arial, sans-serif\" fo:font-size=\"18pt\" fo:language=\"en\" "
               "fo:country=\"US\"/></style:default-style></office:styles>"
               "<office:automatic-styles><style:page-layout style:name=\"PM1\">"
               "<style:page-layout-properties fo:margin-top=\"0cm\" fo:margin-bottom=\"0cm\" "
               "fo:margin-left=\"0cm\" fo:margin-right=\"0cm\" fo:page-width=\"%2cm\" "
               "fo:page-height=\"%3cm\" style:print-orientation=\"landscape\"/>"
               "</style:page-layout><style:style style:name=\"Mdp1\" "
               "style:family=\"drawing-page\"><style:drawing-page-properties "
               "draw:background-size=\"border\" draw:fill=\"solid\" "
               "draw:fill-color=\"#ffffff\"/></style:style></office:automatic-styles>"
               "<office:master-styles><style:master-page style:name=\"Default\" "
               "style:page-layout-name=\"PM1\" draw:style-name=\"Mdp1\"/>"
               "</office:master-styles></office:document-styles>")
               .arg(kNs, QString::number(kPageWidthCm, 'f', 2),
                    QString::number(kPageHeightCm, 'f', 2))
               .toUtf8();
}

QString bulletListStyle()
{
    static const QString bullets[] = {QStringLiteral("\u2022"), QStringLiteral("\u2013"),
                                      QStringLiteral("\u25e6")};
    QString levels;
    for (int level = 1; level <= 9; ++level)
        levels += QStringLiteral("<text:list-level-style-bullet text:level=\"%1\" "
                                 "text:bullet-char=\"%2\"><style:list-level-properties "
                                 "text:space-before=\"%3cm\" text:min-label-width=\"0.9cm\"/>"
                                 "<style:text-properties fo:font-family=\"'Liberation Sans'\" "
                                 "style:font-size-rel=\"75%\"/></text:list-level-style-bullet>")
                      .arg(QString::number(level), bullets[(level - 1) % 3],
                           QString::number(1.2 * (level - 1), 'f', 2));
    return QStringLiteral("<text:list-style style:name=\"L1\">%1</text:list-style>").arg(levels);
}

QString presentationStyle(const QString &name, const QString &graphic, const QString &paragraph,
                          const QString &text)
{
    return QStringLiteral("<style:style style:name=\"%1\" style:family=\"presentation\">"
                          "<style:graphic-properties %2/><style:paragraph-properties %3/>"
                          "<style:text-properties %4/></style:style>")
        .arg(name, graphic, paragraph, text);
}

} // namespace

Result<QByteArray> writeOdt(const QString &title, const QList<DocBlock> &blocks)
{
    QList<DocBlock> content = blocks;
    if (!content.isEmpty() && content.first().kind == DocBlock::Kind::Heading &&
        plainText(content.first().runs).trimmed() == title.trimmed())
        content.removeFirst();
    int tables = 0;
    QByteArray titleXml;
    if (!title.trimmed().isEmpty()) {
        QXmlStreamWriter w(&titleXml);
        TextRun run;
        run.text = title.trimmed();
        writeParagraph(w, QStringLiteral("text:p"), QStringLiteral("Title"), {run});
    }
    const QByteArray content_ =
        declaration() +
        QStringLiteral("<office:document-content %1><office:automatic-styles/><office:body>"
                       "<office:text>")
            .arg(kNs)
            .toUtf8() +
        titleXml + textBody(content, tables) + kOfficeTextEnd +
        QByteArrayLiteral("</office:body></office:document-content>");
    return internal::zipParts({{QStringLiteral("mimetype"), kOdtMime.toUtf8()},
                               {QStringLiteral("META-INF/manifest.xml"), manifest(kOdtMime)},
                               {QStringLiteral("content.xml"), content_},
                               {QStringLiteral("styles.xml"), textStyles()},
                               {QStringLiteral("meta.xml"), meta(title)}},
                              true);
}

Result<QByteArray> writeOdp(const Deck &deck)
{
    const QString autoStyles =
        QStringLiteral("<style:style style:name=\"dp1\" style:family=\"drawing-page\"/>") +
        presentationStyle(QStringLiteral("pr1"),
                          QStringLiteral("draw:fill=\"none\" draw:stroke=\"none\" "
                                         "draw:textarea-vertical-align=\"middle\""),
                          {}, QStringLiteral("fo:font-size=\"36pt\" fo:font-weight=\"bold\"")) +
        presentationStyle(QStringLiteral("pr2"),
                          QStringLiteral("draw:fill=\"none\" draw:stroke=\"none\" "
                                         "draw:textarea-vertical-align=\"top\""),
                          {}, QStringLiteral("fo:font-size=\"22pt\"")) +
        presentationStyle(QStringLiteral("pr3"),
                          QStringLiteral("draw:fill=\"none\" draw:stroke=\"none\" "
                                         "draw:textarea-vertical-align=\"bottom\""),
                          QStringLiteral("fo:text-align=\"center\""),
                          QStringLiteral("fo:font-size=\"44pt\" fo:font-weight=\"bold\"")) +
        presentationStyle(QStringLiteral("pr4"), QStringLiteral("draw:fill=\"none\""), {},
                          QStringLiteral("fo:font-size=\"12pt\"")) +
        presentationStyle(
            QStringLiteral("pr5"), QStringLiteral("draw:fill=\"none\" draw:stroke=\"none\""),
            QStringLiteral("fo:text-align=\"center\""), QStringLiteral("fo:font-size=\"24pt\"")) +
        bulletListStyle();
    const QByteArray content =
        declaration() +
        QStringLiteral("<office:document-content %1><office:automatic-styles>%2"
                       "</office:automatic-styles>")
            .arg(kNs, autoStyles)
            .toUtf8() +
        presentationContent(deck) + QByteArrayLiteral("</office:document-content>");
    return internal::zipParts({{QStringLiteral("mimetype"), kOdpMime.toUtf8()},
                               {QStringLiteral("META-INF/manifest.xml"), manifest(kOdpMime)},
                               {QStringLiteral("content.xml"), content},
                               {QStringLiteral("styles.xml"), presentationStyles()},
                               {QStringLiteral("meta.xml"), meta(deck.title)}},
                              true);
}

namespace internal {

Result<QByteArray> appendOdt(ZipArchive &zip, const QList<DocBlock> &blocks)
{
    QByteArray content;
    if (zip.read(QStringLiteral("content.xml"), 64LL * 1024 * 1024, &content) !=
        ZipArchive::Status::Ok)
        return DataError::malformed(QStringLiteral("the document has no readable content.xml"));
    const qsizetype end = content.lastIndexOf(kOfficeTextEnd);
    if (end < 0)
        return DataError::malformed(QStringLiteral("the document's body could not be found"));
    int tables = int(content.count("<table:table "));
    content.insert(end, textBody(blocks, tables));
    return rezip(zip, {{QStringLiteral("content.xml"), content}}, true);
}

} // namespace internal

} // namespace ph::data
