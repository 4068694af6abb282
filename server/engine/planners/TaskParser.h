#pragma once

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph::engine {

// One operation the rule planner understood in a task (docs/api/agent.md lists the
// forms).
struct TaskOp
{
    enum class Kind {
        Open,     // a: URL
        Click,    // a: target
        Type,     // a: text, b: target
        Select,   // a: option, b: target
        Check,    // a: target
        Uncheck,  // a: target
        Press,    // a: key
        WaitText, // a: text
        WaitMs,   // n: milliseconds
        Scroll,   // a: direction
        Search,   // a: query
        Login,
        Extract, // a: URL (optional: open it first)
        SheetsWorkflow,
        Generate,   // a: tool name, b: file format (docs_access, slides_access: empty = default);
                    // args: what the task spelled out for it (pdf_filling)
        Ask,        // the task names nothing to work on: ask for a page
        ReadSheets, // data and no page: read the sheets (as the answer, or shaped by the schema)
    };
    TaskOp(Kind k, QString first = {}, QString second = {}, int number = 0,
           QJsonObject toolArgs = {})
        : kind(k)
        , a(std::move(first))
        , b(std::move(second))
        , n(number)
        , args(std::move(toolArgs))
    {}

    Kind kind;
    QString a;
    QString b;
    int n = 0;
    QJsonObject args;

    QJsonObject toJson() const;
    static TaskOp fromJson(const QJsonObject &o);
};

struct TaskPlan
{
    QList<TaskOp> ops;
    bool loginIntent = false;
    bool extractIntent = false;
    bool paginate = false;
    int maxPages = 0; // 0: the setting's default
    bool eachRow = false;
    bool explicitSteps = false;    // the task spelled out actions
    bool directExtraction = false; // "list/extract/collect … " rather than a question
    bool fillForm = false;         // "fill the form at … with …" and pdf_filling is enabled
    // What the task asks for that no step does — a form to fill in or send with no value
    // given ("fill in the form and send it"), a transaction ("book a table for two") —
    // in the task's words. The rule planner cannot guess it, and reading the page instead
    // would not be what was asked.
    QString unfulfillable;
    bool unfulfillableForm = false; // it is a form (the missing part is its values)
    QJsonObject credentials;        // email/username/password written in the task
    // Files the task asks for in words ("make a Word document of it", "as slides", "as a
    // PDF"): the tool that writes each and its format, in the order docs, slides, PDF.
    QList<QPair<QString, QString>> deliverables;
    // A condition on the records the task lists ("under 20 €", "more than 100", "in stock"):
    // the rule planner keeps the records that meet it (RulePlanner: applyFilter).
    struct Filter
    {
        std::optional<double> max; // "under 20", "unter 20 €", "moins de 20"
        std::optional<double> min; // "over 100", "mehr als 100", "plus de 100"
        bool inStock = false;      // "in stock", "auf Lager", "en stock"
        bool any() const { return max || min || inStock; }
    } filter;
};

struct TaskContext
{
    QStringList urls;
    bool hasSchema = false;
    bool hasData = false; // dataInputs present
    QStringList additionalTools;
    bool pageOpen = false; // a recording was replayed into the tab before planning
};

// Reads a natural-language task into operations, deterministically.
TaskPlan parseTask(const QString &input, const TaskContext &context);

} // namespace ph::engine
