// WordprocessingML (.docx, ECMA-376 / ISO/IEC 29500): the package parts Word and
// LibreOffice need to open a document with headings, lists, tables and links.
#include "data/OfficeDocument.h"
#include "data/internal/OfficeXml.h"
#include "data/internal/ZipArchive.h"

#include <QHash>
#include <QRegularExpression>
#include <QXmlStreamWriter>

namespace ph::data {

namespace {

using internal::coreProperties;
using internal::xmlText;

const QString kW = QStringLiteral("http://schemas.openxmlformats.org/wordprocessingml/2006/main");
const QString kR =
    QStringLiteral("http://schemas.openxmlformats.org/officeDocument/2006/relationships");
const QString kRelTypes =
    QStringLiteral("http://schemas.openxmlformats.org/officeDocument/2006/relationships/");
const QString kPackageRels =
    QStringLiteral("http://schemas.openxmlformats.org/package/2006/relationships");

// Text width of an A4 page with 2.54 cm margins, in twentieths of a point.
constexpr int kTextWidthTwips = 11906 - 2 * 1440;
constexpr int kBulletNumId = 1;
constexpr int kBulletAbstract = 0;
constexpr int kNumberAbstract = 1;

// What a body adds to the package besides its XML: hyperlink relationships and the
// numbering instances of its numbered lists.
struct BodyParts
{
    int nextRel = 1;
    int nextNum = 2;
    QByteArray rels; // <Relationship …/> elements
    QByteArray nums; // <w:num …> elements
    QHash<int, int> listNums;
};

void writeRunText(QXmlStreamWriter &w, const QString &raw)
{
    const QString text = xmlText(raw);
    QString chunk;
    auto flush = [&] {
        if (chunk.isEmpty())
            return;
        w.writeStartElement(QStringLiteral("w:t"));
        if (chunk.front().isSpace() || chunk.back().isSpace())
            w.writeAttribute(QStringLiteral("xml:space"), QStringLiteral("preserve"));
        w.writeCharacters(chunk);
        w.writeEndElement();
        chunk.clear();
    };
    for (const QChar c : text) {
        if (c == QLatin1Char('\n')) {
            flush();
            w.writeEmptyElement(QStringLiteral("w:br"));
        } else if (c == QLatin1Char('\t')) {
            flush();
            w.writeEmptyElement(QStringLiteral("w:tab"));
        } else if (c != QLatin1Char('\r')) {
            chunk += c;
        }
    }
    flush();
}

void writeRun(QXmlStreamWriter &w, const TextRun &run, bool link, bool bold)
{
    w.writeStartElement(QStringLiteral("w:r"));
    if (link || run.code || run.bold || bold || run.italic) {
        w.writeStartElement(QStringLiteral("w:rPr"));
        if (link) {
            w.writeEmptyElement(QStringLiteral("w:rStyle"));
            w.writeAttribute(QStringLiteral("w:val"), QStringLiteral("Hyperlink"));
        }
        if (run.code) {
            w.writeEmptyElement(QStringLiteral("w:rFonts"));
            w.writeAttribute(QStringLiteral("w:ascii"), QStringLiteral("Courier New"));
            w.writeAttribute(QStringLiteral("w:hAnsi"), QStringLiteral("Courier New"));
            w.writeAttribute(QStringLiteral("w:cs"), QStringLiteral("Courier New"));
        }
        if (run.bold || bold)
            w.writeEmptyElement(QStringLiteral("w:b"));
        if (run.italic)
            w.writeEmptyElement(QStringLiteral("w:i"));
        w.writeEndElement();
    }
    writeRunText(w, run.text);
    w.writeEndElement();
}

void writeRuns(QXmlStreamWriter &w, const Inline &runs, BodyParts &parts, bool bold = false)
{
    for (const TextRun &run : runs) {
        if (run.href.isEmpty()) {
            writeRun(w, run, false, bold);
            continue;
        }
        const QString id = QStringLiteral("rId%1").arg(parts.nextRel++);
        QXmlStreamWriter rel(&parts.rels);
        rel.writeEmptyElement(QStringLiteral("Relationship"));
        rel.writeAttribute(QStringLiteral("Id"), id);
        rel.writeAttribute(QStringLiteral("Type"), kRelTypes + QStringLiteral("hyperlink"));
        rel.writeAttribute(QStringLiteral("Target"), xmlText(run.href));
        rel.writeAttribute(QStringLiteral("TargetMode"), QStringLiteral("External"));
        rel.writeCharacters(QString()); // closes the element: the writer ends here
        w.writeStartElement(QStringLiteral("w:hyperlink"));
        w.writeAttribute(QStringLiteral("r:id"), id);
        w.writeAttribute(QStringLiteral("w:history"), QStringLiteral("1"));
        writeRun(w, run, true, bold);
        w.writeEndElement();
    }
}

void paragraphStyle(QXmlStreamWriter &w, const QString &style)
{
    w.writeEmptyElement(QStringLiteral("w:pStyle"));
    w.writeAttribute(QStringLiteral("w:val"), style);
}

int numIdFor(const DocBlock &b, BodyParts &parts)
{
    if (!b.ordered)
        return kBulletNumId;
    auto it = parts.listNums.constFind(b.list);
    if (it != parts.listNums.cend())
        return *it;
    const int id = parts.nextNum++;
    parts.listNums.insert(b.list, id);
    // A numbering instance of its own: each numbered list starts again at 1.
    QXmlStreamWriter num(&parts.nums);
    num.writeStartElement(QStringLiteral("w:num"));
    num.writeAttribute(QStringLiteral("w:numId"), QString::number(id));
    num.writeEmptyElement(QStringLiteral("w:abstractNumId"));
    num.writeAttribute(QStringLiteral("w:val"), QString::number(kNumberAbstract));
    for (int level = 0; level < 9; ++level) {
        num.writeStartElement(QStringLiteral("w:lvlOverride"));
        num.writeAttribute(QStringLiteral("w:ilvl"), QString::number(level));
        num.writeEmptyElement(QStringLiteral("w:startOverride"));
        num.writeAttribute(QStringLiteral("w:val"), QStringLiteral("1"));
        num.writeEndElement();
    }
    num.writeEndElement();
    return id;
}

void writeTable(QXmlStreamWriter &w, const DocBlock &b, BodyParts &parts)
{
    qsizetype columns = 0;
    for (const auto &row : b.rows)
        columns = qMax(columns, row.size());
    if (columns == 0)
        return;
    const int width = int(kTextWidthTwips / columns);
    w.writeStartElement(QStringLiteral("w:tbl"));
    w.writeStartElement(QStringLiteral("w:tblPr"));
    w.writeEmptyElement(QStringLiteral("w:tblStyle"));
    w.writeAttribute(QStringLiteral("w:val"), QStringLiteral("TableGrid"));
    w.writeEmptyElement(QStringLiteral("w:tblW"));
    w.writeAttribute(QStringLiteral("w:w"), QString::number(width * columns));
    w.writeAttribute(QStringLiteral("w:type"), QStringLiteral("dxa"));
    w.writeEmptyElement(QStringLiteral("w:tblLook"));
    w.writeAttribute(QStringLiteral("w:val"), QStringLiteral("04A0"));
    w.writeAttribute(QStringLiteral("w:firstRow"), QStringLiteral("1"));
    w.writeAttribute(QStringLiteral("w:lastRow"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("w:firstColumn"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("w:lastColumn"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("w:noHBand"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("w:noVBand"), QStringLiteral("1"));
    w.writeEndElement();
    w.writeStartElement(QStringLiteral("w:tblGrid"));
    for (qsizetype c = 0; c < columns; ++c) {
        w.writeEmptyElement(QStringLiteral("w:gridCol"));
        w.writeAttribute(QStringLiteral("w:w"), QString::number(width));
    }
    w.writeEndElement();
    for (qsizetype r = 0; r < b.rows.size(); ++r) {
        const bool header = r == 0;
        w.writeStartElement(QStringLiteral("w:tr"));
        if (header) {
            w.writeStartElement(QStringLiteral("w:trPr"));
            w.writeEmptyElement(QStringLiteral("w:tblHeader"));
            w.writeEndElement();
        }
        for (qsizetype c = 0; c < columns; ++c) {
            w.writeStartElement(QStringLiteral("w:tc"));
            w.writeStartElement(QStringLiteral("w:tcPr"));
            w.writeEmptyElement(QStringLiteral("w:tcW"));
            w.writeAttribute(QStringLiteral("w:w"), QString::number(width));
            w.writeAttribute(QStringLiteral("w:type"), QStringLiteral("dxa"));
            w.writeEndElement();
            // Every cell holds a paragraph, empty or not.
            w.writeStartElement(QStringLiteral("w:p"));
            w.writeStartElement(QStringLiteral("w:pPr"));
            paragraphStyle(w, QStringLiteral("TableContents"));
            w.writeEndElement();
            writeRuns(w, b.rows.at(r).value(c), parts, header);
            w.writeEndElement();
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
}

QByteArray body(const QList<DocBlock> &blocks, BodyParts &parts)
{
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    for (const DocBlock &b : blocks) {
        if (b.kind == DocBlock::Kind::Table) {
            writeTable(w, b, parts);
            continue;
        }
        w.writeStartElement(QStringLiteral("w:p"));
        w.writeStartElement(QStringLiteral("w:pPr"));
        switch (b.kind) {
        case DocBlock::Kind::Heading:
            paragraphStyle(w, QStringLiteral("Heading%1").arg(b.level));
            break;
        case DocBlock::Kind::ListItem:
            paragraphStyle(w, QStringLiteral("ListParagraph"));
            w.writeStartElement(QStringLiteral("w:numPr"));
            w.writeEmptyElement(QStringLiteral("w:ilvl"));
            w.writeAttribute(QStringLiteral("w:val"), QString::number(qBound(0, b.level, 8)));
            w.writeEmptyElement(QStringLiteral("w:numId"));
            w.writeAttribute(QStringLiteral("w:val"), QString::number(numIdFor(b, parts)));
            w.writeEndElement();
            break;
        case DocBlock::Kind::Code:
            paragraphStyle(w, QStringLiteral("Code"));
            break;
        case DocBlock::Kind::Quote:
            paragraphStyle(w, QStringLiteral("Quote"));
            break;
        case DocBlock::Kind::Rule:
            paragraphStyle(w, QStringLiteral("Rule"));
            break;
        case DocBlock::Kind::Paragraph:
        case DocBlock::Kind::Table:
            break;
        }
        w.writeEndElement(); // w:pPr
        writeRuns(w, b.runs, parts);
        w.writeEndElement(); // w:p
    }
    // A body never ends in a table: Word wants a paragraph after it.
    if (!blocks.isEmpty() && blocks.last().kind == DocBlock::Kind::Table)
        w.writeEmptyElement(QStringLiteral("w:p"));
    w.writeCharacters(QString()); // closes a last empty element
    return xml;
}

QByteArray declaration()
{
    return QByteArrayLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n");
}

QByteArray contentTypes()
{
    return declaration() +
           QByteArrayLiteral("<Types "
                             "xmlns=\"http://schemas.openxmlformats.org/package/2006/"
                             "content-types\">"
                             "<Default Extension=\"rels\" "
                             "ContentType=\"application/"
                             "vnd.openxmlformats-package.relationships+xml\"/>"
                             "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
                             "<Override PartName=\"/word/document.xml\" "
                             "ContentType=\"application/"
                             "vnd.openxmlformats-officedocument.wordprocessingml.document."
                             "main+xml\"/>"
                             "<Override PartName=\"/word/styles.xml\" "
                             "ContentType=\"application/"
                             "vnd.openxmlformats-officedocument.wordprocessingml.styles+xml\"/>"
                             "<Override PartName=\"/word/numbering.xml\" "
                             "ContentType=\"application/"
                             "vnd.openxmlformats-officedocument.wordprocessingml.numbering+"
                             "xml\"/>"
                             "<Override PartName=\"/word/settings.xml\" "
                             "ContentType=\"application/"
                             "vnd.openxmlformats-officedocument.wordprocessingml.settings+"
                             "xml\"/>"
                             "<Override PartName=\"/docProps/core.xml\" "
                             "ContentType=\"application/"
                             "vnd.openxmlformats-package.core-properties+xml\"/>"
                             "<Override PartName=\"/docProps/app.xml\" "
                             "ContentType=\"application/"
                             "vnd.openxmlformats-officedocument.extended-properties+xml\"/>"
                             "</Types>");
}

QByteArray packageRels()
{
    return declaration() +
           QStringLiteral(
               "<Relationships xmlns=\"%1\">"
               "<Relationship Id=\"rId1\" Type=\"%2officeDocument\" Target=\"word/document.xml\"/>"
               "<Relationship Id=\"rId2\" Type=\"%1/metadata/core-properties\" "
               "Target=\"docProps/core.xml\"/>"
               "<Relationship Id=\"rId3\" Type=\"%2extended-properties\" "
               "Target=\"docProps/app.xml\"/>"
               "</Relationships>")
               .arg(kPackageRels, kRelTypes)
               .toUtf8();
}

QByteArray appProperties()
{
    return declaration() +
           QByteArrayLiteral(
               "<Properties "
               "xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/"
               "extended-properties\" "
               "xmlns:vt=\"http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes\">"
               "<Application>Pilothouse</Application></Properties>");
}

QByteArray settings()
{
    return declaration() +
           QStringLiteral("<w:settings xmlns:w=\"%1\"><w:defaultTabStop w:val=\"720\"/>"
                          "<w:characterSpacingControl w:val=\"doNotCompress\"/>"
                          "<w:compat><w:compatSetting w:name=\"compatibilityMode\" "
                          "w:uri=\"http://schemas.microsoft.com/office/word\" w:val=\"15\"/>"
                          "</w:compat></w:settings>")
               .arg(kW)
               .toUtf8();
}

QString headingStyle(int level)
{
    static const int sizes[] = {32, 28, 26, 24, 22, 22};
    return QStringLiteral(
               "<w:style w:type=\"paragraph\" w:styleId=\"Heading%1\"><w:name w:val=\"heading "
               "%1\"/><w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:uiPriority "
               "w:val=\"9\"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing "
               "w:before=\"%2\" w:after=\"80\"/><w:outlineLvl w:val=\"%3\"/></w:pPr><w:rPr><w:b/>"
               "<w:color w:val=\"1F3864\"/><w:sz w:val=\"%4\"/><w:szCs w:val=\"%4\"/></w:rPr>"
               "</w:style>")
        .arg(level)
        .arg(level <= 2 ? 360 : 200)
        .arg(level - 1)
        .arg(sizes[level - 1]);
}

QByteArray styles()
{
    QString headings;
    for (int level = 1; level <= 6; ++level)
        headings += headingStyle(level);
    return declaration() +
           QStringLiteral(
               "<w:styles xmlns:w=\"%1\">"
               "<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii=\"Calibri\" "
               "w:hAnsi=\"Calibri\" w:eastAsia=\"Calibri\" w:cs=\"Calibri\"/><w:sz "
               "w:val=\"22\"/><w:szCs w:val=\"22\"/><w:lang w:val=\"en-US\"/></w:rPr>"
               "</w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after=\"120\" w:line=\"264\" "
               "w:lineRule=\"auto\"/></w:pPr></w:pPrDefault></w:docDefaults>"
               "<w:style w:type=\"paragraph\" w:default=\"1\" w:styleId=\"Normal\"><w:name "
               "w:val=\"Normal\"/><w:qFormat/></w:style>"
               "<w:style w:type=\"character\" w:default=\"1\" "
               "w:styleId=\"DefaultParagraphFont\"><w:name w:val=\"Default Paragraph "
               "Font\"/><w:uiPriority w:val=\"1\"/><w:semiHidden/><w:unhideWhenUsed/></w:style>"
               "<w:style w:type=\"table\" w:default=\"1\" w:styleId=\"TableNormal\"><w:name "
               "w:val=\"Normal Table\"/><w:uiPriority w:val=\"99\"/><w:semiHidden/>"
               "<w:unhideWhenUsed/><w:tblPr><w:tblInd w:w=\"0\" w:type=\"dxa\"/><w:tblCellMar>"
               "<w:top w:w=\"0\" w:type=\"dxa\"/><w:left w:w=\"108\" w:type=\"dxa\"/><w:bottom "
               "w:w=\"0\" w:type=\"dxa\"/><w:right w:w=\"108\" w:type=\"dxa\"/></w:tblCellMar>"
               "</w:tblPr></w:style>"
               "<w:style w:type=\"numbering\" w:default=\"1\" w:styleId=\"NoList\"><w:name "
               "w:val=\"No List\"/><w:uiPriority w:val=\"99\"/><w:semiHidden/>"
               "<w:unhideWhenUsed/></w:style>"
               "<w:style w:type=\"paragraph\" w:styleId=\"Title\"><w:name w:val=\"Title\"/>"
               "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:uiPriority "
               "w:val=\"10\"/><w:qFormat/><w:pPr><w:spacing w:after=\"240\"/></w:pPr><w:rPr>"
               "<w:sz w:val=\"52\"/><w:szCs w:val=\"52\"/></w:rPr></w:style>"
               "%2"
               "<w:style w:type=\"paragraph\" w:styleId=\"ListParagraph\"><w:name w:val=\"List "
               "Paragraph\"/><w:basedOn w:val=\"Normal\"/><w:uiPriority w:val=\"34\"/>"
               "<w:qFormat/><w:pPr><w:spacing w:after=\"60\"/><w:ind w:left=\"720\"/>"
               "<w:contextualSpacing/></w:pPr></w:style>"
               "<w:style w:type=\"paragraph\" w:styleId=\"Code\"><w:name w:val=\"Code\"/>"
               "<w:basedOn w:val=\"Normal\"/><w:qFormat/><w:pPr><w:shd w:val=\"clear\" "
               "w:color=\"auto\" w:fill=\"F2F2F2\"/><w:spacing w:after=\"0\" w:line=\"240\" "
               "w:lineRule=\"auto\"/></w:pPr><w:rPr><w:rFonts w:ascii=\"Courier New\" "
               "w:hAnsi=\"Courier New\" w:cs=\"Courier New\"/><w:sz w:val=\"20\"/><w:szCs "
               "w:val=\"20\"/></w:rPr></w:style>"
               "<w:style w:type=\"paragraph\" w:styleId=\"Quote\"><w:name w:val=\"Quote\"/>"
               "<w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:uiPriority "
               "w:val=\"29\"/><w:qFormat/><w:pPr><w:ind w:left=\"720\" w:right=\"720\"/>"
               "</w:pPr><w:rPr><w:i/><w:color w:val=\"595959\"/></w:rPr></w:style>"
               "<w:style w:type=\"paragraph\" w:styleId=\"Rule\"><w:name "
               "w:val=\"Horizontal Line\"/><w:basedOn w:val=\"Normal\"/><w:next "
               "w:val=\"Normal\"/><w:pPr><w:pBdr><w:bottom w:val=\"single\" w:sz=\"6\" "
               "w:space=\"1\" w:color=\"auto\"/></w:pBdr></w:pPr></w:style>"
               "<w:style w:type=\"paragraph\" w:styleId=\"TableContents\"><w:name w:val=\"Table "
               "Contents\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:spacing w:after=\"0\"/>"
               "</w:pPr></w:style>"
               "<w:style w:type=\"character\" w:styleId=\"Hyperlink\"><w:name "
               "w:val=\"Hyperlink\"/><w:basedOn w:val=\"DefaultParagraphFont\"/><w:uiPriority "
               "w:val=\"99\"/><w:unhideWhenUsed/><w:rPr><w:color w:val=\"0563C1\"/><w:u "
               "w:val=\"single\"/></w:rPr></w:style>"
               "<w:style w:type=\"table\" w:styleId=\"TableGrid\"><w:name w:val=\"Table "
               "Grid\"/><w:basedOn w:val=\"TableNormal\"/><w:uiPriority w:val=\"39\"/><w:tblPr>"
               "<w:tblBorders><w:top w:val=\"single\" w:sz=\"4\" w:space=\"0\" "
               "w:color=\"auto\"/><w:left w:val=\"single\" w:sz=\"4\" w:space=\"0\" "
               "w:color=\"auto\"/><w:bottom w:val=\"single\" w:sz=\"4\" w:space=\"0\" "
               "w:color=\"auto\"/><w:right w:val=\"single\" w:sz=\"4\" w:space=\"0\" "
               "w:color=\"auto\"/><w:insideH w:val=\"single\" w:sz=\"4\" w:space=\"0\" "
               "w:color=\"auto\"/><w:insideV w:val=\"single\" w:sz=\"4\" w:space=\"0\" "
               "w:color=\"auto\"/></w:tblBorders></w:tblPr></w:style>"
               "</w:styles>")
               .arg(kW, headings)
               .toUtf8();
}

QString levels(bool ordered)
{
    static const QString bullets[] = {QStringLiteral("\u2022"), QStringLiteral("\u25e6"),
                                      QStringLiteral("\u25aa")};
    static const QString formats[] = {QStringLiteral("decimal"), QStringLiteral("lowerLetter"),
                                      QStringLiteral("lowerRoman")};
    QString out;
    for (int level = 0; level < 9; ++level) {
        out +=
            QStringLiteral("<w:lvl w:ilvl=\"%1\"><w:start w:val=\"1\"/><w:numFmt w:val=\"%2\"/>"
                           "<w:lvlText w:val=\"%3\"/><w:lvlJc w:val=\"left\"/><w:pPr><w:ind "
                           "w:left=\"%4\" w:hanging=\"360\"/></w:pPr></w:lvl>")
                // One arg() call: the level text's own %N must not be replaced again.
                .arg(QString::number(level),
                     ordered ? formats[level % 3] : QStringLiteral("bullet"),
                     ordered ? QStringLiteral("%") + QString::number(level + 1) + QLatin1Char('.')
                             : bullets[level % 3],
                     QString::number(720 * (level + 1)));
    }
    return out;
}

QByteArray numbering(const QByteArray &nums)
{
    return declaration() +
           QStringLiteral("<w:numbering xmlns:w=\"%1\">"
                          "<w:abstractNum w:abstractNumId=\"%2\"><w:multiLevelType "
                          "w:val=\"hybridMultilevel\"/>%3</w:abstractNum>"
                          "<w:abstractNum w:abstractNumId=\"%4\"><w:multiLevelType "
                          "w:val=\"hybridMultilevel\"/>%5</w:abstractNum>"
                          "<w:num w:numId=\"%6\"><w:abstractNumId w:val=\"%2\"/></w:num>")
               .arg(kW, QString::number(kBulletAbstract), levels(false),
                    QString::number(kNumberAbstract), levels(true), QString::number(kBulletNumId))
               .toUtf8() +
           nums + QByteArrayLiteral("</w:numbering>");
}

QByteArray documentRels(const QByteArray &more)
{
    return declaration() +
           QStringLiteral("<Relationships xmlns=\"%1\">"
                          "<Relationship Id=\"rId1\" Type=\"%2styles\" Target=\"styles.xml\"/>"
                          "<Relationship Id=\"rId2\" Type=\"%2numbering\" "
                          "Target=\"numbering.xml\"/>"
                          "<Relationship Id=\"rId3\" Type=\"%2settings\" Target=\"settings.xml\"/>")
               .arg(kPackageRels, kRelTypes)
               .toUtf8() +
           more + QByteArrayLiteral("</Relationships>");
}

QByteArray titleParagraph(const QString &title)
{
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.writeStartElement(QStringLiteral("w:p"));
    w.writeStartElement(QStringLiteral("w:pPr"));
    paragraphStyle(w, QStringLiteral("Title"));
    w.writeEndElement();
    w.writeStartElement(QStringLiteral("w:r"));
    writeRunText(w, title);
    w.writeEndElement();
    w.writeEndElement();
    return xml;
}

// The largest N of `attribute`="N" (or "rIdN") in `xml`.
int largest(const QByteArray &xml, const QString &pattern)
{
    int max = 0;
    auto it = QRegularExpression(pattern).globalMatch(QString::fromUtf8(xml));
    while (it.hasNext())
        max = qMax(max, it.next().captured(1).toInt());
    return max;
}

} // namespace

Result<QByteArray> writeDocx(const QString &title, const QList<DocBlock> &blocks)
{
    QList<DocBlock> content = blocks;
    // The title is the document's Title paragraph; a first heading repeating it goes.
    if (!content.isEmpty() && content.first().kind == DocBlock::Kind::Heading &&
        plainText(content.first().runs).trimmed() == title.trimmed())
        content.removeFirst();
    BodyParts parts;
    parts.nextRel = 4; // after styles, numbering, settings
    const QByteArray bodyXml =
        (title.trimmed().isEmpty() ? QByteArray() : titleParagraph(title)) + body(content, parts);
    const QByteArray document =
        declaration() +
        QStringLiteral("<w:document xmlns:w=\"%1\" xmlns:r=\"%2\"><w:body>").arg(kW, kR).toUtf8() +
        bodyXml +
        QByteArrayLiteral("<w:sectPr><w:pgSz w:w=\"11906\" w:h=\"16838\"/><w:pgMar w:top=\"1440\" "
                          "w:right=\"1440\" w:bottom=\"1440\" w:left=\"1440\" w:header=\"708\" "
                          "w:footer=\"708\" w:gutter=\"0\"/></w:sectPr></w:body></w:document>");
    return internal::zipParts(
        {{QStringLiteral("[Content_Types].xml"), contentTypes()},
         {QStringLiteral("_rels/.rels"), packageRels()},
         {QStringLiteral("docProps/core.xml"), coreProperties(title)},
         {QStringLiteral("docProps/app.xml"), appProperties()},
         {QStringLiteral("word/document.xml"), document},
         {QStringLiteral("word/styles.xml"), styles()},
         {QStringLiteral("word/numbering.xml"), numbering(parts.nums)},
         {QStringLiteral("word/settings.xml"), settings()},
         {QStringLiteral("word/_rels/document.xml.rels"), documentRels(parts.rels)}});
}

namespace internal {

Result<QByteArray> appendDocx(ZipArchive &zip, const QList<DocBlock> &blocks)
{
    constexpr qint64 kMax = 64LL * 1024 * 1024;
    QByteArray document;
    QByteArray rels;
    QByteArray numberingXml;
    if (zip.read(QStringLiteral("word/document.xml"), kMax, &document) != ZipArchive::Status::Ok ||
        zip.read(QStringLiteral("word/_rels/document.xml.rels"), kMax, &rels) !=
            ZipArchive::Status::Ok ||
        zip.read(QStringLiteral("word/numbering.xml"), kMax, &numberingXml) !=
            ZipArchive::Status::Ok)
        return DataError::unsupported(
            QStringLiteral("the document lacks the parts this writer adds to (document, "
                           "relationships, numbering)"));
    BodyParts parts;
    parts.nextRel = largest(rels, QStringLiteral("Id=\"rId(\\d+)\"")) + 1;
    parts.nextNum = largest(numberingXml, QStringLiteral("w:numId=\"(\\d+)\"")) + 1;
    const QByteArray more = body(blocks, parts);
    // Before the body's own section properties (they close the body), else its end.
    qsizetype at = document.lastIndexOf("<w:sectPr");
    if (at < 0)
        at = document.lastIndexOf("</w:body>");
    const qsizetype relsEnd = rels.lastIndexOf("</Relationships>");
    const qsizetype numEnd = numberingXml.lastIndexOf("</w:numbering>");
    if (at < 0 || relsEnd < 0 || numEnd < 0)
        return DataError::malformed(QStringLiteral("the document's body could not be found"));
    document.insert(at, more);
    rels.insert(relsEnd, parts.rels);
    numberingXml.insert(numEnd, parts.nums);
    return rezip(zip,
                 {{QStringLiteral("word/document.xml"), document},
                  {QStringLiteral("word/_rels/document.xml.rels"), rels},
                  {QStringLiteral("word/numbering.xml"), numberingXml}},
                 false);
}

} // namespace internal

} // namespace ph::data
