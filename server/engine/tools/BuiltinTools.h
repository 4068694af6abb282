#pragma once

#include <memory>

namespace ph::engine {

class ToolRegistry;

// The built-in tools, registered in one place (the registry, engine/Tool.h, knows no
// implementation): act_on_tab, crawl_and_extract_from_tab, ask_user, sheets_access,
// sheets_workflow, create_sheet_from_data, docs_access, slides_access, pdf_generator,
// and the additional tools.
void registerBuiltinTools(ToolRegistry &registry);
// A registry holding exactly the built-in tools (what the service and tests run with).
std::unique_ptr<ToolRegistry> builtinTools();

} // namespace ph::engine
