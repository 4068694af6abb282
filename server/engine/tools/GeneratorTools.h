#pragma once

#include "engine/Tool.h"

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

// What the generators share (here and in DocumentTools.cpp):
// The tool's content as markdown: `markdown`, else `data` written as tables and lists,
// else `text`.
QString contentMarkdown(const QJsonObject &args);
// A file name from a title: lower case, words joined by '-', at most 60 characters.
QString generatedFileName(const QString &title, const QString &extension);
// Stores a generated file in the object store and lists it in the run's files.
GeneratedFile storeGeneratedFile(RunContext &ctx, const QString &tool, const QString &name,
                                 const QString &contentType, const QByteArray &data);
// The result of a call that generated `file`: generatedContent, and the file as output.
ToolResult generatedFileResult(const GeneratedFile &file);
// HTML printed to an A4 PDF by a page of its own from the pool (the run's tab is left
// alone); `done` gets the PDF, or an empty one and why.
void printHtmlToPdf(RunContext &ctx, const QString &html,
                    std::function<void(const QByteArray &pdf, const QString &error)> done);

} // namespace ph::engine
