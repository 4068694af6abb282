#pragma once

#include <QString>
#include <QStringList>

namespace ph::sites {

// How a bare allowed-domain entry is read (site policy `domainScopeMode`).
enum class DomainScope {
    RegistrableDomain, // "registrable_domain": a bare entry covers its registrable domain
                       // (the apex host) and every subdomain of it
    ExactHost,         // "exact_host": a bare entry covers that one host
};

// Allowed domains of a site key. Entries are written as
//   example.com            bare (see DomainScope)
//   *.example.com          every subdomain of example.com, at any depth, not the apex
//   =shop.example.com      exactly this host
//   https://Shop.Example.com:8443/path   a URL: normalised to its host, then bare
// Hosts compare in lowercase ASCII (IDN as punycode), without a trailing dot and
// without the port. Registrable domains come from libpsl and the public suffix list.
// IP addresses and hosts without a registrable domain (localhost) match exactly.
class AllowedDomains
{
public:
    // The canonical stored form of one entry; throws DomainError 400 naming `field`
    // when the entry is not usable (empty, a public suffix, a wildcard on an IP…).
    static QString normalizeEntry(const QString &entry, const QString &field);
    // Every entry normalised, duplicates removed, order kept; at least one entry.
    static QStringList normalize(const QStringList &entries, const QString &field);

    // The decision: may a page at `url` use a key with these (normalised) entries?
    // Only http and https URLs with a host can be allowed.
    static bool allows(const QStringList &entries, DomainScope scope, const QString &url);

    // Lowercase ASCII host without trailing dot; empty when `host` is not a host name.
    static QString normalizeHost(const QString &host);
    // The registrable domain (eTLD+1) of a normalised host; empty for IP addresses,
    // public suffixes and hosts the list has no rule for beyond the implicit one.
    static QString registrableDomain(const QString &host);
    static bool isIpAddress(const QString &host);

    static DomainScope scopeFromString(const QString &mode);
};

} // namespace ph::sites
