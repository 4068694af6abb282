#pragma once

#include "http/Route.h"

#include <QByteArray>
#include <QObject>

namespace ph::engine {
class LiveViews;
}

namespace ph::cloud {

// The live view of an agent run (docs/api/agent.md#live-view). The token in the query
// is the credential (no API key); the paths carry only the trajectory id, so no log
// line that names a path names a token.
//   GET  /live/{trajectoryId}?token=…         the viewer page (HTML, no external assets,
//                                             a strict Content-Security-Policy)
//   GET  /live/{trajectoryId}/stream?token=…  Server-Sent Events: status, frame, end
//   POST /live/{trajectoryId}/input?token=…   a click, text, a key or a scroll
class LiveViewController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    explicit LiveViewController(engine::LiveViews &views, QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // The Content-Security-Policy the page is served with (its script and style by hash).
    static QByteArray contentSecurityPolicy();

private:
    void page(http::Exchange &exchange);
    void stream(http::Exchange &exchange);
    void input(http::Exchange &exchange);

    engine::LiveViews &m_views;
};

} // namespace ph::cloud
