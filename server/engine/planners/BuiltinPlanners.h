#pragma once

#include "engine/Planner.h"

class QNetworkAccessManager;

namespace ph {
class Settings;
}

namespace ph::engine {

struct TaskContext;

// The planners a run may get: the rule planner (the default), the LLM planner
// ("llm", the operator's endpoint in llm.*) and the script planner (a request's
// `script`). RunManager is given one (server/Service) and decides which a request gets.
class BuiltinPlanners final : public PlannerFactory
{
public:
    // `network` reaches the LLM endpoint; both outlive the factory.
    BuiltinPlanners(const Settings &settings, QNetworkAccessManager &network);
    std::unique_ptr<Planner> make(const QString &name, const ExecuteRequest &request) override;
    bool understood(const ExecuteRequest &request) const override;

    // What the rule planner knows of a request besides its task text.
    static TaskContext taskContext(const ExecuteRequest &request);

private:
    const Settings &m_settings;
    QNetworkAccessManager &m_network;
};

} // namespace ph::engine
