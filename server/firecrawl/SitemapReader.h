#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ph::firecrawl {

// A sitemap as a site serves it (sitemaps.org 0.9): a <urlset> of pages or a
// <sitemapindex> of further sitemaps, each entry's <loc>. The document is untrusted: the
// reader resolves no entities and no DTD (QXmlStreamReader's default), keeps at most
// kMaxEntries locations of each kind, and only absolute http(s) URLs.
struct Sitemap
{
    static constexpr int kMaxEntries = 50000; // the protocol's own cap per file

    QStringList pages;    // <urlset><url><loc>
    QStringList sitemaps; // <sitemapindex><sitemap><loc>
    bool truncated = false;
    QString error; // empty when the document read to its end

    static Sitemap read(const QByteArray &xml);
};

// The part of robots.txt a map needs (RFC 9309): the Sitemap lines, and the Allow and
// Disallow rules of the group for `agent` (else of `*`). Rule paths may use `*` and a
// final `$`; the longest matching rule decides, Allow winning a tie.
class RobotsTxt
{
public:
    static constexpr int kMaxRules = 5000;

    static RobotsTxt parse(const QByteArray &text, const QString &agent);

    const QStringList &sitemaps() const { return m_sitemaps; }
    // Whether `path` (path and query, as requested) may be fetched.
    bool allows(const QString &path) const;

private:
    struct Rule
    {
        QString pattern;
        bool allow = false;
    };
    static bool matches(const QString &pattern, const QString &path);

    QStringList m_sitemaps;
    QList<Rule> m_rules;
};

} // namespace ph::firecrawl
