#include "ScriptPlanner.h"

namespace ph::engine {

ScriptPlanner::ScriptPlanner(QJsonArray steps)
    : m_steps(std::move(steps))
{}

QString ScriptPlanner::name() const
{
    return QStringLiteral("script");
}

void ScriptPlanner::next(PlanningContext &, const ToolResult *last,
                         std::function<void(Decision)> decide)
{
    if (last && !last->ok) {
        const QJsonObject step = m_steps.at(m_index - 1).toObject();
        decide(
            Decision::fail(QStringLiteral("step %1 (%2) failed: %3")
                               .arg(m_index)
                               .arg(step.value(QStringLiteral("tool")).toString(), last->error)));
        return;
    }
    if (m_index < m_steps.size()) {
        const QJsonObject step = m_steps.at(m_index++).toObject();
        decide(Decision::call(step.value(QStringLiteral("tool")).toString(),
                              step.value(QStringLiteral("args")).toObject(),
                              QStringLiteral("Step %1 of %2.").arg(m_index).arg(m_steps.size())));
        return;
    }
    if (!last) {
        decide(Decision::finish(QStringLiteral("Nothing to do."), std::nullopt));
        return;
    }
    const QJsonObject out = last->output.toObject();
    if (out.contains(QStringLiteral("data")))
        decide(Decision::finish(last->summary, out.value(QStringLiteral("data"))));
    else if (out.contains(QStringLiteral("result")))
        decide(Decision::finish(last->summary, out.value(QStringLiteral("result"))));
    else if (out.contains(QStringLiteral("markdown")))
        decide(Decision::finish(out.value(QStringLiteral("markdown")).toString(), std::nullopt));
    else // an action: what the page is now (url, title, its aria snapshot)
        decide(Decision::finish(QStringLiteral("Done: %1.").arg(last->summary),
                                out.isEmpty() ? std::nullopt : std::optional<QJsonValue>(out)));
}

QJsonObject ScriptPlanner::saveState() const
{
    return {{QStringLiteral("index"), m_index}};
}

void ScriptPlanner::restoreState(const QJsonObject &state)
{
    m_index = state.value(QStringLiteral("index")).toInt();
}

void ScriptPlanner::resumeWithAnswers(PlanningContext &)
{
    // Scripts never ask: there is nothing to resume.
}

} // namespace ph::engine
