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
#include "browser/LeaseOptions.h"
#include "browser/LiveFrameSource.h"
#include "browser/chromium/CdpConnection.h"
#include "browser/chromium/CdpPage.h"
#include "browser/chromium/ChromiumEngine.h"
#include "net/NetworkPolicy.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPageLayout>
#include <QPageSize>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>

#include <csignal>
#include <unistd.h>

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

// The processes of a process group (/proc/<pid>/stat's fifth field).
QList<qint64> processesOfGroup(qint64 group)
{
    QList<qint64> pids;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // pid (comm) state ppid pgrp …: the name may hold spaces and parentheses.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 2 && fields.at(2).toLongLong() == group)
            pids.append(pid);
    }
    return pids;
}

// Listening TCP sockets (IPv4 and IPv6) by inode: "address:port" in /proc/net's hex.
QHash<QByteArray, QByteArray> listeningSockets()
{
    QHash<QByteArray, QByteArray> out;
    for (const char *table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        QFile f(QString::fromLatin1(table));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        f.readLine(); // the heading
        while (!f.atEnd()) {
            const QList<QByteArray> cols = f.readLine().simplified().split(' ');
            if (cols.size() > 9 && cols.at(3) == "0A") // TCP_LISTEN
                out.insert(cols.at(9), cols.at(1));
        }
    }
    return out;
}

// The socket inodes a process holds.
QSet<QByteArray> socketsOf(qint64 pid)
{
    QSet<QByteArray> out;
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const QFileInfo &fd : fds.entryInfoList(QDir::Files | QDir::System)) {
        const QString target = fd.symLinkTarget().isEmpty()
                                   ? QFile::symLinkTarget(fd.absoluteFilePath())
                                   : fd.symLinkTarget();
        const QString name = QFileInfo(target).fileName();
        if (name.startsWith(QLatin1String("socket:[")))
            out.insert(name.mid(8).chopped(1).toLatin1());
    }
    return out;
}

QStringList commandLineOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList args;
    for (const QByteArray &a : f.readAll().split('\0'))
        if (!a.isEmpty())
            args.append(QString::fromLocal8Bit(a));
    return args;
}

// Runs a command to its end, the event loop turning (the fixture site answers meanwhile);
// its exit code (-1 when it did not run).
int runToEnd(const QString &program, const QStringList &args, QByteArray *output = nullptr)
{
    QProcess p;
    p.setWorkingDirectory(QStringLiteral("/"));
    bool finished = false;
    QObject::connect(&p, &QProcess::finished, [&finished] { finished = true; });
    QObject::connect(&p, &QProcess::errorOccurred, [&finished](QProcess::ProcessError e) {
        finished = finished || e == QProcess::FailedToStart;
    });
    p.start(program, args);
    if (!QTest::qWaitFor([&finished] { return finished; }, 60000) ||
        p.state() != QProcess::NotRunning || p.exitStatus() != QProcess::NormalExit)
        return -1;
    if (output)
        *output = p.readAllStandardOutput();
    return p.exitCode();
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
    void listensOnNoTcpPortAndTalksOverItsPipe();
    void answersNoOtherLocalUserOnDevTools();
    void refusesForeignDocumentsAtThePage_data();
    void refusesForeignDocumentsAtThePage();
    void sendsNoCommandThatOpensAForeignUrl_data();
    void sendsNoCommandThatOpensAForeignUrl();
    void judgesWhichUrlsTheEngineOpens_data();
    void judgesWhichUrlsTheEngineOpens();

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
    m_site.route("/together", [this](const ph::test::FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>together</title><p>side by side");
        r.holdUntilHits = (m_site.hits("/together") + 2) / 3 * 3; // the rest of its three
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
    // /together answers no request before all three have arrived: loaded one after the
    // other, the first page would never finish. How fast: bench/timing.
    const int before = m_site.hits("/together");
    int done = 0;
    int i = 0;
    for (auto &l : leases)
        l->navigate(QUrl(m_site.url(QStringLiteral("/together?%1").arg(i++))), {},
                    [&](const NavigationResult &r) {
                        QVERIFY2(r.ok, qPrintable(r.errorMessage));
                        ++done;
                    });
    QTRY_COMPARE_WITH_TIMEOUT(done, 3, 10000);
    QCOMPARE(m_site.hits("/together") - before, 3);
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

// The DevTools channel is a pipe, not a socket: nothing of the browser's process group
// listens on TCP (the test's own fixture site is seen listening by the same reading), no
// command line asks for a port and no DevToolsActivePort file is written.
void tst_Chromium::listensOnNoTcpPortAndTalksOverItsPipe()
{
    auto lease = leaseNow(*m_pool);
    QVERIFY(lease);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/"))).ok);
    const QList<qint64> group = processesOfGroup(m_pool->chromium()->processId());
    QVERIFY2(group.size() >= 2, "the browser and its renderer"); // read while it serves
    const QHash<QByteArray, QByteArray> listening = listeningSockets();
    bool ownSeen = false;
    for (const QByteArray &inode : socketsOf(QCoreApplication::applicationPid()))
        ownSeen = ownSeen || listening.contains(inode);
    QVERIFY2(ownSeen, "the fixture site's listening socket is found the same way");
    QStringList found;
    QString userDataDir;
    bool pipe = false;
    for (qint64 pid : group) {
        for (const QByteArray &inode : socketsOf(pid)) {
            if (listening.contains(inode))
                found << QStringLiteral("%1 listens on %2")
                             .arg(pid)
                             .arg(QString::fromLatin1(listening.value(inode)));
        }
        for (const QString &arg : commandLineOf(pid)) {
            if (arg.startsWith(QLatin1String("--remote-debugging-port")))
                found << QStringLiteral("%1 was started with %2").arg(pid).arg(arg);
            pipe = pipe || arg == QLatin1String("--remote-debugging-pipe");
            if (arg.startsWith(QLatin1String("--user-data-dir=")))
                userDataDir = arg.mid(16);
        }
    }
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral("; "))));
    QVERIFY(pipe);
    QVERIFY2(QFileInfo(userDataDir).isDir(), qPrintable(userDataDir));
    QVERIFY(!QFileInfo::exists(userDataDir + QStringLiteral("/DevToolsActivePort")));
}

// Another Unix user on the machine (a throw-away system user, made here when absent)
// finds no DevTools: it connects to every port the browser's processes and this test
// listen on and asks for /json/version, and reads every --user-data-dir's
// DevToolsActivePort it can find in the processes' command lines. It must reach the
// fixture site's port (the probe works); nothing may answer as DevTools. (Ports of other
// programs on the machine are left alone: only the browser could answer as DevTools.)
void tst_Chromium::answersNoOtherLocalUserOnDevTools()
{
    if (::geteuid() != 0)
        QSKIP("needs root: the test becomes a second Unix user to probe the browser");
    const QStringList sbin{QStringLiteral("/usr/sbin"), QStringLiteral("/sbin"),
                           QStringLiteral("/usr/bin")};
    const QString runuser = QStandardPaths::findExecutable(QStringLiteral("runuser"), sbin);
    const QString useradd = QStandardPaths::findExecutable(QStringLiteral("useradd"), sbin);
    if (runuser.isEmpty())
        QSKIP("runuser is not installed: no way to act as a second Unix user");
    const QString user = QStringLiteral("ph-devtools-probe");
    const QString id = QStandardPaths::findExecutable(QStringLiteral("id"));
    if (runToEnd(id, {QStringLiteral("-u"), user}) != 0) {
        if (useradd.isEmpty())
            QSKIP("useradd is not installed: no second Unix user can be made");
        runToEnd(useradd, {QStringLiteral("--system"), QStringLiteral("--no-create-home"),
                           QStringLiteral("--home-dir"), QStringLiteral("/nonexistent"),
                           QStringLiteral("--shell"), QStringLiteral("/usr/sbin/nologin"), user});
        QVERIFY2(runToEnd(id, {QStringLiteral("-u"), user}) == 0, "useradd made no user");
    }
    auto lease = leaseNow(*m_pool);
    QVERIFY(lease);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/"))).ok);

    const QHash<QByteArray, QByteArray> listening = listeningSockets();
    QList<qint64> owners = processesOfGroup(m_pool->chromium()->processId());
    owners << QCoreApplication::applicationPid();
    QJsonArray targets;
    for (qint64 pid : owners) {
        for (const QByteArray &inode : socketsOf(pid)) {
            if (!listening.contains(inode))
                continue;
            const QByteArray local = listening.value(inode); // hex address:hex port
            const int port = local.mid(local.indexOf(':') + 1).toInt(nullptr, 16);
            const bool v6 = local.indexOf(':') > 8;
            targets.append(QJsonObject{
                {QStringLiteral("host"), v6 ? QStringLiteral("::1") : QStringLiteral("127.0.0.1")},
                {QStringLiteral("port"), port}});
        }
    }
    const QString script =
        QStringLiteral(R"JS(
const net = require('net'), fs = require('fs');
const targets = %1;
const out = {uid: process.getuid(), reached: [], devtools: [], activePortFiles: []};
for (const pid of fs.readdirSync('/proc').filter(d => /^\d+$/.test(d))) {
  let args = [];
  try { args = fs.readFileSync('/proc/' + pid + '/cmdline', 'latin1').split('\0'); } catch (e) { continue; }
  for (const a of args) {
    if (!a.startsWith('--user-data-dir=')) continue;
    const file = a.slice(16) + '/DevToolsActivePort';
    try { fs.readFileSync(file); out.activePortFiles.push(file); } catch (e) {}
  }
}
const probe = t => new Promise(resolve => {
  const s = net.connect({host: t.host, port: t.port});
  let data = '';
  s.setTimeout(5000, () => s.destroy());
  s.on('connect', () => s.write('GET /json/version HTTP/1.1\r\nHost: localhost:' + t.port +
                                '\r\nConnection: close\r\n\r\n'));
  s.on('data', d => { data += d; });
  s.on('error', () => {});
  s.on('close', () => {
    if (data.startsWith('HTTP/')) out.reached.push(t.port);
    if (data.includes('webSocketDebuggerUrl')) out.devtools.push(t.port);
    resolve();
  });
});
Promise.all(targets.map(probe)).then(() => console.log(JSON.stringify(out)));
)JS")
            .arg(QString::fromUtf8(QJsonDocument(targets).toJson(QJsonDocument::Compact)));
    QByteArray output;
    QCOMPARE(runToEnd(runuser,
                      {QStringLiteral("-u"), user, QStringLiteral("--"),
                       QStringLiteral(PILOTHOUSE_NODE), QStringLiteral("-e"), script},
                      &output),
             0);
    const QJsonObject seen = QJsonDocument::fromJson(output).object();
    QVERIFY2(seen.value(QStringLiteral("uid")).toInt(0) > 0, output.constData());
    QVERIFY2(seen.value(QStringLiteral("reached")).toArray().contains(QJsonValue(m_site.port())),
             output.constData());
    QVERIFY2(seen.value(QStringLiteral("devtools")).toArray().isEmpty(), output.constData());
    QVERIFY2(seen.value(QStringLiteral("activePortFiles")).toArray().isEmpty(), output.constData());
}

void tst_Chromium::refusesForeignDocumentsAtThePage_data()
{
    QTest::addColumn<QString>("url");
    QTest::newRow("a file URL loads nothing") << "file:///etc/passwd";
    QTest::newRow("a chrome: page loads nothing") << "chrome://version/";
    QTest::newRow("a chrome-untrusted: page loads nothing") << "chrome-untrusted://print/";
    QTest::newRow("DevTools' own front end loads nothing")
        << "devtools://devtools/bundled/inspector.html";
    QTest::newRow("a view-source: of a page loads nothing") << "view-source:SITE/";
    QTest::newRow("a javascript: URL runs nothing")
        << "javascript:void(document.documentElement.dataset.mark='ran')";
    QTest::newRow("an about: page other than about:blank loads nothing") << "about:version";
}

// The engine itself, below the network policy: a CdpPage asked for such a URL answers
// BLOCKED and sends nothing; the page it showed stays, untouched.
void tst_Chromium::refusesForeignDocumentsAtThePage()
{
    QFETCH(QString, url);
    const QString home = m_site.url(QStringLiteral("/"));
    url.replace(QStringLiteral("SITE/"), home);
    auto lease = leaseNow(*m_pool); // the engine runs
    QVERIFY(lease);
    CdpPage page(*m_pool->chromium(), QString(), m_policy.egress(), m_policy.resolver());
    page.setGrant(kLocal);
    page.prepare();
    QTRY_VERIFY_WITH_TIMEOUT(page.isReady(), 30000);
    auto navigateTo = [&page](const QUrl &to) {
        NavigationResult out;
        bool done = false;
        NavigateOptions o;
        o.timeoutMs = 15000;
        page.navigate(to, o, [&](const NavigationResult &r) {
            out = r;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 20000))
            out.errorCode = QStringLiteral("TEST_WAIT_EXPIRED");
        return out;
    };
    auto evaluateIn = [&page](const QString &script) {
        QVariant out;
        bool done = false;
        page.evaluate(script, 10000, [&](bool, const QVariant &v) {
            out = v;
            done = true;
        });
        (void)QTest::qWaitFor([&] { return done; }, 15000);
        return out;
    };
    const NavigationResult first = navigateTo(QUrl(home));
    QVERIFY2(first.ok, qPrintable(first.errorCode + QLatin1Char(' ') + first.errorMessage));
    QCOMPARE(evaluateIn(QStringLiteral("document.documentElement.dataset.mark = 'kept'")),
             QVariant(QStringLiteral("kept")));
    const NavigationResult r = navigateTo(QUrl(url));
    QVERIFY(!r.ok);
    QCOMPARE(r.errorCode, QStringLiteral("BLOCKED"));
    QVERIFY2(r.errorMessage.contains(QStringLiteral("scheme")), qPrintable(r.errorMessage));
    QVERIFY(!page.refusalLog().refusals().isEmpty());
    // The same document, never left: no navigation was even begun.
    QCOMPARE(evaluateIn(QStringLiteral("document.documentElement.dataset.mark")),
             QVariant(QStringLiteral("kept")));
    QCOMPARE(evaluateIn(QStringLiteral("location.href")), QVariant(home));
}

void tst_Chromium::sendsNoCommandThatOpensAForeignUrl_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("url");
    QTest::newRow("a new target at a file URL is not sent") << "Target.createTarget"
                                                            << "file:///etc/passwd";
    QTest::newRow("a file URL in capitals behind spaces is not sent") << "Target.createTarget"
                                                                      << "  FILE:///etc/passwd";
    QTest::newRow("a scheme split by a tab and a newline is not sent") << "Target.createTarget"
                                                                       << "fi\tl\ne:///etc/passwd";
    QTest::newRow("a new target at DevTools' front end is not sent")
        << "Target.createTarget"
        << "devtools://devtools/bundled/inspector.html";
    QTest::newRow("a new target at a view-source: of a file is not sent")
        << "Target.createTarget"
        << "view-source:file:///etc/passwd";
    QTest::newRow("a page's navigation to a file URL is not sent") << "Page.navigate"
                                                                   << "file:///etc/passwd";
    QTest::newRow("a page's navigation to chrome: is not sent") << "Page.navigate"
                                                                << "chrome://version/";
}

// Below the page: the DevTools channel itself refuses every command that would open such
// a URL, whoever sends it (a live view's command, the engine's own calls).
void tst_Chromium::sendsNoCommandThatOpensAForeignUrl()
{
    QFETCH(QString, method);
    QFETCH(QString, url);
    auto lease = leaseNow(*m_pool); // the engine runs
    QVERIFY(lease);
    CdpConnection *channel = m_pool->chromium()->connection();
    QVERIFY(channel);
    CdpPage page(*m_pool->chromium(), QString(), m_policy.egress(), m_policy.resolver());
    page.setGrant(kLocal);
    page.prepare();
    QTRY_VERIFY_WITH_TIMEOUT(page.isReady(), 30000);
    QJsonObject result;
    QString error;
    bool done = false;
    const auto reply = [&](const QJsonObject &r, const QString &e) {
        result = r;
        error = e;
        done = true;
    };
    if (method == QLatin1String("Target.createTarget"))
        channel->send(method, {{QStringLiteral("url"), url}}, {}, this, reply);
    else
        page.command(method, {{QStringLiteral("url"), url}}, this, reply);
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    if (result.contains(QStringLiteral("targetId"))) // made by a build without the rule
        channel->send(QStringLiteral("Target.closeTarget"),
                      {{QStringLiteral("targetId"), result.value(QStringLiteral("targetId"))}}, {},
                      nullptr);
    QVERIFY2(error.contains(QStringLiteral("refused")), qPrintable(error));
    // Nothing in the browser shows such a URL.
    done = false;
    channel->send(QStringLiteral("Target.getTargets"), {}, {}, this, reply);
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // (The full build has chrome: pages of its own, an omnibox popup: not ours to judge.)
    for (const QJsonValue &t : result.value(QStringLiteral("targetInfos")).toArray()) {
        const QString shown = t.toObject().value(QStringLiteral("url")).toString();
        QVERIFY2(!shown.contains(QLatin1String("passwd")) &&
                     !shown.startsWith(QLatin1String("devtools:")) &&
                     !shown.startsWith(QLatin1String("view-source:")) &&
                     !shown.startsWith(QLatin1String("chrome://version")),
                 qPrintable(shown));
    }
}

void tst_Chromium::judgesWhichUrlsTheEngineOpens_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("opens");
    QTest::newRow("an https page opens") << "https://example.com/a?b#c" << true;
    QTest::newRow("an http page opens") << "http://127.0.0.1:8080/" << true;
    QTest::newRow("a data: document opens") << "data:text/html,<p>hi" << true;
    QTest::newRow("about:blank opens") << "about:blank" << true;
    QTest::newRow("about:blank with a fragment opens") << "about:blank#top" << true;
    QTest::newRow("about:srcdoc does not") << "about:srcdoc" << false;
    QTest::newRow("about:version does not") << "about:version" << false;
    QTest::newRow("a file URL does not") << "file:///etc/passwd" << false;
    QTest::newRow("a file URL in mixed case does not") << "FiLe:///etc/passwd" << false;
    QTest::newRow("a file URL behind controls does not") << "\x01 \tfile:///etc/passwd" << false;
    QTest::newRow("a javascript: URL split by a newline does not")
        << "java\nscript:alert(1)" << false;
    QTest::newRow("chrome: does not") << "chrome://settings" << false;
    QTest::newRow("chrome-untrusted: does not") << "chrome-untrusted://terminal/" << false;
    QTest::newRow("devtools: does not") << "devtools://devtools/bundled/inspector.html" << false;
    QTest::newRow("view-source: of a web page does not")
        << "view-source:https://example.com/" << false;
    QTest::newRow("blob: does not") << "blob:https://example.com/0d6f" << false;
    QTest::newRow("filesystem: does not") << "filesystem:https://example.com/temporary/x" << false;
    QTest::newRow("a relative URL does not") << "/etc/passwd" << false;
    QTest::newRow("nothing does not") << "" << false;
}

// The engine's rule on its own (CdpConnection::targetRefusal), read as Chromium reads URLs.
void tst_Chromium::judgesWhichUrlsTheEngineOpens()
{
    QFETCH(QString, url);
    QFETCH(bool, opens);
    const QString refusal = CdpConnection::targetRefusal(url);
    QVERIFY2(refusal.isEmpty() == opens, qPrintable(refusal));
}

PH_WEBENGINE_TEST_MAIN(tst_Chromium)
#include "tst_chromium.moc"
