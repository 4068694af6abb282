#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph {
class NetworkPolicy;
}
namespace ph::http {
class Exchange;
}

namespace ph::sessions {

class SessionService;
struct BrowserSessionInfo;

// Browser sessions over REST (docs/api/sessions.md), a thin adapter over SessionService:
//   POST /sessions, GET /sessions, GET|DELETE /sessions/{id}    API keys (owner, minted)
//   GET /sessions/profiles, DELETE /sessions/profiles/{name}     the key's own profiles
//   GET /cdp/{token}/json/version, /json, /json/list             the token is the credential
// The DevTools WebSocket itself (ws …/cdp/{token}/devtools/browser) is CdpGateway's.
class SessionsController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    SessionsController(SessionService &sessions, const NetworkPolicy &policy,
                       QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // A session as the API shows it; `origin` ("http://host:port") makes its URLs.
    // `liveView`: with the session's liveViewUrl while it runs (the create answer and
    // GET /sessions/{id}: the session's own key and the owner).
    QJsonObject toJson(const BrowserSessionInfo &info, const QString &origin,
                       bool liveView = false) const;

private:
    void create(http::Exchange &ex);
    void list(http::Exchange &ex);
    void get(http::Exchange &ex);
    void release(http::Exchange &ex);
    void listProfiles(http::Exchange &ex);
    void deleteProfile(http::Exchange &ex);
    void cdpVersion(http::Exchange &ex);
    void cdpTargets(http::Exchange &ex);

    SessionService &m_sessions;
    const NetworkPolicy &m_policy;
};

} // namespace ph::sessions
