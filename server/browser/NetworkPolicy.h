#pragma once

#include <QString>
#include <QUrl>

#include <atomic>

class QHostAddress;

namespace ph {

// Which targets the browser and the callbacks may reach. Only http and https are
// browsable. Loopback, private (RFC 1918, unique-local), link-local, carrier-grade NAT
// and unspecified addresses are "private targets": refused unless
// network.allowPrivateTargets is on (the default when bound to loopback).
class NetworkPolicy
{
public:
    explicit NetworkPolicy(bool allowPrivateTargets = false)
        : m_allowPrivate(allowPrivateTargets)
    {}

    bool allowPrivateTargets() const { return m_allowPrivate.load(); }
    void setAllowPrivateTargets(bool allow) { m_allowPrivate.store(allow); }

    static bool isBrowsableScheme(const QUrl &url);
    static bool isPrivateAddress(const QHostAddress &address);
    // True for literal private addresses and for names that always mean this machine
    // (localhost, *.localhost). Other names need resolving: see HostCheck.
    static bool isPrivateHostLiteral(const QString &host);
    // Why `url` may not receive callbacks, or empty: https always, plain http only to a
    // loopback or private address (whether private targets are allowed is the caller's
    // separate check). The message completes "<field> …".
    static QString callbackSchemeProblem(const QUrl &url);

    // Empty when `url` may be requested; else the reason (for typed errors).
    // Checks the scheme and, when private targets are off, literal private hosts.
    QString refusal(const QUrl &url) const;

private:
    std::atomic<bool> m_allowPrivate;
};

} // namespace ph
