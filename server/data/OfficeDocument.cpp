#include "data/OfficeDocument.h"

#include "data/internal/OfficeXml.h"
#include "data/internal/ZipArchive.h"

#include <QFont>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>
#include <QUrl>
#include <QXmlStreamReader>

namespace ph::data {

namespace {

constexpr int kMaxBulletChars = 300;
constexpr qint64 kMaxPartBytes = 64LL * 1024 * 1024;

bool sameFormat(const TextRun &a, const TextRun &b)
{
    return a.bold == b.bold && a.italic == b.italic && a.code == b.code && a.href == b.href;
}

// Links keep only targets a reader may follow safely.
QString safeHref(const QString &href)
{
    const QUrl url(href);
    const QString scheme = url.scheme().toLower();
    return url.isValid() && (scheme == QLatin1String("http") || scheme == QLatin1String("https") ||
                             scheme == QLatin1String("mailto"))
               ? url.toString(QUrl::FullyEncoded)
               : QString();
}

Inline runsOf(const QTextBlock &block)
{
    Inline out;
    for (auto it = block.begin(); !it.atEnd(); ++it) {
        const QTextFragment f = it.fragment();
        if (!f.isValid())
            continue;
        QString text = f.text();
        text.remove(QChar::ObjectReplacementCharacter); // images
        text.replace(QChar::LineSeparator, QLatin1Char('\n'));
        text.replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
        if (text.isEmpty())
            continue;
        const QTextCharFormat cf = f.charFormat();
        TextRun run;
        run.text = text;
        run.bold = cf.fontWeight() >= QFont::DemiBold;
        run.italic = cf.fontItalic();
        run.code = cf.fontFixedPitch();
        if (cf.isAnchor())
            run.href = safeHref(cf.anchorHref());
        if (!out.isEmpty() && sameFormat(out.last(), run))
            out.last().text += run.text;
        else
            out.append(run);
    }
    return out;
}

Inline plain(const QString &text, bool bold = false)
{
    TextRun r;
    r.text = text;
    r.bold = bold;
    return {r};
}

struct MarkdownWalk
{
    QList<DocBlock> out;
    QHash<const QTextList *, int> lists;

    void block(const QTextBlock &b)
    {
        const QTextBlockFormat bf = b.blockFormat();
        if (bf.hasProperty(QTextFormat::BlockTrailingHorizontalRulerWidth)) {
            DocBlock rule;
            rule.kind = DocBlock::Kind::Rule;
            out.append(rule);
            return;
        }
        DocBlock d;
        d.runs = runsOf(b);
        if (plainText(d.runs).trimmed().isEmpty())
            return;
        if (const QTextList *list = b.textList()) {
            d.kind = DocBlock::Kind::ListItem;
            const QTextListFormat lf = list->format();
            d.level = qBound(0, lf.indent() - 1, 8);
            d.ordered = lf.style() <= QTextListFormat::ListDecimal;
            auto it = lists.constFind(list);
            if (it == lists.cend())
                it = lists.insert(list, int(lists.size()) + 1);
            d.list = *it;
        } else if (bf.headingLevel() > 0) {
            d.kind = DocBlock::Kind::Heading;
            d.level = qBound(1, bf.headingLevel(), 6);
        } else if (bf.hasProperty(QTextFormat::BlockCodeFence) || bf.nonBreakableLines()) {
            d.kind = DocBlock::Kind::Code;
            for (TextRun &r : d.runs)
                r.code = false;
        } else if (bf.intProperty(QTextFormat::BlockQuoteLevel) > 0) {
            d.kind = DocBlock::Kind::Quote;
        }
        out.append(d);
    }

    void table(QTextTable *t)
    {
        DocBlock d;
        d.kind = DocBlock::Kind::Table;
        for (int r = 0; r < t->rows(); ++r) {
            QList<Inline> row;
            for (int c = 0; c < t->columns(); ++c) {
                const QTextTableCell cell = t->cellAt(r, c);
                Inline text;
                if (cell.row() == r && cell.column() == c) {
                    for (auto it = cell.begin(); !it.atEnd(); ++it) {
                        const QTextBlock b = it.currentBlock();
                        if (!b.isValid())
                            continue;
                        if (!text.isEmpty())
                            text.append(plain(QStringLiteral("\n")));
                        text.append(runsOf(b));
                    }
                }
                row.append(text);
            }
            d.rows.append(row);
        }
        if (!d.rows.isEmpty())
            out.append(d);
    }

    void frame(QTextFrame *f)
    {
        for (auto it = f->begin(); !it.atEnd(); ++it) {
            if (QTextFrame *child = it.currentFrame()) {
                if (auto *t = qobject_cast<QTextTable *>(child))
                    table(t);
                else
                    frame(child);
            } else {
                block(it.currentBlock());
            }
        }
    }
};

bool isRows(const QJsonValue &v)
{
    if (!v.isArray() || v.toArray().isEmpty())
        return false;
    for (const QJsonValue &row : v.toArray())
        if (!row.isObject())
            return false;
    return true;
}

QStringList columnsOf(const QJsonArray &rows)
{
    QStringList columns;
    for (const QJsonValue &row : rows) {
        const QJsonObject o = row.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!columns.contains(it.key()))
                columns << it.key();
    }
    return columns;
}

DocBlock tableOf(const QJsonArray &rows)
{
    DocBlock t;
    t.kind = DocBlock::Kind::Table;
    const QStringList columns = columnsOf(rows);
    QList<Inline> header;
    for (const QString &c : columns)
        header.append(plain(c, true));
    t.rows.append(header);
    for (const QJsonValue &row : rows) {
        QList<Inline> cells;
        for (const QString &c : columns)
            cells.append(plain(cellText(row.toObject().value(c), BoolText::YesNo)));
        t.rows.append(cells);
    }
    return t;
}

void dataBlocks(const QJsonValue &data, int depth, int &listId, QList<DocBlock> &out)
{
    if (isRows(data)) {
        out.append(tableOf(data.toArray()));
        return;
    }
    if (data.isArray()) {
        ++listId;
        for (const QJsonValue &v : data.toArray()) {
            DocBlock item;
            item.kind = DocBlock::Kind::ListItem;
            item.list = listId;
            item.runs = plain(cellText(v, BoolText::YesNo));
            out.append(item);
        }
        return;
    }
    if (data.isObject()) {
        const QJsonObject o = data.toObject();
        int fields = 0;
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QJsonValue v = it.value();
            if ((v.isArray() || v.isObject()) && depth < 3) {
                out.append(DocBlock::heading(qMin(depth + 2, 6), it.key()));
                dataBlocks(v, depth + 1, listId, out);
                fields = 0;
                continue;
            }
            if (fields++ == 0)
                ++listId;
            DocBlock item;
            item.kind = DocBlock::Kind::ListItem;
            item.list = listId;
            item.runs = plain(it.key() + QStringLiteral(": "), true);
            item.runs.append(plain(cellText(v, BoolText::YesNo)));
            out.append(item);
        }
        return;
    }
    if (!data.isNull() && !data.isUndefined())
        out.append(DocBlock::paragraph(cellText(data, BoolText::YesNo)));
}

QString clipped(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text = text.simplified();
    return text.size() > kMaxBulletChars ? text.left(kMaxBulletChars - 1) + QChar(0x2026) : text;
}

// The value naming a row: its name/title/label …, else its first text.
QString rowTitle(const QJsonObject &row, QString *key)
{
    static const QStringList names{QStringLiteral("name"),    QStringLiteral("title"),
                                   QStringLiteral("label"),   QStringLiteral("product"),
                                   QStringLiteral("heading"), QStringLiteral("subject"),
                                   QStringLiteral("company"), QStringLiteral("city")};
    for (const QString &n : names) {
        for (auto it = row.begin(); it != row.end(); ++it) {
            if (it.key().compare(n, Qt::CaseInsensitive) == 0 && it.value().isString() &&
                !it.value().toString().trimmed().isEmpty()) {
                *key = it.key();
                return it.value().toString().trimmed();
            }
        }
    }
    for (auto it = row.begin(); it != row.end(); ++it) {
        if (it.value().isString() && !it.value().toString().trimmed().isEmpty()) {
            *key = it.key();
            return it.value().toString().trimmed();
        }
    }
    key->clear();
    return {};
}

void rowSlides(const QJsonArray &rows, QList<Slide> &out)
{
    int n = 0;
    for (const QJsonValue &v : rows) {
        ++n;
        const QJsonObject row = v.toObject();
        QString key;
        Slide s;
        s.title = clipped(rowTitle(row, &key));
        if (s.title.isEmpty())
            s.title = QStringLiteral("Item %1").arg(n);
        for (auto it = row.begin(); it != row.end(); ++it) {
            if (it.key() == key)
                continue;
            const QString value = cellText(it.value());
            if (!value.trimmed().isEmpty())
                s.bullets.append({0, clipped(QStringLiteral("%1: %2").arg(it.key(), value))});
        }
        out.append(s);
    }
}

} // namespace

DocBlock DocBlock::heading(int level, const QString &text)
{
    DocBlock d;
    d.kind = Kind::Heading;
    d.level = qBound(1, level, 6);
    d.runs = plain(text);
    return d;
}

DocBlock DocBlock::paragraph(const QString &text)
{
    DocBlock d;
    d.runs = plain(text);
    return d;
}

QString plainText(const Inline &runs)
{
    QString out;
    for (const TextRun &r : runs)
        out += r.text;
    return out;
}

QList<DocBlock> blocksFromMarkdown(const QString &markdown)
{
    QTextDocument doc;
    doc.setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);
    MarkdownWalk walk;
    walk.frame(doc.rootFrame());
    return walk.out;
}

QList<DocBlock> blocksFromData(const QJsonValue &data)
{
    QList<DocBlock> out;
    int listId = 1000; // apart from the lists of markdown blocks the data may follow
    dataBlocks(data, 0, listId, out);
    return out;
}

QList<Slide> slidesFromBlocks(const QList<DocBlock> &blocks, QString *lead)
{
    int h1 = 0;
    int h2 = 0;
    for (const DocBlock &b : blocks) {
        if (b.kind == DocBlock::Kind::Heading && b.level == 1)
            ++h1;
        else if (b.kind == DocBlock::Kind::Heading && b.level == 2)
            ++h2;
    }
    const int split = h1 >= 2 ? 1 : h2 >= 1 ? 2 : h1 == 1 ? 1 : 0;
    QList<Slide> slides;
    Slide current;
    bool open = false;
    auto flush = [&] {
        if (open && (!current.title.isEmpty() || !current.bullets.isEmpty()))
            slides.append(current);
        current = Slide();
        open = true;
    };
    open = true;
    for (const DocBlock &b : blocks) {
        switch (b.kind) {
        case DocBlock::Kind::Heading:
            if (split == 2 && b.level == 1) {
                // The lone level-1 heading names the deck.
                if (lead && lead->isEmpty())
                    *lead = clipped(plainText(b.runs));
                continue;
            }
            if (b.level <= split) {
                flush();
                current.title = clipped(plainText(b.runs));
            } else {
                current.bullets.append({0, clipped(plainText(b.runs))});
            }
            break;
        case DocBlock::Kind::Rule:
            flush();
            break;
        case DocBlock::Kind::ListItem:
            current.bullets.append({qMin(b.level, 4), clipped(plainText(b.runs))});
            break;
        case DocBlock::Kind::Code:
            for (const QString &line : plainText(b.runs).split(QLatin1Char('\n')))
                if (!line.trimmed().isEmpty())
                    current.bullets.append({0, clipped(line)});
            break;
        case DocBlock::Kind::Table:
            for (qsizetype r = 1; r < b.rows.size(); ++r) {
                QStringList cells;
                for (const Inline &cell : b.rows.at(r))
                    if (!plainText(cell).trimmed().isEmpty())
                        cells << plainText(cell).trimmed();
                if (!cells.isEmpty())
                    current.bullets.append({0, clipped(cells.join(QStringLiteral(" \u2014 ")))});
            }
            break;
        case DocBlock::Kind::Paragraph:
        case DocBlock::Kind::Quote:
            current.bullets.append({0, clipped(plainText(b.runs))});
            break;
        }
    }
    flush();
    return slides;
}

QList<Slide> slidesFromData(const QJsonValue &data)
{
    QList<Slide> out;
    if (isRows(data)) {
        rowSlides(data.toArray(), out);
    } else if (data.isArray()) {
        Slide s;
        for (const QJsonValue &v : data.toArray())
            if (!cellText(v).trimmed().isEmpty())
                s.bullets.append({0, clipped(cellText(v))});
        out.append(s);
    } else if (data.isObject()) {
        const QJsonObject o = data.toObject();
        Slide overview;
        overview.title = QStringLiteral("Overview");
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (isRows(it.value())) {
                rowSlides(it.value().toArray(), out);
            } else if (it.value().isArray()) {
                Slide s;
                s.title = clipped(it.key());
                for (const QJsonValue &v : it.value().toArray())
                    s.bullets.append({0, clipped(cellText(v))});
                out.append(s);
            } else if (!cellText(it.value()).trimmed().isEmpty()) {
                overview.bullets.append(
                    {0, clipped(QStringLiteral("%1: %2").arg(it.key(), cellText(it.value())))});
            }
        }
        if (!overview.bullets.isEmpty())
            out.prepend(overview);
    } else if (!cellText(data).trimmed().isEmpty()) {
        Slide s;
        s.bullets.append({0, clipped(cellText(data))});
        out.append(s);
    }
    return out;
}

QList<Slide> paginateSlides(const QList<Slide> &slides)
{
    QList<Slide> out;
    for (const Slide &s : slides) {
        if (s.bullets.size() <= kMaxBulletsPerSlide) {
            out.append(s);
            continue;
        }
        for (qsizetype i = 0; i < s.bullets.size(); i += kMaxBulletsPerSlide) {
            Slide part;
            part.title =
                i == 0 || s.title.isEmpty() ? s.title : QStringLiteral("%1 (cont.)").arg(s.title);
            part.bullets = s.bullets.mid(i, kMaxBulletsPerSlide);
            if (i == 0)
                part.notes = s.notes;
            out.append(part);
        }
    }
    return out;
}

// ------------------------------------------------------------------------ reading back

namespace {

enum class Package { Docx, Odt, Pptx, Odp, Unknown };

Package packageOf(internal::ZipArchive &zip)
{
    if (zip.contains(QStringLiteral("word/document.xml")))
        return Package::Docx;
    if (zip.contains(QStringLiteral("ppt/presentation.xml")))
        return Package::Pptx;
    QByteArray mime;
    if (zip.read(QStringLiteral("mimetype"), 256, &mime) == internal::ZipArchive::Status::Ok) {
        if (mime.trimmed() == "application/vnd.oasis.opendocument.text")
            return Package::Odt;
        if (mime.trimmed() == "application/vnd.oasis.opendocument.presentation")
            return Package::Odp;
    }
    return Package::Unknown;
}

Result<QByteArray> part(internal::ZipArchive &zip, const QString &name)
{
    QByteArray out;
    switch (zip.read(name, kMaxPartBytes, &out)) {
    case internal::ZipArchive::Status::Ok:
        return out;
    case internal::ZipArchive::Status::Missing:
        return DataError::malformed(QStringLiteral("the file has no %1").arg(name));
    case internal::ZipArchive::Status::TooLarge:
        return DataError::tooLarge(QStringLiteral("%1 is too large").arg(name));
    case internal::ZipArchive::Status::Damaged:
        break;
    }
    return DataError::malformed(QStringLiteral("%1 is damaged").arg(name));
}

// WordprocessingML: a line per paragraph; Heading/Title styles as '#'; cells with " | ".
QString docxText(const QByteArray &xml)
{
    QXmlStreamReader r(xml);
    QStringList lines;
    QString para;
    QString cells;
    int heading = 0;
    int tableDepth = 0;
    bool inText = false;
    while (!r.atEnd()) {
        r.readNext();
        const auto name = r.qualifiedName();
        if (r.isStartElement()) {
            if (name == QLatin1String("w:p")) {
                para.clear();
                heading = 0;
            } else if (name == QLatin1String("w:pStyle")) {
                const QString style = r.attributes().value(QLatin1String("w:val")).toString();
                if (style == QLatin1String("Title"))
                    heading = 1;
                else if (style.startsWith(QLatin1String("Heading")))
                    heading = qBound(1, style.mid(7).toInt() + 1, 6);
            } else if (name == QLatin1String("w:t")) {
                inText = true;
            } else if (name == QLatin1String("w:tab")) {
                para += QLatin1Char('\t');
            } else if (name == QLatin1String("w:br")) {
                para += QLatin1Char(' ');
            } else if (name == QLatin1String("w:tbl")) {
                ++tableDepth;
            } else if (name == QLatin1String("w:tr")) {
                cells.clear();
            }
        } else if (r.isCharacters() && inText) {
            para += r.text();
        } else if (r.isEndElement()) {
            if (name == QLatin1String("w:t")) {
                inText = false;
            } else if (name == QLatin1String("w:p")) {
                if (tableDepth > 0) {
                    cells += (cells.isEmpty() ? QString() : QStringLiteral(" ")) + para;
                } else if (!para.trimmed().isEmpty()) {
                    lines << (heading > 0
                                  ? QString(heading, QLatin1Char('#')) + QLatin1Char(' ') + para
                                  : para);
                }
            } else if (name == QLatin1String("w:tc")) {
                cells += QStringLiteral(" |");
            } else if (name == QLatin1String("w:tr")) {
                lines << QStringLiteral("| ") + cells.trimmed();
            } else if (name == QLatin1String("w:tbl")) {
                --tableDepth;
            }
        }
    }
    return lines.join(QLatin1Char('\n'));
}

// OpenDocument text: text:h as '#', text:p as lines, table cells with " | ".
QString odtText(const QByteArray &xml)
{
    QXmlStreamReader r(xml);
    QStringList lines;
    QString para;
    QString cells;
    int depth = 0; // inside text:p / text:h
    int heading = 0;
    int tableDepth = 0;
    bool inBody = false;
    while (!r.atEnd()) {
        r.readNext();
        const auto name = r.qualifiedName();
        if (r.isStartElement()) {
            if (name == QLatin1String("office:text")) {
                inBody = true;
            } else if (!inBody) {
                continue;
            } else if (name == QLatin1String("text:p") || name == QLatin1String("text:h")) {
                if (depth++ == 0) {
                    para.clear();
                    heading =
                        name == QLatin1String("text:h")
                            ? qMax(
                                  1,
                                  r.attributes().value(QLatin1String("text:outline-level")).toInt())
                            : 0;
                }
            } else if (name == QLatin1String("text:s")) {
                para += QString(qMax(1, r.attributes().value(QLatin1String("text:c")).toInt()),
                                QLatin1Char(' '));
            } else if (name == QLatin1String("text:tab")) {
                para += QLatin1Char('\t');
            } else if (name == QLatin1String("text:line-break")) {
                para += QLatin1Char(' ');
            } else if (name == QLatin1String("table:table")) {
                ++tableDepth;
            } else if (name == QLatin1String("table:table-row")) {
                cells.clear();
            }
        } else if (r.isCharacters() && depth > 0) {
            para += r.text();
        } else if (r.isEndElement() && inBody) {
            if (name == QLatin1String("text:p") || name == QLatin1String("text:h")) {
                if (--depth == 0) {
                    if (tableDepth > 0)
                        cells += (cells.isEmpty() ? QString() : QStringLiteral(" ")) + para;
                    else if (!para.trimmed().isEmpty())
                        lines << (heading > 0
                                      ? QString(heading, QLatin1Char('#')) + QLatin1Char(' ') + para
                                      : para);
                }
            } else if (name == QLatin1String("table:table-cell")) {
                cells += QStringLiteral(" |");
            } else if (name == QLatin1String("table:table-row")) {
                lines << QStringLiteral("| ") + cells.trimmed();
            } else if (name == QLatin1String("table:table")) {
                --tableDepth;
            } else if (name == QLatin1String("office:text")) {
                inBody = false;
            }
        }
    }
    return lines.join(QLatin1Char('\n'));
}

// The target of relationship `id` in a .rels part.
QHash<QString, QString> relationships(const QByteArray &rels)
{
    QHash<QString, QString> out;
    QXmlStreamReader r(rels);
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement() && r.name() == QLatin1String("Relationship"))
            out.insert(r.attributes().value(QLatin1String("Id")).toString(),
                       r.attributes().value(QLatin1String("Target")).toString());
    }
    return out;
}

// A PresentationML shape tree's title and bullets; `notes` reads a notes slide's body.
void pptxShapes(const QByteArray &xml, Slide &slide, bool notes)
{
    QXmlStreamReader r(xml);
    QString kind; // of the current shape's placeholder
    bool inShape = false;
    QString para;
    int level = 0;
    bool inText = false;
    QStringList noteLines;
    while (!r.atEnd()) {
        r.readNext();
        const auto name = r.qualifiedName();
        if (r.isStartElement()) {
            if (name == QLatin1String("p:sp")) {
                inShape = true;
                kind = QStringLiteral("body");
            } else if (inShape && name == QLatin1String("p:ph")) {
                kind = r.attributes().value(QLatin1String("type")).toString();
                if (kind.isEmpty())
                    kind = QStringLiteral("body");
            } else if (name == QLatin1String("a:p")) {
                para.clear();
                level = 0;
            } else if (name == QLatin1String("a:pPr")) {
                level = r.attributes().value(QLatin1String("lvl")).toInt();
            } else if (name == QLatin1String("a:t")) {
                inText = true;
            } else if (name == QLatin1String("a:br")) {
                para += QLatin1Char(' ');
            }
        } else if (r.isCharacters() && inText) {
            para += r.text();
        } else if (r.isEndElement()) {
            if (name == QLatin1String("a:t")) {
                inText = false;
            } else if (name == QLatin1String("a:p") && inShape && !para.trimmed().isEmpty()) {
                if (notes) {
                    if (kind == QLatin1String("body"))
                        noteLines << para;
                } else if (kind == QLatin1String("title") || kind == QLatin1String("ctrTitle")) {
                    slide.title += (slide.title.isEmpty() ? QString() : QStringLiteral(" ")) + para;
                } else if (kind == QLatin1String("subTitle") || kind == QLatin1String("body") ||
                           kind == QLatin1String("obj")) {
                    slide.bullets.append({level, para});
                }
            } else if (name == QLatin1String("p:sp")) {
                inShape = false;
            }
        }
    }
    if (notes)
        slide.notes = noteLines.join(QLatin1Char('\n'));
}

QString resolve(const QString &base, const QString &target)
{
    if (target.startsWith(QLatin1Char('/')))
        return target.mid(1);
    QStringList parts = base.split(QLatin1Char('/'));
    parts.removeLast();
    for (const QString &p : target.split(QLatin1Char('/'))) {
        if (p == QLatin1String("..")) {
            if (!parts.isEmpty())
                parts.removeLast();
        } else if (p != QLatin1String(".")) {
            parts << p;
        }
    }
    return parts.join(QLatin1Char('/'));
}

Result<QList<Slide>> pptxSlides(internal::ZipArchive &zip)
{
    const auto presentation = part(zip, QStringLiteral("ppt/presentation.xml"));
    if (!presentation)
        return presentation.error();
    const auto rels = part(zip, QStringLiteral("ppt/_rels/presentation.xml.rels"));
    if (!rels)
        return rels.error();
    const QHash<QString, QString> targets = relationships(*rels);
    QList<Slide> out;
    QXmlStreamReader r(*presentation);
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement() || r.qualifiedName() != QLatin1String("p:sldId"))
            continue;
        const QString id = r.attributes().value(QLatin1String("r:id")).toString();
        const QString path = resolve(QStringLiteral("ppt/presentation.xml"), targets.value(id));
        const auto xml = part(zip, path);
        if (!xml)
            return xml.error();
        Slide slide;
        pptxShapes(*xml, slide, false);
        // Its notes, when it has a notes slide.
        const QString relsPath = resolve(path, QStringLiteral("_rels/") + path.section(u'/', -1) +
                                                   QStringLiteral(".rels"));
        QByteArray slideRels;
        if (zip.read(relsPath, kMaxPartBytes, &slideRels) == internal::ZipArchive::Status::Ok) {
            for (const QString &target : relationships(slideRels)) {
                if (target.contains(QLatin1String("notesSlide"))) {
                    const auto notes = part(zip, resolve(path, target));
                    if (notes)
                        pptxShapes(*notes, slide, true);
                }
            }
        }
        out.append(slide);
    }
    return out;
}

Result<QList<Slide>> odpSlides(internal::ZipArchive &zip)
{
    const auto content = part(zip, QStringLiteral("content.xml"));
    if (!content)
        return content.error();
    QList<Slide> out;
    QXmlStreamReader r(*content);
    Slide slide;
    QString frameClass;
    bool inNotes = false;
    int listDepth = 0;
    int paraDepth = 0;
    QString para;
    QStringList notes;
    while (!r.atEnd()) {
        r.readNext();
        const auto name = r.qualifiedName();
        if (r.isStartElement()) {
            if (name == QLatin1String("draw:page")) {
                slide = Slide();
                notes.clear();
            } else if (name == QLatin1String("presentation:notes")) {
                inNotes = true;
            } else if (name == QLatin1String("draw:frame")) {
                frameClass = r.attributes().value(QLatin1String("presentation:class")).toString();
            } else if (name == QLatin1String("text:list")) {
                ++listDepth;
            } else if (name == QLatin1String("text:p") || name == QLatin1String("text:h")) {
                if (paraDepth++ == 0)
                    para.clear();
            } else if (name == QLatin1String("text:s")) {
                para += QLatin1Char(' ');
            } else if (name == QLatin1String("text:line-break")) {
                para += QLatin1Char(' ');
            }
        } else if (r.isCharacters() && paraDepth > 0) {
            para += r.text();
        } else if (r.isEndElement()) {
            if (name == QLatin1String("text:list")) {
                --listDepth;
            } else if ((name == QLatin1String("text:p") || name == QLatin1String("text:h")) &&
                       --paraDepth == 0 && !para.trimmed().isEmpty()) {
                if (inNotes)
                    notes << para;
                else if (frameClass == QLatin1String("title"))
                    slide.title += (slide.title.isEmpty() ? QString() : QStringLiteral(" ")) + para;
                else if (!frameClass.isEmpty())
                    slide.bullets.append({qMax(0, listDepth - 1), para});
            } else if (name == QLatin1String("presentation:notes")) {
                inNotes = false;
            } else if (name == QLatin1String("draw:frame")) {
                frameClass.clear();
            } else if (name == QLatin1String("draw:page")) {
                slide.notes = notes.join(QLatin1Char('\n'));
                out.append(slide);
            }
        }
    }
    if (r.hasError())
        return DataError::malformed(QStringLiteral("content.xml: %1").arg(r.errorString()));
    return out;
}

} // namespace

Result<QString> documentText(const QByteArray &file)
{
    internal::ZipArchive zip(file);
    if (!zip.isOpen())
        return DataError::malformed(QStringLiteral("the file is not a zip archive"));
    switch (packageOf(zip)) {
    case Package::Docx: {
        const auto xml = part(zip, QStringLiteral("word/document.xml"));
        if (!xml)
            return xml.error();
        return docxText(*xml);
    }
    case Package::Odt: {
        const auto xml = part(zip, QStringLiteral("content.xml"));
        if (!xml)
            return xml.error();
        return odtText(*xml);
    }
    case Package::Pptx:
    case Package::Odp: {
        const auto slides = deckSlides(file);
        if (!slides)
            return slides.error();
        QStringList lines;
        for (const Slide &s : *slides) {
            lines << QStringLiteral("## ") + s.title;
            for (const auto &[level, text] : s.bullets)
                lines << QString(level * 2, QLatin1Char(' ')) + QStringLiteral("- ") + text;
        }
        return lines.join(QLatin1Char('\n'));
    }
    case Package::Unknown:
        break;
    }
    return DataError::unsupported(
        QStringLiteral("the file is neither a .docx, .odt, .pptx nor .odp document"));
}

Result<QList<Slide>> deckSlides(const QByteArray &file)
{
    internal::ZipArchive zip(file);
    if (!zip.isOpen())
        return DataError::malformed(QStringLiteral("the file is not a zip archive"));
    switch (packageOf(zip)) {
    case Package::Pptx:
        return pptxSlides(zip);
    case Package::Odp:
        return odpSlides(zip);
    default:
        break;
    }
    return DataError::unsupported(QStringLiteral("the file is neither a .pptx nor an .odp deck"));
}

Result<QByteArray> appendToDocument(const QByteArray &file, const QList<DocBlock> &blocks)
{
    internal::ZipArchive zip(file);
    if (!zip.isOpen())
        return DataError::malformed(QStringLiteral("the file is not a zip archive"));
    switch (packageOf(zip)) {
    case Package::Docx:
        return internal::appendDocx(zip, blocks);
    case Package::Odt:
        return internal::appendOdt(zip, blocks);
    default:
        break;
    }
    return DataError::unsupported(
        QStringLiteral("only .docx and .odt documents can be appended to"));
}

} // namespace ph::data
