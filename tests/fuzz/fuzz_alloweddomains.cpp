// Allowed domains of site keys (server/sites/AllowedDomains): entries (bare, *.wildcard,
// =exact, URLs; IDN, IP literals, public suffixes through libpsl) and the allow
// decision for page URLs. Lines up to the first empty line are entries, the lines after
// it URLs; the first byte picks the scope.
#include "FuzzInput.h"

#include "core/DomainError.h"
#include "sites/AllowedDomains.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::sites::AllowedDomains;
    using ph::sites::DomainScope;
    Cursor in(bytesOf(data, size));
    const DomainScope scope =
        (in.byte() & 1) ? DomainScope::ExactHost : DomainScope::RegistrableDomain;
    QStringList entries;
    while (!in.atEnd() && entries.size() < 200) {
        const QString line = QString::fromUtf8(in.until('\n'));
        if (line.isEmpty())
            break;
        entries << line;
    }
    QStringList normalized;
    for (const QString &entry : std::as_const(entries)) {
        try {
            const QString n = AllowedDomains::normalizeEntry(entry, QStringLiteral("d"));
            require(!n.isEmpty(), "an entry normalised to nothing");
            // Normalising is idempotent: the stored form reads back as itself.
            require(AllowedDomains::normalizeEntry(n, QStringLiteral("d")) == n,
                    "a normalised entry that normalises differently");
            normalized << n;
        } catch (const ph::DomainError &e) {
            require(!e.message().isEmpty(), "a refusal without a message");
        }
        const QString host = AllowedDomains::normalizeHost(entry);
        AllowedDomains::registrableDomain(host);
        AllowedDomains::isIpAddress(entry);
    }
    try {
        AllowedDomains::normalize(entries, QStringLiteral("allowedDomains"));
    } catch (const ph::DomainError &) {
    }
    while (!in.atEnd()) {
        const QString url = QString::fromUtf8(in.until('\n'));
        AllowedDomains::allows(normalized, scope, url);
    }
    return 0;
}
