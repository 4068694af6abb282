// POST /scrape end to end: the real service on port 0, real QtWebEngine pages, a
// fixture site served on loopback by this test.
#include "Engines.h"
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserPool.h"
#include "core/RequestLog.h"
#include "core/Store.h"
#include "http/HttpServer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSqlQuery>
#include <QStringEncoder>

using namespace ph;
using namespace ph::test;

namespace {

const QByteArray kTable = R"(<!doctype html><html lang="en"><head><title>Price list</title></head>
<body><main id="main"><h1>Price list</h1>
<table><caption>Fruit</caption><thead><tr><th>Name</th><th>Price</th></tr></thead>
<tbody><tr><td>Apple</td><td>1.20</td></tr><tr><td>Pear</td><td>2.50</td></tr></tbody></table>
</main><footer><p>Footer text</p></footer></body></html>)";

const QByteArray kForm = R"(<!doctype html><html><head><title>Sign up</title></head><body>
<form aria-label="Sign up">
  <label for="email">Email</label><input id="email" type="email" required value="a@b.c">
  <label>Password <input type="password" value="hunter2"></label>
  <label><input type="checkbox" checked> Subscribe</label>
  <label><input type="radio" name="plan"> Basic</label>
  <label for="country">Country</label>
  <select id="country"><option>France</option><option selected>Germany</option></select>
  <textarea aria-label="Comment">Hello</textarea>
  <button type="submit" disabled>Create account</button>
</form></body></html>)";

const QByteArray kAria = R"(<!doctype html><html><head><title>Widgets</title></head><body>
<nav aria-label="Primary"><a href="/one">One</a></nav>
<h2>Settings</h2><h3 aria-level="4">Deep</h3>
<div role="tablist"><div role="tab" aria-selected="true">General</div><div role="tab" aria-selected="false">Advanced</div></div>
<button aria-expanded="false" aria-controls="menu">Menu</button>
<button aria-pressed="true">Bold</button>
<div role="checkbox" aria-checked="mixed" tabindex="0">Partial</div>
<div aria-hidden="true"><button>Hidden by ARIA</button></div>
<div style="display:none"><button>Hidden by CSS</button></div>
<div role="alert">Saved</div>
</body></html>)";

const QByteArray kLinks = R"(<!doctype html><html><head><title>Links</title></head><body>
<a href="/table">Table page</a> <a href="https://example.org/ext">External</a>
<a href="relative/path?q=1">Relative</a> <a href="javascript:void 0">Script link</a>
<a>No href</a></body></html>)";

const QByteArray kCookieWriter = R"(<!doctype html><title>w</title><script>
document.cookie = 'session=abc; max-age=3600'; localStorage.setItem('secret', 'v');
</script><p>written</p>)";

const QByteArray kCookieReader = R"(<!doctype html><title>r</title><body><p id=o></p><script>
document.getElementById('o').textContent = 'cookie=[' + document.cookie + '] storage=[' +
  (localStorage.getItem('secret') || '') + ']';
</script></body>)";

QByteArray latin1Page()
{
    // windows-1252 bytes: é ï – € are single bytes that are not UTF-8.
    const QString html = QStringLiteral(
        "<!doctype html><html><head><meta charset=\"windows-1252\"><title>Caf\u00e9</title></head>"
        "<body><p>Caf\u00e9 na\u00efve \u2013 5 \u20ac</p></body></html>");
    QStringEncoder encoder("windows-1252");
    return encoder.encode(html);
}

QByteArray shiftJisPage()
{
    const QString html =
        QStringLiteral("<!doctype html><html><head><title>\u65e5\u672c\u8a9e</title></head>"
                       "<body><p>\u3053\u3093\u306b\u3061\u306f\u4e16\u754c</p></body></html>");
    QStringEncoder encoder("Shift_JIS");
    return encoder.encode(html);
}

// Finds the first node (depth first) with `role` and, if given, `name`.
QJsonObject findNode(const QJsonObject &node, const QString &role, const QString &name = {})
{
    if (node.value(QStringLiteral("role")).toString() == role &&
        (name.isEmpty() || node.value(QStringLiteral("name")).toString() == name))
        return node;
    for (const auto &child : node.value(QStringLiteral("children")).toArray()) {
        const QJsonObject found = findNode(child.toObject(), role, name);
        if (!found.isEmpty())
            return found;
    }
    return {};
}

bool containsName(const QJsonObject &node, const QString &name)
{
    if (node.value(QStringLiteral("name")).toString().contains(name))
        return true;
    for (const auto &child : node.value(QStringLiteral("children")).toArray()) {
        if (containsName(child.toObject(), name))
            return true;
    }
    return false;
}

} // namespace

class tst_Scrape : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase_data();
    void initTestCase();
    void init();
    void cleanupTestCase();
    void readsATable();
    void readsAFormWithLabelledInputs();
    void readsAriaRolesAndStates();
    void readsLinksAndTheElementLinkRecord();
    void followsARedirect();
    void reportsA404WithItsContent();
    void timesOutAPageThatNeverFinishesWithoutFailingTheOthers();
    void decodesANonUtf8Page_data();
    void decodesANonUtf8Page();
    void refusesNonHtmlContent_data();
    void refusesNonHtmlContent();
    void reportsADnsFailure();
    void writesMarkdown();
    void capsAndScopesTheTree();
    void loadsUrlsInParallel();
    void isolatesOneRequestFromTheNext();
    void rejectsBadInput_data();
    void rejectsBadInput();
    void refusesAPrivateTargetWhenThePolicyIsOff();
    void reportsUsageAndRefusesAnEmptyBalance();
    void answers429WhenThePoolIsFull();
    void answers429OverTheKeysConcurrencyLimit();
    void feedsMoreUrlsThanThePoolHoldsAWaveAtATime();
    void cancelsWhenTheClientLeaves();
    void storesWebhooksWithTheirSecretsSealed();
    void letsARequestPickTheOtherEngine();
    void refusesAnEngineThatCannotServe();

private:
    HttpResponse scrape(const QJsonObject &body);
    QJsonObject scrapeOne(const QString &path, QJsonObject options = {});

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
};

void tst_Scrape::initTestCase_data()
{
    ph::test::addEngineRows();
}

void tst_Scrape::init()
{
    PH_USE_ROW_ENGINE(m_ph.get());
}

void tst_Scrape::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/table", kTable);
    m_site.page("/engine", "<!doctype html><title>engine</title><p id=o>?</p><script>"
                           "document.getElementById('o').textContent = 'has() ' + "
                           "CSS.supports('selector(:has(a))');</script>");
    m_site.page("/form", kForm);
    m_site.page("/aria", kAria);
    m_site.page("/links", kLinks);
    m_site.page("/write", kCookieWriter);
    m_site.page("/read", kCookieReader);
    m_site.route("/redirect", [](const FixtureRequest &) {
        FixtureResponse r;
        r.status = 302;
        r.headers = {{"Location", "/table"}};
        return r;
    });
    m_site.route("/hang", [](const FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>never</title><p>partial");
        r.hang = true;
        return r;
    });
    m_site.route("/slow", [](const FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>slow</title><p>slow page</p>");
        r.delayMs = 1200;
        return r;
    });
    m_site.route("/together", [this](const FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>together</title><p>side by side</p>");
        r.holdUntilHits = (m_site.hits("/together") + 2) / 3 * 3; // the rest of its three
        return r;
    });
    m_site.route("/latin1", [](const FixtureRequest &) {
        return FixtureResponse::html(latin1Page(), "windows-1252");
    });
    m_site.route("/sjis", [](const FixtureRequest &) {
        return FixtureResponse::html(shiftJisPage(), "Shift_JIS");
    });
    m_site.route("/doc.pdf", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "application/pdf"}};
        r.body = "%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
        return r;
    });
    m_site.route("/image.png", [](const FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "image/png"}};
        r.body = QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42m"
                                        "Nk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
        return r;
    });
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_Scrape::cleanupTestCase()
{
    m_ph.reset();
}

HttpResponse tst_Scrape::scrape(const QJsonObject &body)
{
    HttpClient c = m_ph->client();
    return c.post(QStringLiteral("/scrape"), body);
}

QJsonObject tst_Scrape::scrapeOne(const QString &path, QJsonObject options)
{
    options.insert(QStringLiteral("urls"), QJsonArray{m_site.url(path)});
    const auto r = scrape(options);
    r.expectStatus({200}, __FILE__, __LINE__);
    return r.json().value(QStringLiteral("results")).toArray().at(0).toObject();
}

void tst_Scrape::readsATable()
{
    const QJsonObject r = scrapeOne(QStringLiteral("/table"));
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r.value(QStringLiteral("httpStatus")).toInt(), 200);
    QCOMPARE(r.value(QStringLiteral("title")).toString(), QStringLiteral("Price list"));
    const QString text = r.value(QStringLiteral("text")).toString();
    QVERIFY2(text.contains(QLatin1String("Apple\t1.20")), qPrintable(text));
    const QJsonObject tree = r.value(QStringLiteral("accessibilityTree")).toObject();
    QCOMPARE(tree.value(QStringLiteral("role")).toString(), QStringLiteral("document"));
    const QJsonObject table = findNode(tree, QStringLiteral("table"));
    QCOMPARE(table.value(QStringLiteral("name")).toString(), QStringLiteral("Fruit"));
    QVERIFY(!findNode(table, QStringLiteral("columnheader"), QStringLiteral("Price")).isEmpty());
    QVERIFY(!findNode(table, QStringLiteral("cell"), QStringLiteral("2.50")).isEmpty());
    QVERIFY(!findNode(table, QStringLiteral("row"), QStringLiteral("Pear 2.50")).isEmpty());
    const QJsonObject heading = findNode(tree, QStringLiteral("heading"));
    QCOMPARE(heading.value(QStringLiteral("level")).toInt(), 1);
    QVERIFY(heading.value(QStringLiteral("id")).toString().startsWith(QLatin1Char('e')));
    QVERIFY(!findNode(tree, QStringLiteral("contentinfo")).isEmpty());
    QCOMPARE(r.value(QStringLiteral("accessibility"))
                 .toObject()
                 .value(QStringLiteral("truncated"))
                 .toBool(),
             false);
}

void tst_Scrape::readsAFormWithLabelledInputs()
{
    const QJsonObject r = scrapeOne(QStringLiteral("/form"));
    const QJsonObject tree = r.value(QStringLiteral("accessibilityTree")).toObject();
    const QJsonObject form = findNode(tree, QStringLiteral("form"), QStringLiteral("Sign up"));
    QVERIFY(!form.isEmpty());
    const QJsonObject email = findNode(tree, QStringLiteral("textbox"), QStringLiteral("Email"));
    QVERIFY(!email.isEmpty());
    QCOMPARE(email.value(QStringLiteral("required")).toBool(), true);
    QCOMPARE(email.value(QStringLiteral("value")).toString(), QStringLiteral("a@b.c"));
    const QJsonObject password =
        findNode(tree, QStringLiteral("textbox"), QStringLiteral("Password"));
    QVERIFY(!password.isEmpty());
    QVERIFY(!password.contains(QStringLiteral("value"))); // never read back
    QVERIFY(!r.value(QStringLiteral("text")).toString().contains(QLatin1String("hunter2")));
    QCOMPARE(findNode(tree, QStringLiteral("checkbox"), QStringLiteral("Subscribe"))
                 .value(QStringLiteral("checked"))
                 .toBool(),
             true);
    QCOMPARE(findNode(tree, QStringLiteral("radio"), QStringLiteral("Basic"))
                 .value(QStringLiteral("checked"))
                 .toBool(true),
             false);
    QCOMPARE(findNode(tree, QStringLiteral("combobox"), QStringLiteral("Country"))
                 .value(QStringLiteral("value"))
                 .toString(),
             QStringLiteral("Germany"));
    QCOMPARE(findNode(tree, QStringLiteral("textbox"), QStringLiteral("Comment"))
                 .value(QStringLiteral("value"))
                 .toString(),
             QStringLiteral("Hello"));
    QCOMPARE(findNode(tree, QStringLiteral("button"), QStringLiteral("Create account"))
                 .value(QStringLiteral("disabled"))
                 .toBool(),
             true);
    // Every form control is in the element record under its tree id.
    const QJsonObject record = r.value(QStringLiteral("elementLinkRecord")).toObject();
    const QJsonObject entry = record.value(email.value(QStringLiteral("id")).toString()).toObject();
    QCOMPARE(entry.value(QStringLiteral("role")).toString(), QStringLiteral("textbox"));
    QCOMPARE(entry.value(QStringLiteral("text")).toString(), QStringLiteral("Email"));
    QCOMPARE(entry.value(QStringLiteral("type")).toString(), QStringLiteral("email"));
}

void tst_Scrape::readsAriaRolesAndStates()
{
    const QJsonObject r =
        scrapeOne(QStringLiteral("/aria"),
                  {{QStringLiteral("formats"), QJsonArray{QStringLiteral("accessibilityTree"),
                                                          QStringLiteral("ariaSnapshot")}}});
    const QJsonObject tree = r.value(QStringLiteral("accessibilityTree")).toObject();
    QVERIFY(!findNode(tree, QStringLiteral("navigation"), QStringLiteral("Primary")).isEmpty());
    QCOMPARE(findNode(tree, QStringLiteral("heading"), QStringLiteral("Settings"))
                 .value(QStringLiteral("level"))
                 .toInt(),
             2);
    QCOMPARE(findNode(tree, QStringLiteral("heading"), QStringLiteral("Deep"))
                 .value(QStringLiteral("level"))
                 .toInt(),
             4);
    QCOMPARE(findNode(tree, QStringLiteral("tab"), QStringLiteral("General"))
                 .value(QStringLiteral("selected"))
                 .toBool(),
             true);
    QCOMPARE(findNode(tree, QStringLiteral("tab"), QStringLiteral("Advanced"))
                 .value(QStringLiteral("selected"))
                 .toBool(true),
             false);
    QCOMPARE(findNode(tree, QStringLiteral("button"), QStringLiteral("Menu"))
                 .value(QStringLiteral("expanded"))
                 .toBool(true),
             false);
    QCOMPARE(findNode(tree, QStringLiteral("button"), QStringLiteral("Bold"))
                 .value(QStringLiteral("pressed"))
                 .toBool(),
             true);
    QCOMPARE(findNode(tree, QStringLiteral("checkbox"), QStringLiteral("Partial"))
                 .value(QStringLiteral("checked"))
                 .toString(),
             QStringLiteral("mixed"));
    // An alert takes no name from its content; its text is its child.
    const QJsonObject alert = findNode(tree, QStringLiteral("alert"));
    QVERIFY(!alert.isEmpty());
    QVERIFY(containsName(alert, QStringLiteral("Saved")));
    QVERIFY(!containsName(tree, QStringLiteral("Hidden by ARIA")));
    QVERIFY(!containsName(tree, QStringLiteral("Hidden by CSS")));
    const QString aria = r.value(QStringLiteral("ariaSnapshot")).toString();
    QVERIFY2(aria.contains(QLatin1String("- tab \"General\" [selected]")), qPrintable(aria));
    QVERIFY2(aria.contains(QLatin1String("- checkbox \"Partial\" [checked=mixed]")),
             qPrintable(aria));
    QVERIFY(!r.contains(QStringLiteral("text"))); // only the formats asked for
}

void tst_Scrape::readsLinksAndTheElementLinkRecord()
{
    const QJsonObject r = scrapeOne(QStringLiteral("/links"));
    const QJsonArray links = r.value(QStringLiteral("links")).toArray();
    QStringList hrefs;
    for (const auto &l : links)
        hrefs << l.toObject().value(QStringLiteral("href")).toString();
    QCOMPARE(hrefs, (QStringList{m_site.url(QStringLiteral("/table")),
                                 QStringLiteral("https://example.org/ext"),
                                 m_site.url(QStringLiteral("/relative/path?q=1"))}));
    const QJsonObject first = links.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("text")).toString(), QStringLiteral("Table page"));
    const QJsonObject record = r.value(QStringLiteral("elementLinkRecord")).toObject();
    const QJsonObject entry = record.value(first.value(QStringLiteral("id")).toString()).toObject();
    QCOMPARE(entry.value(QStringLiteral("role")).toString(), QStringLiteral("link"));
    QCOMPARE(entry.value(QStringLiteral("href")).toString(), m_site.url(QStringLiteral("/table")));
    QCOMPARE(entry.value(QStringLiteral("text")).toString(), QStringLiteral("Table page"));
}

void tst_Scrape::followsARedirect()
{
    const QJsonObject r = scrapeOne(QStringLiteral("/redirect"));
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r.value(QStringLiteral("url")).toString(), m_site.url(QStringLiteral("/redirect")));
    QCOMPARE(r.value(QStringLiteral("finalUrl")).toString(), m_site.url(QStringLiteral("/table")));
    QCOMPARE(r.value(QStringLiteral("redirected")).toBool(), true);
    QCOMPARE(r.value(QStringLiteral("title")).toString(), QStringLiteral("Price list"));
}

void tst_Scrape::reportsA404WithItsContent()
{
    const QJsonObject r = scrapeOne(QStringLiteral("/missing"));
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    const QJsonObject error = r.value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("HTTP_STATUS"));
    QCOMPARE(error.value(QStringLiteral("httpStatus")).toInt(), 404);
    QCOMPARE(r.value(QStringLiteral("httpStatus")).toInt(), 404);
    QVERIFY(r.value(QStringLiteral("text")).toString().contains(QLatin1String("Not found")));
}

void tst_Scrape::timesOutAPageThatNeverFinishesWithoutFailingTheOthers()
{
    // The limit is each page's: long enough for a small page on a busy machine (1.5 s was
    // not, beside a build), while /hang never finishes whatever the limit.
    const auto resp =
        scrape({{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table")),
                                                    m_site.url(QStringLiteral("/hang")),
                                                    m_site.url(QStringLiteral("/form"))}},
                {QStringLiteral("timeoutMs"), 5000}});
    QCOMPARE(resp.status, 200);
    const QJsonObject body = resp.json();
    QCOMPARE(body.value(QStringLiteral("status")).toString(), QStringLiteral("partial"));
    QCOMPARE(body.value(QStringLiteral("success")).toBool(true), false);
    const QJsonArray results = body.value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 3);
    QCOMPARE(results[0].toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("success"));
    QCOMPARE(results[1]
                 .toObject()
                 .value(QStringLiteral("error"))
                 .toObject()
                 .value(QStringLiteral("code"))
                 .toString(),
             QStringLiteral("TIMEOUT"));
    QCOMPARE(results[2].toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("success"));
}

void tst_Scrape::decodesANonUtf8Page_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("charset");
    QTest::newRow("decodes windows-1252")
        << "/latin1" << QStringLiteral("Caf\u00e9 na\u00efve \u2013 5 \u20ac") << "windows-1252";
    QTest::newRow("decodes Shift_JIS")
        << "/sjis" << QStringLiteral("\u3053\u3093\u306b\u3061\u306f\u4e16\u754c") << "Shift_JIS";
}

void tst_Scrape::decodesANonUtf8Page()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    QFETCH(QString, charset);
    const QJsonObject r = scrapeOne(path);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r.value(QStringLiteral("text")).toString().trimmed(), expected);
    QCOMPARE(r.value(QStringLiteral("charset")).toString(), charset);
}

void tst_Scrape::refusesNonHtmlContent_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("type");
    QTest::newRow("refuses a PDF") << "/doc.pdf"
                                   << "application/pdf";
    QTest::newRow("refuses an image") << "/image.png"
                                      << "image/png";
}

void tst_Scrape::refusesNonHtmlContent()
{
    QFETCH(QString, path);
    QFETCH(QString, type);
    const QJsonObject r = scrapeOne(path);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    const QJsonObject error = r.value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toString(), QStringLiteral("NON_HTML"));
    QCOMPARE(error.value(QStringLiteral("contentType")).toString(), type);
}

void tst_Scrape::reportsADnsFailure()
{
    // *.invalid is mapped to "not found" in Chromium by the test main: no DNS traffic.
    const auto resp = scrape(
        {{QStringLiteral("urls"), QJsonArray{QStringLiteral("http://no-such-host.invalid/")}}});
    const QJsonObject r = resp.json().value(QStringLiteral("results")).toArray().at(0).toObject();
    QCOMPARE(r.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
             QStringLiteral("DNS_FAILURE"));
}

void tst_Scrape::writesMarkdown()
{
    const QJsonObject r =
        scrapeOne(QStringLiteral("/table"),
                  {{QStringLiteral("formats"), QJsonArray{QStringLiteral("markdown")}}});
    const QString md = r.value(QStringLiteral("markdown")).toString();
    QVERIFY2(md.contains(QLatin1String("# Price list")), qPrintable(md));
    QVERIFY2(md.contains(QLatin1String("| Apple | 1.20 |")), qPrintable(md));
    QVERIFY(!r.contains(QStringLiteral("accessibilityTree")));
    // Links in markdown are absolute, though Readability works on a detached copy.
    const QString links =
        scrapeOne(QStringLiteral("/links"),
                  {{QStringLiteral("formats"), QJsonArray{QStringLiteral("markdown")}}})
            .value(QStringLiteral("markdown"))
            .toString();
    QVERIFY2(links.contains(
                 QStringLiteral("[Table page](%1)").arg(m_site.url(QStringLiteral("/table")))),
             qPrintable(links));
    QVERIFY2(
        links.contains(
            QStringLiteral("[Relative](%1)").arg(m_site.url(QStringLiteral("/relative/path?q=1")))),
        qPrintable(links));
}

void tst_Scrape::capsAndScopesTheTree()
{
    const QJsonObject capped = scrapeOne(
        QStringLiteral("/table"),
        {{QStringLiteral("accessibilityTree"), QJsonObject{{QStringLiteral("maxNodes"), 4}}}});
    const QJsonObject info = capped.value(QStringLiteral("accessibility")).toObject();
    QCOMPARE(info.value(QStringLiteral("truncated")).toBool(), true);
    QCOMPARE(info.value(QStringLiteral("nodeCount")).toInt(), 4);
    QCOMPARE(info.value(QStringLiteral("maxNodes")).toInt(), 4);
    const QJsonObject scoped =
        scrapeOne(QStringLiteral("/table"),
                  {{QStringLiteral("accessibilityTree"),
                    QJsonObject{{QStringLiteral("scope"), QStringLiteral("table")}}}});
    const QJsonObject tree = scoped.value(QStringLiteral("accessibilityTree")).toObject();
    QCOMPARE(tree.value(QStringLiteral("children")).toArray().size(), 1);
    QCOMPARE(tree.value(QStringLiteral("children"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("role"))
                 .toString(),
             QStringLiteral("table"));
    QVERIFY(!containsName(tree, QStringLiteral("Footer text")));
    QCOMPARE(scoped.value(QStringLiteral("accessibility"))
                 .toObject()
                 .value(QStringLiteral("scopeMatches"))
                 .toInt(),
             1);
}

void tst_Scrape::loadsUrlsInParallel()
{
    // /together answers no request before all three have arrived: loaded one after the
    // other, the first page would never finish. How fast: bench/timing.
    const int before = m_site.hits("/together");
    const auto resp =
        scrape({{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/together?a")),
                                                    m_site.url(QStringLiteral("/together?b")),
                                                    m_site.url(QStringLiteral("/together?c"))}}});
    QCOMPARE(resp.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(m_site.hits("/together") - before, 3);
}

void tst_Scrape::isolatesOneRequestFromTheNext()
{
    QCOMPARE(scrapeOne(QStringLiteral("/write")).value(QStringLiteral("status")).toString(),
             QStringLiteral("success"));
    const QJsonObject r = scrapeOne(QStringLiteral("/read"));
    QCOMPARE(r.value(QStringLiteral("text")).toString().trimmed(),
             QStringLiteral("cookie=[] storage=[]"));
}

void tst_Scrape::rejectsBadInput_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    QJsonArray many;
    for (int i = 0; i < 1000; ++i)
        many.append(QStringLiteral("http://127.0.0.1/%1").arg(i));
    const QByteArray manyBody =
        QJsonDocument(QJsonObject{{QStringLiteral("urls"), many}}).toJson(QJsonDocument::Compact);
    QTest::newRow("rejects a body without urls") << QByteArray("{}") << "MISSING_FIELD"
                                                 << "urls";
    QTest::newRow("rejects urls that is not an array")
        << QByteArray(R"({"urls":"http://a.example/"})") << "INVALID_FIELD"
        << "urls";
    QTest::newRow("rejects a url that is not a string")
        << QByteArray(R"({"urls":["http://a.example/", 5]})") << "INVALID_FIELD"
        << "urls[1]";
    QTest::newRow("rejects an empty list") << QByteArray(R"({"urls":[]})") << "INVALID_FIELD"
                                           << "urls";
    QTest::newRow("rejects 1,000 URLs, over the cap") << manyBody << "TOO_MANY_URLS"
                                                      << "urls";
    QTest::newRow("rejects a file: URL")
        << QByteArray(R"({"urls":["file:///etc/passwd"]})") << "UNSUPPORTED_SCHEME"
        << "urls[0]";
    QTest::newRow("rejects a javascript: URL")
        << QByteArray(R"({"urls":["javascript:alert`1`"]})") << "UNSUPPORTED_SCHEME"
        << "urls[0]";
    QTest::newRow("rejects a URL without a host")
        << QByteArray(R"({"urls":["http://"]})") << "INVALID_FIELD"
        << "urls[0]";
    QTest::newRow("rejects an unknown format")
        << QByteArray(R"({"urls":["http://a.example/"],"formats":["pdf"]})") << "INVALID_FIELD"
        << "formats[0]";
    QTest::newRow("rejects a timeout out of range")
        << QByteArray(R"({"urls":["http://a.example/"],"timeoutMs":1000000})") << "INVALID_FIELD"
        << "timeoutMs";
    QTest::newRow("rejects a tree cap of the wrong type")
        << QByteArray(R"({"urls":["http://a.example/"],"accessibilityTree":{"maxNodes":"9"}})")
        << "INVALID_FIELD"
        << "accessibilityTree.maxNodes";
    QTest::newRow("rejects an unknown waitUntil")
        << QByteArray(R"({"urls":["http://a.example/"],"waitUntil":"idle"})") << "INVALID_FIELD"
        << "waitUntil";
    QTest::newRow("rejects a plain-http public webhook")
        << QByteArray(R"({"urls":["http://a.example/"],"webhookUrl":"http://hooks.example/x"})")
        << "INVALID_FIELD"
        << "webhookUrl";
    QTest::newRow("rejects a webhook event it does not know")
        << QByteArray(
               R"({"urls":["http://a.example/"],"webhooks":[{"url":"https://h.example/","events":["nope"]}]})")
        << "INVALID_FIELD"
        << "webhooks[0].events[0]";
    QTest::newRow("rejects malformed JSON") << QByteArray(R"({"urls":[)") << "INVALID_JSON"
                                            << "body";
}

void tst_Scrape::rejectsBadInput()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, code);
    QFETCH(QString, field);
    HttpClient c = m_ph->client();
    const auto r = c.postRaw(QStringLiteral("/scrape"), body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
    QVERIFY(!r.header("x-request-id").isEmpty());
}

void tst_Scrape::refusesAPrivateTargetWhenThePolicyIsOff()
{
    TestService strict({QStringLiteral("network.allowPrivateTargets=false")});
    QVERIFY(strict.ok());
    HttpClient c = strict.client();
    for (const QString &url :
         {m_site.url(QStringLiteral("/table")), QStringLiteral("http://localhost:9/"),
          QStringLiteral("http://[::1]/"), QStringLiteral("http://169.254.169.254/latest")}) {
        const auto r =
            c.post(QStringLiteral("/scrape"), {{QStringLiteral("urls"), QJsonArray{url}}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("PRIVATE_TARGET"));
        QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("urls[0]"));
    }
}

void tst_Scrape::reportsUsageAndRefusesAnEmptyBalance()
{
    const QString key = m_ph->mintKey(1.5);
    QVERIFY(!key.isEmpty());
    HttpClient c(m_ph->base());
    c.setBearer(key);
    const QJsonObject body{
        {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}}};
    const auto first = c.post(QStringLiteral("/scrape"), body);
    QCOMPARE(first.status, 200);
    const QJsonObject usage = first.json().value(QStringLiteral("usage")).toObject();
    QCOMPARE(usage.value(QStringLiteral("pages")).toInt(), 1);
    QVERIFY(usage.value(QStringLiteral("browserMs")).toInt() > 0);
    const double used = usage.value(QStringLiteral("creditsUsed")).toDouble();
    QVERIFY(used > 1.0); // one page plus browser time
    QCOMPARE(usage.value(QStringLiteral("creditsLeft")).toDouble(), 1.5 - used);
    // 1.5 - 1.0x > 0: still allowed once more; that request overdraws the balance.
    QCOMPARE(c.post(QStringLiteral("/scrape"), body).status, 200);
    const auto refused = c.post(QStringLiteral("/scrape"), body);
    QCOMPARE(refused.status, 402);
    QCOMPARE(refused.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("CREDITS_EXHAUSTED"));
    // The owner's key is unlimited.
    const auto owner = scrape(body);
    QVERIFY(owner.json()
                .value(QStringLiteral("usage"))
                .toObject()
                .value(QStringLiteral("creditsLeft"))
                .isNull());
}

void tst_Scrape::answers429WhenThePoolIsFull()
{
    TestService tight({QStringLiteral("pool.size=1"), QStringLiteral("pool.queueLimit=0")});
    QVERIFY(tight.ok());
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(tight.base() + QStringLiteral("/scrape")));
    request.setRawHeader("Authorization", "Bearer " + tight.ownerKey().toUtf8());
    QNetworkReply *busy = nam.post(
        request, QJsonDocument(QJsonObject{{QStringLiteral("urls"),
                                            QJsonArray{m_site.url(QStringLiteral("/hang"))}},
                                           {QStringLiteral("timeoutMs"), 3000}})
                     .toJson());
    QTRY_COMPARE_WITH_TIMEOUT(tight.service().http().inFlight(), 1, 5000);
    HttpClient c = tight.client();
    const auto r =
        c.post(QStringLiteral("/scrape"),
               {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}}});
    QCOMPARE(r.status, 429);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), QStringLiteral("BUSY"));
    QVERIFY(r.header("retry-after").toInt() >= 1);
    QTRY_VERIFY_WITH_TIMEOUT(busy->isFinished(), 10000);
    busy->deleteLater();
    // Once the page is free again, the same request goes through.
    QCOMPARE(c.post(QStringLiteral("/scrape"),
                    {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}}})
                 .status,
             200);
}

void tst_Scrape::answers429OverTheKeysConcurrencyLimit()
{
    // Room in the pool, but this key has its one scrape in flight already.
    TestService limited(
        {QStringLiteral("scrape.maxConcurrentRequestsPerKey=1"), QStringLiteral("pool.size=4")});
    QVERIFY2(limited.ok(), qPrintable(limited.error()));
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(limited.base() + QStringLiteral("/scrape")));
    request.setRawHeader("Authorization", "Bearer " + limited.ownerKey().toUtf8());
    QNetworkReply *first = nam.post(
        request, QJsonDocument(QJsonObject{{QStringLiteral("urls"),
                                            QJsonArray{m_site.url(QStringLiteral("/hang"))}},
                                           {QStringLiteral("timeoutMs"), 3000}})
                     .toJson());
    QTRY_COMPARE_WITH_TIMEOUT(limited.service().http().inFlight(), 1, 5000);
    HttpClient c = limited.client();
    const auto r =
        c.post(QStringLiteral("/scrape"),
               {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}}});
    QCOMPARE(r.status, 429);
    const QJsonObject e = r.json();
    QCOMPARE(e.value(QStringLiteral("code")).toString(), QStringLiteral("BUSY"));
    const QJsonObject details = e.value(QStringLiteral("details")).toObject();
    QCOMPARE(details.value(QStringLiteral("scope")).toString(), QStringLiteral("key"));
    QCOMPARE(details.value(QStringLiteral("limit")).toInt(), 1);
    QCOMPARE(details.value(QStringLiteral("setting")).toString(),
             QStringLiteral("scrape.maxConcurrentRequestsPerKey"));
    QVERIFY(r.header("retry-after").toInt() >= 1);
    QCOMPARE(e.value(QStringLiteral("retryAfter")).toInt(), r.header("retry-after").toInt());
    // Another key is not held back by this one.
    HttpClient other(limited.base());
    other.setBearer(limited.mintKey(100));
    QCOMPARE(other
                 .post(QStringLiteral("/scrape"),
                       {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}}})
                 .status,
             200);
    QTRY_VERIFY_WITH_TIMEOUT(first->isFinished(), 10000);
    first->deleteLater();
    // Once the first is done, the key may scrape again.
    QCOMPARE(c.post(QStringLiteral("/scrape"),
                    {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}}})
                 .status,
             200);
}

void tst_Scrape::feedsMoreUrlsThanThePoolHoldsAWaveAtATime()
{
    // Six URLs, two pages and no queue: the job feeds the pool two at a time.
    TestService small({QStringLiteral("pool.size=2"), QStringLiteral("pool.queueLimit=0")});
    QVERIFY(small.ok());
    QJsonArray urls;
    for (int i = 0; i < 6; ++i)
        urls.append(m_site.url(QStringLiteral("/table?n=%1").arg(i)));
    HttpClient c = small.client();
    const auto r = c.post(QStringLiteral("/scrape"), {{QStringLiteral("urls"), urls}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QJsonArray results = r.json().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 6);
    for (int i = 0; i < 6; ++i)
        QCOMPARE(results[i].toObject().value(QStringLiteral("url")).toString(), urls[i].toString());
    QCOMPARE(
        r.json().value(QStringLiteral("usage")).toObject().value(QStringLiteral("pages")).toInt(),
        6);
}

void tst_Scrape::cancelsWhenTheClientLeaves()
{
    QNetworkAccessManager nam;
    QNetworkRequest request(QUrl(m_ph->base() + QStringLiteral("/scrape")));
    request.setRawHeader("Authorization", "Bearer " + m_ph->ownerKey().toUtf8());
    const int hangsBefore = m_site.hits("/hang");
    QNetworkReply *reply = nam.post(
        request, QJsonDocument(QJsonObject{{QStringLiteral("urls"),
                                            QJsonArray{m_site.url(QStringLiteral("/hang"))}}})
                     .toJson());
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().http().inFlight(), 1, 5000);
    // The page is leased and loading the hanging document: browser time is being spent.
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().pool().stats().busy, 1, 5000);
    QElapsedTimer held; // at most as long as the page has been leased
    held.start();
    QTRY_VERIFY_WITH_TIMEOUT(m_site.hits("/hang") > hangsBefore, 10000);
    const qint64 heldMs = held.elapsed();
    reply->abort();
    reply->deleteLater();
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().http().inFlight(), 0, 5000);
    QTRY_COMPARE(m_ph->service().pool().stats().busy, 0);
    // The request is recorded as cancelled and its browser time was billed.
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral(
        "SELECT r.status, l.browser_ms, l.pages FROM api_requests r JOIN credit_ledger l"
        " ON l.request_id = r.id ORDER BY r.started_at DESC LIMIT 1")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("cancelled"));
    // Billed from the lease to the cancel: at least the time the test saw it held.
    QVERIFY(q.value(1).toLongLong() > 0);
    QVERIFY2(
        q.value(1).toLongLong() >= heldMs,
        qPrintable(
            QStringLiteral("billed %1 ms, held %2 ms").arg(q.value(1).toLongLong()).arg(heldMs)));
    QCOMPARE(q.value(2).toInt(), 1);
}

void tst_Scrape::storesWebhooksWithTheirSecretsSealed()
{
    const QJsonObject body{
        {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}},
        {QStringLiteral("webhookUrl"), QStringLiteral("http://127.0.0.1:9/hook")},
        {QStringLiteral("webhookSecret"), QStringLiteral("whsec_top_secret_1")},
        {QStringLiteral("webhooks"),
         QJsonArray{QJsonObject{
             {QStringLiteral("url"), QStringLiteral("https://hooks.example/x")},
             {QStringLiteral("events"), QJsonArray{QStringLiteral("svc.execution.failed")}},
             {QStringLiteral("secret"), QStringLiteral("whsec_top_secret_2")},
             {QStringLiteral("auth"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("bearer")},
                          {QStringLiteral("token"), QStringLiteral("tok_top_secret_3")}}},
             {QStringLiteral("headers"),
              QJsonObject{{QStringLiteral("X-Env"), QStringLiteral("test")}}}}}}};
    const auto r = scrape(body);
    QCOMPARE(r.status, 200);
    QVERIFY(!r.body.contains("top_secret"));
    const QString requestId = r.json().value(QStringLiteral("requestId")).toString();
    const auto subs = m_ph->service().store().requests().subscriptions(requestId);
    QCOMPARE(subs.size(), 2);
    QCOMPARE(subs[0].url, QStringLiteral("http://127.0.0.1:9/hook"));
    QCOMPARE(subs[0].secret, QStringLiteral("whsec_top_secret_1"));
    QCOMPARE(subs[1].events, QStringList{QStringLiteral("svc.execution.failed")});
    QCOMPARE(subs[1].secret, QStringLiteral("whsec_top_secret_2"));
    QCOMPARE(subs[1].auth.value(QStringLiteral("token")).toString(),
             QStringLiteral("tok_top_secret_3"));
    QCOMPARE(subs[1].headers.value(QStringLiteral("X-Env")).toString(), QStringLiteral("test"));
    // At rest, none of the three secrets is readable.
    QSqlQuery q(m_ph->service().store().database());
    QVERIFY(q.exec(QStringLiteral("SELECT config FROM webhook_subscriptions")));
    while (q.next())
        QVERIFY(!q.value(0).toString().contains(QLatin1String("top_secret")));
}

PH_WEBENGINE_TEST_MAIN(tst_Scrape)
#include "tst_scrape.moc"

void tst_Scrape::letsARequestPickTheOtherEngine()
{
    QFETCH_GLOBAL(QString, engine);
    if (!ph::test::chromiumInstalled())
        QSKIP("chromium is not installed");
    // Asked for the engine the service is not configured with, the request gets it: CSS
    // :has() exists on the current chromium only.
    const QString other = engine == QLatin1String("chromium") ? QStringLiteral("qtwebengine")
                                                              : QStringLiteral("chromium");
    const QJsonObject r =
        scrapeOne(QStringLiteral("/engine"),
                  {{QStringLiteral("browser"), QJsonObject{{QStringLiteral("engine"), other}}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QCOMPARE(r.value(QStringLiteral("text")).toString().trimmed(),
             other == QLatin1String("chromium") ? QStringLiteral("has() true")
                                                : QStringLiteral("has() false"));
}

void tst_Scrape::refusesAnEngineThatCannotServe()
{
    TestService missing({QStringLiteral("browser.chromiumPath=/nonexistent/chromium")});
    QVERIFY(missing.ok());
    HttpClient c = missing.client();
    const auto r =
        c.post(QStringLiteral("/scrape"),
               {{QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/table"))}},
                {QStringLiteral("browser"),
                 QJsonObject{{QStringLiteral("engine"), QStringLiteral("chromium")}}}});
    QCOMPARE(r.status, 503);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("ENGINE_UNAVAILABLE"));
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("browser.engine"));
    // The answer says why (the sentence names the executable that is not there).
    QVERIFY(QJsonDocument(r.json()).toJson().contains("/nonexistent/chromium"));
}
