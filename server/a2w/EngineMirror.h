#pragma once

#include "A2wRepository.h"

#include <QHash>
#include <QObject>

#include <memory>
#include <optional>

namespace ph {
class ApiKeyService;
class NetworkPolicy;
class Settings;
class Store;
namespace cloud {
class RunService;
}
namespace engine {
class RunManager;
struct ExecuteRequest;
struct RunSnapshot;
} // namespace engine
namespace sites {
class SiteRepository;
}
} // namespace ph

namespace ph::a2w {

class Delegations;
class RunRecorder;

// What the mirror needs of the run core, typed: start or continue a run, read its state,
// cancel it, hear that it changed. The service's is the run core itself (runCoreEngine);
// a test gives its own.
class EngineRuns : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // Starts a run (a new trajectory, or a continuation: request.historyContinue) charged
    // to `keyId`; returns its trajectory id. Refusals are DomainErrors.
    virtual QString start(const engine::ExecuteRequest &request, const QString &keyId) = 0;
    // The run's state (live, or as stored), if the key owns it.
    virtual std::optional<engine::RunSnapshot> snapshot(const QString &trajectoryId,
                                                        const QString &keyId) const = 0;
    // Cancels the run if it still runs or waits (nothing otherwise).
    virtual void cancel(const QString &trajectoryId, const QString &keyId,
                        const QString &reason) = 0;

Q_SIGNALS:
    void changed(const QString &trajectoryId);
};

// The run core as EngineRuns: runs start through cloud::RunService (credits, limits,
// the request log) like /agent, and are read from engine::RunManager.
std::unique_ptr<EngineRuns> runCoreEngine(cloud::RunService &runs, engine::RunManager &engine);

// The engine-run mirror of A2wService: starts the engine run of an A2W run (an agent
// trajectory of the site's A2W account) and follows it, keeping the A2W view of it:
// steps as events, a pause for input as input_required (with its confirm link), the end
// as the run's result.
class EngineMirror : public QObject
{
    Q_OBJECT
public:
    EngineMirror(Store &store, Settings &settings, NetworkPolicy &policy,
                 sites::SiteRepository &sites, ApiKeyService &keys, A2wRepository &repo,
                 RunRecorder &recorder, const Delegations &delegations, EngineRuns &engine,
                 QObject *parent = nullptr);
    ~EngineMirror() override;

    // The site's A2W account (see A2wService::accountFor).
    QString accountFor(const QString &siteId, const QString &siteName);
    // The engine request of a run (`input`: its task) or of its continuation (`answers`,
    // else `input`): its page, steps verbosity, file tools, confirmation gate, origin.
    engine::ExecuteRequest engineRequest(const Run &run, const QString &keyId, const QString &input,
                                         bool continuation = false,
                                         const QJsonObject &answers = {}) const;
    // Starts the run on the run core; a refusal settles it failed, then rethrows.
    void start(Run &run, const QString &task);
    // Continues a run waiting for input with `answers` (or `input`).
    void resume(Run &run, const QJsonObject &answers, const QString &input);
    // Follows a run whose trajectory the engine kept (after a restart).
    void track(const Run &run);
    // Cancels a run not yet terminal (409 RUN_ENDED otherwise) and its engine run.
    Run cancel(const QString &id, const QString &reason);
    // Ends the run with `status` (cancelled, expired) and cancels its engine run.
    void stop(Run &run, const QString &status, const QString &reason);
    // Brings the A2W run up to the engine run's state `engine`.
    void sync(Run &run, const engine::RunSnapshot &engine);

private:
    void onEngineChanged(const QString &trajectoryId);
    void syncSteps(const Run &run, const engine::RunSnapshot &engine);
    void parkForInput(Run &run, const engine::RunSnapshot &engine);
    void finish(Run &run, const engine::RunSnapshot &engine);
    void addTableFiles(Run &run, const engine::RunSnapshot &engine);
    QJsonObject shapeResult(const Run &run, const engine::RunSnapshot &engine) const;
    QString keyOf(const Run &run) const;

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    sites::SiteRepository &m_sites;
    ApiKeyService &m_keys;
    A2wRepository &m_repo;
    RunRecorder &m_rec;
    const Delegations &m_delegations;
    EngineRuns &m_engine;
    QHash<QString, QString> m_byTrajectory; // trajectory id -> run id
    QHash<QString, int> m_stepsSeen;        // run id -> steps already sent as events
    QHash<QString, int> m_toolsSeen;        // run id -> steps whose tool call was announced
};

} // namespace ph::a2w
