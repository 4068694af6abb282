#include "Tool.h"

#include "BrowserTools.h"
#include "DocumentTools.h"
#include "GeneratorTools.h"
#include "PdfFillingTool.h"
#include "SheetTools.h"
#include "WebsiteTool.h"

#include <QJsonDocument>

namespace ph::engine {

QJsonObject schemaOf(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

ToolRegistry::ToolRegistry() = default;
ToolRegistry::~ToolRegistry() = default;

void ToolRegistry::add(std::unique_ptr<Tool> tool)
{
    m_tools.append(std::shared_ptr<Tool>(std::move(tool)));
}

Tool *ToolRegistry::find(const QString &name) const
{
    for (const auto &t : m_tools) {
        if (t->name() == name)
            return t.get();
    }
    return nullptr;
}

QList<Tool *> ToolRegistry::all() const
{
    QList<Tool *> out;
    for (const auto &t : m_tools)
        out.append(t.get());
    return out;
}

QJsonArray ToolRegistry::functionSchemas(const QStringList &names) const
{
    QJsonArray out;
    for (const QString &n : names) {
        const Tool *t = find(n);
        if (!t)
            continue;
        out.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                               {QStringLiteral("function"),
                                QJsonObject{{QStringLiteral("name"), t->name()},
                                            {QStringLiteral("description"), t->description()},
                                            {QStringLiteral("parameters"), t->parameters()}}}});
    }
    return out;
}

std::unique_ptr<ToolRegistry> ToolRegistry::builtIn()
{
    auto r = std::make_unique<ToolRegistry>();
    r->add(std::make_unique<ActOnTabTool>());
    r->add(std::make_unique<CrawlAndExtractTool>());
    r->add(std::make_unique<AskUserTool>());
    r->add(std::make_unique<PageScriptTool>());
    r->add(std::make_unique<GenerateDocsTool>());
    r->add(std::make_unique<GeneratePdfsTool>());
    r->add(std::make_unique<ScreenshotTool>());
    r->add(std::make_unique<GenerateSheetsTool>());
    r->add(std::make_unique<GenerateWebsitesTool>());
    r->add(std::make_unique<PdfFillingTool>());
    r->add(std::make_unique<SheetsAccessTool>());
    r->add(std::make_unique<CreateSheetFromDataTool>());
    r->add(std::make_unique<SheetsWorkflowTool>());
    r->add(std::make_unique<DocsAccessTool>());
    r->add(std::make_unique<SlidesAccessTool>());
    r->add(std::make_unique<PdfGeneratorTool>());
    return r;
}

namespace AdditionalTools {

QStringList all()
{
    return {askQuestions, generateDocs,   generateWebsites, generatePdfs,
            pdfFilling,   generateSheets, screenshot};
}

QStringList unavailable()
{
    return {};
}

} // namespace AdditionalTools

} // namespace ph::engine
