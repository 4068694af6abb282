// TEMPORARY (branch wt-sessions only, removed at the merge of wt-cdp): lets the sessions
// area link before the chromium session browser is there.
#include "browser/SessionBrowser.h"

namespace ph {
std::unique_ptr<SessionBrowser> makeChromiumSessionBrowser(const QString &, const SessionBrowserSpec &,
                                                           const NetworkPolicy &, QObject *)
{
    return nullptr;
}
} // namespace ph
