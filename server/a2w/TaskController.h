#pragma once

#include "http/Request.h"
#include "http/Route.h"

#include <QObject>

namespace ph {
class Settings;
}

namespace ph::a2w {

class A2wService;
class WebBotAuth;
struct Run;

// The earlier v1 task contract at /v1/tasks and /v1/workflows (docs/api/v1-tasks.md): the
// same runs as A2W on the same core, another resource shape and the nine v1 events.
class TaskController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    TaskController(A2wService &service, WebBotAuth &trust, Settings &settings,
                   QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // The AgentTask resource as the caller holding `token` sees it.
    static QJsonObject resource(const Run &run, const QString &token, const QString &base,
                                const QString &receipt);

private:
    void create(http::Exchange &ex);
    void read(http::Exchange &ex);
    void answer(http::Exchange &ex);
    void cancel(http::Exchange &ex);
    void handoff(http::Exchange &ex);
    void workflow(http::Exchange &ex);

    Run authorize(const http::Request &request) const;
    QJsonObject createResponse(const Run &run, const QString &token, const QString &workflowToken,
                               const QString &receipt) const;
    void stream(http::Exchange &ex, const Run &run, const QString &token, int framing);
    QString base() const;

    A2wService &m_service;
    WebBotAuth &m_trust;
    Settings &m_settings;
};

} // namespace ph::a2w
