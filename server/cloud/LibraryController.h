#pragma once

#include "http/Route.h"

#include <QJsonObject>
#include <QObject>

namespace ph {
class NetworkPolicy;
class Settings;
class Store;
namespace engine {
class RunManager;
class TrajectoryRepository;
} // namespace engine
namespace http {
class Exchange;
}
} // namespace ph

namespace ph::cloud {

class LibraryRepository;
struct SavedTool;
struct Trigger;

// The browser bridge's library, per API key (docs/api/tools.md, triggers.md):
//   POST /tools, GET /tools, GET|PUT|DELETE /tools/{name}   saved tools (user_<name>)
//   GET /recordings, GET /recordings/{id}                    every run's recorded steps
//   POST /triggers, GET /triggers, GET|DELETE /triggers/{id} trigger URLs (revoke)
class LibraryController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    LibraryController(Store &store, Settings &settings, NetworkPolicy &policy,
                      engine::RunManager &runs, engine::TrajectoryRepository &trajectories,
                      LibraryRepository &library, QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // A trigger from a create body ({label?, tool | trajectoryId | prompt (+ urls,
    // schema)}) for `keyId`, checked (typed DomainError); not stored yet.
    static Trigger readTrigger(const QJsonObject &body, const QString &keyId,
                               LibraryRepository &library, engine::RunManager &runs);

    // POST /tools, PUT /tools/{name} and DELETE /tools/{name} for `keyId` without the
    // exchange, shared with the console: the body is checked field by field (typed
    // DomainError 400, 404 RECORDING_NOT_FOUND) before anything is stored; then 409
    // TOOL_EXISTS (create) or 404 TOOL_NOT_FOUND (replace, remove).
    static SavedTool createTool(const QJsonObject &body, const QString &keyId,
                                LibraryRepository &library, engine::RunManager &runs);
    static SavedTool replaceTool(const QString &name, const QJsonObject &body, const QString &keyId,
                                 LibraryRepository &library, engine::RunManager &runs);
    static void removeTool(const QString &name, const QString &keyId, LibraryRepository &library);
    // A tool from a create/replace body, checked field by field (typed 400s); not
    // stored. `name` is taken as it is (createTool checks a new name first).
    static SavedTool readTool(const QJsonObject &body, const QString &name, const QString &keyId,
                              engine::RunManager &runs);

private:
    void postTool(http::Exchange &ex);
    void listTools(http::Exchange &ex);
    void getTool(http::Exchange &ex);
    void putTool(http::Exchange &ex);
    void deleteTool(http::Exchange &ex);
    void listRecordings(http::Exchange &ex);
    void getRecording(http::Exchange &ex);
    void createTrigger(http::Exchange &ex);
    void listTriggers(http::Exchange &ex);
    void getTrigger(http::Exchange &ex);
    void revokeTrigger(http::Exchange &ex);

    QString baseUrl() const;

    Store &m_store;
    Settings &m_settings;
    NetworkPolicy &m_policy;
    engine::RunManager &m_runs;
    engine::TrajectoryRepository &m_trajectories;
    LibraryRepository &m_library;
};

} // namespace ph::cloud
