#pragma once

#include "EngineTypes.h"

#include <QJsonObject>
#include <QString>

#include <functional>

namespace ph::engine {

class RunContext;

// Chooses the run's next move, one at a time. `last` is the result of the tool call
// the previous decision asked for (null before the first). A planner must call
// `decide` exactly once per next().
class Planner
{
public:
    virtual ~Planner() = default;
    virtual QString name() const = 0;
    virtual void next(RunContext &ctx, const ToolResult *last,
                      std::function<void(Decision)> decide) = 0;
    // State kept while a run waits for input, and restored when it continues (also
    // after a restart: it is stored with the phase).
    virtual QJsonObject saveState() const = 0;
    virtual void restoreState(const QJsonObject &state) = 0;
    // The run continues after ask_user; the answers are in ctx.answers().
    virtual void resumeWithAnswers(RunContext &ctx) = 0;
};

} // namespace ph::engine
