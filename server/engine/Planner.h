#pragma once

#include "EngineTypes.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace ph::data {
struct Sheet;
}

namespace ph::engine {

class ToolRegistry;

// What a planner reads of its run: the request, the answers given so far, the inputs
// (sheets, document texts, images), the tools there are, and where warnings go. The
// run's RunContext is one; planner tests give their own, with no browser behind it.
class PlanningContext
{
public:
    virtual ~PlanningContext() = default;
    virtual const ExecuteRequest &request() const = 0;
    virtual QJsonObject &answers() = 0;
    virtual QList<data::Sheet> &sheets() = 0;
    // Texts of file_urls (PDF, text): name and text.
    virtual QList<QPair<QString, QString>> &documents() = 0;
    // image_urls as data: URLs.
    virtual QStringList &images() = 0;
    virtual QStringList &warnings() = 0;
    virtual const ToolRegistry &tools() const = 0;
};

// Chooses the run's next move, one at a time. `last` is the result of the tool call
// the previous decision asked for (null before the first). A planner must call
// `decide` exactly once per next().
class Planner
{
public:
    virtual ~Planner() = default;
    virtual QString name() const = 0;
    virtual void next(PlanningContext &ctx, const ToolResult *last,
                      std::function<void(Decision)> decide) = 0;
    // State kept while a run waits for input, and restored when it continues (also
    // after a restart: it is stored with the phase).
    virtual QJsonObject saveState() const = 0;
    virtual void restoreState(const QJsonObject &state) = 0;
    // The run continues after ask_user; the answers are in ctx.answers().
    virtual void resumeWithAnswers(PlanningContext &ctx) = 0;
};

// Builds the planners a run may get. RunManager decides which one a request gets
// (settings.planner, a script, an LLM endpoint); the factory builds it. It is injected
// (engine/planners/BuiltinPlanners) so the run core names no planner.
class PlannerFactory
{
public:
    virtual ~PlannerFactory() = default;
    // The planner called `name`: "llm", "script", anything else the rule planner.
    virtual std::unique_ptr<Planner> make(const QString &name, const ExecuteRequest &request) = 0;
    // Whether the rule planner understands the request's task (else an open-ended task
    // goes to the LLM planner when one is configured).
    virtual bool understood(const ExecuteRequest &request) const = 0;
};

} // namespace ph::engine
