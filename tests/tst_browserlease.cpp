// BrowserLease's own decisions, without a browser: a fake PageEngine (FakePageEngine.h)
// stands for the page, so what is tested is what the lease decides on either engine —
// what it refuses before any page loads, how it explains a failure the network policy
// caused, when it replaces a crashed page, and how it reads a snapshot's answer.
#include "FakePageEngine.h"

#include "browser/BrowserLease.h"
#include "net/NetworkPolicy.h"

#include <QSignalSpy>
#include <QTest>

#include <optional>

using namespace ph;
using ph::test::FakePageEngine;

Q_DECLARE_METATYPE(std::optional<ph::Refusal>)
Q_DECLARE_METATYPE(ph::NavigationResult)

namespace {

Refusal refusalOf(const QString &host, const QString &reason)
{
    Refusal r;
    r.host = host;
    r.target = QStringLiteral("https://%1/").arg(host);
    r.reason = reason;
    return r;
}

NavigationResult failedWith(const QString &code, int httpStatus = 0)
{
    NavigationResult r;
    r.errorCode = code;
    r.errorMessage = code;
    r.httpStatus = httpStatus;
    return r;
}

NavigationResult loaded(int httpStatus = 200)
{
    NavigationResult r;
    r.ok = true;
    r.httpStatus = httpStatus;
    return r;
}

} // namespace

class tst_BrowserLease : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void navigationDecisions_data();
    void navigationDecisions();
    void aCrashedPageIsReplacedBeforeItLoads();
    void snapshotAnswers_data();
    void snapshotAnswers();
    void thePagesSignalsAreTheLeases();
    void theLeaseLetsGoOfItsPageWhenItEnds();
};

void tst_BrowserLease::navigationDecisions_data()
{
    QTest::addColumn<QUrl>("url");
    QTest::addColumn<bool>("privateTargets");
    QTest::addColumn<std::optional<Refusal>>("refusal");
    QTest::addColumn<NavigationResult>("answer");
    QTest::addColumn<bool>("pageAsked");
    QTest::addColumn<QString>("code"); // empty: the navigation succeeded
    QTest::addColumn<QString>("messagePart");

    const std::optional<Refusal> none;
    Refusal mainFrame = refusalOf(QStringLiteral("evil.example"), QStringLiteral("is private"));
    mainFrame.mainFrame = true;
    Refusal sameHost = refusalOf(QStringLiteral("site.example"), QStringLiteral("is private"));
    Refusal otherHost = refusalOf(QStringLiteral("hop.example"), QStringLiteral("is private"));
    Refusal unresolved = refusalOf(QStringLiteral("site.example"),
                                   QStringLiteral("the host name could not be resolved"));
    unresolved.unresolved = true;
    Refusal proxy = refusalOf(QStringLiteral("site.example"), QStringLiteral("connection reset"));
    proxy.proxyFailure = true;
    Refusal fromPage = otherHost;
    fromPage.fromPage = true;
    const QUrl site(QStringLiteral("https://site.example/"));

    QTest::newRow("a URL that is not http(s) fails BLOCKED and the page loads nothing")
        << QUrl(QStringLiteral("file:///etc/passwd")) << false << none << loaded() << false
        << "BLOCKED"
        << "the URL";
    QTest::newRow("a private address without the grant fails BLOCKED and the page loads nothing")
        << QUrl(QStringLiteral("http://127.0.0.1:8080/")) << false << none << loaded() << false
        << "BLOCKED"
        << "the URL";
    QTest::newRow("a private address with the grant is handed to the page")
        << QUrl(QStringLiteral("http://127.0.0.1:8080/")) << true << none << loaded() << true << ""
        << "";
    QTest::newRow("a page that loads reports its result unchanged")
        << site << false << none << loaded() << true << ""
        << "";
    QTest::newRow("a failure with no refusal keeps the page's own error")
        << site << false << none << failedWith(QStringLiteral("CONNECTION_REFUSED")) << true
        << "CONNECTION_REFUSED"
        << "CONNECTION_REFUSED";
    QTest::newRow("a failure the interceptor caused on the main frame is BLOCKED with its reason")
        << site << false << std::optional<Refusal>(mainFrame)
        << failedWith(QStringLiteral("NETWORK_ERROR")) << true << "BLOCKED"
        << "the network policy refused https://evil.example/: it is private";
    QTest::newRow("a failure on a host the proxy refused is BLOCKED")
        << site << false << std::optional<Refusal>(sameHost)
        << failedWith(QStringLiteral("CONNECTION_FAILED")) << true << "BLOCKED"
        << "the network policy refused";
    QTest::newRow("a redirect hop the proxy refused explains a failure without a status")
        << site << false << std::optional<Refusal>(otherHost)
        << failedWith(QStringLiteral("CONNECTION_FAILED")) << true << "BLOCKED"
        << "hop.example";
    QTest::newRow("a page's own refused load does not explain the navigation's failure")
        << site << false << std::optional<Refusal>(fromPage)
        << failedWith(QStringLiteral("CONNECTION_FAILED")) << true << "CONNECTION_FAILED"
        << "CONNECTION_FAILED";
    QTest::newRow("a host that did not resolve is a DNS failure")
        << site << false << std::optional<Refusal>(unresolved)
        << failedWith(QStringLiteral("NETWORK_ERROR")) << true << "DNS_FAILURE"
        << "could not be resolved";
    QTest::newRow("the run's own proxy failing is PROXY_FAILED")
        << site << false << std::optional<Refusal>(proxy)
        << failedWith(QStringLiteral("CONNECTION_FAILED")) << true << "PROXY_FAILED"
        << "could not be reached: connection reset";
    QTest::newRow("a proxy's 403 on a refused host is BLOCKED, not a page")
        << site << false << std::optional<Refusal>(sameHost) << loaded(403) << true << "BLOCKED"
        << "the network policy refused";
    QTest::newRow("a 403 with no refusal stays the page's answer")
        << site << false << none << loaded(403) << true << ""
        << "";
}

void tst_BrowserLease::navigationDecisions()
{
    QFETCH(QUrl, url);
    QFETCH(bool, privateTargets);
    QFETCH(std::optional<Refusal>, refusal);
    QFETCH(NavigationResult, answer);
    QFETCH(bool, pageAsked);
    QFETCH(QString, code);
    QFETCH(QString, messagePart);

    auto *page = new FakePageEngine;
    EgressGrant grant;
    grant.privateTargets = privateTargets;
    page->setGrant(grant);
    page->refusalOnTheWay = refusal;
    page->answer = answer;
    auto lease = BrowserLease::adopt(page, QStringLiteral("test"));

    std::optional<NavigationResult> result;
    lease->navigate(url, NavigateOptions(), [&result](const NavigationResult &r) { result = r; });
    QTRY_VERIFY(result.has_value());

    QCOMPARE(page->navigated.size(), pageAsked ? 1 : 0);
    QCOMPARE(result->requestedUrl, url);
    QCOMPARE(result->errorCode, code);
    QCOMPARE(result->ok, code.isEmpty());
    QVERIFY2(result->errorMessage.contains(messagePart), qPrintable(result->errorMessage));
}

void tst_BrowserLease::aCrashedPageIsReplacedBeforeItLoads()
{
    auto *page = new FakePageEngine;
    page->isCrashed = true;
    page->answer = loaded();
    auto lease = BrowserLease::adopt(page, QStringLiteral("test"));
    QVERIFY(lease->isCrashed());

    std::optional<NavigationResult> result;
    lease->navigate(QUrl(QStringLiteral("https://site.example/")), NavigateOptions(),
                    [&result](const NavigationResult &r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QCOMPARE(page->replaced, 1);
    QCOMPARE(page->navigated.size(), 1);
    QVERIFY(result->ok);
    QVERIFY(!lease->isCrashed());
}

void tst_BrowserLease::snapshotAnswers_data()
{
    QTest::addColumn<bool>("evaluates");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<bool>("crashed");
    QTest::addColumn<bool>("engineLost");
    QTest::addColumn<QString>("code"); // empty: the snapshot was read

    QTest::newRow("the agent's JSON answer is the snapshot")
        << true << QVariant(QStringLiteral("{\"title\":\"Hello\"}")) << false << false << "";
    QTest::newRow("a page that does not answer in time is SNAPSHOT_TIMEOUT")
        << false << QVariant() << false << false << "SNAPSHOT_TIMEOUT";
    QTest::newRow("a page whose renderer crashed is RENDERER_CRASHED")
        << false << QVariant() << true << false << "RENDERER_CRASHED";
    QTest::newRow("a page whose engine process ended is ENGINE_CRASHED")
        << false << QVariant() << true << true << "ENGINE_CRASHED";
    QTest::newRow("a document without the agent is AGENT_UNAVAILABLE")
        << true << QVariant() << false << false << "AGENT_UNAVAILABLE";
}

void tst_BrowserLease::snapshotAnswers()
{
    QFETCH(bool, evaluates);
    QFETCH(QVariant, value);
    QFETCH(bool, crashed);
    QFETCH(bool, engineLost);
    QFETCH(QString, code);

    auto *page = new FakePageEngine;
    page->evaluates = evaluates;
    page->value = value;
    page->isCrashed = crashed;
    page->isEngineLost = engineLost;
    page->lostBecause = QStringLiteral("the chromium process ended: killed");
    auto lease = BrowserLease::adopt(page, QStringLiteral("test"));

    std::optional<SnapshotResult> result;
    lease->snapshot(QJsonObject(), 1000, [&result](const SnapshotResult &r) { result = r; });
    QTRY_VERIFY(result.has_value());
    QCOMPARE(result->errorCode, code);
    QCOMPARE(result->ok, code.isEmpty());
    if (code.isEmpty())
        QCOMPARE(result->data.value(QStringLiteral("title")).toString(), QStringLiteral("Hello"));
    if (engineLost)
        QCOMPARE(result->errorMessage, page->lostBecause);
}

void tst_BrowserLease::thePagesSignalsAreTheLeases()
{
    auto *page = new FakePageEngine;
    auto lease = BrowserLease::adopt(page, QStringLiteral("test"));
    QSignalSpy url(lease.get(), &BrowserLease::urlChanged);
    QSignalSpy finished(lease.get(), &BrowserLease::loadFinished);
    QSignalSpy crashed(lease.get(), &BrowserLease::rendererCrashed);
    Q_EMIT page->urlChanged(QUrl(QStringLiteral("https://site.example/a")));
    Q_EMIT page->loadFinished(false, QUrl(QStringLiteral("https://site.example/a")), 404);
    Q_EMIT page->rendererCrashed();
    QCOMPARE(url.size(), 1);
    QCOMPARE(url.at(0).at(0).toUrl(), QUrl(QStringLiteral("https://site.example/a")));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(2).toInt(), 404);
    QCOMPARE(crashed.size(), 1);
    QCOMPARE(lease->engine(), QStringLiteral("fake"));
}

void tst_BrowserLease::theLeaseLetsGoOfItsPageWhenItEnds()
{
    auto *page = new FakePageEngine;
    QStringList journal;
    page->journal = [&journal](const QString &what) { journal.append(what); };
    auto lease = BrowserLease::adopt(page, QStringLiteral("test"));
    lease.reset();
    // Outside a pool the page goes with the lease, after it was told the lease ended.
    QCOMPARE(journal, QStringList({QStringLiteral("detach"), QStringLiteral("gone")}));
}

QTEST_GUILESS_MAIN(tst_BrowserLease)
#include "tst_browserlease.moc"
