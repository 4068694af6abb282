#include "net/NetworkPolicy.h"

#include "core/DomainError.h"

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

// normalHost, with addresses in one spelling (::ffff:0:1 and ::FFFF:0.0.0.1 alike).
QString canonicalHost(const QString &raw)
{
    const QString host = normalHost(raw);
    const QHostAddress address(host);
    return address.isNull() ? host : address.toString().toLower();
}

int defaultPort(const QString &scheme)
{
    if (scheme == QLatin1String("https") || scheme == QLatin1String("wss"))
        return 443;
    if (scheme == QLatin1String("http") || scheme == QLatin1String("ws"))
        return 80;
    return -1;
}

// ws is http's, wss https's: a page's socket to its own origin.
QString webScheme(const QString &raw)
{
    const QString scheme = raw.toLower();
    if (scheme == QLatin1String("ws"))
        return QStringLiteral("http");
    if (scheme == QLatin1String("wss"))
        return QStringLiteral("https");
    return scheme;
}

QString privateMessage(const QString &host)
{
    return QStringLiteral("points at a private address (%1), which this key may not reach")
        .arg(host);
}

} // namespace

EgressGrant NetworkPolicy::grantFor(const QString &keyId) const
{
    EgressGrant grant;
    grant.tenant = keyId;
    if (keyId.isEmpty() || !allowPrivateTargets())
        return grant;
    // Work a visitor started acts for the site's A2W account key: it reaches only the
    // site's own hosts and the owner's allowlist, never private targets at large.
    if (m_visitorLookup) {
        if (std::shared_ptr<const PrivateReach> reach = m_visitorLookup(keyId)) {
            grant.reach = std::move(reach);
            return grant;
        }
    }
    grant.privateTargets = m_lookup && m_lookup(keyId);
    return grant;
}

EgressGrant NetworkPolicy::pinReach(EgressGrant grant, const QUrl &start)
{
    if (!grant.reach || grant.reach->pinned)
        return grant;
    auto pinned = std::make_shared<PrivateReach>(*grant.reach);
    pinned->pinned = true;
    pinned->scheme = isBrowsableScheme(start) ? start.scheme().toLower() : QString();
    pinned->port = pinned->scheme.isEmpty() ? -1 : start.port(defaultPort(pinned->scheme));
    grant.reach = std::move(pinned);
    return grant;
}

bool NetworkPolicy::mayReachPrivate(const EgressGrant &grant, const QString &rawScheme,
                                    const QString &rawHost, int port)
{
    if (grant.privateTargets)
        return true;
    const PrivateReach *reach = grant.reach.get();
    if (!reach)
        return false;
    const QString scheme = webScheme(rawScheme);
    const QString host = canonicalHost(rawHost);
    if (host.isEmpty())
        return false;
    if (port < 0)
        port = defaultPort(scheme);
    // The owner's allowlist: the host on any port, or on the one port listed.
    for (const QString &entry : reach->allowlist) {
        const qsizetype colon = entry.lastIndexOf(QLatin1Char(':'));
        const bool hasPort = colon > 0 && !entry.endsWith(QLatin1Char(']')) &&
                             (entry.startsWith(QLatin1Char('[')) || entry.count(u':') == 1);
        const QString entryHost = canonicalHost(hasPort ? entry.left(colon) : entry);
        if (entryHost != host)
            continue;
        if (!hasPort || entry.mid(colon + 1).toInt() == port)
            return true;
    }
    // The site's own hosts, on the scheme the run started on and that scheme's standard
    // port (a tunnel names no scheme: its port decides). The start URL is the caller's
    // choice and allowed domains carry no port: a site served on another port of a
    // private host is reached only when the owner lists that host:port.
    if (reach->scheme.isEmpty() || !reach->siteHost || port != defaultPort(reach->scheme))
        return false;
    if (!scheme.isEmpty() && scheme != reach->scheme)
        return false;
    return reach->siteHost(host);
}

QString NetworkPolicy::normalizeAllowlistEntry(const QString &raw, QString *problem)
{
    const QString entry = raw.trimmed().toLower();
    auto fail = [problem](const QString &why) {
        if (problem)
            *problem = why;
        return QString();
    };
    if (entry.isEmpty())
        return fail(QStringLiteral("must not be empty"));
    if (entry.size() > 260)
        return fail(QStringLiteral("must be at most 260 characters"));
    if (entry.contains(QLatin1String("://")) || entry.contains(QLatin1Char('/')) ||
        entry.contains(QLatin1Char('@')) || entry.contains(QLatin1Char('*')) ||
        entry.contains(QLatin1Char('?')) || entry.contains(QLatin1Char('#')) ||
        entry.contains(QLatin1Char(' ')))
        return fail(QStringLiteral("must be a host or host:port (no scheme, path or wildcard)"));
    QString host = entry;
    QString port;
    if (entry.startsWith(QLatin1Char('['))) {
        const qsizetype close = entry.indexOf(QLatin1Char(']'));
        if (close < 0)
            return fail(QStringLiteral("has an unclosed '['"));
        host = entry.mid(1, close - 1);
        const QString rest = entry.mid(close + 1);
        if (!rest.isEmpty()) {
            if (!rest.startsWith(QLatin1Char(':')))
                return fail(QStringLiteral("must be a host or host:port"));
            port = rest.mid(1);
        }
        if (QHostAddress(host).protocol() != QAbstractSocket::IPv6Protocol)
            return fail(QStringLiteral("has no IPv6 address inside [ ]"));
    } else if (entry.count(QLatin1Char(':')) == 1) {
        host = entry.left(entry.indexOf(QLatin1Char(':')));
        port = entry.mid(entry.indexOf(QLatin1Char(':')) + 1);
    } else if (entry.count(QLatin1Char(':')) > 1) {
        if (QHostAddress(entry).isNull())
            return fail(QStringLiteral("is not a valid IPv6 address"));
    }
    if (!port.isNull()) {
        bool ok = false;
        const int p = port.toInt(&ok);
        if (!ok || p < 1 || p > 65535 || port.startsWith(QLatin1Char('+')))
            return fail(QStringLiteral("has a port that is not 1 to 65535"));
        port = QString::number(p);
    }
    host = normalHost(host);
    if (host.isEmpty())
        return fail(QStringLiteral("has no host"));
    const QHostAddress address(host);
    if (address.isNull()) {
        const QByteArray ace = QUrl::toAce(host);
        if (ace.isEmpty())
            return fail(QStringLiteral("has no valid host name"));
        host = QString::fromLatin1(ace);
        static const QString allowed = QStringLiteral("abcdefghijklmnopqrstuvwxyz0123456789-.");
        for (const QChar c : host) {
            if (!allowed.contains(c))
                return fail(QStringLiteral("has no valid host name"));
        }
    } else {
        host = address.toString().toLower();
    }
    const QString shown = host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host;
    return port.isNull() ? shown : shown + u':' + port;
}

QString NetworkPolicy::originOf(const QUrl &url)
{
    if (!isBrowsableScheme(url) || url.host().isEmpty())
        return {};
    const QString scheme = url.scheme().toLower();
    QString host = normalHost(url.host());
    if (host.contains(QLatin1Char(':')))
        host = u'[' + host + u']';
    return QStringLiteral("%1://%2:%3").arg(scheme, host).arg(url.port(defaultPort(scheme)));
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

void NetworkPolicy::requireReachable(const QUrl &url, const QString &field,
                                     const EgressGrant &grant)
{
    if (literalRefusal(url.scheme(), url.host(), url.port(), grant).isEmpty())
        return;
    throw DomainError(DomainError::Kind::Invalid, QStringLiteral("PRIVATE_TARGET"),
                      QStringLiteral("%1 points at a private address (%2), which this key "
                                     "may not reach")
                          .arg(field, url.host()),
                      field);
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
    return literalRefusal(url.scheme(), url.host(), url.port(), grant);
}

QString NetworkPolicy::literalRefusal(const QString &scheme, const QString &host, int port,
                                      const EgressGrant &grant)
{
    if (isPrivateHostLiteral(host) && !mayReachPrivate(grant, scheme, host, port))
        return privateMessage(host);
    return {};
}

QString NetworkPolicy::addressRefusal(const QUrl &url, const QList<QHostAddress> &addresses,
                                      const EgressGrant &grant)
{
    return addressRefusal(url.host(), addresses, grant, url.scheme(), url.port());
}

QString NetworkPolicy::addressRefusal(const QString &host, const QList<QHostAddress> &addresses,
                                      const EgressGrant &grant, const QString &scheme, int port)
{
    if (addresses.isEmpty())
        return QStringLiteral("%1 did not resolve").arg(host);
    if (mayReachPrivate(grant, scheme, host, port))
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
