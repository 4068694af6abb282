// The sitemap and robots.txt readers of the Firecrawl-compatible map
// (server/firecrawl/SitemapReader): what a site serves is untrusted input.
#include "firecrawl/SitemapReader.h"

#include <QtTest>

using namespace ph::firecrawl;

class tst_SitemapReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsSitemaps_data();
    void readsSitemaps();
    void capsTheEntriesOfOneFile();
    void judgesPathsByRobotsTxt_data();
    void judgesPathsByRobotsTxt();
    void readsTheSitemapLinesOfRobotsTxt();
};

void tst_SitemapReader::readsSitemaps_data()
{
    QTest::addColumn<QByteArray>("xml");
    QTest::addColumn<QStringList>("pages");
    QTest::addColumn<QStringList>("sitemaps");
    QTest::addColumn<bool>("error");
    QTest::newRow("reads the locations of a urlset")
        << QByteArray("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/"
                      "sitemap/0.9\"><url><loc> https://a.example/one </loc><lastmod>2024</lastmod>"
                      "</url><url><loc>https://a.example/two</loc></url></urlset>")
        << QStringList{"https://a.example/one", "https://a.example/two"} << QStringList() << false;
    QTest::newRow("reads the sitemaps of an index")
        << QByteArray("<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap>"
                      "</sitemapindex>")
        << QStringList() << QStringList{"https://a.example/s1.xml"} << false;
    QTest::newRow("reads prefixed elements by their local names")
        << QByteArray("<sm:urlset xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
                      "<sm:url><sm:loc>http://a.example/p</sm:loc></sm:url></sm:urlset>")
        << QStringList{"http://a.example/p"} << QStringList() << false;
    QTest::newRow("leaves out locations that are not absolute http(s) URLs")
        << QByteArray("<urlset><url><loc>/relative</loc></url><url><loc>javascript:alert(1)</loc>"
                      "</url><url><loc>ftp://a.example/f</loc></url></urlset>")
        << QStringList() << QStringList() << false;
    QTest::newRow("ignores a loc outside any url or sitemap element")
        << QByteArray("<urlset><loc>https://a.example/stray</loc></urlset>") << QStringList()
        << QStringList() << false;
    QTest::newRow("keeps what it read before a document breaks off")
        << QByteArray("<urlset><url><loc>https://a.example/ok</loc></url><url><loc>")
        << QStringList{"https://a.example/ok"} << QStringList() << true;
    QByteArray laughs = "<!DOCTYPE u [<!ENTITY l0 \"lol\">";
    for (int i = 1; i < 10; ++i)
        laughs += "<!ENTITY l" + QByteArray::number(i) + " \"" +
                  QByteArray("&l" + QByteArray::number(i - 1) + ";").repeated(10) + "\">";
    laughs += "]><urlset><url><loc>https://a.example/&l9;</loc></url></urlset>";
    QTest::newRow("stops at an entity that expands without end (billion laughs)")
        << laughs << QStringList() << QStringList() << true;
    QTest::newRow("reads nothing from what is not XML")
        << QByteArray("User-agent: *\n") << QStringList() << QStringList() << true;
}

void tst_SitemapReader::readsSitemaps()
{
    QFETCH(QByteArray, xml);
    QFETCH(QStringList, pages);
    QFETCH(QStringList, sitemaps);
    QFETCH(bool, error);
    const Sitemap map = Sitemap::read(xml);
    QCOMPARE(map.pages, pages);
    QCOMPARE(map.sitemaps, sitemaps);
    QCOMPARE(!map.error.isEmpty(), error);
}

void tst_SitemapReader::capsTheEntriesOfOneFile()
{
    QByteArray xml = "<urlset>";
    for (int i = 0; i < Sitemap::kMaxEntries + 10; ++i)
        xml += "<url><loc>https://a.example/" + QByteArray::number(i) + "</loc></url>";
    xml += "</urlset>";
    const Sitemap map = Sitemap::read(xml);
    QCOMPARE(map.pages.size(), Sitemap::kMaxEntries);
    QVERIFY(map.truncated);
}

void tst_SitemapReader::judgesPathsByRobotsTxt_data()
{
    QTest::addColumn<QByteArray>("robots");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("allowed");
    const QByteArray basic = "User-agent: *\nDisallow: /private\nAllow: /private/open\n";
    QTest::newRow("allows a path no rule names") << basic << "/public" << true;
    QTest::newRow("disallows a path under a disallowed prefix") << basic << "/private/x" << false;
    QTest::newRow("lets the longer allow rule win") << basic << "/private/open/y" << true;
    QTest::newRow("matches a star anywhere")
        << QByteArray("User-agent: *\nDisallow: /*.pdf$\n") << "/docs/a.pdf" << false;
    QTest::newRow("anchors a rule that ends in a dollar")
        << QByteArray("User-agent: *\nDisallow: /*.pdf$\n") << "/docs/a.pdf?x=1" << true;
    QTest::newRow("uses the group naming our agent over the star group")
        << QByteArray("User-agent: *\nDisallow: /\n\nUser-agent: Pilothouse\nDisallow: /admin\n")
        << "/page" << true;
    QTest::newRow("applies a group that names several agents")
        << QByteArray("User-agent: other\nUser-agent: pilothouse\nDisallow: /x\n") << "/x/1"
        << false;
    QTest::newRow("ignores the rules of other agents")
        << QByteArray("User-agent: other\nDisallow: /\n") << "/page" << true;
    QTest::newRow("reads an empty disallow as allowing everything")
        << QByteArray("User-agent: *\nDisallow:\n") << "/anything" << true;
    QTest::newRow("ignores comments and lines without a colon")
        << QByteArray("# hi\nUser-agent: * # all\nnonsense\nDisallow: /a # no\n") << "/a" << false;
    QTest::newRow("stays linear on a hostile pattern")
        << QByteArray("User-agent: *\nDisallow: /" + QByteArray(200, '*') + "x$\n")
        << QString(QStringLiteral("/") + QString(2000, u'a')) << true;
}

void tst_SitemapReader::judgesPathsByRobotsTxt()
{
    QFETCH(QByteArray, robots);
    QFETCH(QString, path);
    QFETCH(bool, allowed);
    QCOMPARE(RobotsTxt::parse(robots, QStringLiteral("pilothouse")).allows(path), allowed);
}

void tst_SitemapReader::readsTheSitemapLinesOfRobotsTxt()
{
    const RobotsTxt robots = RobotsTxt::parse(
        "Sitemap: https://a.example/s.xml\nUser-agent: *\nsitemap:https://a.example/t.xml\n"
        "Sitemap: /relative.xml\n",
        QStringLiteral("pilothouse"));
    const QStringList expected{"https://a.example/s.xml", "https://a.example/t.xml"};
    QCOMPARE(robots.sitemaps(), expected);
}

QTEST_GUILESS_MAIN(tst_SitemapReader)
#include "tst_sitemapreader.moc"
