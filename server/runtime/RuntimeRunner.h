#pragma once

#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <functional>

namespace ph {
class NetworkPolicy;
class Settings;
namespace a2w {
class A2wService;
}
namespace cloud {
class RunService;
}
namespace engine {
class RunManager;
}
namespace sites {
class SiteRepository;
}
} // namespace ph

namespace ph::runtime {

class RuntimeService;

// Runs of the embedded runtime on the one run core: a run the visitor starts is an agent
// run of the site's account (the same engine and planners as /agent and A2W) whose tab
// is the visitor's page (RemoteTab). It answers the visitor's replies, stops with the
// visitor's cancel, and reports the engine's progress back to the session.
class RuntimeRunner : public QObject
{
    Q_OBJECT
public:
    RuntimeRunner(RuntimeService &runtime, cloud::RunService &runs, engine::RunManager &engine,
                  a2w::A2wService &a2w, sites::SiteRepository &sites, NetworkPolicy &policy,
                  Settings &settings, QObject *parent = nullptr);

    // /context/external `act`: `task` carried out on `url` in the cloud browser as a run of
    // the site's account; `done` gets {trajectoryId, status, text?, error?} when it ends or
    // after `timeoutMs` (then status is the run's state so far). `context` ends the wait.
    // Its reach of the site's own hosts is pinned to the visitor's page, `pageUrl`.
    void actExternally(const QString &siteId, const QString &pageUrl, const QString &url,
                       const QString &task, int timeoutMs, QObject *context,
                       std::function<void(QJsonObject)> done);

private:
    void start(const QString &sessionId, const QString &runId);
    void answer(const QString &sessionId, const QString &runId, const QString &message);
    void stop(const QString &runId);
    void engineChanged(const QString &trajectoryId);
    // Starts (or continues) the engine's run with `raw`; reports a refusal as a failure.
    void launch(const QString &sessionId, const QString &runId, QJsonObject raw);

    struct Link
    {
        QString trajectoryId;
        QString keyId;
        int stepsSeen = 0;
        QString a2wRunId; // the A2W browser run this run carries out, if any
    };
    RuntimeService &m_runtime;
    cloud::RunService &m_runs;
    engine::RunManager &m_engine;
    a2w::A2wService &m_a2w;
    sites::SiteRepository &m_sites;
    NetworkPolicy &m_policy;
    Settings &m_settings;
    QHash<QString, Link> m_links;           // runtime run id -> engine run
    QHash<QString, QString> m_byTrajectory; // trajectory id -> runtime run id
};

} // namespace ph::runtime
