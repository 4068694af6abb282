// The Firecrawl-compatible map's readers of what a site serves
// (server/firecrawl/SitemapReader): first byte even, the rest is a sitemap (urlset or
// index); odd, robots.txt, whose rules then judge the paths on its last line.
#include "FuzzInput.h"

#include "firecrawl/SitemapReader.h"

#include <QUrl>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ph::fuzz;
    using ph::firecrawl::RobotsTxt;
    using ph::firecrawl::Sitemap;
    const QByteArray in = bytesOf(data, size);
    if (in.isEmpty())
        return 0;
    const QByteArray rest = in.mid(1);
    if ((uchar(in.at(0)) & 1) == 0) {
        const Sitemap map = Sitemap::read(rest);
        require(map.pages.size() <= Sitemap::kMaxEntries, "more pages than the cap");
        require(map.sitemaps.size() <= Sitemap::kMaxEntries, "more sitemaps than the cap");
        for (const QStringList *list : {&map.pages, &map.sitemaps}) {
            for (const QString &loc : *list) {
                const QUrl url(loc, QUrl::StrictMode);
                const QString scheme = url.scheme().toLower();
                require(url.isValid() && !url.host().isEmpty(), "a location without a host");
                require(scheme == QLatin1String("http") || scheme == QLatin1String("https"),
                        "a location that is not http(s)");
            }
        }
        return 0;
    }
    const RobotsTxt robots = RobotsTxt::parse(rest, QStringLiteral("pilothouse"));
    require(robots.sitemaps().size() <= RobotsTxt::kMaxRules, "more sitemaps than the cap");
    const QString path = QString::fromUtf8(rest.mid(rest.lastIndexOf('\n') + 1).left(4096));
    robots.allows(path);
    robots.allows(QStringLiteral("/"));
    // Without rules for anyone, everything is allowed.
    require(RobotsTxt::parse(QByteArray(), QStringLiteral("pilothouse")).allows(path),
            "an empty robots.txt disallowed a path");
    return 0;
}
