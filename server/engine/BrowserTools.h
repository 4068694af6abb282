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
