#include "BuiltinPlanners.h"

#include "engine/planners/LlmPlanner.h"
#include "engine/planners/RulePlanner.h"
#include "engine/planners/ScriptPlanner.h"
#include "engine/planners/TaskParser.h"

namespace ph::engine {

BuiltinPlanners::BuiltinPlanners(const Settings &settings, QNetworkAccessManager &network)
    : m_settings(settings)
    , m_network(network)
{}

TaskContext BuiltinPlanners::taskContext(const ExecuteRequest &r)
{
    TaskContext c;
    c.urls = r.urls;
    c.hasSchema = !r.schema.isEmpty();
    c.hasData = !r.dataInputs.isEmpty() || !r.fileUrls.isEmpty();
    c.additionalTools = r.additionalTools;
    c.pageOpen = !r.recordingId.isEmpty();
    return c;
}

std::unique_ptr<Planner> BuiltinPlanners::make(const QString &name, const ExecuteRequest &request)
{
    if (name == QLatin1String("llm"))
        return std::make_unique<LlmPlanner>(request, m_settings, m_network);
    if (name == QLatin1String("script"))
        return std::make_unique<ScriptPlanner>(request.script);
    return std::make_unique<RulePlanner>(request.input, taskContext(request), request.schema);
}

bool BuiltinPlanners::understood(const ExecuteRequest &request) const
{
    return RulePlanner::understood(request.input, taskContext(request), !request.schema.isEmpty());
}

} // namespace ph::engine
