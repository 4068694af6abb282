#pragma once

#include "Tool.h"

namespace ph::engine {

class ActOnTabTool final : public Tool
{
public:
    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    bool usesTab() const override { return true; }
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

class CrawlAndExtractTool final : public Tool
{
public:
    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    bool usesTab() const override { return true; }
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// Runs a saved JavaScript tool's function in the page (the agent's isolated world: the
// DOM, not the page's own globals). Not offered to planners; the bridge's script runs
// call it.
class PageScriptTool final : public Tool
{
public:
    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    bool usesTab() const override { return true; }
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

class AskUserTool final : public Tool
{
public:
    QString name() const override;
    QString description() const override;
    QJsonObject parameters() const override;
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

} // namespace ph::engine
