#include "BuiltinTools.h"

#include "engine/Tool.h"
#include "engine/tools/BrowserTools.h"
#include "engine/tools/DocumentTools.h"
#include "engine/tools/GeneratorTools.h"
#include "engine/tools/PdfFillingTool.h"
#include "engine/tools/SheetTools.h"
#include "engine/tools/WebsiteTool.h"

namespace ph::engine {

void registerBuiltinTools(ToolRegistry &registry)
{
    registry.add(std::make_unique<ActOnTabTool>());
    registry.add(std::make_unique<CrawlAndExtractTool>());
    registry.add(std::make_unique<AskUserTool>());
    registry.add(std::make_unique<PageScriptTool>());
    registry.add(std::make_unique<GenerateDocsTool>());
    registry.add(std::make_unique<GeneratePdfsTool>());
    registry.add(std::make_unique<ScreenshotTool>());
    registry.add(std::make_unique<GenerateSheetsTool>());
    registry.add(std::make_unique<GenerateWebsitesTool>());
    registry.add(std::make_unique<PdfFillingTool>());
    registry.add(std::make_unique<SheetsAccessTool>());
    registry.add(std::make_unique<CreateSheetFromDataTool>());
    registry.add(std::make_unique<SheetsWorkflowTool>());
    registry.add(std::make_unique<DocsAccessTool>());
    registry.add(std::make_unique<SlidesAccessTool>());
    registry.add(std::make_unique<PdfGeneratorTool>());
}

std::unique_ptr<ToolRegistry> builtinTools()
{
    auto registry = std::make_unique<ToolRegistry>();
    registerBuiltinTools(*registry);
    return registry;
}

} // namespace ph::engine
