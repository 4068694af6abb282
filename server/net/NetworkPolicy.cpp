#include "net/NetworkPolicy.h"

#include "net/EgressProxy.h"
#include "net/HostResolver.h"

#include <QHostAddress>

namespace ph {

namespace {

QString normalHost(const QString &raw)
{
    QString host = raw.toLower();
    while (host.endsWith(QLatin1Char('.')))
        host.chop(1);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    return host;
}

} // namespace

EgressGrant NetworkPolicy::grantFor(const QString &keyId) const
{
    EgressGrant grant;
    grant.tenant = keyId;
    grant.privateTargets = !keyId.isEmpty() && allowPrivateTargets() && m_lookup && m_lookup(keyId);
    return grant;
}

void NetworkPolicy::setEgress(std::shared_ptr<EgressProxy> proxy,
                              std::shared_ptr<const HostResolver> resolver)
{
    m_egress = std::move(proxy);
    m_resolver = std::move(resolver);
}

void NetworkPolicy::ensureEgress() const
{
    if (!m_egress)
        m_egress = EgressProxy::instance();
    if (!m_resolver)
        m_resolver = std::make_shared<HostResolver>();
}

std::shared_ptr<EgressProxy> NetworkPolicy::egress() const
{
    ensureEgress();
    return m_egress;
}

std::shared_ptr<const HostResolver> NetworkPolicy::resolver() const
{
    ensureEgress();
    return m_resolver;
}

QNetworkAccessManager *NetworkPolicy::createFetcher(const EgressGrant &grant, QObject *parent) const
{
    ensureEgress();
    return m_egress->createFetcher(grant, m_resolver, parent);
}

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
        return true; // nothing we can judge is nothing we connect to
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
        QHostAddress::parseSubnet(QStringLiteral("224.0.0.0/4")),
        QHostAddress::parseSubnet(QStringLiteral("240.0.0.0/4")), // reserved + broadcast
        QHostAddress::parseSubnet(QStringLiteral("::/128")),
        QHostAddress::parseSubnet(QStringLiteral("::/96")),          // IPv4-compatible (deprecated)
        QHostAddress::parseSubnet(QStringLiteral("64:ff9b::/96")),   // NAT64
        QHostAddress::parseSubnet(QStringLiteral("64:ff9b:1::/48")), // local-use NAT64
        QHostAddress::parseSubnet(QStringLiteral("2001::/32")),      // Teredo
        QHostAddress::parseSubnet(QStringLiteral("2002::/16")),      // 6to4
        QHostAddress::parseSubnet(QStringLiteral("fc00::/7")),
        QHostAddress::parseSubnet(QStringLiteral("fe80::/10")),
        QHostAddress::parseSubnet(QStringLiteral("fec0::/10")), // site-local (deprecated)
        QHostAddress::parseSubnet(QStringLiteral("ff00::/8")),
    };
    for (const auto &range : ranges) {
        if (address.isInSubnet(range))
            return true;
    }
    return false;
}

bool NetworkPolicy::isPrivateHostLiteral(const QString &rawHost)
{
    const QString host = normalHost(rawHost);
    if (host.isEmpty())
        return true;
    if (host == QLatin1String("localhost") || host.endsWith(QLatin1String(".localhost")) ||
        host.endsWith(QLatin1String(".local")) || host.endsWith(QLatin1String(".home.arpa")))
        return true;
    const QHostAddress address(host);
    if (!address.isNull())
        return isPrivateAddress(address);
    // A single-label name ("intranet", "router") resolves through the machine's search
    // domains: it names something local, never a public site.
    return !host.contains(QLatin1Char('.'));
}

QString NetworkPolicy::refusal(const QUrl &url, const EgressGrant &grant)
{
    if (!url.scheme().isEmpty() && !isBrowsableScheme(url))
        return QStringLiteral("uses the scheme '%1'; only http and https are allowed")
            .arg(url.scheme());
    if (!url.isValid() || url.host().isEmpty() || url.scheme().isEmpty())
        return QStringLiteral("is not an absolute URL");
    if (!grant.privateTargets && isPrivateHostLiteral(url.host()))
        return QStringLiteral("points at a private address (%1), which this key may not reach")
            .arg(url.host());
    return {};
}

QString NetworkPolicy::addressRefusal(const QString &host, const QList<QHostAddress> &addresses,
                                      const EgressGrant &grant)
{
    if (addresses.isEmpty())
        return QStringLiteral("%1 did not resolve").arg(host);
    if (grant.privateTargets)
        return {};
    for (const QHostAddress &a : addresses) {
        if (isPrivateAddress(a))
            return QStringLiteral("%1 resolves to a private address (%2), which this key may "
                                  "not reach")
                .arg(host, a.toString());
    }
    return {};
}

} // namespace ph
