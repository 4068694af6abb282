#pragma once

#include "Planner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <memory>

namespace ph::engine {

class LlmClient;
struct EngineServices;

// The planner for open-ended tasks: an OpenAI-compatible chat-completions model with
// tool calling. The first URL is opened before the first turn and its aria snapshot
// given with the task; images from image_urls go in as image parts. Tool results go
// back as tool messages (a failed call as an error the model can react to, e.g. by
// retrying with another element). The model ends with the `finish` tool (text and,
// with a schema, json shaped by it) or a plain answer. Tokens are billed as credits.
class LlmPlanner final : public Planner
{
public:
    LlmPlanner(const ExecuteRequest &request, EngineServices &services);
    ~LlmPlanner() override;

    QString name() const override;
    void next(RunContext &ctx, const ToolResult *last,
              std::function<void(Decision)> decide) override;
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject &state) override;
    void resumeWithAnswers(RunContext &ctx) override;

    // Lines describing the run's data (sheets) for the first message.

private:
    QStringList toolNames(RunContext &ctx) const;
    QJsonObject finishTool(const QJsonObject &schema) const;
    QJsonValue firstMessage(RunContext &ctx) const;
    bool dispatchQueued(const std::function<void(Decision)> &decide);

    EngineServices &m_services;
    std::unique_ptr<LlmClient> m_client;
    QString m_model;
    QJsonArray m_messages;
    QList<QJsonObject> m_queue;
    QString m_pendingCallId;
    QString m_initialPage;
    bool m_priming = false;
    int m_turns = 0;
    qint64 m_tokens = 0;
    qint64 m_turnTokens = 0;
};

} // namespace ph::engine
