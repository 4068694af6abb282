// The polyfills of the QtWebEngine pool (docs/decisions.md, "Polyfills in the QtWebEngine
// pool") end to end: the real service on port 0, real QtWebEngine pages, a fixture page on
// loopback whose own script uses built-ins Chromium 102 lacks and writes what it got into
// the DOM, read back through POST /scrape and an agent run; the `browser` object of a
// request and the `browser.polyfills` / `browser.userAgent` settings.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "core/Settings.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>

using namespace ph;
using namespace ph::test;

namespace {

// The page's own script: every line is a built-in the probe (bench/compat) counts, or
// FAILED when the page's world lacks it.
const QByteArray kModern = R"(<!doctype html><html><head><title>Modern</title></head>
<body><main><h1>Modern built-ins</h1><p id="out">not run</p></main><script>
function run(name, f) { try { return name + '=' + f(); } catch (e) { return name + '=FAILED'; } }
document.getElementById('out').textContent = [
  run('toSorted', () => [3, 1, 2].toSorted().join(',')),
  run('groupBy', () => Object.keys(Object.groupBy([1, 2, 3], (x) => (x % 2 ? 'odd' : 'even'))).sort().join(',')),
  run('withResolvers', () => typeof Promise.withResolvers().resolve),
  run('union', () => [...new Set([1]).union(new Set([2]))].join(',')),
  run('iterator', () => [1, 2, 3].values().map((x) => x * 2).toArray().join(',')),
].join(' ');
</script></body></html>)";

const QString kWorks = QStringLiteral(
    "toSorted=1,2,3 groupBy=even,odd withResolvers=function union=1,2 iterator=2,4,6");
const QString kFails = QStringLiteral("toSorted=FAILED groupBy=FAILED withResolvers=FAILED "
                                      "union=FAILED iterator=FAILED");

// A frame holding the same page: the polyfills run in subframes too.
const QByteArray kFramed = R"(<!doctype html><html><head><title>Framed</title></head>
<body><iframe src="/modern"></iframe></body></html>)";

const QByteArray kAgentSees = R"(<!doctype html><html><head><title>UA</title></head>
<body><p id="ua"></p><script>
document.getElementById('ua').textContent = 'ua=' + navigator.userAgent;
</script></body></html>)";

const EgressGrant kLocal{true, QStringLiteral("test")};

} // namespace

class tst_Polyfills : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void scrapeSwitchesThePolyfills_data();
    void scrapeSwitchesThePolyfills();
    void theSettingSwitchesThemOffAndARequestBackOn_data();
    void theSettingSwitchesThemOffAndARequestBackOn();
    void rejectsABadBrowserObject_data();
    void rejectsABadBrowserObject();
    void anAgentRunHonoursTheSwitch_data();
    void anAgentRunHonoursTheSwitch();
    void leavesThePageAgentsWorldAlone();
    void runsInSubframes();
    void leasesRecordWhatTheyAskedFor();
    void sendsTheEngineVersionAsTheUserAgent();
    void sendsTheConfiguredUserAgent();

private:
    QJsonObject scrapeOne(TestService &service, const QString &path, QJsonObject options = {});
    // The /modern page's text through /scrape, with the request's `browser` object when
    // it is defined.
    QJsonObject scrapeModern(TestService &service, const QJsonValue &browser);

    FixtureServer m_site;
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<TestService> m_off; // browser.polyfills=false
};

void tst_Polyfills::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/modern", kModern);
    m_site.page("/framed", kFramed);
    m_site.page("/ua", kAgentSees);
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
}

void tst_Polyfills::cleanupTestCase()
{
    m_off.reset();
    m_ph.reset();
}

QJsonObject tst_Polyfills::scrapeOne(TestService &service, const QString &path, QJsonObject options)
{
    options.insert(QStringLiteral("urls"), QJsonArray{m_site.url(path)});
    const auto r = service.client().post(QStringLiteral("/scrape"), options);
    r.expectStatus({200}, __FILE__, __LINE__);
    return r.json().value(QStringLiteral("results")).toArray().at(0).toObject();
}

QJsonObject tst_Polyfills::scrapeModern(TestService &service, const QJsonValue &browser)
{
    QJsonObject options{{QStringLiteral("formats"), QJsonArray{QStringLiteral("text")}}};
    if (!browser.isUndefined())
        options.insert(QStringLiteral("browser"), browser);
    return scrapeOne(service, QStringLiteral("/modern"), options);
}

void tst_Polyfills::scrapeSwitchesThePolyfills_data()
{
    QTest::addColumn<QJsonValue>("browser");
    QTest::addColumn<QString>("expected");
    QTest::newRow("runs the page's modern built-ins by default") << QJsonValue() << kWorks;
    QTest::newRow("runs them when the request asks for polyfills")
        << QJsonValue(QJsonObject{{QStringLiteral("polyfills"), true}}) << kWorks;
    QTest::newRow("shows the page's failure when the request switches them off")
        << QJsonValue(QJsonObject{{QStringLiteral("polyfills"), false}}) << kFails;
    QTest::newRow("carries the engine without changing the polyfills")
        << QJsonValue(QJsonObject{{QStringLiteral("engine"), QStringLiteral("qtwebengine")}})
        << kWorks;
}

void tst_Polyfills::scrapeSwitchesThePolyfills()
{
    QFETCH(QJsonValue, browser);
    QFETCH(QString, expected);
    const QJsonObject r = scrapeModern(*m_ph, browser);
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QString text = r.value(QStringLiteral("text")).toString();
    QVERIFY2(text.contains(expected), qPrintable(text));
}

void tst_Polyfills::theSettingSwitchesThemOffAndARequestBackOn_data()
{
    QTest::addColumn<QJsonValue>("browser");
    QTest::addColumn<QString>("expected");
    QTest::newRow("shows the page's failure when the setting is off") << QJsonValue() << kFails;
    QTest::newRow("runs the built-ins when a request asks for them against the setting")
        << QJsonValue(QJsonObject{{QStringLiteral("polyfills"), true}}) << kWorks;
}

void tst_Polyfills::theSettingSwitchesThemOffAndARequestBackOn()
{
    QFETCH(QJsonValue, browser);
    QFETCH(QString, expected);
    if (!m_off) {
        m_off =
            std::make_unique<TestService>(QStringList{QStringLiteral("browser.polyfills=false")});
        QVERIFY2(m_off->ok(), qPrintable(m_off->error()));
    }
    const QJsonObject r = scrapeModern(*m_off, browser);
    const QString text = r.value(QStringLiteral("text")).toString();
    QVERIFY2(text.contains(expected), qPrintable(text));
}

void tst_Polyfills::rejectsABadBrowserObject_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<QByteArray>("browser");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("field");
    for (const QString &endpoint : {QStringLiteral("/scrape"), QStringLiteral("/agent")}) {
        const auto row = [&](const char *name) -> QTestData & {
            return QTest::newRow((QByteArray(name) + " (" + endpoint.toUtf8() + ")").constData());
        };
        row("refuses polyfills given as a string")
            << endpoint << QByteArray(R"({"polyfills":"yes"})") << "INVALID_FIELD"
            << "browser.polyfills";
        row("refuses an engine it does not have")
            << endpoint << QByteArray(R"({"engine":"gecko"})") << "INVALID_FIELD"
            << "browser.engine";
        row("refuses an engine that is not a string")
            << endpoint << QByteArray(R"({"engine":1})") << "INVALID_FIELD"
            << "browser.engine";
        row("refuses a field it does not know")
            << endpoint << QByteArray(R"({"x":1})") << "UNKNOWN_FIELD"
            << "browser.x";
        row("refuses browser that is not an object")
            << endpoint << QByteArray(R"(true)") << "INVALID_FIELD"
            << "browser";
    }
}

void tst_Polyfills::rejectsABadBrowserObject()
{
    QFETCH(QString, endpoint);
    QFETCH(QByteArray, browser);
    QFETCH(QString, code);
    QFETCH(QString, field);
    const QByteArray body = endpoint == QLatin1String("/scrape")
                                ? R"({"urls":["http://127.0.0.1/"],"browser":)" + browser + "}"
                                : R"({"input":"Read the page","urls":["http://127.0.0.1/"],)"
                                  R"("browser":)" +
                                      browser + "}";
    const auto r = m_ph->client().postRaw(endpoint, body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(), code);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
}

void tst_Polyfills::anAgentRunHonoursTheSwitch_data()
{
    QTest::addColumn<QJsonValue>("browser");
    QTest::addColumn<QString>("expected");
    QTest::newRow("an agent run reads the built-ins' results by default") << QJsonValue() << kWorks;
    QTest::newRow("an agent run reads the page's failure with polyfills off")
        << QJsonValue(QJsonObject{{QStringLiteral("polyfills"), false}}) << kFails;
}

void tst_Polyfills::anAgentRunHonoursTheSwitch()
{
    QFETCH(QJsonValue, browser);
    QFETCH(QString, expected);
    QJsonObject body{{QStringLiteral("input"), QStringLiteral("Read the page")},
                     {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/modern"))}},
                     {QStringLiteral("settings"),
                      QJsonObject{{QStringLiteral("extraction"),
                                   QJsonObject{{QStringLiteral("mainContentOnly"), false}}}}}};
    if (!browser.isUndefined())
        body.insert(QStringLiteral("browser"), browser);
    const auto r = m_ph->client().post(QStringLiteral("/agent"), body);
    r.expectStatus({200}, __FILE__, __LINE__);
    const QByteArray all = QJsonDocument(r.json()).toJson(QJsonDocument::Compact);
    QVERIFY2(all.contains(expected.toUtf8()), all.constData());
}

void tst_Polyfills::leavesThePageAgentsWorldAlone()
{
    // The page agent's isolated world has its own built-ins: snapshots read the page as
    // before, with the polyfills in the page's world beside them.
    const QJsonObject r =
        scrapeOne(*m_ph, QStringLiteral("/modern"),
                  {{QStringLiteral("formats"),
                    QJsonArray{QStringLiteral("text"), QStringLiteral("markdown"),
                               QStringLiteral("accessibilityTree"), QStringLiteral("ariaSnapshot"),
                               QStringLiteral("links")}}});
    QCOMPARE(r.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(r.value(QStringLiteral("markdown")).toString().contains(QLatin1String("# Modern")));
    QVERIFY(r.value(QStringLiteral("ariaSnapshot")).toString().contains(QLatin1String("heading")));
    QVERIFY(!r.value(QStringLiteral("accessibilityTree")).toObject().isEmpty());

    BrowserPool &pool = m_ph->service().pool();
    std::unique_ptr<BrowserLease> lease;
    QVERIFY(pool.acquire(QStringLiteral("test"), kLocal, LeaseOptions(), nullptr,
                         [&](std::unique_ptr<BrowserLease> l) { lease = std::move(l); }));
    QTRY_VERIFY_WITH_TIMEOUT(lease != nullptr, 10000);
    bool loaded = false;
    lease->navigate(QUrl(m_site.url(QStringLiteral("/modern"))), NavigateOptions(),
                    [&](const NavigationResult &n) { loaded = n.ok; });
    QTRY_VERIFY_WITH_TIMEOUT(loaded, 15000);
    QVariant inAgentWorld;
    bool done = false;
    lease->evaluate(QStringLiteral("typeof Array.prototype.toSorted + ' ' + "
                                   "document.getElementById('out').textContent"),
                    10000, [&](bool, const QVariant &v) {
                        inAgentWorld = v;
                        done = true;
                    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    // The page's world has toSorted (its text says so); the agent's does not.
    QCOMPARE(inAgentWorld.toString(), QStringLiteral("undefined ") + kWorks);
}

void tst_Polyfills::runsInSubframes()
{
    BrowserPool &pool = m_ph->service().pool();
    std::unique_ptr<BrowserLease> lease;
    QVERIFY(pool.acquire(QStringLiteral("test"), kLocal, LeaseOptions(), nullptr,
                         [&](std::unique_ptr<BrowserLease> l) { lease = std::move(l); }));
    QTRY_VERIFY_WITH_TIMEOUT(lease != nullptr, 10000);
    bool loaded = false;
    lease->navigate(QUrl(m_site.url(QStringLiteral("/framed"))), NavigateOptions(),
                    [&](const NavigationResult &n) { loaded = n.ok; });
    QTRY_VERIFY_WITH_TIMEOUT(loaded, 15000);
    const auto frameText = [&] {
        QString out;
        bool done = false;
        lease->evaluate(QStringLiteral("(() => { const d = document.querySelector('iframe')"
                                       ".contentDocument; const o = d && d.getElementById('out');"
                                       " return o ? o.textContent : ''; })()"),
                        10000, [&](bool, const QVariant &v) {
                            out = v.toString();
                            done = true;
                        });
        (void)QTest::qWaitFor([&] { return done; }, 15000);
        return out;
    };
    QTRY_COMPARE_WITH_TIMEOUT(frameText(), kWorks, 10000);
}

void tst_Polyfills::leasesRecordWhatTheyAskedFor()
{
    BrowserPool &pool = m_ph->service().pool();
    LeaseOptions asked;
    asked.engine = QStringLiteral("chromium");
    asked.polyfills = false;
    std::unique_ptr<BrowserLease> lease;
    QVERIFY(pool.acquire(QStringLiteral("test"), kLocal, asked, nullptr,
                         [&](std::unique_ptr<BrowserLease> l) { lease = std::move(l); }));
    QTRY_VERIFY_WITH_TIMEOUT(lease != nullptr, 10000);
    QCOMPARE(lease->options().engine, QStringLiteral("chromium"));
    QVERIFY(lease->options().polyfills == std::optional<bool>(false));
    QCOMPARE(lease->options().toJson(),
             (QJsonObject{{QStringLiteral("engine"), QStringLiteral("chromium")},
                          {QStringLiteral("polyfills"), false}}));
    // The old signature still leases, with nothing asked.
    std::unique_ptr<BrowserLease> plain;
    QVERIFY(pool.acquire(QStringLiteral("test"), kLocal, nullptr,
                         [&](std::unique_ptr<BrowserLease> l) { plain = std::move(l); }));
    QTRY_VERIFY_WITH_TIMEOUT(plain != nullptr, 10000);
    QVERIFY(plain->options().engine.isEmpty());
    QVERIFY(!plain->options().polyfills.has_value());
}

void tst_Polyfills::sendsTheEngineVersionAsTheUserAgent()
{
    const int before = int(m_site.requests("/ua").size());
    const QString text =
        scrapeOne(*m_ph, QStringLiteral("/ua"),
                  {{QStringLiteral("formats"), QJsonArray{QStringLiteral("text")}}})
            .value(QStringLiteral("text"))
            .toString();
    // The engine's real version, and Pilothouse instead of QtWebEngine.
    QVERIFY2(text.contains(QLatin1String(" Chrome/102.")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String(" Pilothouse/")), qPrintable(text));
    QVERIFY2(!text.contains(QLatin1String("QtWebEngine")), qPrintable(text));
    const auto requests = m_site.requests("/ua");
    QVERIFY(requests.size() > before);
    const QString header = QString::fromUtf8(requests.last().headers.value("user-agent"));
    QVERIFY2(text.contains(QStringLiteral("ua=") + header), qPrintable(header));
}

void tst_Polyfills::sendsTheConfiguredUserAgent()
{
    const QString ua = QStringLiteral("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, "
                                      "like Gecko) Chrome/142.0.0.0 Safari/537.36");
    QVERIFY(m_ph->service().settings().set(QStringLiteral("browser.userAgent"), ua).isEmpty());
    const QString text =
        scrapeOne(*m_ph, QStringLiteral("/ua"),
                  {{QStringLiteral("formats"), QJsonArray{QStringLiteral("text")}}})
            .value(QStringLiteral("text"))
            .toString();
    QVERIFY2(text.contains(QStringLiteral("ua=") + ua), qPrintable(text));
    QCOMPARE(QString::fromUtf8(m_site.requests("/ua").last().headers.value("user-agent")), ua);
    // A header value may not break lines.
    QVERIFY(!m_ph->service()
                 .settings()
                 .set(QStringLiteral("browser.userAgent"), QStringLiteral("a\r\nX-Evil: 1"))
                 .isEmpty());
    QVERIFY(
        m_ph->service().settings().set(QStringLiteral("browser.userAgent"), QString()).isEmpty());
}

PH_WEBENGINE_TEST_MAIN(tst_Polyfills)
#include "tst_polyfills.moc"
