#pragma once

#include "engine/Tool.h"

#include <QJsonObject>

namespace ph::engine {

// The tools on the run's in-memory sheets (RunContext::sheets(): dataInputs, tabular
// file_urls, and sheets the tools made). docs/api/agent.md describes their arguments.

// sheets_access: list the sheets, describe one, read a window of rows, find rows.
class SheetsAccessTool final : public Tool
{
public:
    SheetsAccessTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// create_sheet_from_data: a new sheet from an array of objects (or arrays, or values).
class CreateSheetFromDataTool final : public Tool
{
public:
    CreateSheetFromDataTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

// sheets_workflow: for each row of a sheet, open the row's URL in the run's tab and
// extract data (shaped by a schema, or the page's title and text); one object per
// row, also kept as a new sheet "<source> results".
class SheetsWorkflowTool final : public Tool
{
public:
    // It navigates the tab, but no later step depends on where it leaves it, and
    // replaying hundreds of rows to restore a page would be wasteful: it declares only
    // Uses::Sheets, and is replayed only to rebuild its sheet after a restart.
    SheetsWorkflowTool();
    void run(RunContext &ctx, const QJsonObject &args,
             std::function<void(ToolResult)> done) override;
};

} // namespace ph::engine
