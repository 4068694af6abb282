#pragma once

#include "EngineTypes.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace ph {
class Store;
}

namespace ph::engine {

struct TrajectoryRow
{
    QString id;
    QString keyId;
    QString status;
    int phase = 0;
    QString task;
    QString planner;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    qint64 creditsMilli = 0;
    QStringList toolsUsed;
};

struct PhaseRow
{
    QString trajectoryId;
    int phase = 0;
    QString requestId;
    QString status;
    QJsonObject request;
    QJsonObject response;
    QJsonObject state;
    qint64 startedAt = 0;
    std::optional<qint64> finishedAt;
    qint64 creditsMilli = 0;
    QString error;
};

// Trajectories, phases and steps in the store (the engine's area repository).
class TrajectoryRepository : public QObject
{
    Q_OBJECT
public:
    explicit TrajectoryRepository(Store &store);

    void create(const QString &id, const QString &keyId, const QString &task,
                const QString &planner);
    std::optional<TrajectoryRow> find(const QString &id) const;
    void update(const QString &id, const QString &status, int phase, const QString &planner,
                qint64 addCreditsMilli, const QStringList &toolsUsed);

    // `state`: what the phase keeps from its start (AgentRun::callbackState).
    void beginPhase(const QString &trajectoryId, int phase, const QString &requestId,
                    const QJsonObject &request, const QJsonObject &state = {});
    // Records a phase's latest state; `response` is the full ApiExecuteResponse.
    void savePhase(const QString &trajectoryId, int phase, const QString &status,
                   const QJsonObject &response, const QJsonObject &state, qint64 creditsMilli,
                   const QString &error, bool finished);
    std::optional<PhaseRow> phase(const QString &trajectoryId, int phase) const;
    int lastPhase(const QString &trajectoryId) const;

    qint64 addStep(const QString &trajectoryId, int phase, const StepRecord &step);
    void finishStep(const StepRecord &step);
    QList<StepRecord> steps(const QString &trajectoryId, int phase) const;

    // Newest activity first. `search` matches the task or the id (case-insensitive).
    QList<TrajectoryRow> list(const QString &keyId, const QString &status, int limit, int offset,
                              const QString &search = {}) const;
    // Phases still "executing" in the store (at start: left by a process that ended
    // abruptly).
    QList<PhaseRow> executingPhases() const;
    // Marks trajectories left "executing" (without an executing phase) as cancelled.
    int cancelOrphans();

Q_SIGNALS:
    // A trajectory or one of its phases changed (status, result, cost).
    void trajectoryChanged(const QString &trajectoryId);
    // A step was added to the trajectory.
    void stepsChanged(const QString &trajectoryId);

private:
    Store &m_store;
};

} // namespace ph::engine
