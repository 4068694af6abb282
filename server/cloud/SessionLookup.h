#pragma once

#include <QString>

#include <functional>

namespace ph {
class SessionBrowser;
}

namespace ph::cloud {

// How the service finds the browser of a caller's own active browser session
// (sessions::SessionService::browserOf; docs/api/sessions.md, "Work inside a session"):
// throws DomainError 404 for an unknown session or another key's (never 403: ids do not
// leak), 409 when it is not active. Unset: this service has no sessions, and every
// browserSession is a 404.
using SessionLookup =
    std::function<SessionBrowser *(const QString &keyId, const QString &sessionId)>;

} // namespace ph::cloud
