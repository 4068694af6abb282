// /scrape's main-content markdown (resources/pageagent/src/markdown.js) on pages
// written for this test: what a reader does not read as the article goes, what the
// article holds stays. The real service, real pages on both engines, a loopback site.
#include "Engines.h"
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

namespace {

// An article long enough for Readability to take it as one.
const QByteArray kStory = R"(
<p>The harbour master opened the new pier on Tuesday morning, three years after the storm
that carried the old one out to sea. Fishermen lined the quay to watch the first boats tie up.</p>
<p>Building it took longer than planned: the piles had to be driven twice as deep as the
engineers first thought, because the seabed under the old pier had washed away.</p>
<p>The council says the pier will take boats of up to twenty metres, and that the fish market
will move back to the waterfront in the spring, once the new cold store is finished.</p>)";

// A page: site header and navigation, the article (its heading, the story, `inside`),
// then `after` outside the article, and a site footer.
QByteArray page(const QByteArray &inside, const QByteArray &after = {}, const QByteArray &head = {})
{
    return R"(<!doctype html><html lang="en"><head><meta charset="utf-8"><title>New pier opens</title>)" +
           head + R"(</head><body>
<header><a href="/">Harbour Gazette</a><nav><ul><li><a href="/news">News</a></li>
<li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></nav></header>
<main><article><h1>New pier opens</h1>)" +
           kStory + inside + "</article>" + after + R"(</main>
<footer><p>Copyright Harbour Gazette. All rights reserved.</p></footer></body></html>)";
}

} // namespace

class tst_MainContent : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase_data();
    void initTestCase();
    void init();
    void cleanupTestCase();
    void readsTheMainContent_data();
    void readsTheMainContent();
    void leavesTextAndLinksAsTheyAre();

private:
    QJsonObject scrape(const QString &path, const QJsonArray &formats);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
};

void tst_MainContent::initTestCase_data()
{
    ph::test::addEngineRows();
}

void tst_MainContent::init()
{
    PH_USE_ROW_ENGINE(m_ph.get());
}

void tst_MainContent::initTestCase()
{
    QVERIFY(m_site.start());
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_MainContent::cleanupTestCase()
{
    m_ph.reset();
}

QJsonObject tst_MainContent::scrape(const QString &path, const QJsonArray &formats)
{
    HttpClient c = m_ph->client();
    const auto r =
        c.post(QStringLiteral("/scrape"), {{QStringLiteral("urls"), QJsonArray{m_site.url(path)}},
                                           {QStringLiteral("formats"), formats}});
    r.expectStatus({200}, __FILE__, __LINE__);
    return r.json().value(QStringLiteral("results")).toArray().at(0).toObject();
}

void tst_MainContent::readsTheMainContent_data()
{
    QTest::addColumn<QByteArray>("html");
    QTest::addColumn<QStringList>("kept");
    QTest::addColumn<QStringList>("dropped");
    const QStringList story{QStringLiteral("The harbour master opened the new pier"),
                            QStringLiteral("once the new cold store is finished.")};

    QTest::newRow("drops the site's navigation and footer")
        << page({}) << story
        << QStringList{QStringLiteral("Weather"), QStringLiteral("All rights reserved")};
    QTest::newRow("drops a cookie banner")
        << page({}, R"(<div class="cookie-consent"><p>We use cookies to improve your experience
on our site. By continuing you agree to our use of cookies.</p><a href="/ok">Accept all</a></div>)")
        << story << QStringList{QStringLiteral("We use cookies"), QStringLiteral("Accept all")};
    QTest::newRow("drops the comments")
        << page({}, R"(<section id="comments"><h2>3 comments</h2><p>Marge wrote: about time too,
the old pier was a disgrace and everyone in the village knew it for years.</p></section>)")
        << story << QStringList{QStringLiteral("3 comments"), QStringLiteral("about time too")};
    QTest::newRow("drops related links")
        << page({}, R"(<div class="related-stories"><h3>Read next</h3><p><a href="/a">Lifeboat
crew rescue two walkers stranded by the tide</a></p><p><a href="/b">Ferry fares to rise
in the new year</a></p></div>)")
        << story << QStringList{QStringLiteral("Read next"), QStringLiteral("Lifeboat crew")};
    QTest::newRow("drops a share bar")
        << page(R"(<div class="share-tools"><a href="/s/fb">Share on Facebook</a>
<a href="/s/x">Share on X</a><a href="/s/mail">Email this story</a></div>)")
        << story
        << QStringList{QStringLiteral("Share on Facebook"), QStringLiteral("Email this story")};
    QTest::newRow("keeps a table")
        << page(R"(<table><thead><tr><th>Berth</th><th>Length</th></tr></thead>
<tbody><tr><td>North</td><td>20 m</td></tr><tr><td>South</td><td>12 m</td></tr></tbody></table>)")
        << (story +
            QStringList{QStringLiteral("| Berth | Length |"), QStringLiteral("| North | 20 m |")})
        << QStringList{};
    QTest::newRow("keeps a list")
        << page(R"(<p>The pier has:</p><ul><li>two slipways for small boats</li>
<li>a crane that lifts five tonnes</li><li>lights along its whole length</li></ul>)")
        << (story + QStringList{QStringLiteral("-   two slipways for small boats"),
                                QStringLiteral("-   a crane that lifts five tonnes")})
        << QStringList{};
    QTest::newRow("keeps a code block")
        << page(R"(<p>Tide times come from the port's feed:</p><pre><code>GET /tides?port=harbour
{"high": "06:12", "low": "12:30"}</code></pre>)")
        << (story + QStringList{QStringLiteral("```"), QStringLiteral("GET /tides?port=harbour")})
        << QStringList{};
    QTest::newRow("keeps a figure caption")
        << page(R"(<figure><img src="/pier.jpg" alt="The pier at dawn" width="640" height="400">
<figcaption>The first boats tie up at the new pier on Tuesday.</figcaption></figure>)")
        << (story +
            QStringList{QStringLiteral("The first boats tie up at the new pier on Tuesday.")})
        << QStringList{};
    QTest::newRow("keeps a short article")
        << QByteArray(R"(<!doctype html><html><head><title>Closed</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a></nav>
<main><h1>Closed on Monday</h1><p>The museum is closed on Monday for repairs.</p></main>
<footer>Copyright the museum</footer></body></html>)")
        << QStringList{QStringLiteral("Closed on Monday"),
                       QStringLiteral("The museum is closed on Monday for repairs.")}
        << QStringList{};
    QTest::newRow("keeps every section of a page of several sections")
        << page(R"(<h2>The cost</h2><p>The pier cost four million pounds, most of it from a
government fund for coastal towns, and the rest from the harbour's own reserves.</p>
<h2>What comes next</h2><p>A second phase will rebuild the harbour wall, which the
same storm damaged, starting after the summer season ends in September.</p>)")
        << (story + QStringList{QStringLiteral("## The cost"),
                                QStringLiteral("four million pounds"),
                                QStringLiteral("## What comes next"),
                                QStringLiteral("after the summer season ends")})
        << QStringList{};
}

void tst_MainContent::readsTheMainContent()
{
    QFETCH(QByteArray, html);
    QFETCH(QStringList, kept);
    QFETCH(QStringList, dropped);
    const QByteArray path = "/p/" + QByteArray(QTest::currentDataTag()).toPercentEncoding();
    m_site.page(path, html);
    const QString md = scrape(QString::fromLatin1(path), {QStringLiteral("markdown")})
                           .value(QStringLiteral("markdown"))
                           .toString();
    for (const QString &k : kept)
        QVERIFY2(md.contains(k), qPrintable(QStringLiteral("missing \"%1\" in:\n%2").arg(k, md)));
    for (const QString &d : dropped)
        QVERIFY2(!md.contains(d), qPrintable(QStringLiteral("kept \"%1\" in:\n%2").arg(d, md)));
    // The title is said once, never as a heading twice.
    QVERIFY2(md.count(QRegularExpression(QStringLiteral("^# "),
                                         QRegularExpression::MultilineOption)) <= 1,
             qPrintable(md));
}

void tst_MainContent::leavesTextAndLinksAsTheyAre()
{
    // The text and links formats read the whole page, boilerplate included: only the
    // markdown is the main content.
    m_site.page("/whole", page({}, R"(<div class="cookie-consent">We use cookies</div>)"));
    const QJsonObject r =
        scrape(QStringLiteral("/whole"),
               {QStringLiteral("text"), QStringLiteral("links"), QStringLiteral("markdown")});
    const QString text = r.value(QStringLiteral("text")).toString();
    QVERIFY2(text.contains(QLatin1String("Weather")) &&
                 text.contains(QLatin1String("We use cookies")) &&
                 text.contains(QLatin1String("All rights reserved")),
             qPrintable(text));
    QVERIFY(r.value(QStringLiteral("links")).toArray().size() >= 4);
    QVERIFY(!r.value(QStringLiteral("markdown")).toString().contains(QLatin1String("Weather")));
}

PH_WEBENGINE_TEST_MAIN(tst_MainContent)
#include "tst_maincontent.moc"
