#include "NetworkPolicy.h"

#include <QHostAddress>

namespace ph {

bool NetworkPolicy::isBrowsableScheme(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    return scheme == QLatin1String("http") || scheme == QLatin1String("https");
}

QString NetworkPolicy::callbackSchemeProblem(const QUrl &url)
{
    if (url.scheme().toLower() == QLatin1String("http") && !isPrivateHostLiteral(url.host()))
        return QStringLiteral(
            "must use https (plain http is allowed only for loopback and private targets)");
    return {};
}

bool NetworkPolicy::isPrivateAddress(const QHostAddress &raw)
{
    QHostAddress address = raw;
    // ::ffff:10.0.0.1 is 10.0.0.1.
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (isV4)
        address = QHostAddress(v4);
    if (address.isNull())
        return false;
    if (address.isLoopback() || address.isLinkLocal() || address.isSiteLocal() ||
        address.isUniqueLocalUnicast() || address.isMulticast() || address.isBroadcast())
        return true;
    static const QList<QPair<QHostAddress, int>> ranges = {
        QHostAddress::parseSubnet(QStringLiteral("0.0.0.0/8")),
        QHostAddress::parseSubnet(QStringLiteral("10.0.0.0/8")),
        QHostAddress::parseSubnet(QStringLiteral("100.64.0.0/10")),
        QHostAddress::parseSubnet(QStringLiteral("127.0.0.0/8")),
        QHostAddress::parseSubnet(QStringLiteral("169.254.0.0/16")),
        QHostAddress::parseSubnet(QStringLiteral("172.16.0.0/12")),
        QHostAddress::parseSubnet(QStringLiteral("192.0.0.0/24")),
        QHostAddress::parseSubnet(QStringLiteral("192.168.0.0/16")),
        QHostAddress::parseSubnet(QStringLiteral("198.18.0.0/15")),
        QHostAddress::parseSubnet(QStringLiteral("::/128")),
        QHostAddress::parseSubnet(QStringLiteral("fc00::/7")),
        QHostAddress::parseSubnet(QStringLiteral("fe80::/10")),
    };
    for (const auto &range : ranges) {
        if (address.isInSubnet(range))
            return true;
    }
    return false;
}

bool NetworkPolicy::isPrivateHostLiteral(const QString &rawHost)
{
    QString host = rawHost.toLower();
    while (host.endsWith(QLatin1Char('.')))
        host.chop(1);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host == QLatin1String("localhost") || host.endsWith(QLatin1String(".localhost")))
        return true;
    const QHostAddress address(host);
    return !address.isNull() && isPrivateAddress(address);
}

QString NetworkPolicy::refusal(const QUrl &url) const
{
    if (!url.isValid() || url.host().isEmpty())
        return QStringLiteral("is not an absolute URL");
    if (!isBrowsableScheme(url))
        return QStringLiteral("uses the scheme '%1'; only http and https are allowed")
            .arg(url.scheme());
    if (!allowPrivateTargets() && isPrivateHostLiteral(url.host()))
        return QStringLiteral("points at a private address (%1) and "
                              "network.allowPrivateTargets is off")
            .arg(url.host());
    return {};
}

} // namespace ph
