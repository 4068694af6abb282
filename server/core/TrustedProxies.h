#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace ph {

// Who a request comes from when reverse proxies stand between the client and the service
// (docs/security.md, "Client identity behind a reverse proxy"). It holds the proxies the
// operator trusts (the `http.trustedProxies` setting: addresses and CIDR ranges) and reads
// the client out of `Forwarded` (RFC 7239, `for=`) and `X-Forwarded-For`, believing them
// only when the TCP peer is one of those proxies. Pure: no I/O, nothing but the list.
//
// The chain a header names runs from the original client (left) to the proxy nearest the
// service (right). Each trusted proxy appends the address it was reached from, so the
// walk goes from the right, skips trusted proxies, and takes the first address that is
// not one: everything left of it was written by a party nobody vouches for. A malformed
// header, an `unknown` or obfuscated node met before that address, or two headers that
// name different clients: the client is the peer itself.
class TrustedProxies
{
public:
    TrustedProxies() = default;

    // Reads a list separated by commas or white space: IPv4 and IPv6 addresses and CIDR
    // ranges ("10.0.0.0/8", "fd00::/8"). Empty text trusts nobody. nullopt when an entry
    // is neither; `problem` then says which (a sentence without the setting's name).
    static std::optional<TrustedProxies> parse(const QString &list, QString *problem = nullptr);

    bool isEmpty() const { return m_ranges.isEmpty(); }
    bool contains(const QHostAddress &address) const;

    // The client of a request that came from `peer` with these header values (all lines
    // of a header joined by commas in the order they came; empty when absent). Always
    // canonical (see canonical()); the peer itself unless it is trusted and the headers
    // name someone else.
    QHostAddress clientOf(const QHostAddress &peer, const QByteArray &forwarded,
                          const QByteArray &xForwardedFor) const;

    // The nodes a header names, left to right; an `unknown` or obfuscated node is a null
    // address. nullopt when the header is malformed.
    static std::optional<QList<QHostAddress>> forwardedChain(const QByteArray &value);
    static std::optional<QList<QHostAddress>> xForwardedForChain(const QByteArray &value);

    // An IPv4 address seen on a dual-stack socket (::ffff:a.b.c.d) as plain IPv4, so one
    // client has one identity; other addresses as they are.
    static QHostAddress canonical(const QHostAddress &address);

private:
    // The client a chain names after walking it from the right; nullopt: none can be told.
    std::optional<QHostAddress> walk(const QList<QHostAddress> &chain) const;

    QList<QPair<QHostAddress, int>> m_ranges;
};

} // namespace ph
