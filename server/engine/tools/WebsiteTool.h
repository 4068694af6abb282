#pragma once

#include "engine/Tool.h"

namespace ph::engine {

// generate_websites: a static site (HTML pages and one style.css) of the run's data —
// JSON data as tables with a page per item, a section page per list of an object and
// per in-memory sheet, markdown as the home page (a page per "## " section when it is
// all there is), and pages the planner writes. Stored as one site (ObjectStore::putSite)
// and served under one signed link whose token is a path segment, so the pages' relative
// links work in a browser (docs/api/agent.md, "Generated websites").
class GenerateWebsitesTool final : public Tool
{
public:
    GenerateWebsitesTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

} // namespace ph::engine
