#pragma once

#include "engine/Tool.h"

namespace ph::engine {

class ActOnTabTool final : public Tool
{
public:
    ActOnTabTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

class CrawlAndExtractTool final : public Tool
{
public:
    CrawlAndExtractTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// Runs a saved JavaScript tool's function in the page (the agent's isolated world: the
// DOM, not the page's own globals). Not offered to planners; the bridge's script runs
// call it.
class PageScriptTool final : public Tool
{
public:
    PageScriptTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

class AskUserTool final : public Tool
{
public:
    AskUserTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

} // namespace ph::engine
