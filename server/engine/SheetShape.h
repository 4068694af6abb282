#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

// Shaping a sheet's rows into a run's schema. It belongs to the run core (not to
// engine/tools/SheetTools) so that the rule planner reads sheets without a tool family.
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

} // namespace ph::engine
