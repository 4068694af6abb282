// generate_websites: the tool builds a static site of the run's data, the site is served
// from storage under one signed link, and a browser's way through it (the root, its
// style sheet, the pages it links) works over real HTTP; forged, expired and traversing
// links are refused. End to end: a POST /agent run through the rule planner.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"
#include "ToolHarness.h"

#include "data/Sheet.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

using namespace ph;
using namespace ph::test;

namespace {

QJsonArray productRows()
{
    return QJsonDocument::fromJson(R"json([
        {"name": "Rope, 10 m", "price": 12.5, "url": "https://shop.example/rope"},
        {"name": "Fender", "price": 24, "url": "https://shop.example/fender"},
        {"name": "<script>alert(1)</script>", "price": 1, "url": "javascript:alert(1)"}
    ])json")
        .array();
}

// `href` resolved against the page at `base`, as a browser does.
QString follow(const QString &base, const QString &href)
{
    return QUrl(base).resolved(QUrl(href)).toString();
}

QStringList links(const QByteArray &html)
{
    QStringList out;
    static const QRegularExpression href(QStringLiteral("href=\"([^\"]+)\""));
    auto it = href.globalMatch(QString::fromUtf8(html));
    while (it.hasNext())
        out << it.next().captured(1);
    return out;
}

} // namespace

class tst_WebsiteTool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void servesTheSiteBehindOneSignedLink();
    void redirectsTheRootToItsSlashedForm();
    void refusesLinksThatDoNotHold_data();
    void refusesLinksThatDoNotHold();
    void writesAPagePerSectionSheetAndPage();
    void splitsMarkdownAloneIntoSectionPages();
    void failsWithNothingToShow();
    void buildsASiteOfARunThroughTheRulePlanner();

private:
    // A site of the product rows, with its root link.
    QString productSite(QString *siteId = nullptr);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
};

void tst_WebsiteTool::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page(
        "/shop",
        htmlPage(QStringLiteral("Shop"),
                 QStringLiteral("<h1>Harbour Supplies</h1><table><thead><tr><th>Product</th>"
                                "<th>Price</th></tr></thead><tbody>"
                                "<tr><td>Rope, 10 m</td><td>$12.50</td></tr>"
                                "<tr><td>Fender</td><td>$24.00</td></tr>"
                                "<tr><td>Anchor</td><td>$1,299.00</td></tr></tbody></table>")));
    m_ph = std::make_unique<TestService>(QStringList{QStringLiteral("agent.syncWindowMs=60000")});
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_WebsiteTool::cleanupTestCase()
{
    m_ph.reset();
}

QString tst_WebsiteTool::productSite(QString *siteId)
{
    ToolHarness h(*m_ph);
    const engine::ToolResult r =
        h.run(QStringLiteral("generate_websites"),
              {{QStringLiteral("title"), QStringLiteral("Harbour Supplies")},
               {QStringLiteral("markdown"), QStringLiteral("Our **stock** as of today.")},
               {QStringLiteral("data"), productRows()}});
    if (!r.ok || h.context().files().size() != 1) {
        qWarning() << "generate_websites failed:" << r.error;
        return {};
    }
    if (siteId)
        *siteId = h.context().files().first().objectId;
    return h.downloadUrl(h.context().files().first());
}

void tst_WebsiteTool::servesTheSiteBehindOneSignedLink()
{
    ToolHarness h(*m_ph);
    const engine::ToolResult r =
        h.run(QStringLiteral("generate_websites"),
              {{QStringLiteral("title"), QStringLiteral("Harbour Supplies")},
               {QStringLiteral("markdown"), QStringLiteral("Our **stock** as of today.")},
               {QStringLiteral("data"), productRows()}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.generatedContent);
    QCOMPARE(r.usage.pages, 0);
    QCOMPARE(h.context().files().size(), 1);
    const engine::GeneratedFile f = h.context().files().first();
    QCOMPARE(f.tool, QStringLiteral("generate_websites"));
    QVERIFY2(f.objectId.startsWith(QLatin1String("site_")), qPrintable(f.objectId));
    QCOMPARE(f.name, QStringLiteral("harbour-supplies/"));
    QCOMPARE(r.output.toObject().value(QStringLiteral("pages")).toInt(), 4); // index + 3 items

    const QString root = h.downloadUrl(f);
    QVERIFY2(QRegularExpression(QStringLiteral("/storage/sites/site_\\w+/\\d+\\.[0-9a-f]{64}/$"))
                 .match(root)
                 .hasMatch(),
             qPrintable(root));
    HttpClient browser; // no API key: the link is the credential
    const auto index = browser.get(root);
    QCOMPARE(index.status, 200);
    QCOMPARE(index.header("content-type"), QByteArray("text/html; charset=utf-8"));
    QCOMPARE(index.header("x-content-type-options"), QByteArray("nosniff"));
    QCOMPARE(index.header("referrer-policy"), QByteArray("no-referrer"));
    QVERIFY(index.header("content-security-policy").contains("default-src 'none'"));
    const QString html = QString::fromUtf8(index.body);
    QVERIFY2(html.contains(QLatin1String("<h1>Harbour Supplies</h1>")), qPrintable(html));
    QVERIFY2(html.contains(QLatin1String("Rope, 10 m")), qPrintable(html));
    QVERIFY2(html.contains(QLatin1String("12.5")), qPrintable(html));
    QVERIFY2(html.contains(QLatin1String("stock")), qPrintable(html));
    // The data's markup is text, a javascript: URL no link, an http(s) URL one.
    QVERIFY2(html.contains(QLatin1String("&lt;script&gt;alert(1)&lt;/script&gt;")),
             qPrintable(html));
    QVERIFY(!html.contains(QLatin1String("<script")));
    QVERIFY(!html.contains(QLatin1String("href=\"javascript:")));
    QVERIFY(html.contains(QLatin1String("<a href=\"https://shop.example/rope\"")));

    // Every relative link resolves under the token and answers.
    const QStringList hrefs = links(index.body);
    QVERIFY2(hrefs.contains(QStringLiteral("style.css")), qPrintable(hrefs.join(u' ')));
    QVERIFY2(hrefs.contains(QStringLiteral("item-1.html")), qPrintable(hrefs.join(u' ')));
    const auto css = browser.get(follow(root, QStringLiteral("style.css")));
    QCOMPARE(css.status, 200);
    QCOMPARE(css.header("content-type"), QByteArray("text/css; charset=utf-8"));
    QVERIFY(css.body.contains("table{"));
    for (const QString &href : hrefs) {
        if (href.startsWith(QLatin1String("https://")))
            continue;
        const auto page = browser.get(follow(root, href));
        QVERIFY2(page.status == 200,
                 qPrintable(href + QStringLiteral(": ") + QString::number(page.status)));
    }
    const auto item = browser.get(follow(root, QStringLiteral("item-1.html")));
    QCOMPARE(item.status, 200);
    const QString itemHtml = QString::fromUtf8(item.body);
    QVERIFY2(itemHtml.contains(QLatin1String("<h1>Rope, 10 m</h1>")), qPrintable(itemHtml));
    QVERIFY2(itemHtml.contains(QLatin1String("<dt>price</dt><dd>12.5</dd>")), qPrintable(itemHtml));
    // From an item page: the next item, and back to the index and its style sheet.
    const QStringList itemLinks = links(item.body);
    for (const QString &href : {QStringLiteral("item-2.html"), QStringLiteral("index.html"),
                                QStringLiteral("style.css")}) {
        QVERIFY2(itemLinks.contains(href), qPrintable(itemLinks.join(u' ')));
        QCOMPARE(browser.get(follow(follow(root, QStringLiteral("item-1.html")), href)).status,
                 200);
    }
    QCOMPARE(browser.get(follow(root, QStringLiteral("index.html"))).body, index.body);
}

void tst_WebsiteTool::redirectsTheRootToItsSlashedForm()
{
    const QString root = productSite();
    QVERIFY(root.endsWith(QLatin1Char('/')));
    HttpClient browser;
    const auto r = browser.get(root.chopped(1));
    QCOMPARE(r.status, 308);
    QCOMPARE(QString::fromUtf8(r.header("location")), QUrl(root).path());
}

void tst_WebsiteTool::refusesLinksThatDoNotHold_data()
{
    QTest::addColumn<QString>("how");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::newRow("a forged signature is refused as invalid") << "forged" << 403 << "LINK_INVALID";
    QTest::newRow("another site's token is refused as invalid")
        << "other site" << 403 << "LINK_INVALID";
    QTest::newRow("a token without a time is refused as invalid")
        << "malformed" << 403 << "LINK_INVALID";
    QTest::newRow("an expired token is refused as expired") << "expired" << 403 << "LINK_EXPIRED";
    QTest::newRow("an unknown page is not found") << "unknown" << 404 << "NOT_FOUND";
    QTest::newRow("an encoded path up the tree is not found")
        << "encoded dots" << 404 << "NOT_FOUND";
    QTest::newRow("a path of two dots is not found") << "dots" << 404 << "NOT_FOUND";
}

void tst_WebsiteTool::refusesLinksThatDoNotHold()
{
    QFETCH(QString, how);
    QFETCH(int, status);
    QFETCH(QString, code);
    QString siteId;
    const QString root = productSite(&siteId);
    QVERIFY(!root.isEmpty());
    const QString base = root.left(root.indexOf(QLatin1String("/storage/")));
    const QString token = root.section(QLatin1Char('/'), -2, -2);
    QString url;
    if (how == QLatin1String("forged")) {
        QString t = token;
        t[t.size() - 1] = t.back() == QLatin1Char('0') ? QLatin1Char('1') : QLatin1Char('0');
        url = QStringLiteral("%1/storage/sites/%2/%3/style.css").arg(base, siteId, t);
    } else if (how == QLatin1String("other site")) {
        QString otherId;
        productSite(&otherId);
        url = QStringLiteral("%1/storage/sites/%2/%3/style.css").arg(base, otherId, token);
    } else if (how == QLatin1String("malformed")) {
        url = QStringLiteral("%1/storage/sites/%2/%3/style.css")
                  .arg(base, siteId, token.section(QLatin1Char('.'), 1));
    } else if (how == QLatin1String("expired")) {
        const qint64 past = QDateTime::currentMSecsSinceEpoch() - 1000;
        url = base + m_ph->service().store().objects().signedSitePath(siteId, past) +
              QStringLiteral("style.css");
    } else if (how == QLatin1String("unknown")) {
        url = root + QStringLiteral("nope.html");
    } else if (how == QLatin1String("encoded dots")) {
        url = root + QStringLiteral("..%2F..%2F..%2Fstyle.css");
    }
    HttpResponse r;
    if (how == QLatin1String("dots")) {
        // Sent as written: an HTTP client library would resolve the dots itself.
        const QByteArray path = QUrl(root).path().toUtf8() + "..";
        const QByteArray raw = HttpClient::raw(
            m_ph->port(),
            "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        QVERIFY2(raw.startsWith("HTTP/1.1 404"), raw.left(200).constData());
        QVERIFY2(raw.contains("\"NOT_FOUND\""), raw.constData());
        return;
    }
    r = HttpClient().get(url);
    QCOMPARE(r.status, status);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QVERIFY(!r.body.contains("table{"));
}

void tst_WebsiteTool::writesAPagePerSectionSheetAndPage()
{
    ToolHarness h(*m_ph);
    h.context().addSheet(data::Sheet::fromObjects(
        QStringLiteral("Stock"),
        QJsonDocument::fromJson(R"([{"sku":"R-10","count":4},{"sku":"F-1","count":0}])").array(),
        {QStringLiteral("sku"), QStringLiteral("count")}));
    const engine::ToolResult r =
        h.run(QStringLiteral("generate_websites"),
              {{QStringLiteral("title"), QStringLiteral("Harbour")},
               {QStringLiteral("data"),
                QJsonObject{{QStringLiteral("shop"), QStringLiteral("Harbour Supplies")},
                            {QStringLiteral("products"), productRows()},
                            {QStringLiteral("tags"), QJsonArray{QStringLiteral("rope")}}}},
               {QStringLiteral("sheets"), QJsonArray{QStringLiteral("stock")}},
               {QStringLiteral("pages"),
                QJsonArray{QJsonObject{
                    {QStringLiteral("title"), QStringLiteral("About us")},
                    {QStringLiteral("markdown"), QStringLiteral("We sell *rope* since 1887.")}}}}});
    QVERIFY2(r.ok, qPrintable(r.error));
    const QString root = h.downloadUrl(h.context().files().first());
    HttpClient browser;
    const auto index = browser.get(root);
    QCOMPARE(index.status, 200);
    const QString html = QString::fromUtf8(index.body);
    QVERIFY2(html.contains(QLatin1String("<dt>shop</dt><dd>Harbour Supplies</dd>")),
             qPrintable(html));
    QVERIFY2(html.contains(QLatin1String("<li>rope</li>")), qPrintable(html));
    const QStringList hrefs = links(index.body);
    for (const QString &page : {QStringLiteral("products.html"), QStringLiteral("stock.html"),
                                QStringLiteral("about-us.html")})
        QVERIFY2(hrefs.contains(page), qPrintable(hrefs.join(u' ')));
    const auto products = browser.get(follow(root, QStringLiteral("products.html")));
    QCOMPARE(products.status, 200);
    QVERIFY(products.body.contains("Fender"));
    QVERIFY(links(products.body).contains(QStringLiteral("products-2.html")));
    const auto fender = browser.get(follow(root, QStringLiteral("products-2.html")));
    QVERIFY2(fender.body.contains("<h1>Fender</h1>"), fender.body.constData());
    QVERIFY(links(fender.body).contains(QStringLiteral("products.html")));
    const auto stock = browser.get(follow(root, QStringLiteral("stock.html")));
    QCOMPARE(stock.status, 200);
    // The sheet's own column order.
    QVERIFY2(stock.body.contains("<th>sku</th><th>count</th>"), stock.body.constData());
    QVERIFY(stock.body.contains("R-10"));
    const auto about = browser.get(follow(root, QStringLiteral("about-us.html")));
    QCOMPARE(about.status, 200);
    QVERIFY2(about.body.contains("since 1887"), about.body.constData());
}

void tst_WebsiteTool::splitsMarkdownAloneIntoSectionPages()
{
    ToolHarness h(*m_ph);
    const engine::ToolResult r = h.run(
        QStringLiteral("generate_websites"),
        {{QStringLiteral("title"), QStringLiteral("Harbour")},
         {QStringLiteral("markdown"),
          QStringLiteral("Welcome aboard.\n\n## Opening hours\n\nMonday to Friday, 9 to 5.\n\n"
                         "## Contact\n\nCall us <b>any</b> time.\n")}});
    QVERIFY2(r.ok, qPrintable(r.error));
    const QString root = h.downloadUrl(h.context().files().first());
    HttpClient browser;
    const auto index = browser.get(root);
    QVERIFY2(index.body.contains("Welcome aboard."), index.body.constData());
    QVERIFY(!index.body.contains("Monday to Friday"));
    const auto hours = browser.get(follow(root, QStringLiteral("opening-hours.html")));
    QCOMPARE(hours.status, 200);
    QVERIFY(hours.body.contains("Monday to Friday, 9 to 5."));
    const auto contact = browser.get(follow(root, QStringLiteral("contact.html")));
    QCOMPARE(contact.status, 200);
    // HTML written in the markdown is not carried into the page.
    QVERIFY2(!contact.body.contains("<b>any</b>"), contact.body.constData());
    // Every page names the others.
    QVERIFY(links(contact.body).contains(QStringLiteral("opening-hours.html")));
}

void tst_WebsiteTool::failsWithNothingToShow()
{
    ToolHarness h(*m_ph);
    const engine::ToolResult r = h.run(QStringLiteral("generate_websites"),
                                       {{QStringLiteral("title"), QStringLiteral("x")}});
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("needs data")), qPrintable(r.error));
    QVERIFY(h.context().files().isEmpty());
    const engine::ToolResult missing =
        h.run(QStringLiteral("generate_websites"),
              {{QStringLiteral("title"), QStringLiteral("x")},
               {QStringLiteral("sheets"), QJsonArray{QStringLiteral("nope")}}});
    QVERIFY(!missing.ok);
    QVERIFY2(missing.error.contains(QLatin1String("no sheet nope")), qPrintable(missing.error));
}

void tst_WebsiteTool::buildsASiteOfARunThroughTheRulePlanner()
{
    HttpClient c = m_ph->client();
    const auto response = c.post(
        QStringLiteral("/agent"),
        {{QStringLiteral("input"), QStringLiteral("List every product with its name and price")},
         {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/shop"))}},
         {QStringLiteral("schema"),
          QJsonDocument::fromJson(
              R"json({"type":"object","properties":{"products":{"type":"array","items":{
        "type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}}}}}})json")
              .object()},
         {QStringLiteral("tools"), QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                                QJsonArray{QStringLiteral("generate_websites")}}}},
         {QStringLiteral("response"),
          QJsonObject{{QStringLiteral("verbosity"), QStringLiteral("steps")}}}});
    QCOMPARE(response.status, 200);
    const QJsonObject r = response.json();
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonObject metadata = r.value(QStringLiteral("metadata")).toObject();
    QCOMPARE(metadata.value(QStringLiteral("planner")).toString(), QStringLiteral("rule"));
    QVERIFY(metadata.value(QStringLiteral("toolsUsed"))
                .toArray()
                .contains(QStringLiteral("generate_websites")));
    const QJsonArray steps = r.value(QStringLiteral("steps")).toArray();
    const QJsonObject last = steps.last().toObject();
    QCOMPARE(last.value(QStringLiteral("toolName")).toString(),
             QStringLiteral("generate_websites"));
    QCOMPARE(last.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(last.value(QStringLiteral("hasGeneratedContent")).toBool());
    QCOMPARE(last.value(QStringLiteral("creditsUsed")).toDouble(), 0.0);
    for (const QJsonValue &s : steps)
        if (s.toObject().value(QStringLiteral("toolName")).toString() !=
            QLatin1String("generate_websites"))
            QVERIFY(!s.toObject().value(QStringLiteral("hasGeneratedContent")).toBool());
    // One page was loaded (the shop, 1 credit, and its browser time); the site adds none.
    const double credits = r[QStringLiteral("usage")][QStringLiteral("creditsUsed")].toDouble();
    QVERIFY2(credits >= 1.0 && credits < 2.0, qPrintable(QString::number(credits)));

    const QJsonArray files = metadata.value(QStringLiteral("generatedFiles")).toArray();
    QCOMPARE(files.size(), 1);
    const QJsonObject file = files.first().toObject();
    QCOMPARE(file.value(QStringLiteral("tool")).toString(), QStringLiteral("generate_websites"));
    QCOMPARE(file.value(QStringLiteral("contentType")).toString(),
             QStringLiteral("text/html; charset=utf-8"));
    const QString root = file.value(QStringLiteral("downloadUrl")).toString();
    QVERIFY2(root.contains(QLatin1String("/storage/sites/")) && root.endsWith(QLatin1Char('/')),
             qPrintable(root));
    // The schema's one list is the home page's table, a page per product.
    HttpClient browser;
    const auto index = browser.get(root);
    QCOMPARE(index.status, 200);
    QVERIFY2(index.body.contains("<h2>products</h2>"), index.body.constData());
    for (const char *name : {"Rope, 10 m", "Fender", "Anchor"})
        QVERIFY2(index.body.contains(name), index.body.constData());
    QVERIFY(index.body.contains("1299"));
    const auto anchor = browser.get(follow(root, QStringLiteral("item-3.html")));
    QCOMPARE(anchor.status, 200);
    QVERIFY2(anchor.body.contains("<h1>Anchor</h1>"), anchor.body.constData());
    QCOMPARE(browser.get(follow(root, QStringLiteral("style.css"))).status, 200);
}

PH_WEBENGINE_TEST_MAIN(tst_WebsiteTool)
#include "tst_websitetool.moc"
