// AllowedDomains: the one decision "may a page at this URL use a key with these
// allowed domains", and how entries are normalised and refused.
#include "sites/AllowedDomains.h"

#include "core/DomainError.h"

#include <QtTest>

using namespace ph::sites;

class tst_AllowedDomains : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void decides_data();
    void decides();
    void normalisesEntries_data();
    void normalisesEntries();
    void refusesEntries_data();
    void refusesEntries();
    void usesThePublicSuffixList();
};

using Scope = DomainScope;
Q_DECLARE_METATYPE(DomainScope)

void tst_AllowedDomains::decides_data()
{
    QTest::addColumn<QStringList>("entries");
    QTest::addColumn<DomainScope>("scope");
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("allowed");

    const Scope R = Scope::RegistrableDomain;
    const Scope E = Scope::ExactHost;
    auto row = [](const char *name, QStringList entries, Scope scope, const char *url, bool ok) {
        // Entries go through the same normalisation as an owner's request.
        QTest::newRow(name) << AllowedDomains::normalize(entries, QStringLiteral("allowedDomains"))
                            << scope << QString::fromUtf8(url) << ok;
    };
    const QString ex = QStringLiteral("example.com");
    row("a bare domain allows its apex host", {ex}, R, "https://example.com/", true);
    row("a bare domain allows a subdomain under registrable_domain", {ex}, R,
        "https://shop.example.com/cart", true);
    row("a bare domain allows a deep subdomain under registrable_domain", {ex}, R,
        "https://a.b.c.example.com/", true);
    row("a bare subdomain entry covers its registrable domain's apex",
        {QStringLiteral("shop.example.com")}, R, "https://example.com/", true);
    row("a bare subdomain entry covers a sibling subdomain", {QStringLiteral("shop.example.com")},
        R, "https://www.example.com/", true);
    row("a bare domain refuses another registrable domain", {ex}, R, "https://example.org/", false);
    row("a bare domain refuses a look-alike suffix", {ex}, R, "https://badexample.com/", false);
    row("a bare domain refuses a host that only ends with its text", {ex}, R,
        "https://example.com.evil.net/", false);
    row("exact_host scope limits a bare domain to its host", {ex}, E, "https://example.com/", true);
    row("exact_host scope refuses a subdomain of a bare domain", {ex}, E,
        "https://shop.example.com/", false);
    row("a wildcard allows a subdomain", {QStringLiteral("*.example.com")}, R,
        "https://shop.example.com/", true);
    row("a wildcard allows a deep subdomain", {QStringLiteral("*.example.com")}, E,
        "https://a.b.example.com/", true);
    row("a wildcard does not allow the apex", {QStringLiteral("*.example.com")}, R,
        "https://example.com/", false);
    row("an exact entry allows its host", {QStringLiteral("=shop.example.com")}, R,
        "https://shop.example.com/", true);
    row("an exact entry refuses the apex even under registrable_domain",
        {QStringLiteral("=shop.example.com")}, R, "https://example.com/", false);
    row("an exact entry refuses a subdomain of its host", {QStringLiteral("=shop.example.com")}, R,
        "https://a.shop.example.com/", false);
    row("a URL entry is normalised to its host",
        {QStringLiteral("https://Shop.Example.com:8443/path?q=1")}, E, "https://shop.example.com/",
        true);
    row("a URL entry acts as a bare domain", {QStringLiteral("https://shop.example.com/")}, R,
        "https://example.com/", true);
    row("ports of the page are ignored", {ex}, R, "https://example.com:8443/x", true);
    row("plain http is allowed", {ex}, R, "http://example.com/", true);
    row("uppercase hosts compare in lowercase", {ex}, R, "https://WWW.EXAMPLE.COM/", true);
    row("uppercase entries compare in lowercase", {QStringLiteral("EXAMPLE.com")}, R,
        "https://example.com/", true);
    row("a trailing dot on the page host is ignored", {ex}, R, "https://example.com./", true);
    row("a trailing dot on the entry is ignored", {QStringLiteral("example.com.")}, E,
        "https://example.com/", true);
    row("a co.uk domain covers its own subdomains", {QStringLiteral("example.co.uk")}, R,
        "https://shop.example.co.uk/", true);
    row("a co.uk domain does not cover a neighbour under co.uk", {QStringLiteral("example.co.uk")},
        R, "https://other.co.uk/", false);
    row("a subdomain entry under co.uk covers the registrable domain only",
        {QStringLiteral("shop.example.co.uk")}, R, "https://www.example.co.uk/", true);
    row("github.io sites are separate registrable domains", {QStringLiteral("alice.github.io")}, R,
        "https://bob.github.io/", false);
    row("an IDN entry allows the same host in punycode", {QStringLiteral("bücher.example")}, E,
        "https://xn--bcher-kva.example/", true);
    row("a punycode entry allows the same host in Unicode",
        {QStringLiteral("xn--bcher-kva.example")}, E, "https://bücher.example/", true);
    row("an IDN registrable domain covers its subdomains", {QStringLiteral("münchen.de")}, R,
        "https://www.münchen.de/", true);
    row("an IPv4 entry allows that address", {QStringLiteral("192.0.2.10")}, R,
        "http://192.0.2.10:8080/", true);
    row("an IPv4 entry refuses a neighbour address", {QStringLiteral("192.0.2.10")}, R,
        "http://192.0.2.11/", false);
    row("an IPv6 entry allows that address in brackets", {QStringLiteral("[2001:db8::1]")}, R,
        "http://[2001:db8::1]/", true);
    row("localhost matches only itself", {QStringLiteral("localhost")}, R, "http://localhost:3000/",
        true);
    row("localhost does not cover its subdomains", {QStringLiteral("localhost")}, R,
        "http://a.localhost/", false);
    row("a non-http scheme is refused", {ex}, R, "ftp://example.com/", false);
    row("a javascript URL is refused", {ex}, R, "javascript:alert(1)", false);
    row("a URL without a host is refused", {ex}, R, "https:///path", false);
    row("user info cannot smuggle an allowed host", {ex}, R, "https://example.com@evil.net/",
        false);
    row("one of several entries is enough", {QStringLiteral("example.org"), ex}, R,
        "https://www.example.com/", true);
}

void tst_AllowedDomains::decides()
{
    QFETCH(QStringList, entries);
    QFETCH(DomainScope, scope);
    QFETCH(QString, url);
    QFETCH(bool, allowed);
    QCOMPARE(AllowedDomains::allows(entries, scope, url), allowed);
}

void tst_AllowedDomains::normalisesEntries_data()
{
    QTest::addColumn<QString>("entry");
    QTest::addColumn<QString>("stored");
    QTest::newRow("a bare domain is lowercased") << "Example.COM"
                                                 << "example.com";
    QTest::newRow("a wildcard keeps its prefix") << "*.Example.com"
                                                 << "*.example.com";
    QTest::newRow("an exact host keeps its prefix") << "=Shop.example.com."
                                                    << "=shop.example.com";
    QTest::newRow("a URL becomes its host") << "https://www.example.com:444/a?b"
                                            << "www.example.com";
    QTest::newRow("an IDN becomes punycode") << "Bücher.example"
                                             << "xn--bcher-kva.example";
    QTest::newRow("a port on a bare domain is dropped") << "example.com:8080"
                                                        << "example.com";
}

void tst_AllowedDomains::normalisesEntries()
{
    QFETCH(QString, entry);
    QFETCH(QString, stored);
    QCOMPARE(AllowedDomains::normalizeEntry(entry, QStringLiteral("allowedDomains[0]")), stored);
}

void tst_AllowedDomains::refusesEntries_data()
{
    QTest::addColumn<QString>("entry");
    QTest::newRow("an empty entry") << "";
    QTest::newRow("a public suffix") << "co.uk";
    QTest::newRow("a wildcard over a public suffix") << "*.co.uk";
    QTest::newRow("a wildcard over a bare TLD-like suffix") << "*.github.io";
    QTest::newRow("a wildcard on an IP address") << "*.192.0.2.1";
    QTest::newRow("a path without a scheme") << "example.com/shop";
    QTest::newRow("a non-http URL") << "ftp://example.com";
    QTest::newRow("a star in the middle") << "shop.*.example.com";
}

void tst_AllowedDomains::refusesEntries()
{
    QFETCH(QString, entry);
    try {
        AllowedDomains::normalizeEntry(entry, QStringLiteral("allowedDomains[2]"));
        QFAIL("the entry was accepted");
    } catch (const ph::DomainError &e) {
        QCOMPARE(e.kind(), ph::DomainError::Kind::Invalid);
        QCOMPARE(e.field(), QStringLiteral("allowedDomains[2]"));
    }
}

void tst_AllowedDomains::usesThePublicSuffixList()
{
    // String splitting would say "co.uk" and "github.io"; the list says otherwise.
    QCOMPARE(AllowedDomains::registrableDomain(QStringLiteral("a.b.example.co.uk")),
             QStringLiteral("example.co.uk"));
    QCOMPARE(AllowedDomains::registrableDomain(QStringLiteral("alice.github.io")),
             QStringLiteral("alice.github.io"));
    QCOMPARE(AllowedDomains::registrableDomain(QStringLiteral("co.uk")), QString());
    QCOMPARE(AllowedDomains::registrableDomain(QStringLiteral("192.0.2.1")), QString());
}

QTEST_GUILESS_MAIN(tst_AllowedDomains)
#include "tst_alloweddomains.moc"
