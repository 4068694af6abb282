#include "browser/PageEngine.h"

#include "browser/PageRequests.h"
#include "net/NetworkPolicy.h"

#include <QJsonDocument>
#include <QUrl>

namespace ph {

void NavigationHeaders::set(const QUrl &url, const HeaderList &list)
{
    headers = list;
    origin = list.isEmpty() ? QString() : NetworkPolicy::originOf(url);
}

HeaderList NavigationHeaders::forRequest(const QUrl &url) const
{
    if (headers.isEmpty() || NetworkPolicy::originOf(url) != origin)
        return {};
    return headers;
}

PageEngine::~PageEngine() = default;

QJsonObject NavigationResult::errorJson() const
{
    QJsonObject o{{QStringLiteral("code"), errorCode}, {QStringLiteral("message"), errorMessage}};
    if (httpStatus > 0)
        o.insert(QStringLiteral("httpStatus"), httpStatus);
    if (!contentType.isEmpty())
        o.insert(QStringLiteral("contentType"), contentType);
    return o;
}

NavigationResult NavigationResult::failedAtOnce(const QUrl &url, const QString &code,
                                                const QString &message)
{
    NavigationResult r;
    r.requestedUrl = url;
    r.errorCode = code;
    r.errorMessage = message;
    return r;
}

namespace navigation {

QString waitProbe(const NavigateOptions &options)
{
    QJsonObject condition;
    if (!options.waitForSelector.isEmpty())
        condition.insert(QStringLiteral("selector"), options.waitForSelector);
    else if (!options.waitForText.isEmpty())
        condition.insert(QStringLiteral("text"), options.waitForText);
    if (condition.isEmpty() && options.waitUntil == NavigateOptions::WaitUntil::Load)
        return {};
    if (condition.isEmpty())
        condition.insert(QStringLiteral("readyState"), true);
    return QStringLiteral("window.__pilothouse ? window.__pilothouse.probe(%1) : false")
        .arg(QString::fromUtf8(QJsonDocument(condition).toJson(QJsonDocument::Compact)));
}

ProbeAnswer readProbe(const QVariant &answer)
{
    if (answer.toString() == QLatin1String("invalid-selector"))
        return ProbeAnswer::InvalidSelector;
    return answer.toBool() ? ProbeAnswer::Met : ProbeAnswer::Pending;
}

QString invalidSelectorMessage()
{
    return QStringLiteral("waitForSelector is not a valid CSS selector");
}

QString timeoutMessage(bool loaded, int timeoutMs)
{
    const QString what = loaded ? QStringLiteral("the wait condition was not met")
                                : QStringLiteral("the page did not finish loading");
    return QStringLiteral("%1 within %2 ms").arg(what).arg(timeoutMs);
}

QString nonHtmlMessage(const QString &mime)
{
    return QStringLiteral("the URL serves %1, not a web page").arg(mime);
}

QString httpStatusMessage(int status)
{
    return QStringLiteral("HTTP %1 %2").arg(status).arg(httpReasonPhrase(status)).trimmed();
}

} // namespace navigation

Refusal Refusal::fromProxy(const QString &target, const QString &reason, bool unresolved,
                           bool proxyFailure)
{
    Refusal r;
    r.target = target;
    r.host = target.contains(QLatin1String("://"))
                 ? QUrl(target).host()
                 : target.left(target.lastIndexOf(QLatin1Char(':')))
                       .remove(QLatin1Char('['))
                       .remove(QLatin1Char(']'));
    r.reason = reason;
    r.unresolved = unresolved;
    r.proxyFailure = proxyFailure;
    return r;
}

} // namespace ph
