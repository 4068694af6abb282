#include "SessionWork.h"

#include "browser/BrowserLease.h"
#include "browser/LeaseOptions.h"
#include "browser/SessionBrowser.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"

#include <QPointer>
#include <QRegularExpression>
#include <QTimer>

namespace ph::cloud {

namespace {
const QString kField = QStringLiteral("browserSession");
} // namespace

QString readBrowserSession(const JsonFields &body, const LeaseOptions &browser)
{
    const std::optional<JsonFields> session = body.optionalObject(kField);
    if (!session)
        return {};
    session->rejectUnknown({QStringLiteral("id")});
    const QString id = session->requiredString(QStringLiteral("id"));
    // Ids are made by Ids::make("bs", …): the prefix and letters, digits, '_' and '-'.
    static const QRegularExpression shape(QStringLiteral("^bs_[A-Za-z0-9_-]{1,64}$"));
    if (!shape.match(id).hasMatch())
        throw DomainError::invalidField(session->path(QStringLiteral("id")),
                                        QStringLiteral("must be a browser session's id (bs_…)"));
    if (!browser.engine.isEmpty() && browser.engine != QLatin1String("chromium"))
        throw DomainError::invalidField(
            body.path(QStringLiteral("browser")) + QStringLiteral(".engine"),
            QStringLiteral("must be chromium (or absent) with browserSession: a session's "
                           "browser is chromium"));
    return id;
}

SessionBrowser *findSessionBrowser(const SessionLookup &lookup, const QString &keyId,
                                   const QString &sessionId)
{
    SessionBrowser *browser = lookup ? lookup(keyId, sessionId) : nullptr;
    if (!browser)
        throw DomainError::notFound(QStringLiteral("no browser session %1").arg(sessionId));
    return browser;
}

engine::SessionPageOpener sessionPageOpener(SessionBrowser *browser)
{
    QPointer<SessionBrowser> guard(browser);
    return [guard](const QString &label, QObject *context,
                   std::function<void(std::unique_ptr<BrowserLease>, const QString &)> granted) {
        if (!guard) {
            QPointer<QObject> ctx(context);
            const bool hasContext = context != nullptr;
            QTimer::singleShot(0, [ctx, hasContext, granted] {
                if (!hasContext || ctx)
                    granted(nullptr, QStringLiteral("the browser session has ended"));
            });
            return;
        }
        guard->openPage(label, context, std::move(granted));
    };
}

} // namespace ph::cloud
