// The browser pool with real QtWebEngine pages against a fixture site on loopback.
#include "FixtureServer.h"
#include "LeaseCalls.h"
#include "TestMain.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "net/NetworkPolicy.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QWebEnginePage>

#include <csignal>

using namespace ph;
using ph::test::FixtureResponse;
using ph::test::FixtureServer;

namespace {

NavigationResult navigate(BrowserLease &lease, const QString &url, int timeoutMs = 15000)
{
    NavigateOptions o;
    o.timeoutMs = timeoutMs;
    return ph::test::navigateAndWait(lease, url, o);
}

QVariant evaluate(BrowserLease &lease, const QString &script)
{
    return ph::test::evaluateAndWait(lease, script);
}

// A QtWebEngine pool of `size` pages, `queueLimit` waiting requests, `standby` prepared.
BrowserPool::Options sized(int size, int queueLimit, int standby)
{
    BrowserPool::Options o;
    o.size = size;
    o.queueLimit = queueLimit;
    o.standby = standby;
    return o;
}

// A pool with visitor shares (percent of its pages and of its queue), no standby pages.
BrowserPool::Options shared(int size, int queueLimit, int visitorPercent, int sitePercent)
{
    BrowserPool::Options o = sized(size, queueLimit, 0);
    o.visitorSharePercent = visitorPercent;
    o.siteSharePercent = sitePercent;
    return o;
}

// "k…": keyed work; "v<site>…": visitor work on that site ("va1": site a).
LeaseOptions workOf(const QString &name)
{
    LeaseOptions o;
    if (name.startsWith(u'v'))
        o.forVisitorsOf(name.mid(1, 1));
    return o;
}

// Waits until the pool has served every request it would serve now (requests arrive
// one by one in the service, each after the pool has dispatched the ones before).
bool settled(const BrowserPool &pool)
{
    return QTest::qWaitFor([&pool] {
        const BrowserPool::Stats s = pool.stats();
        return s.servable == 0 || s.busy == s.size;
    });
}

// Fixture pages are on loopback: the tests' leases may reach private targets.
const EgressGrant kLocal{true, QStringLiteral("test")};

std::unique_ptr<BrowserLease> leaseNow(BrowserPool &pool)
{
    std::unique_ptr<BrowserLease> lease;
    if (!pool.acquire(QStringLiteral("test"), kLocal, nullptr,
                      [&](std::unique_ptr<BrowserLease> l) { lease = std::move(l); }))
        return nullptr;
    (void)QTest::qWaitFor([&] { return lease != nullptr; }, 10000);
    return lease;
}

// Writes every kind of client-side state and reports what it found beforehand.
const QByteArray kStatePage = R"(<!doctype html><html><body><pre id=out></pre><script>
async function run() {
  const seen = {
    cookie: document.cookie,
    local: localStorage.getItem('k'),
    session: sessionStorage.getItem('k'),
    idb: await new Promise((ok) => {
      const open = indexedDB.open('state', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('s');
      open.onsuccess = () => {
        const tx = open.result.transaction('s', 'readwrite');
        const get = tx.objectStore('s').get('k');
        get.onsuccess = () => { tx.objectStore('s').put('v', 'k'); ok(get.result || null); };
      };
      open.onerror = () => ok('error');
    }),
    cache: await caches.open('c').then((c) => c.match('/x')).then((r) => r ? 'hit' : null),
  };
  document.cookie = 'k=v; max-age=3600';
  localStorage.setItem('k', 'v');
  sessionStorage.setItem('k', 'v');
  await caches.open('c').then((c) => c.put('/x', new Response('x')));
  await fetch('/cacheable');
  document.getElementById('out').textContent = JSON.stringify(seen);
  document.title = 'done';
}
run();
</script></body></html>)";

} // namespace

class tst_BrowserPool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void leasesNoMorePagesThanItHas();
    void refusesBeyondTheQueueLimit();
    void dropsARequestWhoseRequesterLeft();
    void isolatesEveryLease();
    void keepsStateWithinOneLease();
    void timesOutANavigationThatNeverEnds();
    void replacesAPageWhoseRendererCrashed();
    void finishesTwelveLoadsOnFourPages();
    void sizesTheSharesOfThePool_data();
    void sizesTheSharesOfThePool();
    void admitsVisitorWorkWithinItsShares_data();
    void admitsVisitorWorkWithinItsShares();
    void servesKeyedWorkFirstWhenAPageFrees();

private:
    FixtureServer m_site;
    NetworkPolicy m_policy{true};
};

void tst_BrowserPool::initTestCase()
{
    QVERIFY(m_site.start());
    m_site.page("/", "<!doctype html><title>home</title><p>home</p>");
    m_site.route("/slow", [](const ph::test::FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>slow</title><p>slow</p>");
        r.delayMs = 400;
        return r;
    });
    m_site.route("/hang", [](const ph::test::FixtureRequest &) {
        auto r = FixtureResponse::html("<!doctype html><title>hang</title><p>partial");
        r.hang = true;
        return r;
    });
    m_site.page("/state", kStatePage);
    m_site.route("/cacheable", [](const ph::test::FixtureRequest &) {
        FixtureResponse r;
        r.headers = {{"Content-Type", "text/plain"}, {"Cache-Control", "public, max-age=3600"}};
        r.body = "cached";
        return r;
    });
}

void tst_BrowserPool::leasesNoMorePagesThanItHas()
{
    BrowserPool pool(sized(2, 10, 0), m_policy);
    int active = 0, maxActive = 0, finished = 0;
    QList<int> order;
    std::vector<std::unique_ptr<BrowserLease>> held;
    for (int i = 0; i < 6; ++i) {
        QVERIFY(pool.acquire(QStringLiteral("r%1").arg(i), kLocal, nullptr,
                             [&, i](std::unique_ptr<BrowserLease> lease) {
                                 order.append(i);
                                 maxActive = qMax(maxActive, ++active);
                                 BrowserLease *l = lease.get();
                                 held.push_back(std::move(lease));
                                 NavigateOptions o;
                                 l->navigate(QUrl(m_site.url(QStringLiteral("/slow"))), o,
                                             [&, l](const NavigationResult &r) {
                                                 QVERIFY(r.ok);
                                                 --active;
                                                 ++finished;
                                                 for (auto &h : held) {
                                                     if (h.get() == l)
                                                         h.reset();
                                                 }
                                             });
                             }));
    }
    QCOMPARE(pool.stats().queued, 6);
    QTRY_COMPARE_WITH_TIMEOUT(finished, 6, 30000);
    QCOMPARE(maxActive, 2);
    QCOMPARE(order, (QList<int>{0, 1, 2, 3, 4, 5}));
    QTRY_COMPARE(pool.stats().busy, 0);
    QCOMPARE(pool.stats().leasesServed, qint64(6));
}

void tst_BrowserPool::refusesBeyondTheQueueLimit()
{
    BrowserPool pool(sized(1, 2, 0), m_policy);
    QVERIFY(pool.hasRoomFor(3));
    QVERIFY(!pool.hasRoomFor(4));
    std::vector<std::unique_ptr<BrowserLease>> held;
    auto keep = [&](std::unique_ptr<BrowserLease> l) { held.push_back(std::move(l)); };
    QVERIFY(pool.acquire(QStringLiteral("a"), kLocal, nullptr, keep));
    QVERIFY(pool.acquire(QStringLiteral("b"), kLocal, nullptr, keep));
    QVERIFY(pool.acquire(QStringLiteral("c"), kLocal, nullptr, keep));
    QVERIFY(!pool.acquire(QStringLiteral("d"), kLocal, nullptr, keep));
    QVERIFY(pool.retryAfterSeconds() >= 1);
    QTRY_COMPARE(held.size(), size_t(1));
    QCOMPARE(pool.stats().queued, 2);
    held.clear(); // release: the next waiter gets the page
    QTRY_COMPARE(held.size(), size_t(1));
    QCOMPARE(pool.stats().queued, 1);
}

void tst_BrowserPool::dropsARequestWhoseRequesterLeft()
{
    BrowserPool pool(sized(1, 5, 0), m_policy);
    std::unique_ptr<BrowserLease> first = leaseNow(pool);
    QVERIFY(first);
    bool granted = false;
    auto *requester = new QObject;
    QVERIFY(pool.acquire(QStringLiteral("gone"), kLocal, requester,
                         [&](std::unique_ptr<BrowserLease>) { granted = true; }));
    // A request behind it: served in order, it gets the page only past the one that left.
    std::unique_ptr<BrowserLease> behind;
    QVERIFY(pool.acquire(QStringLiteral("behind"), kLocal, nullptr,
                         [&](std::unique_ptr<BrowserLease> l) { behind = std::move(l); }));
    delete requester;
    first.reset();
    QTRY_VERIFY(behind);
    QVERIFY(!granted);
    QCOMPARE(pool.stats().busy, 1);
    QCOMPARE(pool.stats().queued, 0);
    behind.reset();
    QTRY_COMPARE(pool.stats().busy, 0);
}

void tst_BrowserPool::isolatesEveryLease()
{
    BrowserPool pool(sized(2, 10, 1), m_policy);
    const int cacheHitsBefore = m_site.hits("/cacheable");
    for (int round = 0; round < 3; ++round) {
        auto lease = leaseNow(pool);
        QVERIFY(lease);
        QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/state"))).ok);
        QTRY_COMPARE_WITH_TIMEOUT(evaluate(*lease, QStringLiteral("document.title")).toString(),
                                  QStringLiteral("done"), 10000);
        const QString seen =
            evaluate(*lease, QStringLiteral("document.getElementById('out').textContent"))
                .toString();
        // Nothing an earlier lease wrote is visible to this one.
        QCOMPARE(
            seen,
            QStringLiteral(
                "{\"cookie\":\"\",\"local\":null,\"session\":null,\"idb\":null,\"cache\":null}"));
    }
    // The cacheable resource came from the network each time: no shared HTTP cache.
    QCOMPARE(m_site.hits("/cacheable") - cacheHitsBefore, 3);
    // The cookie never came back to the server either.
    for (const auto &request : m_site.requests("/state"))
        QVERIFY(!request.headers.contains("cookie"));
}

void tst_BrowserPool::keepsStateWithinOneLease()
{
    // The control for the isolation test: inside one lease state does persist, so the
    // probe page would see it if the pool shared it.
    BrowserPool pool(sized(1, 10, 0), m_policy);
    auto lease = leaseNow(pool);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/state"))).ok);
    QTRY_COMPARE_WITH_TIMEOUT(evaluate(*lease, QStringLiteral("document.title")).toString(),
                              QStringLiteral("done"), 10000);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/state"))).ok);
    QTRY_COMPARE_WITH_TIMEOUT(evaluate(*lease, QStringLiteral("document.title")).toString(),
                              QStringLiteral("done"), 10000);
    const QString seen =
        evaluate(*lease, QStringLiteral("document.getElementById('out').textContent")).toString();
    QVERIFY2(seen.contains(QLatin1String("\"cookie\":\"k=v\"")), qPrintable(seen));
    QVERIFY2(seen.contains(QLatin1String("\"local\":\"v\"")), qPrintable(seen));
    QVERIFY2(seen.contains(QLatin1String("\"idb\":\"v\"")), qPrintable(seen));
    QVERIFY2(seen.contains(QLatin1String("\"cache\":\"hit\"")), qPrintable(seen));
}

void tst_BrowserPool::timesOutANavigationThatNeverEnds()
{
    BrowserPool pool(sized(1, 10, 0), m_policy);
    auto lease = leaseNow(pool);
    QElapsedTimer t;
    t.start();
    const auto r = navigate(*lease, m_site.url(QStringLiteral("/hang")), 1500);
    QVERIFY(!r.ok);
    QCOMPARE(r.errorCode, QStringLiteral("TIMEOUT"));
    QVERIFY(t.elapsed() >= 1400); // not before its time (a lower bound: load cannot break it)
    // The page is still usable afterwards.
    const auto next = navigate(*lease, m_site.url(QStringLiteral("/")));
    QVERIFY2(next.ok, qPrintable(next.errorCode + QLatin1Char(' ') + next.errorMessage));
}

void tst_BrowserPool::replacesAPageWhoseRendererCrashed()
{
    BrowserPool pool(sized(1, 10, 0), m_policy);
    auto lease = leaseNow(pool);
    QVERIFY(navigate(*lease, m_site.url(QStringLiteral("/"))).ok);
    QSignalSpy crashed(lease.get(), &BrowserLease::rendererCrashed);
    // A navigation in flight when the renderer dies fails with RENDERER_CRASHED.
    NavigationResult pending;
    bool done = false;
    NavigateOptions o;
    o.timeoutMs = 20000;
    const int hangsBefore = m_site.hits("/hang");
    lease->navigate(QUrl(m_site.url(QStringLiteral("/hang"))), o, [&](const NavigationResult &r) {
        pending = r;
        done = true;
    });
    QTRY_VERIFY(lease->page()->renderProcessPid() > 0);
    // The renderer is loading the page (the request reached the site) when it dies.
    QTRY_VERIFY_WITH_TIMEOUT(m_site.hits("/hang") > hangsBefore, 10000);
    ::kill(pid_t(lease->page()->renderProcessPid()), SIGKILL);
    QTRY_COMPARE_WITH_TIMEOUT(crashed.count(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
    QCOMPARE(pending.errorCode, QStringLiteral("RENDERER_CRASHED"));
    QVERIFY(lease->isCrashed());
    QCOMPARE(pool.stats().crashes, qint64(1));
    // The next navigation gets a fresh page and works.
    const auto r = navigate(*lease, m_site.url(QStringLiteral("/")));
    QVERIFY2(r.ok, qPrintable(r.errorCode));
    QVERIFY(!lease->isCrashed());
    QCOMPARE(evaluate(*lease, QStringLiteral("document.title")).toString(), QStringLiteral("home"));
}

void tst_BrowserPool::finishesTwelveLoadsOnFourPages()
{
    // Twelve page loads, creations and teardowns on four pages all finish, the loop free to
    // serve each callback. How long the loop stalls meanwhile is a speed, measured by
    // bench/timing/run.sh ("worst event-loop gap"), not asserted here.
    BrowserPool pool(sized(4, 20, 1), m_policy);
    int finished = 0;
    std::vector<std::unique_ptr<BrowserLease>> held;
    for (int i = 0; i < 12; ++i) {
        pool.acquire(QStringLiteral("r"), kLocal, nullptr,
                     [&](std::unique_ptr<BrowserLease> lease) {
                         BrowserLease *l = lease.get();
                         held.push_back(std::move(lease));
                         l->navigate(QUrl(m_site.url(QStringLiteral("/slow"))), NavigateOptions{},
                                     [&, l](const NavigationResult &) {
                                         ++finished;
                                         for (auto &h : held) {
                                             if (h.get() == l)
                                                 h.reset();
                                         }
                                     });
                     });
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished, 12, 60000);
}

void tst_BrowserPool::sizesTheSharesOfThePool_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("visitorPercent");
    QTest::addColumn<int>("sitePercent");
    QTest::addColumn<int>("visitorPages");
    QTest::addColumn<int>("sitePages");
    QTest::newRow("half of four pages for visitors, a quarter for one site")
        << 4 << 50 << 25 << 2 << 1;
    QTest::newRow("half of three pages rounds down to one") << 3 << 50 << 25 << 1 << 1;
    QTest::newRow("a share of one page that rounds to nothing is still one page")
        << 1 << 50 << 25 << 1 << 1;
    QTest::newRow("a share of 0 % still leaves visitors one page") << 8 << 0 << 0 << 1 << 1;
    QTest::newRow("all of the pool when the shares are 100 %") << 4 << 100 << 100 << 4 << 4;
    QTest::newRow("sixty-four pages: thirty-two for visitors, sixteen for one site")
        << 64 << 50 << 25 << 32 << 16;
}

void tst_BrowserPool::sizesTheSharesOfThePool()
{
    QFETCH(int, size);
    QFETCH(int, visitorPercent);
    QFETCH(int, sitePercent);
    BrowserPool pool(shared(size, 10, visitorPercent, sitePercent), m_policy);
    QTEST(pool.visitorPages(), "visitorPages");
    QTEST(pool.sitePages(), "sitePages");
}

void tst_BrowserPool::admitsVisitorWorkWithinItsShares_data()
{
    // Four pages, four waiting: visitors 50 % (two pages, two waiting), a site 25 % (one
    // page, one waiting). Requests in order, and what became of each.
    QTest::addColumn<QStringList>("requests");
    QTest::addColumn<QStringList>("expected");
    const QString g = QStringLiteral("granted"), q = QStringLiteral("queued"),
                  r = QStringLiteral("refused");
    QTest::newRow("a visitor request is served while pages are free")
        << QStringList{"va1"} << QStringList{g};
    QTest::newRow("a site's second request waits: a site holds one page")
        << QStringList{"va1", "va2"} << QStringList{g, q};
    QTest::newRow("another site's request is served while visitors hold less than half")
        << QStringList{"va1", "vb1"} << QStringList{g, g};
    QTest::newRow("a third site's request waits while visitors hold half the pool")
        << QStringList{"va1", "vb1", "vc1"} << QStringList{g, g, q};
    QTest::newRow("keyed work is served beside visitors holding their whole share")
        << QStringList{"va1", "vb1", "vc1", "k1", "k2"} << QStringList{g, g, q, g, g};
    QTest::newRow("a site's second waiting request is refused: its share of the queue is one")
        << QStringList{"va1", "va2", "va3"} << QStringList{g, q, r};
    QTest::newRow("a fifth visitor request is refused: visitors may fill half the queue")
        << QStringList{"va1", "vb1", "vc1", "vd1", "ve1"} << QStringList{g, g, q, q, r};
    QTest::newRow("keyed work still finds room in the queue visitors filled their share of")
        << QStringList{"k1", "k2", "k3", "k4", "va1", "vb1", "vc1", "k5", "k6", "k7"}
        << QStringList{g, g, g, g, q, q, r, q, q, r};
}

void tst_BrowserPool::admitsVisitorWorkWithinItsShares()
{
    QFETCH(QStringList, requests);
    QFETCH(QStringList, expected);
    BrowserPool pool(shared(4, 4, 50, 25), m_policy);
    std::map<QString, std::unique_ptr<BrowserLease>> held;
    QStringList refused;
    for (const QString &name : std::as_const(requests)) {
        if (!pool.acquire(
                name, kLocal, workOf(name), nullptr,
                [&held, name](std::unique_ptr<BrowserLease> l) { held[name] = std::move(l); }))
            refused << name;
        QVERIFY(settled(pool));
    }
    const auto outcomes = [&] {
        QStringList out;
        for (const QString &name : std::as_const(requests))
            out << (refused.contains(name)  ? QStringLiteral("refused")
                    : held.count(name) != 0 ? QStringLiteral("granted")
                                            : QStringLiteral("queued"));
        return out;
    };
    QTRY_COMPARE(outcomes(), expected);
    QCOMPARE(pool.stats().busy, int(held.size()));
    QCOMPARE(pool.stats().queued, int(expected.count(QStringLiteral("queued"))));
}

void tst_BrowserPool::servesKeyedWorkFirstWhenAPageFrees()
{
    // Four pages: visitors hold two at most, a site one.
    BrowserPool pool(shared(4, 10, 50, 25), m_policy);
    std::map<QString, std::unique_ptr<BrowserLease>> held;
    QStringList order;
    for (const QString &name : QStringList{"va1", "va2", "vb1", "vc1", "k1", "k2", "k3", "vd1"}) {
        QVERIFY(pool.acquire(name, kLocal, workOf(name), nullptr,
                             [&held, &order, name](std::unique_ptr<BrowserLease> l) {
                                 held[name] = std::move(l);
                                 order << name;
                             }));
        QVERIFY(settled(pool));
    }
    QTRY_COMPARE(order, (QStringList{"va1", "vb1", "k1", "k2"}));
    QCOMPARE(pool.stats().queued, 4);
    QCOMPARE(pool.stats().visitorBusy, 2);
    QCOMPARE(pool.stats().servable, 1); // k3; the visitors' share is taken

    // A visitor's page frees: the keyed request gets it, though vc1 came first.
    held.erase(QStringLiteral("vb1"));
    QTRY_COMPARE(order.size(), 5);
    QCOMPARE(order.last(), QStringLiteral("k3"));

    // A keyed page frees and no keyed request waits: the first visitor request within
    // its shares gets it (va2 came before it, but its site holds its page).
    QCOMPARE(pool.stats().servable, 2); // vc1, vd1
    held.erase(QStringLiteral("k1"));
    QTRY_COMPARE(order.size(), 6);
    QCOMPARE(order.last(), QStringLiteral("vc1"));
    QCOMPARE(pool.stats().servable, 0);

    // The site's page frees: its waiting request gets it, before vd1; vd1 then waits
    // although a page is free, because the visitors hold their share again.
    held.erase(QStringLiteral("k2"));
    held.erase(QStringLiteral("va1"));
    QTRY_COMPARE(order.size(), 7);
    QCOMPARE(order.last(), QStringLiteral("va2"));
    QCOMPARE(pool.stats().busy, 3);
    QCOMPARE(pool.stats().queued, 1);
    QCOMPARE(pool.stats().servable, 0);

    // Keyed work takes the free page at once.
    held.erase(QStringLiteral("k3"));
    QVERIFY(pool.acquire(QStringLiteral("k4"), kLocal, nullptr,
                         [&held, &order](std::unique_ptr<BrowserLease> l) {
                             held[QStringLiteral("k4")] = std::move(l);
                             order << QStringLiteral("k4");
                         }));
    QTRY_COMPARE(order.size(), 8);
    QCOMPARE(order.last(), QStringLiteral("k4"));
    QCOMPARE(pool.stats().queued, 1);
}

PH_WEBENGINE_TEST_MAIN(tst_BrowserPool)
#include "tst_browserpool.moc"
