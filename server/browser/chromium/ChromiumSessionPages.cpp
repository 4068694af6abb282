// Pilothouse's own pages inside a browser session (browserSession on /scrape, /agent,
// /execute and the bridge). The "sessionwork" part replaces this file; until then a
// session has no pages for Pilothouse's own work.
#include "browser/chromium/ChromiumSession.h"

#include "browser/BrowserLease.h"

#include <QPointer>
#include <QTimer>

namespace ph {

void ChromiumSession::openPage(
    const QString &label, QObject *context,
    std::function<void(std::unique_ptr<BrowserLease>, const QString &error)> granted)
{
    Q_UNUSED(label);
    QPointer<QObject> guard(context);
    const bool hasContext = context != nullptr;
    QTimer::singleShot(0, this, [guard, hasContext, granted] {
        if (!hasContext || guard)
            granted(nullptr, QStringLiteral("pages inside a session are not available yet"));
    });
}

} // namespace ph
