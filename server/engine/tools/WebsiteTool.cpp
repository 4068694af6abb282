#include "WebsiteTool.h"

#include "engine/RunContext.h"
#include "engine/tools/GeneratorTools.h"

#include "core/ObjectStore.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

namespace ph::engine {

namespace {

// Rows shown in one table, item pages in one site, pages in one site.
constexpr int kMaxTableRows = 5000;
constexpr int kMaxItemPages = 1000;
constexpr int kMaxPages = 1200;

const char *kStyle =
    R"css(:root{color-scheme:light dark;--fg:#1d232b;--muted:#5b6573;--line:#d5dbe3;--accent:#1f5fbf;--bg:#fff;--head:#f3f5f8}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ee;--muted:#9aa5b4;--line:#38414d;--accent:#7fb0ff;--bg:#14181d;--head:#1c2128}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
header{border-bottom:1px solid var(--line);background:var(--head);padding:.75rem 1.5rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline}
header .home{font-weight:700;font-size:1.1rem;color:var(--fg);text-decoration:none}
nav a{margin-right:1rem}
main{max-width:72rem;margin:0 auto;padding:1.5rem}
footer{max-width:72rem;margin:0 auto;padding:1rem 1.5rem 2rem;color:var(--muted);font-size:.85rem}
a{color:var(--accent)}
a span{color:inherit!important}
h1{font-size:1.75rem;margin:.25rem 0 1rem}
table{border-collapse:collapse;width:100%;margin:1rem 0;font-size:.95rem}
th,td{border:1px solid var(--line);padding:.4rem .6rem;text-align:left;vertical-align:top}
th{background:var(--head)}
tbody tr:nth-child(even){background:color-mix(in srgb,var(--head) 50%,transparent)}
dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.35rem 1.25rem}
dt{font-weight:600;color:var(--muted)}
dd{margin:0}
.pager{display:flex;gap:1rem;margin-top:2rem}
.note{color:var(--muted);font-size:.9rem}
pre,code{font-family:ui-monospace,monospace;font-size:.9em}
)css";

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// A lowercase file-name stem of a title: letters, digits and dashes.
QString slugOf(const QString &title, const QString &fallback)
{
    QString base = title.trimmed().toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    base = base.left(40);
    while (base.endsWith(QLatin1Char('-')))
        base.chop(1);
    while (base.startsWith(QLatin1Char('-')))
        base.remove(0, 1);
    return base.isEmpty() ? fallback : base;
}

bool isWebLink(const QString &s)
{
    if (!s.startsWith(QLatin1String("http://")) && !s.startsWith(QLatin1String("https://")))
        return false;
    const QUrl url(s, QUrl::StrictMode);
    return url.isValid() && !url.host().isEmpty() && !s.contains(QLatin1Char(' '));
}

QString textHtml(const QString &s)
{
    if (isWebLink(s))
        return QStringLiteral("<a href=\"%1\" rel=\"nofollow noopener noreferrer\">%1</a>")
            .arg(esc(s));
    return esc(s).replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

bool isRows(const QJsonValue &v)
{
    if (!v.isArray() || v.toArray().isEmpty())
        return false;
    const QJsonArray a = v.toArray();
    return std::all_of(a.begin(), a.end(), [](const QJsonValue &x) { return x.isObject(); });
}

QStringList columnsOf(const QJsonArray &rows)
{
    QStringList columns;
    for (const QJsonValue &row : rows)
        for (const QString &k : row.toObject().keys())
            if (!columns.contains(k))
                columns << k;
    return columns;
}

QString valueHtml(const QJsonValue &v);

QString definitionList(const QJsonObject &o, const QStringList &order = {})
{
    QStringList keys = order;
    for (const QString &k : o.keys())
        if (!keys.contains(k))
            keys << k;
    QString out = QStringLiteral("<dl>");
    for (const QString &k : std::as_const(keys))
        out += QStringLiteral("<dt>%1</dt><dd>%2</dd>").arg(esc(k), valueHtml(o.value(k)));
    return out + QStringLiteral("</dl>");
}

QString plainTable(const QJsonArray &rows)
{
    const QStringList columns = columnsOf(rows);
    QString out = QStringLiteral("<table><thead><tr>");
    for (const QString &c : columns)
        out += QStringLiteral("<th>%1</th>").arg(esc(c));
    out += QStringLiteral("</tr></thead><tbody>");
    for (const QJsonValue &row : rows) {
        out += QStringLiteral("<tr>");
        for (const QString &c : columns)
            out += QStringLiteral("<td>%1</td>").arg(valueHtml(row.toObject().value(c)));
        out += QStringLiteral("</tr>");
    }
    return out + QStringLiteral("</tbody></table>");
}

QString valueHtml(const QJsonValue &v)
{
    if (v.isString())
        return textHtml(v.toString());
    if (v.isDouble())
        return esc(QString::number(v.toDouble(), 'g', 15));
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    if (v.isObject())
        return definitionList(v.toObject());
    if (isRows(v))
        return plainTable(v.toArray());
    if (v.isArray()) {
        QString out = QStringLiteral("<ul>");
        for (const QJsonValue &x : v.toArray())
            out += QStringLiteral("<li>%1</li>").arg(valueHtml(x));
        return out + QStringLiteral("</ul>");
    }
    return {};
}

// What an item is called on its page and in links: its name or title, else the first
// short text it has, else "Item N".
QString itemTitle(const QJsonObject &item, const QStringList &columns, int number)
{
    for (const QString &k : {QStringLiteral("name"), QStringLiteral("title"),
                             QStringLiteral("Name"), QStringLiteral("Title")})
        if (item.value(k).isString() && !item.value(k).toString().trimmed().isEmpty())
            return item.value(k).toString().trimmed().left(120);
    for (const QString &c : columns) {
        const QString s = item.value(c).toString().trimmed();
        if (!s.isEmpty() && s.size() <= 120 && !isWebLink(s))
            return s;
    }
    return QStringLiteral("Item %1").arg(number);
}

struct Page
{
    QString file;
    QString title;
    QString body;
    bool inNav = false;
};

// The site being written: pages with unique file names, rendered with one header,
// navigation and style sheet at the end.
class SiteBuilder
{
public:
    explicit SiteBuilder(QString title)
        : m_title(std::move(title))
    {
        m_taken << QStringLiteral("index") << QStringLiteral("style");
    }

    // A file name of its own for a page titled `title`.
    QString fileFor(const QString &title, const QString &fallback)
    {
        const QString base = slugOf(title, fallback);
        QString stem = base;
        for (int n = 2; m_taken.contains(stem); ++n)
            stem = QStringLiteral("%1-%2").arg(base).arg(n);
        m_taken << stem;
        return stem + QStringLiteral(".html");
    }
    bool roomFor(int pages) const { return m_pages.size() + pages <= kMaxPages; }
    void add(Page page) { m_pages.append(std::move(page)); }
    int itemPagesLeft() const { return kMaxItemPages - m_itemPages; }
    void countItemPage() { ++m_itemPages; }
    QStringList &notes() { return m_notes; }

    // A table of rows; with `itemStem`, each row links to a page of its own
    // ("<stem>-N.html", with the previous and next item and the way back).
    QString table(const QJsonArray &rows, QStringList columns, const QString &backFile,
                  const QString &backTitle, const QString &itemStem)
    {
        if (columns.isEmpty())
            columns = columnsOf(rows);
        const int shown = int(qMin<qsizetype>(rows.size(), kMaxTableRows));
        const bool itemPages =
            !itemStem.isEmpty() && shown <= itemPagesLeft() && roomFor(shown) && columns.size() > 1;
        if (!itemStem.isEmpty() && !itemPages && columns.size() > 1)
            m_notes << QStringLiteral("%1: no page per item (over %2 items in the site)")
                           .arg(backTitle)
                           .arg(kMaxItemPages);
        QStringList files;
        for (int i = 0; itemPages && i < shown; ++i)
            files << fileFor(QStringLiteral("%1-%2").arg(itemStem).arg(i + 1), itemStem);
        QString out = QStringLiteral("<table><thead><tr>");
        for (const QString &c : std::as_const(columns))
            out += QStringLiteral("<th>%1</th>").arg(esc(c));
        out += QStringLiteral("</tr></thead><tbody>");
        for (int i = 0; i < shown; ++i) {
            const QJsonObject row = rows.at(i).toObject();
            out += QStringLiteral("<tr>");
            for (int c = 0; c < columns.size(); ++c) {
                const QJsonValue v = row.value(columns[c]);
                QString cell = valueHtml(v);
                // The first cell links to the item's page: its text, else the item's name.
                if (c == 0 && itemPages) {
                    const QString text = v.isString()   ? v.toString().trimmed()
                                         : v.isDouble() ? QString::number(v.toDouble(), 'g', 15)
                                                        : QString();
                    cell = QStringLiteral("<a href=\"%1\">%2</a>")
                               .arg(files[i], esc(text.isEmpty() ? itemTitle(row, columns, i + 1)
                                                                 : text.left(200)));
                }
                out += QStringLiteral("<td>%1</td>").arg(cell);
            }
            out += QStringLiteral("</tr>");
        }
        out += QStringLiteral("</tbody></table>");
        if (rows.size() > shown)
            out += QStringLiteral("<p class=\"note\">The first %1 of %2 rows.</p>")
                       .arg(shown)
                       .arg(rows.size());
        for (int i = 0; itemPages && i < shown; ++i) {
            const QJsonObject row = rows.at(i).toObject();
            QString pager = QStringLiteral("<p class=\"pager\">");
            if (i > 0)
                pager +=
                    QStringLiteral("<a href=\"%1\" rel=\"prev\">← previous</a>").arg(files[i - 1]);
            pager += QStringLiteral("<a href=\"%1\">%2</a>").arg(backFile, esc(backTitle));
            if (i + 1 < shown)
                pager += QStringLiteral("<a href=\"%1\" rel=\"next\">next →</a>").arg(files[i + 1]);
            pager += QStringLiteral("</p>");
            add({files[i], itemTitle(row, columns, i + 1), definitionList(row, columns) + pager,
                 false});
            countItemPage();
        }
        return out;
    }

    QList<SiteFile> render() const
    {
        QString nav;
        for (const Page &p : m_pages)
            if (p.inNav)
                nav += QStringLiteral("<a href=\"%1\">%2</a>").arg(p.file, esc(p.title));
        QList<SiteFile> files;
        for (const Page &p : m_pages) {
            const QString title = p.file == QLatin1String("index.html")
                                      ? esc(m_title)
                                      : QStringLiteral("%1 · %2").arg(esc(p.title), esc(m_title));
            const QString html =
                QStringLiteral(
                    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<meta name=\"referrer\" content=\"no-referrer\">"
                    "<title>%1</title><link rel=\"stylesheet\" href=\"style.css\"></head>\n"
                    "<body><header><a class=\"home\" href=\"index.html\">%2</a><nav>%3</nav>"
                    "</header>\n<main><h1>%4</h1>\n%5\n</main>\n"
                    "<footer>Generated by Pilothouse.</footer></body></html>\n")
                    .arg(title, esc(m_title), nav, esc(p.title), p.body);
            files << SiteFile{p.file, QStringLiteral("text/html; charset=utf-8"), html.toUtf8()};
        }
        files << SiteFile{QStringLiteral("style.css"), QStringLiteral("text/css; charset=utf-8"),
                          QByteArray(kStyle)};
        return files;
    }

private:
    QString m_title;
    QList<Page> m_pages;
    QSet<QString> m_taken;
    QStringList m_notes;
    int m_itemPages = 0;
};

// Markdown in "## " sections: the text before the first, then each (title, text).
QList<QPair<QString, QString>> sections(const QString &markdown, QString *preamble)
{
    QList<QPair<QString, QString>> out;
    static const QRegularExpression heading(QStringLiteral("^## +(.+?)\\s*#*\\s*$"),
                                            QRegularExpression::MultilineOption);
    auto it = heading.globalMatch(markdown);
    qsizetype last = -1;
    QString title;
    while (it.hasNext()) {
        const auto m = it.next();
        if (last < 0)
            *preamble = markdown.left(m.capturedStart());
        else
            out.append({title, markdown.mid(last, m.capturedStart() - last)});
        title = m.captured(1);
        last = m.capturedEnd();
    }
    if (last >= 0)
        out.append({title, markdown.mid(last)});
    return out;
}

QString markdownHtml(const QString &markdown)
{
    // The HTML a markdown text may hold is left out: pages of the site carry the run's
    // data, never markup that came with it.
    return markdownToHtmlBody(markdown, false);
}

// The home page's markdown; split into a page per "## " section when `split` and it has
// two sections or more.
void addMarkdown(SiteBuilder &site, const QString &markdown, bool split, QString &home,
                 QStringList &sectionLinks)
{
    QString preamble = markdown;
    QList<QPair<QString, QString>> parts;
    if (split)
        parts = sections(markdown, &preamble);
    if (parts.size() < 2) {
        parts.clear();
        preamble = markdown;
    }
    if (!preamble.trimmed().isEmpty())
        home += markdownHtml(preamble);
    for (const auto &[sectionTitle, text] : std::as_const(parts)) {
        const QString file = site.fileFor(sectionTitle, QStringLiteral("section"));
        site.add({file, sectionTitle, markdownHtml(text), true});
        sectionLinks
            << QStringLiteral("<li><a href=\"%1\">%2</a></li>").arg(file, esc(sectionTitle));
    }
}

// The call's `data`: rows are the home page's table; an object shows its values on the
// home page and each of its lists of rows on a page of its own.
void addData(SiteBuilder &site, const QJsonValue &data, bool hasData, bool itemPages,
             const QString &title, QString &home, QStringList &sectionLinks)
{
    const QString itemStem = itemPages ? QStringLiteral("item") : QString();
    // One list of rows under one name ({"products": [...]}, as a schema often shapes it):
    // the rows are the home page's table, under that name.
    const QJsonObject only =
        data.isObject() && data.toObject().size() == 1 ? data.toObject() : QJsonObject();
    if (!only.isEmpty() && isRows(only.begin().value())) {
        home += QStringLiteral("<h2>%1</h2>").arg(esc(only.begin().key()));
        home += site.table(only.begin().value().toArray(), {}, QStringLiteral("index.html"), title,
                           itemStem);
    } else if (hasData && isRows(data)) {
        home += site.table(data.toArray(), {}, QStringLiteral("index.html"), title, itemStem);
    } else if (hasData && data.isObject()) {
        const QJsonObject o = data.toObject();
        QJsonObject scalars;
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!isRows(it.value())) {
                scalars.insert(it.key(), it.value());
                continue;
            }
            const QString file = site.fileFor(it.key(), QStringLiteral("section"));
            const QString stem = itemPages ? file.chopped(5) : QString();
            const qsizetype count = it.value().toArray().size();
            site.add(
                {file, it.key(), site.table(it.value().toArray(), {}, file, it.key(), stem), true});
            sectionLinks << QStringLiteral("<li><a href=\"%1\">%2</a> (%3)</li>")
                                .arg(file, esc(it.key()))
                                .arg(count);
        }
        if (!scalars.isEmpty())
            home += definitionList(scalars);
    } else if (hasData) {
        home += valueHtml(data);
    }
}

// A page per in-memory sheet, then the call's `pages`.
void addSheetsAndPages(SiteBuilder &site, RunContext &ctx, const QList<int> &sheetIndexes,
                       const QJsonArray &extra, bool itemPages, QStringList &sectionLinks)
{
    for (const int i : sheetIndexes) {
        const data::Sheet &sheet = ctx.sheets().at(i);
        const QString file = site.fileFor(sheet.title, QStringLiteral("sheet"));
        const QString stem = itemPages ? file.chopped(5) : QString();
        site.add({file, sheet.title,
                  site.table(sheet.toObjects(), sheet.columnNames(), file, sheet.title, stem),
                  true});
        sectionLinks << QStringLiteral("<li><a href=\"%1\">%2</a> (%3 rows)</li>")
                            .arg(file, esc(sheet.title))
                            .arg(sheet.rowCount());
    }
    for (const QJsonValue &v : extra) {
        const QJsonObject page = v.toObject();
        const QString pageTitle = page.value(QStringLiteral("title")).toString().trimmed();
        if (pageTitle.isEmpty() || !site.roomFor(1))
            continue;
        QString body = markdownHtml(page.value(QStringLiteral("markdown")).toString());
        if (page.contains(QStringLiteral("data")))
            body += valueHtml(page.value(QStringLiteral("data")));
        const QString file = site.fileFor(pageTitle, QStringLiteral("page"));
        site.add({file, pageTitle, body, true});
        sectionLinks << QStringLiteral("<li><a href=\"%1\">%2</a></li>").arg(file, esc(pageTitle));
    }
}

// The site rendered and stored as one of the run's files; the tool's result.
ToolResult publish(RunContext &ctx, const QString &toolName, SiteBuilder &site,
                   const QString &title)
{
    const QList<SiteFile> files = site.render();
    const QString name = slugOf(title, QStringLiteral("site")) + QLatin1Char('/');
    const StoredObject stored = ctx.services().store.objects().putSite(ctx.keyId(), name, files);
    GeneratedFile f;
    f.tool = toolName;
    f.objectId = stored.id;
    f.name = name;
    f.contentType = QStringLiteral("text/html; charset=utf-8");
    f.sizeBytes = stored.size;
    ctx.files().append(f);
    for (const QString &note : std::as_const(site.notes()))
        ctx.warnings().append(QStringLiteral("generate_websites: %1").arg(note));

    QJsonArray paths;
    for (const SiteFile &file : files)
        if (paths.size() < 50)
            paths.append(file.path);
    ToolResult r;
    r.generatedContent = true;
    r.output = QJsonObject{{QStringLiteral("site"), name},
                           {QStringLiteral("objectId"), stored.id},
                           {QStringLiteral("pages"), int(files.size() - 1)},
                           {QStringLiteral("files"), paths},
                           {QStringLiteral("contentType"), f.contentType},
                           {QStringLiteral("sizeBytes"), double(stored.size)}};
    r.summary = QStringLiteral("generated the site %1 (%2 page%3, %4 bytes)")
                    .arg(name)
                    .arg(files.size() - 1)
                    .arg(files.size() == 2 ? QString() : QStringLiteral("s"))
                    .arg(stored.size);
    return r;
}

} // namespace

GenerateWebsitesTool::GenerateWebsitesTool()
    : Tool({QStringLiteral("generate_websites"),
            QStringLiteral(
                "Build a small static website (HTML pages and a style sheet) of the run's "
                "results and return one link to it that works in a browser. data: an array of "
                "objects becomes a table on the home page with a page per item; an object "
                "shows its values, each of its lists of objects a page of its own. markdown: "
                "the home page's text (split into a page per '## ' section when nothing else "
                "is given). pages: more pages, each {title, markdown or data}. sheets: "
                "in-memory sheets to include, a page each (all of them when nothing else is "
                "given)."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string", "description": "the site's title"},
        "markdown": {"type": "string", "description": "the home page's text"},
        "data": {"description": "JSON data: rows (an array of objects) or an object"},
        "pages": {"type": "array", "items": {"type": "object", "properties": {
          "title": {"type": "string"},
          "markdown": {"type": "string"},
          "data": {}
        }, "required": ["title"]}},
        "sheets": {"type": "array", "items": {"type": ["string", "integer"]},
                   "description": "in-memory sheets by title or index"},
        "itemPages": {"type": "boolean", "description": "a page per row of a table (default true)"}
      },
      "required": ["title"]
    })json")})
{}

void GenerateWebsitesTool::run(RunContext &ctx, const QJsonObject &args,
                               std::function<void(ToolResult)> done)
{
    const QString title = args.value(QStringLiteral("title")).toString().trimmed().isEmpty()
                              ? QStringLiteral("Results")
                              : args.value(QStringLiteral("title")).toString().trimmed().left(200);
    const bool itemPages = args.value(QStringLiteral("itemPages")).toBool(true);
    const QJsonValue data = args.value(QStringLiteral("data"));
    const QString markdown = args.value(QStringLiteral("markdown"))
                                 .toString(args.value(QStringLiteral("text")).toString());
    const QJsonArray extra = args.value(QStringLiteral("pages")).toArray();

    QList<int> sheetIndexes;
    for (const QJsonValue &ref : args.value(QStringLiteral("sheets")).toArray()) {
        const int i = ctx.findSheet(ref);
        if (i < 0) {
            done(ToolResult::failure(
                QStringLiteral("generate_websites: no sheet %1")
                    .arg(ref.isString() ? ref.toString() : QString::number(ref.toInt()))));
            return;
        }
        if (!sheetIndexes.contains(i))
            sheetIndexes << i;
    }
    const bool hasData = !data.isUndefined() && !data.isNull() &&
                         !(data.isArray() && data.toArray().isEmpty()) &&
                         !(data.isObject() && data.toObject().isEmpty());
    // Nothing else given: the in-memory sheets are the content.
    if (!hasData && markdown.trimmed().isEmpty() && extra.isEmpty() && sheetIndexes.isEmpty())
        for (int i = 0; i < ctx.sheets().size(); ++i)
            sheetIndexes << i;
    if (!hasData && markdown.trimmed().isEmpty() && extra.isEmpty() && sheetIndexes.isEmpty()) {
        done(ToolResult::failure(
            QStringLiteral("generate_websites needs data, markdown, pages or a sheet")));
        return;
    }

    SiteBuilder site(title);
    QString home;
    QStringList sectionLinks;
    // Markdown alone, in sections: a page per section.
    addMarkdown(site, markdown, !hasData && extra.isEmpty() && sheetIndexes.isEmpty(), home,
                sectionLinks);
    addData(site, data, hasData, itemPages, title, home, sectionLinks);
    addSheetsAndPages(site, ctx, sheetIndexes, extra, itemPages, sectionLinks);

    if (!sectionLinks.isEmpty())
        home += QStringLiteral("<h2>Contents</h2><ul>%1</ul>").arg(sectionLinks.join(QString()));
    for (const QString &note : std::as_const(site.notes()))
        home += QStringLiteral("<p class=\"note\">%1</p>").arg(esc(note));
    site.add({QStringLiteral("index.html"), title, home, false});
    done(publish(ctx, name(), site, title));
}

} // namespace ph::engine
