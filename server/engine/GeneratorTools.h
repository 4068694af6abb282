#pragma once

#include "Tool.h"

namespace ph::engine {

// generate_docs: a markdown or HTML document of the given content, stored and served
// by signed URL.
class GenerateDocsTool final : public Tool
{
public:
    GenerateDocsTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// generate_pdfs: the content rendered by a pooled QtWebEngine page and printed to PDF.
class GeneratePdfsTool final : public Tool
{
public:
    GeneratePdfsTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// generate_sheets: an xlsx workbook (libxlsxwriter) of JSON rows, of a markdown table,
// or of the run's in-memory sheets, stored and served by signed URL.
class GenerateSheetsTool final : public Tool
{
public:
    GenerateSheetsTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// screenshot: the run's tab as a PNG image (the page printed to PDF by QtWebEngine,
// which works without a display, and the print's first page rendered by poppler),
// stored and served by signed URL.
class ScreenshotTool final : public Tool
{
public:
    ScreenshotTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// Markdown to a standalone HTML page (QTextDocument's markdown reader), shared by the
// document and PDF generators; markdownToHtmlBody: the page's body alone, with the HTML
// written in the markdown kept or (rawHtml false) left out.
QString markdownToHtml(const QString &title, const QString &markdown);
QString markdownToHtmlBody(const QString &markdown, bool rawHtml = true);

// Shared by the tools that make files: a file name of a title ("list-every-product.xlsx",
// "document.<extension>" for an empty one); a file stored for the run (object store and
// the run's generated files); the result of a tool that made one file.
QString generatedFileName(const QString &title, const QString &extension);
GeneratedFile storeGeneratedFile(RunContext &ctx, const QString &tool, const QString &name,
                                 const QString &contentType, const QByteArray &data);
ToolResult generatedFileResult(const GeneratedFile &f);

} // namespace ph::engine
