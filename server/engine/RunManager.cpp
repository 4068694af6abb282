#include "RunManager.h"

#include "AgentRun.h"
#include "Planner.h"
#include "RunContext.h"
#include "TrajectoryRepository.h"

#include "browser/BrowserPool.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/JsonFields.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QTimer>

namespace ph::engine {

namespace {
constexpr int kForgetTerminalMs = 60000;

DomainError error(DomainError::Kind kind, const QString &code, const QString &message,
                  const QString &field = {})
{
    DomainError e(kind, code, message, field);
    if (kind == DomainError::Kind::TooManyRequests)
        e.withRetryAfter(5);
    return e;
}

// The request as the store keeps it: a proxy password in settings sealed (the rest as
// the request parser left it), so a run rebuilt after a restart reaches its proxy.
QJsonObject storedRequest(const ExecuteRequest &r, const SecretBox &box)
{
    if (!r.runSettings.proxy)
        return r.stored;
    QJsonObject stored = r.stored;
    stored.insert(QStringLiteral("settings"), r.runSettings.sealed(r.settings, box));
    return stored;
}
} // namespace

RunManager::RunManager(EngineServices &services, std::unique_ptr<PlannerFactory> planners,
                       QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_planners(std::move(planners))
{}

int RunManager::recoverOrphans()
{
    int n = 0;
    for (const PhaseRow &p : m_services.trajectories.executingPhases()) {
        const auto trajectory = m_services.trajectories.find(p.trajectoryId);
        if (!trajectory)
            continue;
        QJsonObject response = p.response;
        if (response.isEmpty())
            response = {{QStringLiteral("trajectoryId"), p.trajectoryId},
                        {QStringLiteral("phase"), p.phase},
                        {QStringLiteral("requestId"), p.requestId}};
        response.insert(QStringLiteral("status"), QStringLiteral("cancelled"));
        response.insert(QStringLiteral("success"), false);
        response.insert(QStringLiteral("error"), orphanReason());
        try {
            m_services.store.transaction([&] {
                m_services.trajectories.savePhase(p.trajectoryId, p.phase,
                                                  QStringLiteral("cancelled"), response, p.state,
                                                  p.creditsMilli, orphanReason(), true);
                m_services.trajectories.update(p.trajectoryId, QStringLiteral("cancelled"), p.phase,
                                               trajectory->planner, 0, trajectory->toolsUsed);
                if (m_settleHook)
                    m_settleHook(AgentRun::storedSettlement(
                        p.trajectoryId, p.phase, trajectory->keyId, p.requestId, p.state, p.request,
                        RunStatus::Cancelled, response, orphanReason(), p.creditsMilli));
            });
            ++n;
        } catch (const StoreError &e) {
            qWarning("cannot cancel the orphaned run %s: %s", qPrintable(p.trajectoryId), e.what());
        }
    }
    m_services.trajectories.cancelOrphans();
    if (n > 0)
        qInfo("%d runs were executing when the service last stopped; cancelled and announced", n);
    return n;
}

RunManager::~RunManager()
{
    shutdown();
}

std::unique_ptr<Planner> RunManager::plannerNamed(const QString &name,
                                                  const ExecuteRequest &request) const
{
    return m_planners->make(name, request);
}

std::unique_ptr<Planner> RunManager::plannerFor(const ExecuteRequest &request,
                                                EngineError *err) const
{
    if (!request.script.isEmpty())
        return plannerNamed(QStringLiteral("script"), request);
    const QString asked = request.settings.value(QStringLiteral("planner")).toString();
    const bool llmConfigured = !m_services.settings.stringValue(SettingKeys::llmBaseUrl).isEmpty();
    if (asked == QLatin1String("llm") && !llmConfigured) {
        *err = error(
            DomainError::Kind::Invalid, QStringLiteral("LLM_NOT_CONFIGURED"),
            QStringLiteral(
                "settings.planner is \"llm\" but no LLM endpoint is configured (llm.baseUrl)"),
            QStringLiteral("settings.planner"));
        return nullptr;
    }
    QString name = asked;
    if (name.isEmpty()) {
        const bool understood = m_planners->understood(request);
        name = llmConfigured && !understood ? QStringLiteral("llm") : QStringLiteral("rule");
    }
    return plannerNamed(name, request);
}

AgentRun *RunManager::live(const QString &trajectoryId) const
{
    return m_runs.value(trajectoryId).data();
}

int RunManager::executing(const QString &keyId) const
{
    int n = 0;
    for (const auto &run : m_runs) {
        if (run && run->keyId() == keyId && run->status() == RunStatus::Executing)
            ++n;
    }
    return n;
}

int RunManager::active(const QString &keyId) const
{
    int n = 0;
    for (const auto &run : m_runs) {
        if (run && run->keyId() == keyId &&
            (run->status() == RunStatus::Executing ||
             (run->status() == RunStatus::RequiresInput && run->holdsPage())))
            ++n;
    }
    return n;
}

AgentRun *RunManager::adopt(AgentRun *run)
{
    m_runs.insert(run->trajectoryId(), run);
    run->setSettleHook(m_settleHook);
    const QString id = run->trajectoryId();
    connect(run, &AgentRun::changed, this, [this, id] { Q_EMIT runChanged(id); });
    connect(run, &AgentRun::settled, this, [this, run, id] {
        Q_EMIT runSettled(id);
        scheduleForget(run);
    });
    return run;
}

void RunManager::scheduleForget(AgentRun *run)
{
    // Settled runs stay in memory a while for quick reads; waiting runs as long as they
    // hold their page. Later reads and continuations come from the store.
    const int delay = run->status() == RunStatus::RequiresInput
                          ? m_services.settings.intValue(SettingKeys::agentPausedLeaseMs) + 1000
                          : kForgetTerminalMs;
    QPointer<AgentRun> guard(run);
    QTimer::singleShot(delay, this, [this, guard] {
        if (!guard)
            return;
        if (guard->status() == RunStatus::Executing)
            return; // resumed meanwhile; it will settle again
        if (m_runs.value(guard->trajectoryId()) == guard)
            m_runs.remove(guard->trajectoryId());
        guard->deleteLater();
    });
}

AgentRun *RunManager::submit(const ExecuteRequest &request, const QString &keyId,
                             const QString &requestId, EngineError *err)
{
    const int limit = m_services.settings.intValue(SettingKeys::agentMaxRunsPerKey);
    if (request.trajectoryId.isEmpty() || !request.historyContinue) {
        if (active(keyId) >= limit) {
            *err =
                error(DomainError::Kind::TooManyRequests, QStringLiteral("BUSY"),
                      QStringLiteral(
                          "this key already has %1 runs executing (agent.maxConcurrentRunsPerKey)")
                          .arg(limit));
            return nullptr;
        }
    }

    // recording_id: the steps of that earlier run are replayed into the tab first.
    QList<StepRecord> recording;
    if (!request.recordingId.isEmpty()) {
        const auto steps = recordingSteps(request.recordingId, keyId);
        if (!steps) {
            *err =
                error(DomainError::Kind::NotFound, QStringLiteral("RECORDING_NOT_FOUND"),
                      QStringLiteral("no recording %1 for this API key").arg(request.recordingId),
                      QStringLiteral("recording_id"));
            return nullptr;
        }
        recording = *steps;
    }

    if (request.trajectoryId.isEmpty())
        return startTrajectory(request, keyId, requestId, recording, err);

    const auto trajectory = m_services.trajectories.find(request.trajectoryId);
    if (!trajectory || trajectory->keyId != keyId) {
        *err = error(DomainError::Kind::NotFound, QStringLiteral("TRAJECTORY_NOT_FOUND"),
                     QStringLiteral("no trajectory %1").arg(request.trajectoryId),
                     QStringLiteral("trajectoryId"));
        return nullptr;
    }
    AgentRun *current = live(request.trajectoryId);
    if (current && current->status() == RunStatus::Executing) {
        *err = error(DomainError::Kind::Conflict, QStringLiteral("RUN_IN_PROGRESS"),
                     QStringLiteral("the trajectory is still executing; wait for it or cancel it"),
                     QStringLiteral("trajectoryId"));
        return nullptr;
    }
    if (request.historyContinue)
        return continueWaiting(request, keyId, requestId, trajectory->planner, current, err);
    return startPhase(request, keyId, requestId, current, recording, err);
}

AgentRun *RunManager::startTrajectory(const ExecuteRequest &request, const QString &keyId,
                                      const QString &requestId, const QList<StepRecord> &recording,
                                      EngineError *err)
{
    auto planner = plannerFor(request, err);
    if (!planner)
        return nullptr;
    const QString id = Ids::make(QStringLiteral("traj"), 20);
    const int phase = request.phase > 0 ? request.phase : 1;
    m_services.store.transaction([&] {
        m_services.trajectories.create(id, keyId, request.input, planner->name());
        m_services.trajectories.beginPhase(
            id, phase, requestId, storedRequest(request, m_services.store.secrets()),
            QJsonObject{{QStringLiteral("__callback"),
                         AgentRun::callbackState(request, requestId, {requestId},
                                                 m_services.store.clock().nowMs())}});
    });
    auto *run = adopt(
        new AgentRun(m_services, request, id, phase, keyId, requestId, std::move(planner), this));
    Q_EMIT runStarted(id);
    run->start(recording);
    return run;
}

AgentRun *RunManager::continueWaiting(const ExecuteRequest &request, const QString &keyId,
                                      const QString &requestId, const QString &plannerName,
                                      AgentRun *current, EngineError *err)
{
    if (current && current->status() == RunStatus::RequiresInput) {
        current->resume(request, requestId);
        return current;
    }
    const int last = m_services.trajectories.lastPhase(request.trajectoryId);
    const auto phase = m_services.trajectories.phase(request.trajectoryId, last);
    if (!phase || phase->status != QLatin1String("requires_input")) {
        *err = error(DomainError::Kind::Conflict, QStringLiteral("NOT_WAITING_FOR_INPUT"),
                     QStringLiteral("the trajectory is not waiting for input; send a new phase "
                                    "without history.continue"),
                     QStringLiteral("history.continue"));
        return nullptr;
    }
    // The run's object is gone (restart, or it waited long): rebuild it from the store.
    const auto original = storedPhaseRequest(request, phase->request, keyId, err);
    if (!original)
        return nullptr;
    auto planner = plannerNamed(plannerName, *original);
    auto *run = adopt(new AgentRun(m_services, *original, request.trajectoryId, last, keyId,
                                   requestId, std::move(planner), this));
    run->restoreWaiting(m_services.trajectories.steps(request.trajectoryId, last), phase->state,
                        phase->creditsMilli);
    run->resume(request, requestId);
    return run;
}

std::optional<ExecuteRequest> RunManager::storedPhaseRequest(const ExecuteRequest &request,
                                                             const QJsonObject &stored,
                                                             const QString &keyId,
                                                             EngineError *err) const
{
    ExecuteRequest original = request;
    original.input = stored.value(QStringLiteral("input")).toString();
    original.schema = stored.value(QStringLiteral("schema")).toObject();
    original.urls.clear();
    for (const auto &u : stored.value(QStringLiteral("urls")).toArray())
        original.urls << u.toString();
    original.settings = stored.value(QStringLiteral("settings")).toObject();
    // The proxy's password comes back from its sealed form.
    try {
        original.runSettings = RunSettings::read(
            original.settings, m_services.policy.grantFor(keyId), &m_services.store.secrets());
        // The run's `browser` options (engine, polyfills) as it was started with.
        original.browser = LeaseOptions::read(JsonFields(stored), QStringLiteral("browser"));
        // Whose work it is, as the continuation's starter says (never stored).
        original.browser.work = request.browser.work;
        original.browser.site = request.browser.site;
    } catch (const DomainError &e) {
        *err = error(
            DomainError::Kind::Conflict, QStringLiteral("SETTINGS_UNREADABLE"),
            QStringLiteral("the stored settings of this run no longer read: %1").arg(e.message()),
            QStringLiteral("settings"));
        return std::nullopt;
    }
    return original;
}

AgentRun *RunManager::startPhase(const ExecuteRequest &request, const QString &keyId,
                                 const QString &requestId, AgentRun *current,
                                 const QList<StepRecord> &recording, EngineError *err)
{
    const int last = m_services.trajectories.lastPhase(request.trajectoryId);
    const int phase = request.phase > 0 ? request.phase : last + 1;
    if (phase <= last) {
        *err = error(DomainError::Kind::Conflict, QStringLiteral("PHASE_EXISTS"),
                     QStringLiteral("phase %1 of this trajectory exists already; the next is %2")
                         .arg(phase)
                         .arg(last + 1),
                     QStringLiteral("phase"));
        return nullptr;
    }
    auto planner = plannerFor(request, err);
    if (!planner)
        return nullptr;
    m_services.trajectories.beginPhase(
        request.trajectoryId, phase, requestId, storedRequest(request, m_services.store.secrets()),
        QJsonObject{{QStringLiteral("__callback"),
                     AgentRun::callbackState(request, requestId, {requestId},
                                             m_services.store.clock().nowMs())}});
    if (current) {
        m_runs.remove(request.trajectoryId);
        current->cancel(QStringLiteral("cancelled"));
        current->deleteLater();
    }
    auto *run = adopt(new AgentRun(m_services, request, request.trajectoryId, phase, keyId,
                                   requestId, std::move(planner), this));
    Q_EMIT runStarted(request.trajectoryId);
    run->start(recording);
    return run;
}

std::optional<QJsonObject> RunManager::firstRequest(const QString &trajectoryId,
                                                    const QString &keyId) const
{
    const auto trajectory = m_services.trajectories.find(trajectoryId);
    if (!trajectory || (!keyId.isEmpty() && trajectory->keyId != keyId))
        return std::nullopt;
    const auto phase = m_services.trajectories.phase(trajectoryId, 1);
    if (!phase)
        return std::nullopt;
    return phase->request;
}

std::optional<QList<StepRecord>> RunManager::recordingSteps(const QString &recordingId,
                                                            const QString &keyId) const
{
    // A run's recording is its trajectory: every phase's steps, in order.
    const auto trajectory = m_services.trajectories.find(recordingId);
    if (!trajectory || (!keyId.isEmpty() && trajectory->keyId != keyId))
        return std::nullopt;
    QList<StepRecord> steps;
    const int last = m_services.trajectories.lastPhase(recordingId);
    for (int phase = 1; phase <= last; ++phase)
        steps << m_services.trajectories.steps(recordingId, phase);
    return steps;
}

std::optional<QJsonObject> RunManager::latest(const QString &trajectoryId, const QString &keyId,
                                              EngineError *err) const
{
    const auto trajectory = m_services.trajectories.find(trajectoryId);
    if (!trajectory || (!keyId.isEmpty() && trajectory->keyId != keyId)) {
        *err = error(DomainError::Kind::NotFound, QStringLiteral("TRAJECTORY_NOT_FOUND"),
                     QStringLiteral("no trajectory %1").arg(trajectoryId));
        return std::nullopt;
    }
    if (AgentRun *run = live(trajectoryId))
        return run->response();
    const auto phase = m_services.trajectories.phase(
        trajectoryId, m_services.trajectories.lastPhase(trajectoryId));
    if (!phase) {
        *err = error(DomainError::Kind::NotFound, QStringLiteral("TRAJECTORY_NOT_FOUND"),
                     QStringLiteral("no trajectory %1").arg(trajectoryId));
        return std::nullopt;
    }
    QJsonObject r = phase->response;
    if (r.isEmpty()) {
        r = {{QStringLiteral("success"), false},
             {QStringLiteral("status"), phase->status},
             {QStringLiteral("trajectoryId"), trajectoryId},
             {QStringLiteral("phase"), phase->phase}};
    }
    // A phase the store still shows as executing was cut off by a restart.
    r.insert(QStringLiteral("status"), phase->status);
    r.insert(QStringLiteral("success"), phase->status == QLatin1String("success"));
    if (!phase->error.isEmpty())
        r.insert(QStringLiteral("error"), phase->error);
    return r;
}

std::optional<RunSnapshot> RunManager::snapshot(const QString &trajectoryId, const QString &keyId,
                                                EngineError *err) const
{
    if (AgentRun *run = live(trajectoryId))
        return run->snapshot();
    const auto trajectory = m_services.trajectories.find(trajectoryId);
    const auto phase = trajectory && (keyId.isEmpty() || trajectory->keyId == keyId)
                           ? m_services.trajectories.phase(
                                 trajectoryId, m_services.trajectories.lastPhase(trajectoryId))
                           : std::nullopt;
    if (!phase) {
        *err = error(DomainError::Kind::NotFound, QStringLiteral("TRAJECTORY_NOT_FOUND"),
                     QStringLiteral("no trajectory %1").arg(trajectoryId));
        return std::nullopt;
    }
    RunSnapshot s;
    s.trajectoryId = trajectoryId;
    s.phase = phase->phase;
    s.requestId = phase->requestId;
    s.status = runStatusFromString(phase->status);
    s.error = phase->error.isEmpty() ? phase->response.value(QStringLiteral("error")).toString()
                                     : phase->error;
    s.steps = m_services.trajectories.steps(trajectoryId, phase->phase);
    s.creditsMilli = phase->creditsMilli;
    // The rest as the phase's stored answer holds it.
    const QJsonObject &r = phase->response;
    for (const QJsonValue &q : r.value(QStringLiteral("questions")).toArray())
        s.questions << Question::fromJson(q.toObject());
    const QJsonObject result = r.value(QStringLiteral("result")).toObject();
    if (s.status != RunStatus::RequiresInput)
        s.text = result.value(QStringLiteral("text")).toString();
    if (result.contains(QStringLiteral("json")))
        s.json = result.value(QStringLiteral("json"));
    QList<QJsonValue> blocks;
    for (const QJsonValue &b : r.value(QStringLiteral("output")).toArray())
        if (b.toObject().value(QStringLiteral("type")).toString() == QLatin1String("json"))
            blocks << b.toObject().value(QStringLiteral("data"));
    if (blocks.size() > 1)
        s.jsonBlocks = blocks;
    const QJsonObject metadata = r.value(QStringLiteral("metadata")).toObject();
    for (const QJsonValue &v : metadata.value(QStringLiteral("generatedFiles")).toArray()) {
        const QJsonObject f = v.toObject();
        s.files << GeneratedFile{f.value(QStringLiteral("tool")).toString(),
                                 f.value(QStringLiteral("id")).toString(),
                                 f.value(QStringLiteral("name")).toString(),
                                 f.value(QStringLiteral("contentType")).toString(),
                                 qint64(f.value(QStringLiteral("sizeBytes")).toDouble())};
    }
    s.planner = metadata.value(QStringLiteral("planner")).toString();
    return s;
}

bool RunManager::cancel(const QString &trajectoryId, const QString &keyId, const QString &reason,
                        EngineError *err)
{
    const auto trajectory = m_services.trajectories.find(trajectoryId);
    if (!trajectory || (!keyId.isEmpty() && trajectory->keyId != keyId)) {
        *err = error(DomainError::Kind::NotFound, QStringLiteral("TRAJECTORY_NOT_FOUND"),
                     QStringLiteral("no trajectory %1").arg(trajectoryId));
        return false;
    }
    AgentRun *run = live(trajectoryId);
    if (run && !isTerminal(run->status())) {
        run->cancel(reason);
        return true;
    }
    const int last = m_services.trajectories.lastPhase(trajectoryId);
    const auto phase = m_services.trajectories.phase(trajectoryId, last);
    if (phase && phase->status == QLatin1String("requires_input")) {
        // Waiting, and its object is gone: end it in the store.
        QJsonObject response = phase->response;
        response.insert(QStringLiteral("status"), QStringLiteral("cancelled"));
        response.insert(QStringLiteral("success"), false);
        const QString why = QStringLiteral("the run was cancelled");
        response.insert(QStringLiteral("error"), why);
        // The end and its callbacks in one commit, as for a live run.
        m_services.store.transaction([&] {
            m_services.trajectories.savePhase(trajectoryId, last, QStringLiteral("cancelled"),
                                              response, phase->state, phase->creditsMilli, why,
                                              true);
            m_services.trajectories.update(trajectoryId, QStringLiteral("cancelled"), last,
                                           trajectory->planner, 0, trajectory->toolsUsed);
            if (m_settleHook)
                m_settleHook(AgentRun::storedSettlement(
                    trajectoryId, last, trajectory->keyId, phase->requestId, phase->state,
                    phase->request, RunStatus::Cancelled, response, why, phase->creditsMilli));
        });
        Q_EMIT runSettled(trajectoryId);
        return true;
    }
    *err = error(DomainError::Kind::Conflict, QStringLiteral("NOT_RUNNING"),
                 QStringLiteral("the trajectory has no run to cancel"));
    return false;
}

void RunManager::shutdown()
{
    for (const auto &run : std::as_const(m_runs)) {
        if (run && run->status() == RunStatus::Executing)
            run->cancel(QStringLiteral("shutting_down"));
    }
}

} // namespace ph::engine
