#pragma once

#include "SessionLookup.h"

#include "engine/EngineTypes.h"

#include <QString>

#include <functional>

namespace ph {
class JsonFields;
class SessionBrowser;
struct LeaseOptions;
} // namespace ph

namespace ph::cloud {

// Work inside a browser session (docs/api/sessions.md, "Work inside a session"):
// `browserSession: {"id": "bs_…"}` on /scrape, /agent, /execute and the bridge's runs.

// Reads `browserSession` of `body`: empty when absent; else an object whose `id` is a
// browser session's id ("bs_…"). Anything else in the object, a wrong type, or a
// `browser.engine` other than chromium beside it (`browser`, read before) is a DomainError
// 400 naming the field ("browserSession.foo", "browser.engine").
QString readBrowserSession(const JsonFields &body, const LeaseOptions &browser);

// The session `sessionId` of `keyId` through `lookup` (its DomainErrors; 404 when unset).
SessionBrowser *findSessionBrowser(const SessionLookup &lookup, const QString &keyId,
                                   const QString &sessionId);

// Opens pages in `browser` (SessionBrowser::openPage) for as long as it lives; once it is
// gone, every call answers that the session ended.
engine::SessionPageOpener sessionPageOpener(SessionBrowser *browser);

} // namespace ph::cloud
