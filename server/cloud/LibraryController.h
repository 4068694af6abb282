#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph {
class Settings;
namespace http {
class Exchange;
}
} // namespace ph

namespace ph::cloud {

class ToolLibrary;

// The browser bridge's library, per API key (docs/api/tools.md, triggers.md):
//   POST /tools, GET /tools, GET|PUT|DELETE /tools/{name}   saved tools (user_<name>)
//   GET /recordings, GET /recordings/{id}                    every run's recorded steps
//   POST /triggers, GET /triggers, GET|DELETE /triggers/{id} trigger URLs (revoke)
// A thin adapter: it reads the body, ToolLibrary does the work.
class LibraryController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    LibraryController(Settings &settings, ToolLibrary &library, QObject *parent = nullptr);
    QList<http::Route> routes() override;

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

    Settings &m_settings;
    ToolLibrary &m_library;
};

} // namespace ph::cloud
