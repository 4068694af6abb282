#pragma once

#include "EngineTypes.h"
#include "ResponseBuilder.h"

#include "core/DomainError.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

namespace ph::engine {

class AgentRun;
class Planner;
class PlannerFactory;
struct EngineServices;

// A contract problem the HTTP layer turns into an DomainError.
// Why the run manager refused: a DomainError, when set.
using EngineError = std::optional<DomainError>;

// Starts, continues, finds and cancels runs. One run per trajectory executes at a
// time; a key may have agent.maxConcurrentRunsPerKey runs executing.
class RunManager : public QObject
{
    Q_OBJECT
public:
    // `planners` builds the run's planners (engine/planners/BuiltinPlanners).
    RunManager(EngineServices &services, std::unique_ptr<PlannerFactory> planners,
               QObject *parent = nullptr);
    ~RunManager() override;

    // Called inside the transaction that stores a phase's end or pause (live runs,
    // cancels of stored waiting runs, recoverOrphans()): the callbacks it owes are queued
    // there (cloud/AgentController).
    void setSettleHook(SettleHook hook) { m_settleHook = std::move(hook); }
    // Phases a process that ended abruptly left executing cannot go on: each is stored
    // cancelled and announced (workflow.failed, CANCELLED) in one commit. Runs that were
    // waiting for input survive; their continuation replays the page. Call once at
    // start, after setSettleHook(). Returns how many were cancelled.
    int recoverOrphans();
    static QString orphanReason() { return QStringLiteral("the service restarted during the run"); }

    // A new trajectory, a new phase of one, or the continuation of a run waiting for
    // input (history.continue). Returns the run, started; or null with `error` set.
    AgentRun *submit(const ExecuteRequest &request, const QString &keyId, const QString &requestId,
                     EngineError *error);
    AgentRun *live(const QString &trajectoryId) const;
    // The latest ApiExecuteResponse of a trajectory the key owns (live or stored).
    std::optional<QJsonObject> latest(const QString &trajectoryId, const QString &keyId,
                                      EngineError *error) const;
    // The same, typed: the live run's state, or what the store kept of the trajectory's
    // last phase (its status, error, steps, questions, result and files; a phase still
    // stored as executing was cut off by a restart). Followers that are not HTTP answers
    // read this (a2w/EngineMirror).
    std::optional<RunSnapshot> snapshot(const QString &trajectoryId, const QString &keyId,
                                        EngineError *error) const;
    bool cancel(const QString &trajectoryId, const QString &keyId, const QString &reason,
                EngineError *error);
    int executing(const QString &keyId) const;
    // What counts against agent.maxConcurrentRunsPerKey: runs executing, and runs
    // waiting for input that still hold a browser page.
    int active(const QString &keyId) const;
    // The request of a trajectory's first phase as stored (secrets removed), if the key
    // owns the trajectory.
    std::optional<QJsonObject> firstRequest(const QString &trajectoryId,
                                            const QString &keyId) const;
    // The steps of a recording (a trajectory's every phase) the key owns, or nullopt.
    std::optional<QList<StepRecord>> recordingSteps(const QString &recordingId,
                                                    const QString &keyId) const;
    void shutdown();

    // Which planner a request gets (settings.planner, else rule unless the task is
    // open-ended and an LLM endpoint is configured).
    std::unique_ptr<Planner> plannerFor(const ExecuteRequest &request, EngineError *error) const;
    std::unique_ptr<Planner> plannerNamed(const QString &name, const ExecuteRequest &request) const;

Q_SIGNALS:
    void runStarted(const QString &trajectoryId);
    void runChanged(const QString &trajectoryId);
    void runSettled(const QString &trajectoryId);

private:
    // submit()'s three cases: a new trajectory, the continuation of a run waiting for
    // input, a new phase of an existing trajectory.
    AgentRun *startTrajectory(const ExecuteRequest &request, const QString &keyId,
                              const QString &requestId, const QList<StepRecord> &recording,
                              EngineError *error);
    AgentRun *continueWaiting(const ExecuteRequest &request, const QString &keyId,
                              const QString &requestId, const QString &plannerName,
                              AgentRun *current, EngineError *error);
    AgentRun *startPhase(const ExecuteRequest &request, const QString &keyId,
                         const QString &requestId, AgentRun *current,
                         const QList<StepRecord> &recording, EngineError *error);
    // The request of a waiting phase as stored, for rebuilding its run (the continuation's
    // `request` gives what is never stored); nullopt with `error` set if it no longer reads.
    std::optional<ExecuteRequest> storedPhaseRequest(const ExecuteRequest &request,
                                                     const QJsonObject &stored,
                                                     const QString &keyId,
                                                     EngineError *error) const;
    AgentRun *adopt(AgentRun *run);
    void scheduleForget(AgentRun *run);

    EngineServices &m_services;
    std::unique_ptr<PlannerFactory> m_planners;
    QHash<QString, QPointer<AgentRun>> m_runs;
    SettleHook m_settleHook;
};

} // namespace ph::engine
