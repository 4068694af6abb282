#include "RemoteTab.h"

#include "RuntimeService.h"

#include <QPointer>
#include <QTimer>

namespace ph::runtime {

namespace {
constexpr int kSnapshotTimeoutMs = 20000;

bool sameDocument(const QUrl &a, const QUrl &b)
{
    return a.adjusted(QUrl::RemoveFragment | QUrl::StripTrailingSlash) ==
           b.adjusted(QUrl::RemoveFragment | QUrl::StripTrailingSlash);
}
} // namespace

RemoteTab::RemoteTab(RuntimeService &service, QString sessionId, QString runId, QUrl url,
                     QObject *parent)
    : engine::BrowserTab(parent)
    , m_service(service)
    , m_sessionId(std::move(sessionId))
    , m_runId(std::move(runId))
    , m_url(std::move(url))
{}

void RemoteTab::step(QJsonObject step, int timeoutMs,
                     std::function<void(bool, const QJsonObject &, const QString &)> done)
{
    QPointer<RemoteTab> self(this);
    m_service.requestStep(m_sessionId, m_runId, std::move(step), timeoutMs,
                          [self, done](bool ok, const QJsonObject &result, const QString &error) {
                              if (!self)
                                  return;
                              const QString url = result.value(QStringLiteral("url")).toString();
                              if (!url.isEmpty())
                                  self->m_url = QUrl(url);
                              done(ok, result, error);
                          });
}

void RemoteTab::navigate(const QUrl &url, int timeoutMs,
                         std::function<void(const NavigationResult &)> done)
{
    // The visitor is on that page already: nothing loads again.
    if (sameDocument(url, m_url)) {
        NavigationResult r;
        r.ok = true;
        r.requestedUrl = url;
        r.finalUrl = m_url;
        QTimer::singleShot(0, this, [done, r] { done(r); });
        return;
    }
    ++m_pagesLoaded;
    step({{QStringLiteral("op"), QStringLiteral("navigate")},
          {QStringLiteral("url"), url.toString()}},
         timeoutMs, [done, url](bool ok, const QJsonObject &result, const QString &error) {
             NavigationResult r;
             r.requestedUrl = url;
             r.finalUrl = QUrl(result.value(QStringLiteral("url")).toString());
             r.ok = ok && result.value(QStringLiteral("ok")).toBool();
             r.httpStatus = result.value(QStringLiteral("status")).toInt();
             if (!r.ok) {
                 r.errorCode =
                     result.value(QStringLiteral("code"))
                         .toString(ok ? QStringLiteral("BLOCKED") : QStringLiteral("TIMEOUT"));
                 r.errorMessage = ok ? result.value(QStringLiteral("error")).toString() : error;
             }
             done(r);
         });
}

void RemoteTab::call(const QString &function, const QJsonValue &argument, int timeoutMs,
                     std::function<void(bool, const QJsonValue &, const QString &)> done)
{
    step({{QStringLiteral("op"), QStringLiteral("call")},
          {QStringLiteral("function"), function},
          {QStringLiteral("argument"), argument}},
         timeoutMs, [done](bool ok, const QJsonObject &result, const QString &error) {
             if (!ok || !result.value(QStringLiteral("ok")).toBool()) {
                 done(false, {},
                      ok ? result.value(QStringLiteral("error"))
                               .toString(QStringLiteral("the page agent did not answer"))
                         : error);
                 return;
             }
             done(true, result.value(QStringLiteral("value")), QString());
         });
}

void RemoteTab::act(const QJsonObject &action, int timeoutMs,
                    std::function<void(const engine::ActOutcome &)> done)
{
    const QUrl before = m_url;
    QPointer<RemoteTab> self(this);
    step({{QStringLiteral("op"), QStringLiteral("act")}, {QStringLiteral("action"), action}},
         timeoutMs, [self, done, before](bool ok, const QJsonObject &result, const QString &error) {
             engine::ActOutcome o;
             if (!ok) {
                 o.error = error;
                 done(o);
                 return;
             }
             engine::readActAnswer(result.value(QStringLiteral("answer")), &o);
             if (result.value(QStringLiteral("navigated")).toBool()) {
                 o.navigated = true;
                 o.navigation.ok = result.value(QStringLiteral("navigationOk")).toBool(true);
                 o.navigation.requestedUrl = before;
                 o.navigation.finalUrl = QUrl(result.value(QStringLiteral("url")).toString());
                 if (self)
                     ++self->m_pagesLoaded;
             }
             done(o);
         });
}

void RemoteTab::waitFor(const QJsonObject &condition, int timeoutMs,
                        std::function<void(bool, const QString &)> done)
{
    step({{QStringLiteral("op"), QStringLiteral("wait")}, {QStringLiteral("condition"), condition}},
         timeoutMs, [done](bool ok, const QJsonObject &result, const QString &error) {
             if (!ok) {
                 done(false, error);
                 return;
             }
             done(result.value(QStringLiteral("ok")).toBool(),
                  result.value(QStringLiteral("error")).toString());
         });
}

void RemoteTab::snapshot(const QJsonObject &options,
                         std::function<void(const SnapshotResult &)> done)
{
    step({{QStringLiteral("op"), QStringLiteral("snapshot")}, {QStringLiteral("options"), options}},
         kSnapshotTimeoutMs, [done](bool ok, const QJsonObject &result, const QString &error) {
             SnapshotResult r;
             r.ok = ok && result.value(QStringLiteral("ok")).toBool();
             r.data = result.value(QStringLiteral("data")).toObject();
             if (!r.ok) {
                 r.errorCode = ok ? result.value(QStringLiteral("code"))
                                        .toString(QStringLiteral("NETWORK_ERROR"))
                                  : QStringLiteral("TIMEOUT");
                 r.errorMessage = ok ? result.value(QStringLiteral("error")).toString() : error;
             }
             done(r);
         });
}

} // namespace ph::runtime
