#pragma once

#include <QList>
#include <QString>
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
// the `privateTargets` capability.
class NetworkPolicy
{
public:
    // Whether a key (by id) has the privateTargets grant: owner role or the capability.
    using PrivateGrantLookup = std::function<bool(const QString &keyId)>;

    explicit NetworkPolicy(bool allowPrivateTargets = false)
        : m_allowPrivate(allowPrivateTargets)
    {}

    // The master switch (network.allowPrivateTargets).
    bool allowPrivateTargets() const { return m_allowPrivate.load(); }
    void setAllowPrivateTargets(bool allow) { m_allowPrivate.store(allow); }
    void setPrivateGrantLookup(PrivateGrantLookup lookup) { m_lookup = std::move(lookup); }

    // The grant of the caller with API key `keyId` (empty: no key, no private targets).
    EgressGrant grantFor(const QString &keyId) const;

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
    // Empty when a connection to `host`, which resolved to `addresses`, is allowed; else
    // the reason. Every address must pass (a name with one private address is private).
    static QString addressRefusal(const QString &host, const QList<QHostAddress> &addresses,
                                  const EgressGrant &grant);

private:
    void ensureEgress() const;

    std::atomic<bool> m_allowPrivate;
    PrivateGrantLookup m_lookup;
    mutable std::shared_ptr<EgressProxy> m_egress;
    mutable std::shared_ptr<const HostResolver> m_resolver;
};

} // namespace ph
