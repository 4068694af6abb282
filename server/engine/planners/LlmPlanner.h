#pragma once

#include "engine/Planner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <memory>

class QNetworkAccessManager;

namespace ph {
class Settings;
}

namespace ph::engine {

class LlmClient;

// The planner for open-ended tasks: an OpenAI-compatible chat-completions model with
// tool calling. The first URL is opened before the first turn and its aria snapshot
// given with the task; images from image_urls go in as image parts. Tool results go
// back as tool messages (a failed call as an error the model can react to, e.g. by
// retrying with another element). The model ends with the `finish` tool (text and,
// with a schema, json shaped by it) or a plain answer. Tokens are billed as credits.
class LlmPlanner final : public Planner
{
public:
    // The model's endpoint, key, timeout and step limit come from `settings` (llm.*);
    // `network` reaches it.
    LlmPlanner(const ExecuteRequest &request, const Settings &settings,
               QNetworkAccessManager &network);
    ~LlmPlanner() override;

    QString name() const override;
    void next(PlanningContext &ctx, const ToolResult *last,
              std::function<void(Decision)> decide) override;
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject &state) override;
    void resumeWithAnswers(PlanningContext &ctx) override;

private:
    QStringList toolNames(PlanningContext &ctx) const;
    QJsonObject finishTool(const QJsonObject &schema) const;
    QJsonValue firstMessage(PlanningContext &ctx) const;
    bool dispatchQueued(const std::function<void(Decision)> &decide);

    const Settings &m_settings;
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
