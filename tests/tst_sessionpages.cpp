// Pilothouse's own pages inside a browser session (browser/chromium/SessionPages: what
// ChromiumSession::openPage hands to /scrape, /agent, /execute and the bridge): tabs of the
// browser's default context that share the session's cookies, a per-session limit with a
// queue behind it, and a page kept warm for the next lease. Real chromium, a fixture site
// on loopback, the egress proxy.
#include "FixtureServer.h"
#include "LeaseCalls.h"
#include "TestMain.h"

#include "browser/BrowserLease.h"
#include "browser/chromium/ChromiumEngine.h"
#include "browser/chromium/SessionPages.h"
#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"

#include <QPointer>

using namespace ph;
using ph::test::FixtureResponse;
using ph::test::FixtureServer;

namespace {

const EgressGrant kLocal{true, QStringLiteral("test")};

struct Opened
{
    std::unique_ptr<BrowserLease> lease;
    QString error;
    bool done = false;
};

std::shared_ptr<Opened> open(SessionPages &pages, QObject *context = nullptr)
{
    auto out = std::make_shared<Opened>();
    pages.open(QStringLiteral("test"), context,
               [out](std::unique_ptr<BrowserLease> lease, const QString &error) {
                   out->lease = std::move(lease);
                   out->error = error;
                   out->done = true;
               });
    return out;
}

} // namespace

class tst_SessionPages : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void pagesShareTheSessionsCookies();
    void keepsWithinItsLimit_data();
    void keepsWithinItsLimit();
    void keepsAPageWarmForTheNextLease();
    void keepsNoPageWithACallStillUnderWay();
    void closingFailsTheWaitingRequests();

private:
    std::unique_ptr<SessionPages> pages(int limit, int queueLimit);

    FixtureServer m_site;
    NetworkPolicy m_policy{true};
    std::unique_ptr<ChromiumEngine> m_engine;
};

void tst_SessionPages::initTestCase()
{
    if (ChromiumEngine::findExecutable(QString()).isEmpty())
        QSKIP("chromium is not installed (packaging/dev/deps.sh --bench installs it)");
    m_site.route("/sign-in", [](const test::FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html(
            test::htmlPage(QStringLiteral("Signed in"), QStringLiteral("<p>ok</p>")));
        r.headers.append({QByteArray("Set-Cookie"), QByteArray("account=ada; Path=/")});
        return r;
    });
    m_site.route("/account", [](const test::FixtureRequest &req) {
        const QString cookie = QString::fromLatin1(req.headers.value("cookie"));
        return FixtureResponse::html(
            test::htmlPage(QStringLiteral("Account"),
                           QStringLiteral("<p id=c>%1</p>").arg(cookie.toHtmlEscaped())));
    });
    m_site.page("/a", test::htmlPage(QStringLiteral("A"), QStringLiteral("<p>a</p>")));
    m_site.route("/slow", [](const test::FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html(test::htmlPage(QStringLiteral("Slow"), {}));
        r.hang = true;
        return r;
    });
    QVERIFY(m_site.start());
    m_engine = std::make_unique<ChromiumEngine>(QString(), m_policy.egress()->port());
    bool ready = false;
    QString error;
    m_engine->whenReady(nullptr, [&](const QString &e) {
        error = e;
        ready = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(ready, 30000);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void tst_SessionPages::cleanupTestCase()
{
    if (m_engine)
        m_engine->stop();
}

std::unique_ptr<SessionPages> tst_SessionPages::pages(int limit, int queueLimit)
{
    SessionPages::Options o;
    o.limit = limit;
    o.queueLimit = queueLimit;
    return std::make_unique<SessionPages>(*m_engine, kLocal, m_policy.egress(), m_policy.resolver(),
                                          o);
}

// The signed-in state of a session is its browser's default context: a cookie one of its
// pages receives is sent by the others.
void tst_SessionPages::pagesShareTheSessionsCookies()
{
    auto session = pages(4, 4);
    auto first = open(*session);
    auto second = open(*session);
    QTRY_VERIFY_WITH_TIMEOUT(first->done && second->done, 30000);
    QVERIFY(first->lease && second->lease);
    QCOMPARE(first->lease->engine(), QStringLiteral("chromium"));
    QVERIFY(test::navigateAndWait(*first->lease, m_site.url(QStringLiteral("/sign-in"))).ok);
    QVERIFY(test::navigateAndWait(*second->lease, m_site.url(QStringLiteral("/account"))).ok);
    QCOMPARE(test::evaluateAndWait(*second->lease,
                                   QStringLiteral("document.getElementById('c').textContent"))
                 .toString(),
             QStringLiteral("account=ada"));
}

void tst_SessionPages::keepsWithinItsLimit_data()
{
    QTest::addColumn<int>("queueLimit");
    QTest::newRow("past its limit a request waits until a page comes back") << 4;
    QTest::newRow("past its limit and its queue a request is refused as busy") << 0;
}

void tst_SessionPages::keepsWithinItsLimit()
{
    QFETCH(int, queueLimit);
    auto session = pages(1, queueLimit);
    auto first = open(*session);
    QTRY_VERIFY_WITH_TIMEOUT(first->done, 30000);
    QVERIFY(first->lease);
    auto second = open(*session);
    if (queueLimit == 0) {
        QTRY_VERIFY(second->done);
        QVERIFY(!second->lease);
        QCOMPARE(second->error, SessionPages::busyError(1));
        return;
    }
    QCOMPARE(session->queued(), 1); // it waits for the page
    QVERIFY(!second->done);
    QCOMPARE(session->busy(), 1);
    first->lease.reset();
    QTRY_VERIFY_WITH_TIMEOUT(second->done, 30000);
    QVERIFY(second->lease);
    QCOMPARE(session->busy(), 1);
}

// A session keeps its pages warm: the page a lease gives back, healthy, is the next
// lease's (its tab still shows what it showed), so a /scrape in a session pays for no new
// target and no agent injection.
void tst_SessionPages::keepsAPageWarmForTheNextLease()
{
    auto session = pages(4, 4);
    auto first = open(*session);
    QTRY_VERIFY_WITH_TIMEOUT(first->done, 30000);
    QVERIFY(first->lease);
    const QString a = m_site.url(QStringLiteral("/a"));
    QVERIFY(test::navigateAndWait(*first->lease, a).ok);
    first->lease.reset();
    QTRY_COMPARE(session->warm(), 1);
    auto second = open(*session);
    QTRY_VERIFY_WITH_TIMEOUT(second->done, 30000);
    QVERIFY(second->lease);
    QCOMPARE(second->lease->url().toString(), a);
}

// A page given back while its navigation is still under way is closed, not kept: the
// caller's callback must never reach the next lease.
void tst_SessionPages::keepsNoPageWithACallStillUnderWay()
{
    auto session = pages(4, 4);
    auto first = open(*session);
    QTRY_VERIFY_WITH_TIMEOUT(first->done, 30000);
    QVERIFY(first->lease);
    const QString a = m_site.url(QStringLiteral("/a"));
    QVERIFY(test::navigateAndWait(*first->lease, a).ok);
    NavigateOptions o;
    o.timeoutMs = 60000;
    const QString slow = m_site.url(QStringLiteral("/slow"));
    first->lease->navigate(QUrl(slow), o, [](const NavigationResult &) {});
    QTRY_COMPARE(m_site.hits("/slow"), 1);
    first->lease.reset();
    auto second = open(*session);
    QTRY_VERIFY_WITH_TIMEOUT(second->done, 30000);
    QVERIFY(second->lease);
    const QString shown = second->lease->url().toString();
    QVERIFY2(shown != a && shown != slow, qPrintable(shown));
}

void tst_SessionPages::closingFailsTheWaitingRequests()
{
    auto session = pages(1, 4);
    auto first = open(*session);
    QTRY_VERIFY_WITH_TIMEOUT(first->done, 30000);
    auto second = open(*session);
    QCOMPARE(session->queued(), 1);
    session->close(QStringLiteral("the browser session ended"));
    QVERIFY(second->done);
    QVERIFY(!second->lease);
    QCOMPARE(second->error, QStringLiteral("the browser session ended"));
    auto third = open(*session);
    QTRY_VERIFY(third->done);
    QCOMPARE(third->error, QStringLiteral("the browser session ended"));
}

PH_WEBENGINE_TEST_MAIN(tst_SessionPages)
#include "tst_sessionpages.moc"
