// The chromium engine (Debian's chromium over the DevTools protocol) behind the pool and
// lease interface: real chromium, real pages from a fixture site on loopback, the egress
// proxy, a crash of the process. Every test runs on both of Debian's builds: the headless
// shell (the engine's default) and the full chromium (what browser.chromiumPath may name);
// a row is skipped only when its build is not installed.
#include "FixtureServer.h"
#include "LeaseCalls.h"
#include "TestMain.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "browser/ChromiumEngine.h"
#include "browser/LeaseOptions.h"
#include "browser/LiveFrameSource.h"
#include "net/NetworkPolicy.h"

#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>

#include <csignal>

using namespace ph;
using ph::test::FixtureResponse;
using ph::test::FixtureServer;

namespace {

const EgressGrant kLocal{true, QStringLiteral("test")};
const EgressGrant kPublicOnly{false, QStringLiteral("test")};

NavigationResult navigate(BrowserLease &lease, const QString &url, NavigateOptions o = {})
{
    o.timeoutMs = qMin(o.timeoutMs, 15000);
    return ph::test::navigateAndWait(lease, url, o);
}

QVariant evaluate(BrowserLease &lease, const QString &script)
{
    return ph::test::evaluateAndWait(lease, script);
}

std::unique_ptr<BrowserLease> leaseNow(BrowserPool &pool, const EgressGrant &grant = kLocal)
{
    std::unique_ptr<BrowserLease> lease;
    LeaseOptions options;
    options.engine = QStringLiteral("chromium");
    if (!pool.acquire(QStringLiteral("test"), grant, options, nullptr,
                      [&](std::unique_ptr<BrowserLease> l) { lease = std::move(l); }))
        return nullptr;
    (void)QTest::qWaitFor([&] { return lease != nullptr; }, 30000);
    return lease;
}

} // namespace

class tst_Chromium : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase_data();
    void initTestCase();
    void init();
    void loadsAPageAndReadsItBackInTheAgentsWorld();
    void reportsWhatANavigationCameTo_data();
    void reportsWhatANavigationCameTo();
    void isolatesEveryLeaseInABrowserContextOfItsOwn();
    void loadsPagesOfSeveralLeasesSideBySide();
    void refusesWhatTheNetworkPolicyRefuses_data();
    void refusesWhatTheNetworkPolicyRefuses();
    void waitsForASelectorAfterTheLoad();
    void printsThePageToPdf();
    void streamsFramesAndTakesInput();
    void reportsAnUnknownOrMissingEngine();
    void failsTheLeasesOfACrashedProcessAndStartsANewOne();
    void endsTheWholeBrowserEvenBehindALauncherScript();

private:
    FixtureServer m_site;
    NetworkPolicy m_policy{true};
    std::unique_ptr<BrowserPool> m_pool;
};

void tst_Chromium::initTestCase_data()
{
    QTest::addColumn<QString>("build");  // browser.chromiumPath; empty: the default
    QTest::addColumn<QString>("binary"); // the program that must end up running
    QTest::newRow("on the headless shell") << QString() << "chromium-headless-shell";
    QTest::newRow("on the full chromium") << "chromium"
                                          << "chromium";
}

void tst_Chromium::initTestCase()
{
    if (ChromiumEngine::findExecutable(QString()).isEmpty())
        QSKIP("chromium is not installed (packaging/dev/deps.sh --bench installs it)");
    QVERIFY(m_site.start());
    m_site.page("/", "<!doctype html><title>home</title><h1>Home</h1><p>Welcome home."
                     "<script>window.pageSecret = 42;</script>");
    m_site.page("/state", R"(<!doctype html><title>state</title><pre id=out></pre><script>
const seen = {cookie: document.cookie, local: localStorage.getItem('k')};
document.cookie = 'k=v; max-age=3600';
localStorage.setItem('k', 'v');
document.getElementById('out').textContent = JSON.stringify(seen);
</script>)");
    m_site.route("/slow", [](const ph::test::FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>slow</title><p>slow");
        r.delayMs = 1000;
        return r;
    });
    m_site.page("/late", R"(<!doctype html><title>late</title><div id=box></div><script>
setTimeout(() => { document.getElementById('box').innerHTML = '<p class=ready>arrived</p>'; }, 300);
</script>)");
    m_site.page("/button", R"(<!doctype html><title>button</title>
<button id=b style="position:absolute;left:100px;top:100px;width:200px;height:100px"
 onclick="document.title='clicked'">press</button>)");
    m_site.route("/missing", [](const ph::test::FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html("<!doctype html><p>nothing here");
        r.status = 404;
        return r;
    });
    m_site.route("/file.pdf", [](const ph::test::FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "application/pdf"}};
        r.body = "%PDF-1.4\n%%EOF\n";
        return r;
    });
    m_site.route("/to-file", [](const ph::test::FixtureRequest &) {
        FixtureResponse r;
        r.status = 302;
        r.headers = {{"Location", "file:///etc/passwd"}};
        return r;
    });
}

// The row's build: a pool of its own, made once per build.
void tst_Chromium::init()
{
    QFETCH_GLOBAL(QString, build);
    QFETCH_GLOBAL(QString, binary);
    const QString program = ChromiumEngine::findExecutable(build);
    if (program.isEmpty() || (build.isEmpty() && !program.endsWith(binary)))
        QSKIP(qPrintable(binary + QStringLiteral(" is not installed")));
    if (m_pool && m_pool->options().chromiumPath == build)
        return;
    m_pool.reset();
    BrowserPool::Options o;
    o.size = 4;
    o.standby = 0;
    o.chromiumPath = build;
    m_pool = std::make_unique<BrowserPool>(o, m_policy);
}

void tst_Chromium::loadsAPageAndReadsItBackInTheAgentsWorld()
{
    auto lease = leaseNow(*m_pool);
    QVERIFY(lease);
    QCOMPARE(lease->engine(), QStringLiteral("chromium"));
    QVERIFY(lease->page() == nullptr);
    const NavigationResult r = navigate(*lease, m_site.url(QStringLiteral("/")));
    QVERIFY2(r.ok, qPrintable(r.errorCode + QLatin1Char(' ') + r.errorMessage));
    QCOMPARE(r.finalUrl, QUrl(m_site.url(QStringLiteral("/"))));
    QTRY_COMPARE(lease->title(), QStringLiteral("home"));
    SnapshotResult snap;
    bool done = false;
    lease->snapshot({{QStringLiteral("formats"), QJsonArray{QStringLiteral("text")}}}, 10000,
                    [&](const SnapshotResult &s) {
                        snap = s;
                        done = true;
                    });
    QTRY_VERIFY(done);
    QVERIFY2(snap.ok, qPrintable(snap.errorMessage));
    QVERIFY(snap.data.value(QStringLiteral("text"))
                .toString()
                .contains(QStringLiteral("Welcome home")));
    // The agent lives in an isolated world: the page's globals are not its globals.
    QCOMPARE(evaluate(*lease, QStringLiteral("typeof window.pageSecret")).toString(),
             QStringLiteral("undefined"));
    QCOMPARE(evaluate(*lease, QStringLiteral("typeof window.__pilothouse")).toString(),
             QStringLiteral("object"));
    // A current Chromium, and the user agent does not say "Headless".
    QVERIFY(evaluate(*lease, QStringLiteral("typeof [].toSorted")).toString() ==
            QLatin1String("function"));
    QVERIFY(!evaluate(*lease, QStringLiteral("navigator.userAgent"))
                 .toString()
                 .contains(QStringLiteral("Headless")));
    // The build the row asks for is the one that runs.
    QFETCH_GLOBAL(QString, binary);
    const QString running =
        QFileInfo(QStringLiteral("/proc/%1/exe").arg(m_pool->chromium()->processId()))
            .symLinkTarget();
    QVERIFY2(QFileInfo(running).fileName() == binary, qPrintable(running));
}

void tst_Chromium::reportsWhatANavigationCameTo_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("status");
    QTest::newRow("a page that answers 404 fails with its status")
        << "/missing" << false << "HTTP_STATUS" << 404;
    QTest::newRow("a page that answers 200 says so") << "/" << true << "" << 200;
    QTest::newRow("a PDF is not a web page") << "/file.pdf" << false << "NON_HTML" << 200;
    QTest::newRow("a redirect to file: is blocked") << "/to-file" << false << "BLOCKED" << 0;
    QTest::newRow("a closed port is the egress proxy's 502, as on QtWebEngine")
        << "closed" << false << "HTTP_STATUS" << 502;
}

void tst_Chromium::reportsWhatANavigationCameTo()
{
    QFETCH(QString, path);
    QFETCH(bool, ok);
    QFETCH(QString, code);
    QFETCH(int, status);
    auto lease = leaseNow(*m_pool);
    QVERIFY(lease);
    QString url = m_site.url(path);
    if (path == QLatin1String("closed")) { // a port nothing listens on any more
        QTcpServer listener;
        QVERIFY(listener.listen(QHostAddress::LocalHost));
        url = QStringLiteral("http://127.0.0.1:%1/").arg(listener.serverPort());
    }
    const NavigationResult r = navigate(*lease, url);
    QCOMPARE(r.ok, ok);
    QCOMPARE(r.errorCode, code);
    QCOMPARE(r.httpStatus, status);
}

void tst_Chromium::loadsPagesOfSeveralLeasesSideBySide()
{
    std::vector<std::unique_ptr<BrowserLease>> leases;
    for (int i = 0; i < 3; ++i)
        leases.push_back(leaseNow(*m_pool));
    QElapsedTimer t;
    t.start();
    int done = 0;
    for (auto &l : leases)
        l->navigate(QUrl(m_site.url(QStringLiteral("/slow?%1").arg(done))), {},
                    [&](const NavigationResult &r) {
                        QVERIFY2(r.ok, qPrintable(r.errorMessage));
                        ++done;
                    });
    QTRY_COMPARE_WITH_TIMEOUT(done, 3, 10000);
    // Three 1 s pages side by side take far less than 3 s.
    QVERIFY2(t.elapsed() < 2500, qPrintable(QString::number(t.elapsed())));
}

void tst_Chromium::isolatesEveryLeaseInABrowserContextOfItsOwn()
{
    const QString url = m_site.url(QStringLiteral("/state"));
    {
        auto first = leaseNow(*m_pool);
        QVERIFY(navigate(*first, url).ok);
        QCOMPARE(evaluate(*first, QStringLiteral("document.getElementById('out').textContent"))
                     .toString(),
                 QStringLiteral("{\"cookie\":\"\",\"local\":null}"));
        // Within one lease the state stays.
        QVERIFY(navigate(*first, url).ok);
        QCOMPARE(evaluate(*first, QStringLiteral("document.getElementById('out').textContent"))
                     .toString(),
                 QStringLiteral("{\"cookie\":\"k=v\",\"local\":\"v\"}"));
    }
    auto second = leaseNow(*m_pool);
    QVERIFY(navigate(*second, url).ok);
    QCOMPARE(
        evaluate(*second, QStringLiteral("document.getElementById('out').textContent")).toString(),
        QStringLiteral("{\"cookie\":\"\",\"local\":null}"));
}

void tst_Chromium::refusesWhatTheNetworkPolicyRefuses_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("code");
    QTest::newRow("a file URL is refused before anything loads") << "file:///etc/passwd"
                                                                 << "BLOCKED";
    QTest::newRow("loopback without the private grant is refused") << "site"
                                                                   << "BLOCKED";
    QTest::newRow("localhost by name without the private grant is refused") << "localhost"
                                                                            << "BLOCKED";
}

void tst_Chromium::refusesWhatTheNetworkPolicyRefuses()
{
    QFETCH(QString, url);
    QFETCH(QString, code);
    auto lease = leaseNow(*m_pool, kPublicOnly);
    QVERIFY(lease);
    const int before = m_site.hits("/");
    if (url == QLatin1String("site"))
        url = m_site.url(QStringLiteral("/"));
    else if (url == QLatin1String("localhost"))
        url = m_site.url(QStringLiteral("/"))
                  .replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"));
    const NavigationResult r = navigate(*lease, url);
    QVERIFY(!r.ok);
    QCOMPARE(r.errorCode, code);
    QCOMPARE(m_site.hits("/"), before); // the site never saw the request
}

void tst_Chromium::waitsForASelectorAfterTheLoad()
{
    auto lease = leaseNow(*m_pool);
    NavigateOptions o;
    o.waitForSelector = QStringLiteral("p.ready");
    const NavigationResult r = navigate(*lease, m_site.url(QStringLiteral("/late")), o);
    QVERIFY2(r.ok, qPrintable(r.errorMessage));
    QCOMPARE(evaluate(*lease, QStringLiteral("document.querySelector('p.ready').textContent"))
                 .toString(),
             QStringLiteral("arrived"));
    o.waitForSelector = QStringLiteral("p[");
    QCOMPARE(navigate(*lease, m_site.url(QStringLiteral("/late")), o).errorCode,
             QStringLiteral("INVALID_SELECTOR"));
}

void tst_Chromium::printsThePageToPdf()
{
    auto lease = leaseNow(*m_pool);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/"))).ok);
    QByteArray pdf;
    bool done = false;
    lease->printToPdf(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF()),
                      [&](const QByteArray &p) {
                          pdf = p;
                          done = true;
                      });
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    QVERIFY(pdf.startsWith("%PDF-"));
}

void tst_Chromium::streamsFramesAndTakesInput()
{
    auto lease = leaseNow(*m_pool);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/button"))).ok);
    std::unique_ptr<LiveFrameSource> source = lease->screencast();
    QVERIFY(source);
    QImage frame;
    bool captured = false;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            captured = false;
            source->capture([&](const QImage &f) {
                frame = f;
                captured = true;
            });
            (void)QTest::qWaitFor([&] { return captured; }, 3000);
            return !frame.isNull();
        }(),
        10000);
    QCOMPARE(frame.size(), QSize(1280, 800));
    LiveInput click;
    click.kind = LiveInput::Kind::Click;
    click.at = QPointF(200, 150);
    bool delivered = false;
    source->deliver(click, [&](bool ok, const QString &error) {
        QVERIFY2(ok, qPrintable(error));
        delivered = true;
    });
    QTRY_VERIFY(delivered);
    QTRY_COMPARE_WITH_TIMEOUT(evaluate(*lease, QStringLiteral("document.title")).toString(),
                              QStringLiteral("clicked"), 5000);
}

void tst_Chromium::reportsAnUnknownOrMissingEngine()
{
    QVERIFY(m_pool->engineProblem(QStringLiteral("chromium")).isEmpty());
    QVERIFY(m_pool->engineProblem(QStringLiteral("qtwebengine")).isEmpty());
    QVERIFY(
        m_pool->engineProblem(QStringLiteral("gecko")).contains(QStringLiteral("not an engine")));
    BrowserPool::Options o;
    o.standby = 0;
    o.chromiumPath = QStringLiteral("/nonexistent/chromium");
    BrowserPool pool(o, m_policy);
    QVERIFY(pool.engineProblem(QStringLiteral("chromium"))
                .contains(QStringLiteral("not an executable")));
    auto lease = leaseNow(pool);
    QVERIFY(lease);
    const NavigationResult r = navigate(*lease, m_site.url(QStringLiteral("/")));
    QCOMPARE(r.errorCode, QStringLiteral("ENGINE_UNAVAILABLE"));
}

void tst_Chromium::failsTheLeasesOfACrashedProcessAndStartsANewOne()
{
    auto lease = leaseNow(*m_pool);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/"))).ok);
    const int starts = m_pool->stats().chromiumStarts;
    QSignalSpy lost(m_pool->chromium(), &ChromiumEngine::lost);
    m_pool->chromium()->kill();
    QTRY_COMPARE_WITH_TIMEOUT(lost.size(), 1, 10000);
    QVERIFY(lease->isCrashed());
    const NavigationResult r = navigate(*lease, m_site.url(QStringLiteral("/")));
    QCOMPARE(r.errorCode, QStringLiteral("ENGINE_CRASHED"));
    QVERIFY(r.errorMessage.contains(QStringLiteral("chromium")));
    lease.reset();
    auto next = leaseNow(*m_pool);
    QVERIFY(next);
    const NavigationResult again = navigate(*next, m_site.url(QStringLiteral("/")));
    QVERIFY2(again.ok, qPrintable(again.errorMessage));
    QCOMPARE(m_pool->stats().chromiumStarts, starts + 1);
}

// A launcher that starts the browser as its child instead of replacing itself (as Debian's
// /usr/bin/chromium-headless-shell does): stopping the engine still ends the browser.
void tst_Chromium::endsTheWholeBrowserEvenBehindALauncherScript()
{
    QFETCH_GLOBAL(QString, build);
    QFETCH_GLOBAL(QString, binary);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString launcher = dir.filePath(QStringLiteral("launch-chromium"));
    {
        QFile f(launcher);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n" + ChromiumEngine::findExecutable(build).toUtf8() + " \"$@\"\n");
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    }
    BrowserPool::Options o;
    o.standby = 0;
    o.chromiumPath = launcher;
    auto pool = std::make_unique<BrowserPool>(o, m_policy);
    qint64 group = 0;
    {
        auto lease = leaseNow(*pool);
        QVERIFY(lease);
        QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/"))).ok);
        group = pool->chromium()->processId();
        QVERIFY(group > 0);
    }
    // The launcher's group holds the browser, not only the script.
    QVERIFY(::kill(-pid_t(group), 0) == 0);
    pool.reset();
    QTRY_VERIFY_WITH_TIMEOUT(::kill(-pid_t(group), 0) != 0, 10000);
}

PH_WEBENGINE_TEST_MAIN(tst_Chromium)
#include "tst_chromium.moc"
