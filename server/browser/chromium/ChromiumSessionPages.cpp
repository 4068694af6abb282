// Pilothouse's own pages inside a browser session (browserSession on /scrape, /agent,
// /execute and the bridge; docs/api/sessions.md, "Work inside a session"): tabs of the
// session browser's default context, acting with the session's grant, at most
// SessionPages::Options::limit at once, one kept warm (SessionPages).
#include "browser/chromium/ChromiumSession.h"

#include "browser/BrowserLease.h"
#include "browser/chromium/ChromiumEngine.h"
#include "browser/chromium/SessionPages.h"

#include <QPointer>
#include <QTimer>

namespace ph {

void ChromiumSession::openPage(
    const QString &label, QObject *context,
    std::function<void(std::unique_ptr<BrowserLease>, const QString &error)> granted)
{
    if (!m_running || m_stopping || !m_engine) {
        QPointer<QObject> guard(context);
        const bool hasContext = context != nullptr;
        QTimer::singleShot(0, this, [guard, hasContext, granted] {
            if (!hasContext || guard)
                granted(nullptr, QStringLiteral("the browser session is not running"));
        });
        return;
    }
    auto *pages = findChild<SessionPages *>(QString(), Qt::FindDirectChildrenOnly);
    if (!pages) {
        SessionPages::Options options;
        options.width = m_spec.width;
        options.height = m_spec.height;
        options.userAgent = m_spec.userAgent;
        pages = new SessionPages(*m_engine, m_spec.grant, m_egress, m_resolver, options, this);
        // A crash, or the engine going with stop(): what waits fails, warm pages go.
        connect(this, &SessionBrowser::ended, pages,
                [pages](const QString &reason) { pages->close(reason); });
        connect(m_engine, &QObject::destroyed, pages,
                [pages] { pages->close(QStringLiteral("the browser session has ended")); });
    }
    pages->open(label, context, std::move(granted));
}

} // namespace ph
