#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph::sessions {

class SessionService;

// The live view of a browser session (docs/api/sessions.md#live-view): the run live
// view's page (browser/LiveViewPage) on the session's current page. The token in the
// query is the credential (no API key); the paths carry only the session id, so no log
// line that names a path names a token.
//   GET  /sessions/{id}/live?token=…         the viewer page (HTML, a strict CSP)
//   GET  /sessions/{id}/live/stream?token=…  Server-Sent Events: status, frame, end
//   POST /sessions/{id}/live/input?token=…   a click, text, a key or a scroll
class SessionLiveViewController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    explicit SessionLiveViewController(SessionService &sessions, QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // "/sessions/<id>/live?token=…" after `origin`; empty when the session is not live.
    static QString url(const SessionService &sessions, const QString &origin, const QString &id);

private:
    void page(http::Exchange &exchange);
    void stream(http::Exchange &exchange);
    void input(http::Exchange &exchange);

    SessionService &m_sessions;
};

} // namespace ph::sessions
