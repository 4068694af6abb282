#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>

class QHostAddress;
class QNetworkAccessManager;
class QObject;

namespace ph {

class EgressProxy;
class HostResolver;

// A proxy a caller named for its run (`settings.proxy`): the egress proxy checks each
// connection as always, then reaches the target through this proxy (HTTP CONNECT or an
// absolute-form request, the same over TLS for `https`, or SOCKS5) instead of directly.
// The proxy's own address passes the same policy. docs/api/agent.md#settings.
struct UpstreamProxy
{
    enum class Kind { Http, Https, Socks5 };
    Kind kind = Kind::Http;
    QString host;
    quint16 port = 0;
    QString user; // empty: no credentials
    QString password;
};

// The private hosts that work a visitor started may reach (docs/security.md, "What
// visitors and visiting agents may reach"): the site's own hosts, on the scheme and port
// the run started on, and the hosts the owner listed for the site. Nothing else private.
struct PrivateReach
{
    // Whether a host (lowercase, no trailing dot, IPv6 without brackets) is one of the
    // site's own hosts: its site keys' allowed domains, matched as sites::AllowedDomains.
    std::function<bool(const QString &host)> siteHost;
    // The run's start: the site's hosts are reachable on this scheme's standard port only
    // (80, 443; other ports only through the allowlist). Empty scheme: not at all.
    QString scheme;
    int port = -1;
    bool pinned = false; // pinReach has set scheme and port (once, for good)
    // The owner's per-site allowlist: "host" (any port) or "host:port", normalised.
    QStringList allowlist;
};

// What one caller may reach over the network: every browser page, input fetch and
// callback acts for one API key, and carries that key's grant. docs/security.md.
struct EgressGrant
{
    // Loopback, private, link-local … addresses (and names resolving to them).
    bool privateTargets = false;
    // The key the traffic is for; fetches of different tenants share no cookie jar,
    // no HTTP auth cache and no proxy identity. Empty: nobody's (internal).
    QString tenant;
    // The run's own proxy, when its request named one; null: connect directly.
    std::shared_ptr<const UpstreamProxy> upstream = nullptr;
    // Work a visitor started (the site's A2W account): the private hosts it may reach
    // although privateTargets is off. Null: none.
    std::shared_ptr<const PrivateReach> reach = nullptr;
    // crossHost same_host: the page's main frame may land only on this origin
    // ("scheme://host:port", lowercase); empty: anywhere the network policy allows.
    QString navigationOrigin = {};
};

// The one rule for every URL a caller controls.
//
// Schemes: only http and https reach the network from anything a caller names (ws and
// wss too for a page's own subresources); the pool's internal about:blank and data:
// never come from a caller.
//
// Private targets: loopback, private (RFC 1918, unique-local), link-local, carrier-grade
// NAT, "this network" (0/8), benchmarking, multicast, broadcast, IPv6 transition
// prefixes that embed IPv4 (NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32), the
// names that always mean this machine (localhost, *.localhost) and single-label names
// (resolved through local search domains). A name is judged by every address it
// resolves to (HostResolver) on every hop, by the egress proxy that also connects to the
// address it checked.
//
// Who may reach private targets: nobody while network.allowPrivateTargets is off (the
// default unless bound to loopback); while it is on, owner keys, and user keys granted
// the `privateTargets` capability, and work visitors started (a site's A2W account key)
// only its PrivateReach. mayReachPrivate() is the one decision.
class NetworkPolicy
{
public:
    // Whether a key (by id) has the privateTargets grant: owner role or the capability.
    using PrivateGrantLookup = std::function<bool(const QString &keyId)>;
    // The visitor reach of a key that acts for a site's visitors (its A2W account key);
    // null for every other key.
    using VisitorReachLookup =
        std::function<std::shared_ptr<const PrivateReach>(const QString &keyId)>;

    explicit NetworkPolicy(bool allowPrivateTargets = false)
        : m_allowPrivate(allowPrivateTargets)
    {}

    // The master switch (network.allowPrivateTargets).
    bool allowPrivateTargets() const { return m_allowPrivate.load(); }
    void setAllowPrivateTargets(bool allow) { m_allowPrivate.store(allow); }
    void setPrivateGrantLookup(PrivateGrantLookup lookup) { m_lookup = std::move(lookup); }
    void setVisitorReachLookup(VisitorReachLookup lookup) { m_visitorLookup = std::move(lookup); }

    // The grant of the caller with API key `keyId` (empty: no key, no private targets).
    // A site's A2W account key gets a visitor grant: no privateTargets, its PrivateReach
    // (unpinned: pinReach() pins it to the run's start).
    EgressGrant grantFor(const QString &keyId) const;
    // `grant` with its visitor reach pinned to the scheme and port of `start` (the run's
    // start URL, the visitor's page); a grant without a reach, or whose reach is pinned
    // already, is returned unchanged.
    static EgressGrant pinReach(EgressGrant grant, const QUrl &start);

    // THE decision for private targets: may `grant` reach `host` on `scheme` and `port`
    // (a private host; public ones are not asked about)? `scheme` is http, https, ws or
    // wss (ws counts as http, wss as https), or empty for a tunnel (CONNECT host:port),
    // which is judged by host and port alone. `port` -1: the scheme's default.
    static bool mayReachPrivate(const EgressGrant &grant, const QString &scheme,
                                const QString &host, int port);
    // The canonical form of one allowlist entry ("host" or "host:port": lowercase, no
    // trailing dot, IPv6 in brackets); empty with `*problem` set (completing "<field> …")
    // when it is neither.
    static QString normalizeAllowlistEntry(const QString &entry, QString *problem);
    // "scheme://host:port" of an http(s) URL (lowercase, default port spelled out);
    // empty for anything else.
    static QString originOf(const QUrl &url);

    // How names resolve (the system's unless a test installs its own) and the egress
    // proxy (EgressProxy::instance() unless set).
    void setEgress(std::shared_ptr<EgressProxy> proxy,
                   std::shared_ptr<const HostResolver> resolver);
    std::shared_ptr<EgressProxy> egress() const;
    std::shared_ptr<const HostResolver> resolver() const;
    // A network access manager of its own (no cookie jar or auth cache shared with any
    // other) whose requests and redirects all pass the egress proxy as `grant`.
    QNetworkAccessManager *createFetcher(const EgressGrant &grant, QObject *parent) const;

    static bool isBrowsableScheme(const QUrl &url);
    static bool isPrivateAddress(const QHostAddress &address);
    // True for literal private addresses, for names that always mean this machine
    // (localhost, *.localhost, *.local) and for single-label names. Other names need
    // resolving: see HostResolver and EgressProxy.
    static bool isPrivateHostLiteral(const QString &host);
    // Why `url` may not receive callbacks, or empty: https always, plain http only to a
    // loopback or private address (whether private targets are allowed is the caller's
    // separate check). The message completes "<field> …".
    static QString callbackSchemeProblem(const QUrl &url);

    // Empty when `url` may be requested with `grant`; else the reason, completing
    // "the URL …". Checks the scheme and literal hosts; names are checked once resolved.
    static QString refusal(const QUrl &url, const EgressGrant &grant);
    // Empty unless `host` is a literal private host (isPrivateHostLiteral) that `grant`
    // may not reach on `scheme` and `port` (see mayReachPrivate); else the reason.
    static QString literalRefusal(const QString &scheme, const QString &host, int port,
                                  const EgressGrant &grant);
    // A caller-supplied URL field's literal-host check: throws 400 PRIVATE_TARGET naming
    // `field` when literalRefusal refuses the URL.
    static void requireReachable(const QUrl &url, const QString &field, const EgressGrant &grant);
    // Empty when a connection to `host` on `scheme` and `port` (see mayReachPrivate),
    // which resolved to `addresses`, is allowed; else the reason. Every address must pass
    // (a name with one private address is private).
    static QString addressRefusal(const QString &host, const QList<QHostAddress> &addresses,
                                  const EgressGrant &grant, const QString &scheme = QString(),
                                  int port = -1);
    static QString addressRefusal(const QUrl &url, const QList<QHostAddress> &addresses,
                                  const EgressGrant &grant);

private:
    void ensureEgress() const;

    std::atomic<bool> m_allowPrivate;
    PrivateGrantLookup m_lookup;
    VisitorReachLookup m_visitorLookup;
    mutable std::shared_ptr<EgressProxy> m_egress;
    mutable std::shared_ptr<const HostResolver> m_resolver;
};

} // namespace ph
