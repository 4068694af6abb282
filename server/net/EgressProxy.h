#pragma once

#include "net/NetworkPolicy.h"

#include <QObject>
#include <QString>

#include <memory>

class QNetworkAccessManager;
class QNetworkProxy;
class QThread;

namespace ph {

class HostResolver;

namespace egress {
class Registry;
class Listener;
} // namespace egress

// The door every caller-controlled connection leaves by: an HTTP proxy on loopback, in a
// thread of its own, that the browser pool's pages and the input fetches use.
//
// For each connection (a CONNECT tunnel or a plain http request, every redirect hop a
// new one) it resolves the host with the identity's HostResolver, refuses the
// connection unless every resolved address passes NetworkPolicy::addressRefusal for the
// identity's grant, and then connects to the address it checked: a name that resolves
// differently a moment later (DNS rebinding) cannot slip past.
//
// Identities: each page slot and each fetcher gets a random user and password (proxy
// Basic authentication). They name the grant the traffic acts with (a key's private-
// targets capability, its tenant) and where refusals are reported.
//
// QtWebEngine's proxy is one per process, fixed when it starts (routeChromium()), so one
// proxy serves every Service of the process for the life of the process: instance().
// Chromium is told to bypass nothing, not even loopback (`<-loopback>`), so literal
// private addresses are judged here too; the pool's request interceptor judges them as
// well, and is the only judge of schemes.
class EgressProxy : public QObject
{
    Q_OBJECT
public:
    struct Identity
    {
        QString user;
        QString password;
        bool isValid() const { return !user.isEmpty(); }
    };

    // The process's proxy, started on first use (listening on 127.0.0.1, port 0), kept
    // until the process ends.
    static std::shared_ptr<EgressProxy> instance();
    // Makes QtWebEngine send every connection through instance(): a Chromium
    // `--proxy-server` for it with an empty bypass list, and Qt's proxy configuration in
    // the mode in which QtWebEngine honours those switches. It must run before the first
    // QtWebEngine profile or page exists (app/main.cpp and the test mains call it first;
    // Service::start again, harmlessly). Returns false if the proxy does not listen.
    static bool routeChromium();
    ~EgressProxy() override;

    quint16 port() const { return m_port; }
    bool isListening() const { return m_port != 0; }

    // A new identity acting with `grant`, resolving through `resolver` (kept alive).
    Identity open(const EgressGrant &grant, std::shared_ptr<const HostResolver> resolver);
    void setGrant(const Identity &identity, const EgressGrant &grant);
    void close(const Identity &identity);
    // The grant an identity acts with (tests, diagnostics).
    EgressGrant grantOf(const QString &user) const;

    // The proxy as QNetworkAccessManager and sockets use it, with the identity's
    // credentials.
    QNetworkProxy networkProxy(const Identity &identity) const;
    // A network access manager of its own (no shared cookie jar or auth cache) whose
    // every request and redirect goes through this proxy as `grant`. The identity is
    // closed when the manager is destroyed.
    QNetworkAccessManager *createFetcher(const EgressGrant &grant,
                                         std::shared_ptr<const HostResolver> resolver,
                                         QObject *parent);

    int openConnections() const;

Q_SIGNALS:
    // A connection of `user` to `target` (a URL or host:port) was refused for `reason`
    // (or the host did not resolve: `unresolved`). Emitted on this object's thread.
    // A connection of `user` to `target` failed at the run's own proxy (settings.proxy):
    // it refused the connection or the credentials, or could not be reached.
    void proxyFailed(const QString &user, const QString &target, const QString &reason);
    void refused(const QString &user, const QString &target, const QString &reason,
                 bool unresolved);

private:
    EgressProxy();
    bool start();

    std::shared_ptr<egress::Registry> m_registry;
    QThread *m_thread = nullptr;
    egress::Listener *m_listener = nullptr; // lives in m_thread
    quint16 m_port = 0;
};

} // namespace ph
