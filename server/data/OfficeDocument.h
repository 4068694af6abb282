#pragma once

#include "data/CellText.h" // cellText, once declared here

#include "data/DataError.h"

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QPair>
#include <QString>

namespace ph::data {

// A piece of text with one formatting.
struct TextRun
{
    QString text; // '\n' is a line break within its paragraph
    bool bold = false;
    bool italic = false;
    bool code = false;
    QString href; // a link's target (http, https or mailto only)
};
using Inline = QList<TextRun>;

// One block of a text document: what the .docx and .odt writers turn into paragraphs,
// list items and tables. Made from markdown (blocksFromMarkdown) or from JSON data
// (blocksFromData).
struct DocBlock
{
    enum class Kind { Heading, Paragraph, ListItem, Code, Quote, Rule, Table };
    Kind kind = Kind::Paragraph;
    int level = 0;        // Heading: 1-6; ListItem: nesting depth from 0
    bool ordered = false; // ListItem: numbered rather than bulleted
    int list = 0;         // ListItem: which list (numbering restarts with each list)
    Inline runs;
    QList<QList<Inline>> rows; // Table: rows of cells, the first row is the header

    static DocBlock heading(int level, const QString &text);
    static DocBlock paragraph(const QString &text);
};

// Markdown (CommonMark with GitHub tables, as QTextDocument reads it) as blocks:
// headings, paragraphs with bold/italic/code/links, bulleted and numbered lists (nested),
// fenced code, quotes, rules, tables. Images are left out.
QList<DocBlock> blocksFromMarkdown(const QString &markdown);
// JSON as blocks: an array of objects is a table (the keys, in first-seen order, are its
// columns); an array of values a bulleted list; an object's properties become sections
// (arrays and objects, under a heading named by the key) and "key: value" items (scalars).
QList<DocBlock> blocksFromData(const QJsonValue &data);
QString plainText(const Inline &runs);

// One slide: its title, bullets (nesting depth from 0, text) and speaker notes.
struct Slide
{
    QString title;
    QList<QPair<int, QString>> bullets;
    QString notes;
};

// A deck: a title slide (when `title` is set), then the slides.
struct Deck
{
    QString title;
    QString subtitle;
    QList<Slide> slides;
};

// At most this many bullets on a slide; more continue on the next one, "(cont.)".
inline constexpr int kMaxBulletsPerSlide = 8;

// Blocks as slides: a new slide at each heading of the top level used (level 1 when
// there are several, else level 2, a lone level-1 heading then naming the deck in
// `*lead`), and at each rule (---). Paragraphs, deeper headings and list items are
// bullets; a table's rows are bullets of their cells joined by " — ".
QList<Slide> slidesFromBlocks(const QList<DocBlock> &blocks, QString *lead = nullptr);
// JSON rows as slides: one per object, titled by its name/title/label (else its first
// text), its other properties "key: value" bullets; an array of values is bullets; an
// object's arrays give their rows' slides, its scalars one "Overview" slide.
QList<Slide> slidesFromData(const QJsonValue &data);
// Slides with more than kMaxBulletsPerSlide bullets split into continuation slides.
QList<Slide> paginateSlides(const QList<Slide> &slides);

// Writers: a WordprocessingML (.docx) or OpenDocument text (.odt) file of a title
// (the document's Title paragraph and its metadata) and blocks; a PresentationML (.pptx)
// or OpenDocument presentation (.odp) file of a deck.
Result<QByteArray> writeDocx(const QString &title, const QList<DocBlock> &blocks);
Result<QByteArray> writeOdt(const QString &title, const QList<DocBlock> &blocks);
Result<QByteArray> writePptx(const Deck &deck);
Result<QByteArray> writeOdp(const Deck &deck);

// The blocks added at the end of a .docx or .odt file these writers made (its other
// parts kept as they are).
Result<QByteArray> appendToDocument(const QByteArray &file, const QList<DocBlock> &blocks);

// Reading back: a .docx or .odt file's text (a line per paragraph, headings marked with
// '#' as in markdown, table cells separated by " | "); a .pptx or .odp file's slides.
Result<QString> documentText(const QByteArray &file);
Result<QList<Slide>> deckSlides(const QByteArray &file);

} // namespace ph::data
