#include "browser/PageRequests.h"

#include "net/NetworkPolicy.h"

#include <QUrl>

namespace ph {

QString pageRequestRefusal(const QUrl &url, bool socket, const EgressGrant &grant, bool *internal)
{
    const QString scheme = url.scheme().toLower();
    const bool inside = scheme == QLatin1String("data") || scheme == QLatin1String("blob") ||
                        scheme == QLatin1String("about");
    if (internal)
        *internal = inside;
    if (inside)
        return {};
    const bool socketScheme = scheme == QLatin1String("ws") || scheme == QLatin1String("wss");
    if (!(NetworkPolicy::isBrowsableScheme(url) || (socket && socketScheme)))
        return QStringLiteral("uses the scheme '%1'; only http and https are allowed")
            .arg(url.scheme());
    if (url.host().isEmpty())
        return QStringLiteral("has no host");
    return NetworkPolicy::literalRefusal(url.scheme(), url.host(), url.port(), grant);
}

QString mainFrameRefusal(const QUrl &url, const EgressGrant &grant)
{
    if (grant.navigationOrigin.isEmpty())
        return {};
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("about") || scheme == QLatin1String("data"))
        return {}; // the pool's own blank page and loadHtml
    if (NetworkPolicy::originOf(url) == grant.navigationOrigin)
        return {};
    return QStringLiteral("leaves %1: the crossHost policy (same_host) keeps this run on it")
        .arg(grant.navigationOrigin);
}

QString httpReasonPhrase(int status)
{
    switch (status) {
    case 400:
        return QStringLiteral("Bad Request");
    case 401:
        return QStringLiteral("Unauthorized");
    case 403:
        return QStringLiteral("Forbidden");
    case 404:
        return QStringLiteral("Not Found");
    case 410:
        return QStringLiteral("Gone");
    case 429:
        return QStringLiteral("Too Many Requests");
    case 500:
        return QStringLiteral("Internal Server Error");
    case 502:
        return QStringLiteral("Bad Gateway");
    case 503:
        return QStringLiteral("Service Unavailable");
    case 504:
        return QStringLiteral("Gateway Timeout");
    default:
        return {};
    }
}

Refusal RefusalLog::note(Refusal refusal)
{
    refusal.serial = m_nextSerial++;
    m_refusals.append(refusal);
    if (m_refusals.size() > 64)
        m_refusals.removeFirst();
    return refusal;
}

QList<Refusal> RefusalLog::since(quint64 mark) const
{
    QList<Refusal> out;
    for (const Refusal &r : m_refusals) {
        if (r.serial >= mark)
            out.append(r);
    }
    return out;
}

} // namespace ph
