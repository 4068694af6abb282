#pragma once

#include "EngineTypes.h"
#include "InputLoader.h"
#include "ResponseBuilder.h"
#include "RunOutcome.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace ph::engine {

class Planner;
class RunContext;
struct EngineServices;

// One phase of a trajectory, executing: the planner loop (decide, run the tool, record
// the step, decide again), its pause for input and its end. Everything it does is
// stored as it happens (steps, phase state, trajectory status), so GET /agent/{id},
// the console and a restart see the same run.
//
// Status follows the spec's table: executing → success | error | cancelled |
// requires_input; requires_input → executing on resume().
class AgentRun : public QObject
{
    Q_OBJECT
public:
    AgentRun(EngineServices &services, ExecuteRequest request, QString trajectoryId, int phase,
             QString keyId, QString requestId, std::unique_ptr<Planner> planner,
             QObject *parent = nullptr);
    ~AgentRun() override;

    // Starts the phase. `replay`: steps of an earlier process to re-run first (a
    // continuation whose page is gone); `state`: the planner state to restore.
    void start(const QList<StepRecord> &replay = {}, const QJsonObject &state = {});
    // Continues a run waiting for input; answers come from the continuation request.
    void resume(const ExecuteRequest &continuation, const QString &requestId);
    // Rebuilds a run that was waiting for input in an earlier process (or whose object
    // was let go): its steps, planner state, questions and answers come from the store;
    // resume() then replays the browser steps into a fresh page and carries on.
    void restoreWaiting(const QList<StepRecord> &steps, const QJsonObject &state,
                        qint64 chargedMilli);
    // Ends a run that is executing or waiting, as cancelled. `reason`: client_disconnected,
    // time_limit, cancelled.
    void cancel(const QString &reason);

    RunStatus status() const { return m_status; }
    QString trajectoryId() const { return m_trajectoryId; }
    int phase() const { return m_phase; }
    QString keyId() const { return m_keyId; }
    QString requestId() const { return m_requestId; }
    QString plannerName() const;
    const ExecuteRequest &request() const { return m_request; }
    // The phase's steps so far (arguments masked as stored).
    const QList<StepRecord> &steps() const { return m_steps; }
    bool holdsPage() const;
    // What the run asks while it waits for input (empty otherwise).
    const QList<Question> &questions() const { return m_questions; }
    // Why it ended, on error and cancelled.
    QString error() const { return m_error; }

    // The ApiExecuteResponse as it stands (docs/api/agent.md).
    QJsonObject response() const;
    // The same state typed (status, steps, questions, result, files), for followers that
    // are not HTTP answers (a2w/EngineMirror).
    RunSnapshot snapshot() const;

    // Called inside the transaction that stores the phase's end or pause
    // (RunManager::setSettleHook).
    void setSettleHook(SettleHook hook) { m_settleHook = std::move(hook); }
    // What a phase keeps in its state for the callbacks (under "__callback"), so that a
    // later process can announce a phase this one never finished: the request that
    // drives it, the subscriber requests, the tool (and params of a bridge call), the start.
    static QJsonObject callbackState(const ExecuteRequest &request, const QString &requestId,
                                     const QStringList &subscribers, qint64 startedAt);
    // The settlement of a phase read back from the store (no live run).
    static Settlement storedSettlement(const QString &trajectoryId, int phase, const QString &keyId,
                                       const QString &phaseRequestId, const QJsonObject &state,
                                       const QJsonObject &request, RunStatus status,
                                       const QJsonObject &response, const QString &error,
                                       qint64 creditsMilli);

    // Requests whose callback subscriptions hear how this phase ends (the one that
    // started it and its continuations).
    void addSubscriberRequest(const QString &requestId);
    QStringList subscriberRequests() const { return m_subscriberRequests; }
    qint64 startedAt() const { return m_startedAt; }
    qint64 creditsUsedMilli() const { return m_chargedMilli; }
    std::optional<qint64> creditsLeftMilli() const { return m_creditsLeft; }
    // Set when the run ended because an input (dataInputs, file_urls, image_urls) could
    // not be used: POST /agent answers it as a 400 naming the input.
    const std::optional<InputError> &inputError() const { return m_inputError; }

Q_SIGNALS:
    void changed();
    // The run reached success, error, cancelled or requires_input.
    void settled();

private:
    void loop();
    void decided(const Decision &decision);
    void toolDone(StepRecord step, const Decision &decision, const ToolResult &result,
                  bool usedTab);
    void pause(const QList<Question> &questions);
    void finalize(RunStatus status, const QString &error = {});
    void chargeSoFar();
    void settle(bool finished);
    void persist(bool finished);
    void replayNext();
    void loadInputs(std::function<void()> then);
    // Fairness while waiting for input: the page goes back to the pool as soon as another
    // request waits for one and none is free (a continuation replays into a fresh one).
    void yieldPageIfWanted();
    QJsonObject maskedArgs(const QJsonObject &args) const;
    void checkSchema(const QJsonValue &json);

    EngineServices &m_services;
    ExecuteRequest m_request;
    QString m_trajectoryId;
    int m_phase;
    QString m_keyId;
    QString m_requestId;
    std::unique_ptr<Planner> m_planner;
    std::unique_ptr<RunContext> m_ctx;
    RunStatus m_status = RunStatus::Executing;
    QList<StepRecord> m_steps;
    QList<StepRecord> m_replay;
    std::optional<ToolResult> m_last;
    QList<Question> m_questions;
    QString m_text;
    std::optional<QJsonValue> m_json;
    QList<QJsonValue> m_jsonBlocks;
    Usage m_used; // what the phase used in this process (pages, browser time, tokens)
    QString m_error;
    QString m_expiryReason;
    QStringList m_toolsUsed;
    qint64 m_chargedMilli = 0;    // billed for this phase so far
    qint64 m_unrecordedMilli = 0; // billed, not yet added to the trajectory's total
    std::optional<qint64> m_creditsLeft;
    bool m_charged = false;
    qint64 m_tokensPending = 0;
    QTimer m_timeLimit;
    QTimer m_releasePage;
    QMetaObject::Connection m_poolWatch; // while waiting for input with a page held
    // The large-response snapshot last stored: reading the run again reuses it.
    mutable ResponseBuilder::SnapshotMemo m_snapshot;
    bool m_loopQueued = false;
    bool m_busy = false; // a planner decision or tool call is in flight
    QStringList m_subscriberRequests;
    SettleHook m_settleHook;
    qint64 m_startedAt = 0;
    std::optional<InputError> m_inputError;
    RunOutcome m_outcome; // what the run did, for an honest end (RunOutcome.h)
    bool m_inputsLoaded = false;
    bool m_sheetsLost = false; // rebuilt from the store: tool-made sheets must be replayed
};

} // namespace ph::engine
