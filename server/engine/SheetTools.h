#pragma once

#include "Tool.h"

#include <QJsonObject>

namespace ph::engine {

// How a run's schema applies to a sheet workflow: an array schema describes the rows
// (its items); an object schema whose only property is an array of objects wraps them
// ({prop: rows}); any other object schema describes one row (the result is the array).
struct WorkflowShape
{
    QJsonObject rowSchema;
    QString wrapKey; // empty: the rows are the result
};
WorkflowShape workflowShape(const QJsonObject &schema);

// A sheet's rows (objects keyed by header) shaped into `schema` (docs/api/agent.md,
// "Data without a page"): rows of objects keep the schema's properties, matched to the
// headers by name, plural/singular and common synonyms; an array of strings or numbers
// is the column that best names it; an object schema fills each property (its arrays
// from their columns, its scalars from the first row). Numbers written as text are read
// as numbers. `warnings` gets one line per required property no column matched.
QJsonValue shapeRows(const QJsonObject &schema, const QJsonArray &rows, QStringList *warnings);

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
