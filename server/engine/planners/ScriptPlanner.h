#pragma once

#include "engine/Planner.h"

#include <QJsonArray>

namespace ph::engine {

// Runs given steps ({tool, args}) in order instead of planning: the bridge's act and
// crawl tools, saved subroutines and JavaScript tools. A failing step ends the run with
// an error naming it. The answer comes from the last step: its `data` or `result` as
// JSON, its markdown as text, else its summary as text and its output (an action's
// url, title and aria snapshot) as JSON.
class ScriptPlanner final : public Planner
{
public:
    explicit ScriptPlanner(QJsonArray steps);

    QString name() const override;
    void next(PlanningContext &ctx, const ToolResult *last,
              std::function<void(Decision)> decide) override;
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject &state) override;
    void resumeWithAnswers(PlanningContext &ctx) override;

private:
    QJsonArray m_steps;
    int m_index = 0;
};

} // namespace ph::engine
