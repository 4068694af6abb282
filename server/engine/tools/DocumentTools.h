#pragma once

#include "engine/Tool.h"

namespace ph::engine {

// The spec's named document tools, core tools like sheets_access (no
// tools.enableAdditionalTools needed). docs/api/agent.md describes their arguments;
// docs/decisions.md why the formats are written as they are.

// docs_access: the run's documents: list them (file_urls texts and the documents the
// run generated), read one's text, create a .docx (or .odt) from markdown, sections or
// data, append to one created in this run.
class DocsAccessTool final : public Tool
{
public:
    DocsAccessTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// slides_access: decks: create a .pptx (or .odp) from slides, markdown or data rows;
// list the run's decks, read one's slides.
class SlidesAccessTool final : public Tool
{
public:
    SlidesAccessTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// pdf_generator: a PDF (A4) of markdown, HTML or data, printed by a page of its own.
class PdfGeneratorTool final : public Tool
{
public:
    PdfGeneratorTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// Content types of the files these tools write.
namespace DocumentTypes {
inline const QString docx =
    QStringLiteral("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
inline const QString odt = QStringLiteral("application/vnd.oasis.opendocument.text");
inline const QString pptx =
    QStringLiteral("application/vnd.openxmlformats-officedocument.presentationml.presentation");
inline const QString odp = QStringLiteral("application/vnd.oasis.opendocument.presentation");
} // namespace DocumentTypes

} // namespace ph::engine
