// PresentationML (.pptx, ECMA-376 / ISO/IEC 29500): a 16:9 deck with one slide master,
// two layouts (Title Slide, Title and Content), a theme, and notes slides with their
// notes master when a slide has notes: the parts PowerPoint and LibreOffice Impress
// insist on.
#include "data/OfficeDocument.h"
#include "data/internal/OfficeXml.h"

#include <QXmlStreamWriter>

namespace ph::data {

namespace {

using internal::coreProperties;
using internal::xmlText;

const QString kNs = QStringLiteral(
    "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
    "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\" "
    "xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\"");
const QString kRelTypes =
    QStringLiteral("http://schemas.openxmlformats.org/officeDocument/2006/relationships/");
const QString kRelsNs =
    QStringLiteral("http://schemas.openxmlformats.org/package/2006/relationships");
const QString kPml =
    QStringLiteral("application/vnd.openxmlformats-officedocument.presentationml.");

const QString kGroup = QStringLiteral(
    "<p:nvGrpSpPr><p:cNvPr id=\"1\" name=\"\"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>"
    "<p:grpSpPr><a:xfrm><a:off x=\"0\" y=\"0\"/><a:ext cx=\"0\" cy=\"0\"/><a:chOff x=\"0\" "
    "y=\"0\"/><a:chExt cx=\"0\" cy=\"0\"/></a:xfrm></p:grpSpPr>");
const QString kClrMap = QStringLiteral(
    "<p:clrMap bg1=\"lt1\" tx1=\"dk1\" bg2=\"lt2\" tx2=\"dk2\" accent1=\"accent1\" "
    "accent2=\"accent2\" accent3=\"accent3\" accent4=\"accent4\" accent5=\"accent5\" "
    "accent6=\"accent6\" hlink=\"hlink\" folHlink=\"folHlink\"/>");

QByteArray declaration()
{
    return QByteArrayLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n");
}

QByteArray xml(const QString &body)
{
    return declaration() + body.toUtf8();
}

struct Rel
{
    QString type;
    QString target;
};

QByteArray rels(const QList<Rel> &list)
{
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.writeStartDocument(QStringLiteral("1.0"), true);
    w.writeStartElement(QStringLiteral("Relationships"));
    w.writeAttribute(QStringLiteral("xmlns"), kRelsNs);
    for (qsizetype i = 0; i < list.size(); ++i) {
        w.writeEmptyElement(QStringLiteral("Relationship"));
        w.writeAttribute(QStringLiteral("Id"), QStringLiteral("rId%1").arg(i + 1));
        w.writeAttribute(QStringLiteral("Type"), list.at(i).type.startsWith(QLatin1String("http"))
                                                     ? list.at(i).type
                                                     : kRelTypes + list.at(i).type);
        w.writeAttribute(QStringLiteral("Target"), list.at(i).target);
    }
    w.writeEndElement();
    w.writeEndDocument();
    return out;
}

// A placeholder shape; `paragraphs` is its <a:p> XML (empty: an empty paragraph).
QString shape(int id, const QString &name, const QString &placeholder, const QString &xfrm,
              const QString &bodyPr, const QString &lstStyle, const QString &paragraphs)
{
    return QStringLiteral(
               "<p:sp><p:nvSpPr><p:cNvPr id=\"%1\" name=\"%2\"/><p:cNvSpPr><a:spLocks "
               "noGrp=\"1\"/></p:cNvSpPr><p:nvPr>%3</p:nvPr></p:nvSpPr><p:spPr>%4</p:spPr>"
               "<p:txBody>%5<a:lstStyle>%6</a:lstStyle>%7</p:txBody></p:sp>")
        .arg(QString::number(id), name, placeholder, xfrm, bodyPr, lstStyle,
             paragraphs.isEmpty() ? QStringLiteral("<a:p><a:endParaRPr lang=\"en-US\"/></a:p>")
                                  : paragraphs);
}

QString xfrm(qint64 x, qint64 y, qint64 cx, qint64 cy)
{
    return QStringLiteral("<a:xfrm><a:off x=\"%1\" y=\"%2\"/><a:ext cx=\"%3\" cy=\"%4\"/></a:xfrm>"
                          "<a:prstGeom prst=\"rect\"><a:avLst/></a:prstGeom>")
        .arg(x)
        .arg(y)
        .arg(cx)
        .arg(cy);
}

// One paragraph of text at a level (-1: no level attribute).
QString paragraph(const QString &text, int level = -1)
{
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.writeStartElement(QStringLiteral("a:p"));
    if (level > 0) {
        w.writeEmptyElement(QStringLiteral("a:pPr"));
        w.writeAttribute(QStringLiteral("lvl"), QString::number(qMin(level, 8)));
    }
    w.writeStartElement(QStringLiteral("a:r"));
    w.writeEmptyElement(QStringLiteral("a:rPr"));
    w.writeAttribute(QStringLiteral("lang"), QStringLiteral("en-US"));
    w.writeAttribute(QStringLiteral("dirty"), QStringLiteral("0"));
    QString t = xmlText(text);
    t.replace(QLatin1Char('\n'), QLatin1Char(' '));
    w.writeTextElement(QStringLiteral("a:t"), t);
    w.writeEndElement();
    w.writeEndElement();
    return QString::fromUtf8(out);
}

QString levelStyle(int level, int marL, int size, bool bullet)
{
    return QStringLiteral(
               "<a:lvl%1pPr marL=\"%2\" indent=\"%3\" algn=\"l\" defTabSz=\"914400\" rtl=\"0\" "
               "eaLnBrk=\"1\" latinLnBrk=\"0\" hangingPunct=\"1\"><a:lnSpc><a:spcPct "
               "val=\"90000\"/></a:lnSpc><a:spcBef><a:spcPts val=\"%4\"/></a:spcBef>%5"
               "<a:defRPr sz=\"%6\" kern=\"1200\"><a:solidFill><a:schemeClr val=\"tx1\"/>"
               "</a:solidFill><a:latin typeface=\"+mn-lt\"/><a:ea typeface=\"+mn-ea\"/><a:cs "
               "typeface=\"+mn-cs\"/></a:defRPr></a:lvl%1pPr>")
        .arg(QString::number(level), QString::number(marL), QString::number(bullet ? -228600 : 0),
             QString::number(bullet ? 1000 : 0),
             bullet ? QStringLiteral("<a:buFont typeface=\"Arial\"/><a:buChar char=\"\u2022\"/>")
                    : QStringLiteral("<a:buNone/>"),
             QString::number(size));
}

QByteArray theme(const QString &name)
{
    // Office's colours (the scheme must name all twelve).
    const QString colors = QStringLiteral(
        "<a:dk2><a:srgbClr val=\"44546A\"/></a:dk2><a:lt2><a:srgbClr val=\"E7E6E6\"/></a:lt2>"
        "<a:accent1><a:srgbClr val=\"4472C4\"/></a:accent1><a:accent2><a:srgbClr "
        "val=\"ED7D31\"/></a:accent2><a:accent3><a:srgbClr val=\"A5A5A5\"/></a:accent3>"
        "<a:accent4><a:srgbClr val=\"FFC000\"/></a:accent4><a:accent5><a:srgbClr "
        "val=\"5B9BD5\"/></a:accent5><a:accent6><a:srgbClr val=\"70AD47\"/></a:accent6>"
        "<a:hlink><a:srgbClr val=\"0563C1\"/></a:hlink><a:folHlink><a:srgbClr "
        "val=\"954F72\"/></a:folHlink>");
    const QString fill = QStringLiteral("<a:solidFill><a:schemeClr val=\"phClr\"/></a:solidFill>");
    const QString line = QStringLiteral("<a:ln w=\"9525\">%1</a:ln>").arg(fill);
    const QString effect = QStringLiteral("<a:effectStyle><a:effectLst/></a:effectStyle>");
    const QString font =
        QStringLiteral("<a:latin typeface=\"Calibri\"/><a:ea typeface=\"\"/><a:cs typeface=\"\"/>");
    return xml(
        QStringLiteral(
            "<a:theme xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
            "name=\"%1\"><a:themeElements><a:clrScheme name=\"Office\"><a:dk1><a:sysClr "
            "val=\"windowText\" lastClr=\"000000\"/></a:dk1><a:lt1><a:sysClr val=\"window\" "
            "lastClr=\"FFFFFF\"/></a:lt1>%2</a:clrScheme><a:fontScheme "
            "name=\"Office\"><a:majorFont>%3</a:majorFont><a:minorFont>%3</a:minorFont>"
            "</a:fontScheme><a:fmtScheme name=\"Office\"><a:fillStyleLst>%4%4%4</a:fillStyleLst>"
            "<a:lnStyleLst>%5%5%5</a:lnStyleLst><a:effectStyleLst>%6%6%6</a:effectStyleLst>"
            "<a:bgFillStyleLst>%4%4%4</a:bgFillStyleLst></a:fmtScheme></a:themeElements>"
            "<a:objectDefaults/><a:extraClrSchemeLst/></a:theme>")
            .arg(name, colors, font, fill, line, effect));
}

constexpr qint64 kSlideWidth = 12192000; // 16:9, 13.333 in
constexpr qint64 kSlideHeight = 6858000; // 7.5 in

QByteArray master()
{
    QString body;
    const int sizes[] = {2800, 2400, 2000, 1800, 1800};
    for (int level = 1; level <= 5; ++level)
        body += levelStyle(level, 228600 + 457200 * (level - 1), sizes[level - 1], true);
    const QString title = shape(
        2, QStringLiteral("Title Placeholder 1"), QStringLiteral("<p:ph type=\"title\"/>"),
        xfrm(838200, 365125, 10515600, 1325563),
        QStringLiteral("<a:bodyPr vert=\"horz\" lIns=\"91440\" tIns=\"45720\" rIns=\"91440\" "
                       "bIns=\"45720\" rtlCol=\"0\" anchor=\"ctr\"><a:normAutofit/></a:bodyPr>"),
        {}, paragraph(QStringLiteral("Title")));
    const QString content = shape(
        3, QStringLiteral("Text Placeholder 2"), QStringLiteral("<p:ph type=\"body\" idx=\"1\"/>"),
        xfrm(838200, 1825625, 10515600, 4351338),
        QStringLiteral("<a:bodyPr vert=\"horz\" lIns=\"91440\" tIns=\"45720\" rIns=\"91440\" "
                       "bIns=\"45720\" rtlCol=\"0\"><a:normAutofit/></a:bodyPr>"),
        {}, paragraph(QStringLiteral("Text")) + paragraph(QStringLiteral("Second level"), 1));
    return xml(
        QStringLiteral(
            "<p:sldMaster %1><p:cSld><p:bg><p:bgRef idx=\"1001\"><a:schemeClr val=\"bg1\"/>"
            "</p:bgRef></p:bg><p:spTree>%2%3%4</p:spTree></p:cSld>%5<p:sldLayoutIdLst>"
            "<p:sldLayoutId id=\"2147483649\" r:id=\"rId1\"/><p:sldLayoutId id=\"2147483650\" "
            "r:id=\"rId2\"/></p:sldLayoutIdLst><p:txStyles><p:titleStyle><a:lvl1pPr algn=\"l\" "
            "defTabSz=\"914400\" rtl=\"0\" eaLnBrk=\"1\" latinLnBrk=\"0\" hangingPunct=\"1\">"
            "<a:lnSpc><a:spcPct val=\"90000\"/></a:lnSpc><a:spcBef><a:spcPct val=\"0\"/>"
            "</a:spcBef><a:buNone/><a:defRPr sz=\"4000\" kern=\"1200\"><a:solidFill>"
            "<a:schemeClr val=\"tx1\"/></a:solidFill><a:latin typeface=\"+mj-lt\"/><a:ea "
            "typeface=\"+mj-ea\"/><a:cs typeface=\"+mj-cs\"/></a:defRPr></a:lvl1pPr>"
            "</p:titleStyle><p:bodyStyle>%6</p:bodyStyle><p:otherStyle><a:defPPr><a:defRPr "
            "lang=\"en-US\"/></a:defPPr>%7</p:otherStyle></p:txStyles></p:sldMaster>")
            .arg(kNs, kGroup, title, content, kClrMap, body, levelStyle(1, 0, 1800, false)));
}

QByteArray layout(bool titleSlide)
{
    QString shapes;
    if (titleSlide) {
        shapes =
            shape(2, QStringLiteral("Title 1"), QStringLiteral("<p:ph type=\"ctrTitle\"/>"),
                  xfrm(1524000, 1122363, 9144000, 2387600),
                  QStringLiteral("<a:bodyPr anchor=\"b\"><a:normAutofit/></a:bodyPr>"),
                  QStringLiteral("<a:lvl1pPr algn=\"ctr\"><a:defRPr sz=\"5400\"/></a:lvl1pPr>"),
                  paragraph(QStringLiteral("Title"))) +
            shape(3, QStringLiteral("Subtitle 2"),
                  QStringLiteral("<p:ph type=\"subTitle\" idx=\"1\"/>"),
                  xfrm(1524000, 3602038, 9144000, 1655762),
                  QStringLiteral("<a:bodyPr><a:normAutofit/></a:bodyPr>"),
                  QStringLiteral("<a:lvl1pPr marL=\"0\" indent=\"0\" algn=\"ctr\"><a:buNone/>"
                                 "<a:defRPr sz=\"2400\"/></a:lvl1pPr>"),
                  paragraph(QStringLiteral("Subtitle")));
    } else {
        shapes =
            shape(2, QStringLiteral("Title 1"), QStringLiteral("<p:ph type=\"title\"/>"), {},
                  QStringLiteral("<a:bodyPr/>"), {}, paragraph(QStringLiteral("Title"))) +
            shape(3, QStringLiteral("Content Placeholder 2"), QStringLiteral("<p:ph idx=\"1\"/>"),
                  {}, QStringLiteral("<a:bodyPr/>"), {}, paragraph(QStringLiteral("Text")));
    }
    return xml(
        QStringLiteral("<p:sldLayout %1 type=\"%2\" preserve=\"1\"><p:cSld name=\"%3\">"
                       "<p:spTree>%4%5</p:spTree></p:cSld><p:clrMapOvr>"
                       "<a:masterClrMapping/></p:clrMapOvr></p:sldLayout>")
            .arg(kNs, titleSlide ? QStringLiteral("title") : QStringLiteral("obj"),
                 titleSlide ? QStringLiteral("Title Slide") : QStringLiteral("Title and Content"),
                 kGroup, shapes));
}

QByteArray notesMaster()
{
    const QString image =
        QStringLiteral("<p:sp><p:nvSpPr><p:cNvPr id=\"2\" name=\"Slide Image Placeholder 1\"/>"
                       "<p:cNvSpPr><a:spLocks noGrp=\"1\" noRot=\"1\" noChangeAspect=\"1\"/>"
                       "</p:cNvSpPr><p:nvPr><p:ph type=\"sldImg\" idx=\"2\"/></p:nvPr></p:nvSpPr>"
                       "<p:spPr>%1<a:noFill/><a:ln w=\"12700\"><a:solidFill><a:prstClr "
                       "val=\"black\"/></a:solidFill></a:ln></p:spPr></p:sp>")
            .arg(xfrm(685800, 1143000, 5486400, 3086100));
    const QString notes = shape(3, QStringLiteral("Notes Placeholder 2"),
                                QStringLiteral("<p:ph type=\"body\" sz=\"quarter\" idx=\"1\"/>"),
                                xfrm(685800, 4400550, 5486400, 3600450),
                                QStringLiteral("<a:bodyPr vert=\"horz\" rtlCol=\"0\"/>"), {},
                                paragraph(QStringLiteral("Notes")));
    return xml(QStringLiteral("<p:notesMaster %1><p:cSld><p:bg><p:bgRef idx=\"1001\"><a:schemeClr "
                              "val=\"bg1\"/></p:bgRef></p:bg><p:spTree>%2%3%4</p:spTree></p:cSld>"
                              "%5<p:notesStyle>%6</p:notesStyle></p:notesMaster>")
                   .arg(kNs, kGroup, image, notes, kClrMap, levelStyle(1, 0, 1200, false)));
}

QByteArray slide(const Slide &s, bool titleSlide, const QString &subtitle)
{
    QString shapes;
    if (!s.title.isEmpty())
        shapes += shape(2, QStringLiteral("Title 1"),
                        titleSlide ? QStringLiteral("<p:ph type=\"ctrTitle\"/>")
                                   : QStringLiteral("<p:ph type=\"title\"/>"),
                        {}, QStringLiteral("<a:bodyPr/>"), {}, paragraph(s.title));
    if (titleSlide && !subtitle.isEmpty()) {
        shapes += shape(3, QStringLiteral("Subtitle 2"),
                        QStringLiteral("<p:ph type=\"subTitle\" idx=\"1\"/>"), {},
                        QStringLiteral("<a:bodyPr/>"), {}, paragraph(subtitle));
    } else if (!s.bullets.isEmpty()) {
        QString paragraphs;
        for (const auto &[level, text] : s.bullets)
            paragraphs += paragraph(text, level);
        shapes +=
            shape(3, QStringLiteral("Content Placeholder 2"), QStringLiteral("<p:ph idx=\"1\"/>"),
                  {}, QStringLiteral("<a:bodyPr><a:normAutofit/></a:bodyPr>"), {}, paragraphs);
    }
    return xml(QStringLiteral("<p:sld %1><p:cSld><p:spTree>%2%3</p:spTree></p:cSld><p:clrMapOvr>"
                              "<a:masterClrMapping/></p:clrMapOvr></p:sld>")
                   .arg(kNs, kGroup, shapes));
}

QByteArray notesSlide(const QString &notes)
{
    QString paragraphs;
    for (const QString &line : notes.split(QLatin1Char('\n')))
        paragraphs += paragraph(line);
    const QString image =
        QStringLiteral("<p:sp><p:nvSpPr><p:cNvPr id=\"2\" name=\"Slide Image Placeholder 1\"/>"
                       "<p:cNvSpPr><a:spLocks noGrp=\"1\" noRot=\"1\" noChangeAspect=\"1\"/>"
                       "</p:cNvSpPr><p:nvPr><p:ph type=\"sldImg\"/></p:nvPr></p:nvSpPr>"
                       "<p:spPr/></p:sp>");
    const QString body = shape(3, QStringLiteral("Notes Placeholder 2"),
                               QStringLiteral("<p:ph type=\"body\" idx=\"1\"/>"), {},
                               QStringLiteral("<a:bodyPr/>"), {}, paragraphs);
    return xml(QStringLiteral("<p:notes %1><p:cSld><p:spTree>%2%3%4</p:spTree></p:cSld>"
                              "<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>")
                   .arg(kNs, kGroup, image, body));
}

} // namespace

Result<QByteArray> writePptx(const Deck &deck)
{
    QList<Slide> slides;
    QList<bool> titleSlides;
    if (!deck.title.trimmed().isEmpty()) {
        Slide t;
        t.title = deck.title.trimmed();
        slides.append(t);
        titleSlides.append(true);
    }
    for (const Slide &s : deck.slides) {
        slides.append(s);
        titleSlides.append(false);
    }
    bool anyNotes = false;
    for (const Slide &s : std::as_const(slides))
        anyNotes = anyNotes || !s.notes.trimmed().isEmpty();

    QString overrides;
    auto override = [&overrides](const QString &part, const QString &type) {
        overrides +=
            QStringLiteral("<Override PartName=\"/%1\" ContentType=\"%2\"/>").arg(part, type);
    };
    override(QStringLiteral("ppt/presentation.xml"),
             kPml + QStringLiteral("presentation.main+xml"));
    override(QStringLiteral("ppt/slideMasters/slideMaster1.xml"),
             kPml + QStringLiteral("slideMaster+xml"));
    override(QStringLiteral("ppt/slideLayouts/slideLayout1.xml"),
             kPml + QStringLiteral("slideLayout+xml"));
    override(QStringLiteral("ppt/slideLayouts/slideLayout2.xml"),
             kPml + QStringLiteral("slideLayout+xml"));
    override(QStringLiteral("ppt/theme/theme1.xml"),
             QStringLiteral("application/vnd.openxmlformats-officedocument.theme+xml"));
    override(QStringLiteral("ppt/presProps.xml"), kPml + QStringLiteral("presProps+xml"));
    override(QStringLiteral("ppt/viewProps.xml"), kPml + QStringLiteral("viewProps+xml"));
    override(QStringLiteral("ppt/tableStyles.xml"), kPml + QStringLiteral("tableStyles+xml"));
    override(QStringLiteral("docProps/core.xml"),
             QStringLiteral("application/vnd.openxmlformats-package.core-properties+xml"));
    override(
        QStringLiteral("docProps/app.xml"),
        QStringLiteral("application/vnd.openxmlformats-officedocument.extended-properties+xml"));
    if (anyNotes) {
        override(QStringLiteral("ppt/notesMasters/notesMaster1.xml"),
                 kPml + QStringLiteral("notesMaster+xml"));
        override(QStringLiteral("ppt/theme/theme2.xml"),
                 QStringLiteral("application/vnd.openxmlformats-officedocument.theme+xml"));
    }

    QList<QPair<QString, QByteArray>> parts;
    QList<Rel> presentationRels{
        {QStringLiteral("slideMaster"), QStringLiteral("slideMasters/slideMaster1.xml")},
        {QStringLiteral("theme"), QStringLiteral("theme/theme1.xml")},
        {QStringLiteral("presProps"), QStringLiteral("presProps.xml")},
        {QStringLiteral("viewProps"), QStringLiteral("viewProps.xml")},
        {QStringLiteral("tableStyles"), QStringLiteral("tableStyles.xml")}};
    if (anyNotes)
        presentationRels.append(
            {QStringLiteral("notesMaster"), QStringLiteral("notesMasters/notesMaster1.xml")});
    QString slideIds;
    QList<QPair<QString, QByteArray>> slideParts;
    for (qsizetype i = 0; i < slides.size(); ++i) {
        const QString n = QString::number(i + 1);
        const Slide &s = slides.at(i);
        const bool title = titleSlides.at(i);
        presentationRels.append(
            {QStringLiteral("slide"), QStringLiteral("slides/slide%1.xml").arg(n)});
        slideIds += QStringLiteral("<p:sldId id=\"%1\" r:id=\"rId%2\"/>")
                        .arg(256 + i)
                        .arg(presentationRels.size());
        override(QStringLiteral("ppt/slides/slide%1.xml").arg(n),
                 kPml + QStringLiteral("slide+xml"));
        QList<Rel> slideRels{
            {QStringLiteral("slideLayout"),
             QStringLiteral("../slideLayouts/slideLayout%1.xml").arg(title ? 1 : 2)}};
        slideParts.append({QStringLiteral("ppt/slides/slide%1.xml").arg(n),
                           slide(s, title, title ? deck.subtitle.trimmed() : QString())});
        if (!s.notes.trimmed().isEmpty()) {
            slideRels.append({QStringLiteral("notesSlide"),
                              QStringLiteral("../notesSlides/notesSlide%1.xml").arg(n)});
            override(QStringLiteral("ppt/notesSlides/notesSlide%1.xml").arg(n),
                     kPml + QStringLiteral("notesSlide+xml"));
            slideParts.append({QStringLiteral("ppt/notesSlides/notesSlide%1.xml").arg(n),
                               notesSlide(s.notes.trimmed())});
            slideParts.append({QStringLiteral("ppt/notesSlides/_rels/notesSlide%1.xml.rels").arg(n),
                               rels({{QStringLiteral("notesMaster"),
                                      QStringLiteral("../notesMasters/notesMaster1.xml")},
                                     {QStringLiteral("slide"),
                                      QStringLiteral("../slides/slide%1.xml").arg(n)}})});
        }
        slideParts.append(
            {QStringLiteral("ppt/slides/_rels/slide%1.xml.rels").arg(n), rels(slideRels)});
    }

    parts.append({QStringLiteral("[Content_Types].xml"), {}}); // filled in last
    parts.append(
        {QStringLiteral("_rels/.rels"),
         rels({{QStringLiteral("officeDocument"), QStringLiteral("ppt/presentation.xml")},
               {QStringLiteral("http://schemas.openxmlformats.org/package/2006/"
                               "relationships/metadata/core-properties"),
                QStringLiteral("docProps/core.xml")},
               {QStringLiteral("extended-properties"), QStringLiteral("docProps/app.xml")}})});
    parts.append({QStringLiteral("docProps/core.xml"), coreProperties(deck.title)});
    parts.append(
        {QStringLiteral("docProps/app.xml"),
         xml(QStringLiteral("<Properties "
                            "xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                            "extended-properties\" "
                            "xmlns:vt=\"http://schemas.openxmlformats.org/officeDocument/2006/"
                            "docPropsVTypes\">"
                            "<Application>Pilothouse</Application><Slides>%1</Slides></Properties>")
                 .arg(slides.size()))});
    parts.append(
        {QStringLiteral("ppt/presentation.xml"),
         xml(QStringLiteral("<p:presentation %1 saveSubsetFonts=\"1\"><p:sldMasterIdLst>"
                            "<p:sldMasterId id=\"2147483648\" r:id=\"rId1\"/></p:sldMasterIdLst>"
                            "%2<p:sldIdLst>%3</p:sldIdLst><p:sldSz cx=\"%4\" cy=\"%5\"/>"
                            "<p:notesSz cx=\"6858000\" cy=\"9144000\"/><p:defaultTextStyle>"
                            "<a:defPPr><a:defRPr lang=\"en-US\"/></a:defPPr></p:defaultTextStyle>"
                            "</p:presentation>")
                 .arg(kNs,
                      anyNotes
                          ? QStringLiteral("<p:notesMasterIdLst><p:notesMasterId r:id=\"rId6\"/>"
                                           "</p:notesMasterIdLst>")
                          : QString(),
                      slideIds, QString::number(kSlideWidth), QString::number(kSlideHeight)))});
    parts.append({QStringLiteral("ppt/_rels/presentation.xml.rels"), rels(presentationRels)});
    parts.append({QStringLiteral("ppt/presProps.xml"),
                  xml(QStringLiteral("<p:presentationPr %1/>").arg(kNs))});
    parts.append(
        {QStringLiteral("ppt/viewProps.xml"), xml(QStringLiteral("<p:viewPr %1/>").arg(kNs))});
    parts.append(
        {QStringLiteral("ppt/tableStyles.xml"),
         xml(QStringLiteral("<a:tblStyleLst "
                            "xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" "
                            "def=\"{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}\"/>"))});
    parts.append({QStringLiteral("ppt/slideMasters/slideMaster1.xml"), master()});
    parts.append(
        {QStringLiteral("ppt/slideMasters/_rels/slideMaster1.xml.rels"),
         rels({{QStringLiteral("slideLayout"), QStringLiteral("../slideLayouts/slideLayout1.xml")},
               {QStringLiteral("slideLayout"), QStringLiteral("../slideLayouts/slideLayout2.xml")},
               {QStringLiteral("theme"), QStringLiteral("../theme/theme1.xml")}})});
    for (int l = 1; l <= 2; ++l) {
        parts.append({QStringLiteral("ppt/slideLayouts/slideLayout%1.xml").arg(l), layout(l == 1)});
        parts.append({QStringLiteral("ppt/slideLayouts/_rels/slideLayout%1.xml.rels").arg(l),
                      rels({{QStringLiteral("slideMaster"),
                             QStringLiteral("../slideMasters/slideMaster1.xml")}})});
    }
    parts.append({QStringLiteral("ppt/theme/theme1.xml"), theme(QStringLiteral("Office Theme"))});
    if (anyNotes) {
        parts.append({QStringLiteral("ppt/notesMasters/notesMaster1.xml"), notesMaster()});
        parts.append({QStringLiteral("ppt/notesMasters/_rels/notesMaster1.xml.rels"),
                      rels({{QStringLiteral("theme"), QStringLiteral("../theme/theme2.xml")}})});
        parts.append(
            {QStringLiteral("ppt/theme/theme2.xml"), theme(QStringLiteral("Notes Theme"))});
    }
    parts.append(slideParts);
    // The content types, now that every part is known.
    parts[0].second =
        xml(QStringLiteral(
                "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                "<Default Extension=\"rels\" "
                "ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                "<Default Extension=\"xml\" ContentType=\"application/xml\"/>%1</Types>")
                .arg(overrides));
    return internal::zipParts(parts);
}

} // namespace ph::data
