#include "SitemapReader.h"

#include <QUrl>
#include <QXmlStreamReader>

namespace ph::firecrawl {

namespace {

bool isWebUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    return url.isValid() && !url.host().isEmpty() &&
           (scheme == QLatin1String("http") || scheme == QLatin1String("https"));
}

} // namespace

Sitemap Sitemap::read(const QByteArray &xml)
{
    Sitemap map;
    QXmlStreamReader reader(xml);
    // The entry being read: <url> (pages) or <sitemap> (an index), by local name so any
    // namespace prefix reads the same.
    QStringList *target = nullptr;
    while (!reader.atEnd()) {
        const QXmlStreamReader::TokenType token = reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            const QStringView name = reader.name();
            if (name == QLatin1String("url"))
                target = &map.pages;
            else if (name == QLatin1String("sitemap"))
                target = &map.sitemaps;
            else if (name == QLatin1String("loc") && target) {
                const QString loc =
                    reader.readElementText(QXmlStreamReader::SkipChildElements).trimmed();
                if (target->size() >= kMaxEntries) {
                    map.truncated = true;
                    continue;
                }
                if (isWebUrl(loc))
                    target->append(loc);
            }
        } else if (token == QXmlStreamReader::EndElement) {
            const QStringView name = reader.name();
            if (name == QLatin1String("url") || name == QLatin1String("sitemap"))
                target = nullptr;
        }
    }
    if (reader.hasError())
        map.error = reader.errorString();
    return map;
}

RobotsTxt RobotsTxt::parse(const QByteArray &text, const QString &agent)
{
    RobotsTxt robots;
    QList<Rule> mine;    // the group naming `agent`
    QList<Rule> anyone;  // the `*` group
    bool named = false;  // some group names `agent`
    bool inMine = false; // the current group applies to `agent`
    bool inAnyone = false;
    bool groupOpen = false; // user-agent lines seen, no rule yet: more agents join it
    const QString me = agent.toLower();
    const QList<QByteArray> lines = text.split('\n');
    for (QByteArray line : lines) {
        if (const qsizetype hash = line.indexOf('#'); hash >= 0)
            line.truncate(hash);
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QString key = QString::fromUtf8(line.left(colon)).trimmed().toLower();
        const QString value = QString::fromUtf8(line.mid(colon + 1)).trimmed();
        if (key == QLatin1String("sitemap")) {
            if (robots.m_sitemaps.size() < kMaxRules && isWebUrl(value))
                robots.m_sitemaps << value;
        } else if (key == QLatin1String("user-agent")) {
            if (!groupOpen) {
                inMine = inAnyone = false;
                groupOpen = true;
            }
            const QString who = value.toLower();
            if (who == QLatin1String("*"))
                inAnyone = true;
            else if (!me.isEmpty() && who == me) {
                inMine = true;
                named = true;
            }
        } else if (key == QLatin1String("allow") || key == QLatin1String("disallow")) {
            groupOpen = false;
            if (value.isEmpty()) // "Disallow:" with nothing allows everything
                continue;
            const Rule rule{value, key == QLatin1String("allow")};
            if (inMine && mine.size() < kMaxRules)
                mine << rule;
            if (inAnyone && anyone.size() < kMaxRules)
                anyone << rule;
        } else {
            groupOpen = false;
        }
    }
    robots.m_rules = named ? mine : anyone;
    return robots;
}

bool RobotsTxt::matches(const QString &pattern, const QString &path)
{
    // `*` any run of characters, a final `$` the end; iterative with backtracking to the
    // last star, so a hostile pattern costs O(pattern × path) at worst.
    const bool anchored = pattern.endsWith(QLatin1Char('$'));
    const QStringView p = anchored ? QStringView(pattern).chopped(1) : QStringView(pattern);
    qsizetype pi = 0, si = 0, star = -1, mark = 0;
    while (si < path.size()) {
        if (pi < p.size() && p[pi] == QLatin1Char('*')) {
            star = pi++;
            mark = si;
        } else if (pi < p.size() && p[pi] == path[si]) {
            ++pi;
            ++si;
        } else if (pi == p.size() && !anchored) {
            return true; // a prefix matched
        } else if (star >= 0) {
            pi = star + 1;
            si = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == QLatin1Char('*'))
        ++pi;
    return pi == p.size();
}

bool RobotsTxt::allows(const QString &path) const
{
    qsizetype best = -1;
    bool allowed = true;
    for (const Rule &rule : m_rules) {
        if (!matches(rule.pattern, path))
            continue;
        const qsizetype length = rule.pattern.size();
        if (length > best || (length == best && rule.allow)) {
            best = length;
            allowed = rule.allow;
        }
    }
    return allowed;
}

} // namespace ph::firecrawl
