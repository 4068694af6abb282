#include "AllowedDomains.h"

#include "core/DomainError.h"

#include <QHostAddress>
#include <QUrl>

#include <libpsl.h>

namespace ph::sites {

namespace {

const psl_ctx_t *suffixList()
{
    // The newest of the list built into libpsl and the system's publicsuffix package.
    static const psl_ctx_t *ctx = psl_latest(nullptr);
    return ctx ? ctx : psl_builtin();
}

bool hostMatches(const QString &entry, const QString &host, const QString &hostRegistrable,
                 DomainScope scope)
{
    if (entry.startsWith(QLatin1Char('='))) {
        return host == QStringView(entry).mid(1);
    }
    if (entry.startsWith(QLatin1String("*."))) {
        const QStringView base = QStringView(entry).mid(2);
        return host.size() > base.size() + 1 && host.endsWith(base) &&
               host.at(host.size() - base.size() - 1) == QLatin1Char('.');
    }
    if (scope == DomainScope::ExactHost || AllowedDomains::isIpAddress(entry))
        return host == entry;
    const QString entryRegistrable = AllowedDomains::registrableDomain(entry);
    if (entryRegistrable.isEmpty())
        return host == entry;
    return hostRegistrable == entryRegistrable;
}

} // namespace

bool AllowedDomains::isIpAddress(const QString &host)
{
    return !QHostAddress(host).isNull();
}

QString AllowedDomains::normalizeHost(const QString &host)
{
    QString h = host.trimmed();
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    while (h.endsWith(QLatin1Char('.')))
        h.chop(1);
    if (h.isEmpty())
        return {};
    if (QHostAddress address(h); !address.isNull())
        return address.toString().toLower();
    const QByteArray ace = QUrl::toAce(h);
    if (ace.isEmpty())
        return {};
    return QString::fromLatin1(ace).toLower();
}

QString AllowedDomains::registrableDomain(const QString &host)
{
    if (host.isEmpty() || isIpAddress(host))
        return {};
    const QByteArray utf8 = host.toUtf8();
    const char *registrable = psl_registrable_domain(suffixList(), utf8.constData());
    return registrable ? QString::fromUtf8(registrable) : QString();
}

DomainScope AllowedDomains::scopeFromString(const QString &mode)
{
    return mode == QLatin1String("exact_host") ? DomainScope::ExactHost
                                               : DomainScope::RegistrableDomain;
}

QString AllowedDomains::normalizeEntry(const QString &raw, const QString &field)
{
    QString entry = raw.trimmed();
    if (entry.isEmpty())
        throw DomainError::invalidField(field, QStringLiteral("must not be empty"));
    QString prefix;
    if (entry.startsWith(QLatin1Char('='))) {
        prefix = QStringLiteral("=");
        entry = entry.mid(1);
    } else if (entry.startsWith(QLatin1String("*."))) {
        prefix = QStringLiteral("*.");
        entry = entry.mid(2);
    }
    QUrl url;
    if (entry.contains(QLatin1String("://"))) {
        if (!prefix.isEmpty())
            throw DomainError::invalidField(field, QStringLiteral("mixes a prefix with a URL"));
        url = QUrl(entry, QUrl::StrictMode);
        if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
            throw DomainError::invalidField(field, QStringLiteral("must be an http or https URL"));
    } else {
        if (entry.contains(QLatin1Char('/')) || entry.contains(QLatin1Char('?')) ||
            entry.contains(QLatin1Char('@')) || entry.contains(QLatin1Char('*')))
            throw DomainError::invalidField(
                field, QStringLiteral("must be a domain, *.domain, =host or a URL"));
        url = QUrl(QStringLiteral("http://") + entry, QUrl::StrictMode);
    }
    const QString host = url.isValid() ? normalizeHost(url.host(QUrl::FullyEncoded)) : QString();
    if (host.isEmpty())
        throw DomainError::invalidField(field, QStringLiteral("has no valid host name"));
    const bool ip = isIpAddress(host);
    if (prefix == QLatin1String("*.") && ip)
        throw DomainError::invalidField(field,
                                        QStringLiteral("cannot be a wildcard on an IP address"));
    if (!ip && prefix != QLatin1String("=") && registrableDomain(host).isEmpty() &&
        host.contains(QLatin1Char('.'))) {
        // example: "co.uk" or "*.co.uk" would admit every site under a public suffix.
        throw DomainError::invalidField(
            field, QStringLiteral("names the public suffix '%1', which would admit unrelated sites")
                       .arg(host));
    }
    return prefix + host;
}

QStringList AllowedDomains::normalize(const QStringList &entries, const QString &field)
{
    if (entries.isEmpty())
        throw DomainError::invalidField(field, QStringLiteral("must list at least one domain"));
    if (entries.size() > 100)
        throw DomainError::invalidField(field, QStringLiteral("must list at most 100 domains"));
    QStringList out;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QString e = normalizeEntry(entries.at(i), QStringLiteral("%1[%2]").arg(field).arg(i));
        if (!out.contains(e))
            out.append(e);
    }
    return out;
}

bool AllowedDomains::allows(const QStringList &entries, DomainScope scope, const QString &rawUrl)
{
    const QUrl url(rawUrl.trimmed(), QUrl::StrictMode);
    if (!url.isValid() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return false;
    const QString host = normalizeHost(url.host(QUrl::FullyEncoded));
    if (host.isEmpty())
        return false;
    const QString registrable = registrableDomain(host);
    for (const QString &entry : entries) {
        if (hostMatches(entry, host, registrable, scope))
            return true;
    }
    return false;
}

} // namespace ph::sites
