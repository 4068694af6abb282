#include "GeneratorTools.h"

#include "engine/BrowserTab.h"
#include "engine/RunContext.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "core/ObjectStore.h"
#include "core/Store.h"
#include "data/CellText.h"
#include "data/PdfRender.h"
#include "data/Reader.h"
#include "data/XlsxWriter.h"

#include <QJsonDocument>
#include <QPageLayout>
#include <QPageSize>
#include <QPointer>
#include <QRegularExpression>
#include <QTextDocument>
#include <QTimer>
#include <QWebEnginePage>

#include <memory>

namespace ph::engine {

namespace {

// A cell of a generated markdown table: the one cell text (data/CellText.h), booleans
// yes/no, on one line with its pipes escaped.
QString markdownCell(const QJsonValue &v)
{
    QString s = data::cellText(v, data::BoolText::YesNo);
    return s.replace(QLatin1Char('|'), QStringLiteral("\\|"))
        .replace(QLatin1Char('\n'), QLatin1Char(' '));
}

bool isTable(const QJsonValue &v)
{
    return v.isArray() && !v.toArray().isEmpty() && v.toArray().first().isObject();
}

QString table(const QJsonArray &rows)
{
    QStringList columns;
    for (const auto &row : rows)
        for (const QString &k : row.toObject().keys())
            if (!columns.contains(k))
                columns << k;
    QString md = QStringLiteral("| %1 |\n|%2\n")
                     .arg(columns.join(QStringLiteral(" | ")),
                          QStringLiteral(" --- |").repeated(columns.size()));
    for (const auto &row : rows) {
        QStringList cells;
        for (const QString &c : columns)
            cells << markdownCell(row.toObject().value(c));
        md += QStringLiteral("| %1 |\n").arg(cells.join(QStringLiteral(" | ")));
    }
    return md;
}

} // namespace

QString generatedFileName(const QString &title, const QString &extension)
{
    QString base = title.trimmed().toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    base = base.left(60);
    while (base.endsWith(QLatin1Char('-')))
        base.chop(1);
    while (base.startsWith(QLatin1Char('-')))
        base.remove(0, 1);
    return (base.isEmpty() ? QStringLiteral("document") : base) + QLatin1Char('.') + extension;
}

GeneratedFile storeGeneratedFile(RunContext &ctx, const QString &tool, const QString &name,
                                 const QString &contentType, const QByteArray &data)
{
    const StoredObject o = ctx.services().store.objects().put(
        ctx.keyId(), QStringLiteral("artifact"), name, contentType, data);
    GeneratedFile f;
    f.tool = tool;
    f.objectId = o.id;
    f.name = name;
    f.contentType = contentType;
    f.sizeBytes = o.size;
    ctx.files().append(f);
    return f;
}

ToolResult generatedFileResult(const GeneratedFile &f)
{
    ToolResult r;
    r.generatedContent = true;
    r.output = QJsonObject{{QStringLiteral("file"), f.name},
                           {QStringLiteral("contentType"), f.contentType},
                           {QStringLiteral("sizeBytes"), double(f.sizeBytes)},
                           {QStringLiteral("objectId"), f.objectId}};
    r.summary = QStringLiteral("generated %1 (%2 bytes)").arg(f.name).arg(f.sizeBytes);
    return r;
}

QString contentMarkdown(const QJsonObject &args)
{
    if (args.contains(QStringLiteral("markdown")))
        return args.value(QStringLiteral("markdown")).toString();
    const QJsonValue data = args.value(QStringLiteral("data"));
    if (isTable(data))
        return table(data.toArray());
    if (data.isObject()) {
        QString md;
        const QJsonObject o = data.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (isTable(it.value()))
                md += QStringLiteral("\n## %1\n\n%2").arg(it.key(), table(it.value().toArray()));
            else
                md += QStringLiteral("- **%1**: %2\n").arg(it.key(), markdownCell(it.value()));
        }
        return md.trimmed() + QLatin1Char('\n');
    }
    if (!data.isUndefined() && !data.isNull())
        return QStringLiteral("```json\n%1```\n")
            .arg(QString::fromUtf8(QJsonDocument(data.toArray()).toJson()));
    return args.value(QStringLiteral("text")).toString();
}

QString markdownToHtmlBody(const QString &markdown, bool rawHtml)
{
    QTextDocument doc;
    doc.setMarkdown(markdown,
                    rawHtml ? QTextDocument::MarkdownDialectGitHub
                            : QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub |
                                                              QTextDocument::MarkdownNoHTML));
    QString body = doc.toHtml();
    // QTextDocument writes a whole page; keep its body.
    const qsizetype start = body.indexOf(QLatin1String("<body"));
    const qsizetype open = start >= 0 ? body.indexOf(QLatin1Char('>'), start) : -1;
    const qsizetype end = body.lastIndexOf(QLatin1String("</body>"));
    if (open >= 0 && end > open)
        body = body.mid(open + 1, end - open - 1);
    return body;
}

QString markdownToHtml(const QString &title, const QString &markdown)
{
    // Our own head around QTextDocument's body.
    return QStringLiteral(
               "<!doctype html><html><head><meta "
               "charset=\"utf-8\"><title>%1</"
               "title><style>body{font-family:sans-serif;max-width:50em;margin:2em "
               "auto;line-height:1.45}table{border-collapse:collapse}td,th{border:1px solid "
               "#999;padding:.25em .5em}</style></head><body>%2</body></html>")
        .arg(title.toHtmlEscaped(), markdownToHtmlBody(markdown));
}

// ------------------------------------------------------------------------ generate_docs

GenerateDocsTool::GenerateDocsTool()
    : Tool({QStringLiteral("generate_docs"),
            QStringLiteral(
                "Write a document (markdown or HTML) from markdown text or JSON data; it is "
                "stored and returned as a download link."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string"},
        "markdown": {"type": "string"},
        "data": {"description": "JSON data written as a table or a code block"},
        "format": {"type": "string", "enum": ["markdown", "html"]}
      },
      "required": ["title"]
    })json")})
{}

void GenerateDocsTool::run(RunContext &ctx, const QJsonObject &args,
                           std::function<void(ToolResult)> done)
{
    const QString title = args.value(QStringLiteral("title")).toString(QStringLiteral("Document"));
    const QString markdown = contentMarkdown(args);
    if (markdown.trimmed().isEmpty()) {
        done(ToolResult::failure(QStringLiteral("generate_docs needs markdown or data")));
        return;
    }
    const bool html = args.value(QStringLiteral("format")).toString() == QLatin1String("html");
    const QString full = markdown.startsWith(QLatin1String("# "))
                             ? markdown
                             : QStringLiteral("# %1\n\n%2").arg(title, markdown);
    const GeneratedFile f =
        html ? storeGeneratedFile(ctx, name(), generatedFileName(title, QStringLiteral("html")),
                                  QStringLiteral("text/html; charset=utf-8"),
                                  markdownToHtml(title, full).toUtf8())
             : storeGeneratedFile(ctx, name(), generatedFileName(title, QStringLiteral("md")),
                                  QStringLiteral("text/markdown; charset=utf-8"), full.toUtf8());
    done(generatedFileResult(f));
}

// ------------------------------------------------------------------------ generate_pdfs

GeneratePdfsTool::GeneratePdfsTool()
    : Tool({QStringLiteral("generate_pdfs"),
            QStringLiteral(
                "Render markdown text or JSON data as a PDF (A4); it is stored and returned as "
                "a download link."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string"},
        "markdown": {"type": "string"},
        "html": {"type": "string"},
        "data": {"description": "JSON data written as a table or a code block"}
      },
      "required": ["title"]
    })json")})
{}

void GeneratePdfsTool::run(RunContext &ctx, const QJsonObject &args,
                           std::function<void(ToolResult)> done)
{
    const QString title = args.value(QStringLiteral("title")).toString(QStringLiteral("Document"));
    QString html = args.value(QStringLiteral("html")).toString();
    if (html.isEmpty()) {
        const QString markdown = contentMarkdown(args);
        if (markdown.trimmed().isEmpty()) {
            done(ToolResult::failure(QStringLiteral("generate_pdfs needs markdown, html or data")));
            return;
        }
        html = markdownToHtml(title, markdown.startsWith(QLatin1String("# "))
                                         ? markdown
                                         : QStringLiteral("# %1\n\n%2").arg(title, markdown));
    }
    QPointer<RunContext> guard(&ctx);
    printHtmlToPdf(
        ctx, html, [guard, title, done, this](const QByteArray &pdf, const QString &error) {
            if (!guard)
                return;
            if (pdf.isEmpty()) {
                done(ToolResult::failure(error));
                return;
            }
            done(generatedFileResult(
                storeGeneratedFile(*guard, name(), generatedFileName(title, QStringLiteral("pdf")),
                                   QStringLiteral("application/pdf"), pdf)));
        });
}

void printHtmlToPdf(RunContext &ctx, const QString &html,
                    std::function<void(const QByteArray &pdf, const QString &error)> done)
{
    // A page of its own (a fresh isolated one from the pool), so the run's tab is untouched.
    QPointer<RunContext> guard(&ctx);
    // It shows the run's own HTML, so it acts with the run's grant.
    const bool queued = ctx.services().pool.acquire(
        ctx.trajectoryId(), ctx.grant(), ctx.request().browser, &ctx,
        [guard, html, done](std::unique_ptr<BrowserLease> lease) {
            if (!guard)
                return;
            auto held = std::make_shared<std::unique_ptr<BrowserLease>>(std::move(lease));
            (*held)->loadHtml(html, 30000, [guard, held, done](bool ok) {
                if (!ok || !guard) {
                    held->reset();
                    if (guard)
                        done({}, QStringLiteral("the PDF's page did not render"));
                    return;
                }
                const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                         QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
                (*held)->printToPdf(layout, [guard, held, done](const QByteArray &pdf) {
                    // The lease is released from the event loop, not inside the page's
                    // callback.
                    QTimer::singleShot(0, [held] { held->reset(); });
                    if (!guard)
                        return;
                    done(pdf, pdf.isEmpty() ? QStringLiteral("printing to PDF failed") : QString());
                });
            });
        });
    if (!queued)
        QTimer::singleShot(0, &ctx, [done] {
            done({}, QStringLiteral("the browser pool is full; no page is free"));
        });
}

// --------------------------------------------------------------------------- screenshot

ScreenshotTool::ScreenshotTool()
    : Tool({QStringLiteral("screenshot"),
            QStringLiteral("Take a picture (PNG) of the page in the tab as it is now; it is "
                           "stored and returned as a download link."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string", "description": "names the file"}
      }
    })json"),
            Tool::Uses::Tab})
{}

void ScreenshotTool::run(RunContext &ctx, const QJsonObject &args,
                         std::function<void(ToolResult)> done)
{
    const QString title = args.value(QStringLiteral("title")).toString(QStringLiteral("page"));
    QPointer<RunContext> guard(&ctx);
    ctx.tab([guard, title, done, this](BrowserTab *tab, const QString &error) {
        if (!guard)
            return;
        if (!tab) {
            done(ToolResult::failure(error));
            return;
        }
        if (!tab->lease()) {
            done(ToolResult::failure(QStringLiteral(
                "screenshots are not taken of a visitor's page (embedded runtime)")));
            return;
        }
        // The screen's width on one tall page, margins off: the print is the page as seen.
        const QPageLayout layout(
            QPageSize(QSizeF(1280 * 25.4 / 96, 1600 * 25.4 / 96), QPageSize::Millimeter),
            QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
        // Queued behind any other print of the page (a live view's print frames).
        tab->lease()->printToPdf(layout, [guard, title, done, this](const QByteArray &pdf) {
            if (!guard)
                return;
            QString problem;
            const QByteArray png =
                pdf.isEmpty() ? QByteArray() : data::renderFirstPagePng(pdf, 96, &problem);
            if (png.isEmpty()) {
                done(ToolResult::failure(
                    problem.isEmpty() ? QStringLiteral("the page could not be printed") : problem));
                return;
            }
            done(generatedFileResult(
                storeGeneratedFile(*guard, name(), generatedFileName(title, QStringLiteral("png")),
                                   QStringLiteral("image/png"), png)));
        });
    });
}

// ---------------------------------------------------------------------- generate_sheets

GenerateSheetsTool::GenerateSheetsTool()
    : Tool({QStringLiteral("generate_sheets"),
            QStringLiteral(
                "Write an Excel workbook (xlsx): data (an array of objects, or an object whose "
                "properties are such arrays: one worksheet each), a markdown table, or the "
                "in-memory sheets named in sheets (all of them when nothing else is given). "
                "Stored and returned as a download link."),
            schemaOf(R"json({
      "type": "object",
      "properties": {
        "title": {"type": "string"},
        "data": {"description": "rows as an array of objects, or {sheetName: rows}"},
        "markdown": {"type": "string", "description": "a markdown table"},
        "sheets": {"type": "array", "items": {"type": ["string", "integer"]}}
      },
      "required": ["title"]
    })json")})
{}

void GenerateSheetsTool::run(RunContext &ctx, const QJsonObject &args,
                             std::function<void(ToolResult)> done)
{
    const QString title = args.value(QStringLiteral("title")).toString(QStringLiteral("Sheet"));
    QList<data::Sheet> sheets;
    const QJsonValue rows = args.value(QStringLiteral("data"));
    if (rows.isArray()) {
        sheets << data::Sheet::fromObjects(title, rows.toArray());
    } else if (rows.isObject()) {
        const QJsonObject o = rows.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.value().isArray())
                sheets << data::Sheet::fromObjects(it.key(), it.value().toArray());
        }
        if (sheets.isEmpty()) // one record: one row
            sheets << data::Sheet::fromObjects(title, QJsonArray{o});
    }
    for (const auto &ref : args.value(QStringLiteral("sheets")).toArray()) {
        const int i = ctx.findSheet(ref);
        if (i < 0) {
            done(ToolResult::failure(
                QStringLiteral("generate_sheets: no sheet %1")
                    .arg(ref.isString() ? ref.toString() : QString::number(ref.toInt()))));
            return;
        }
        sheets << ctx.sheets().at(i);
    }
    if (sheets.isEmpty() && args.contains(QStringLiteral("markdown"))) {
        auto table =
            data::Reader().parse(args.value(QStringLiteral("markdown")).toString().toUtf8(),
                                 data::Format::Markdown, title);
        if (table)
            sheets << std::move(table).value();
    }
    if (sheets.isEmpty())
        sheets = ctx.sheets();
    if (sheets.isEmpty()) {
        done(ToolResult::failure(
            QStringLiteral("generate_sheets needs data, a markdown table or a sheet")));
        return;
    }
    const auto xlsx = data::writeXlsx(sheets);
    if (!xlsx) {
        done(ToolResult::failure(QStringLiteral("generate_sheets: %1").arg(xlsx.error().message)));
        return;
    }
    done(generatedFileResult(storeGeneratedFile(
        ctx, name(), generatedFileName(title, QStringLiteral("xlsx")),
        QStringLiteral("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        xlsx.value())));
}

} // namespace ph::engine
