// Live views of agent runs (options.liveView) against the real service: the link in
// the first answer and in GET /agent/{id} while the run lives, its signed, expiring
// token, the viewer page and its policy, frames of the run's page (an offscreen view, or
// the print of the page without one), input only while the run waits for input, the
// console's tiles left their pages, and a person taking over in Debian's chromium.
#include "FixtureServer.h"
#include "HttpClient.h"
#include "NodeScript.h"
#include "SseStream.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/BrowserLease.h"
#include "browser/BrowserPool.h"
#include "browserviews/BrowserTile.h"
#include "browserviews/BrowserViewsDock.h"
#include "browserviews/ViewFrameSource.h"
#include "cloud/LiveViewController.h"
#include "core/Clock.h"
#include "core/Store.h"
#include "engine/liveview/LiveViews.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QTcpSocket>
#include <QUrlQuery>
#include <QWebEnginePage>
#include <QWebEngineView>

using namespace ph;
using namespace ph::test;

namespace {

const QByteArray kLoginPage =
    "<!doctype html><title>Sign in</title><form action=\"/orders\">"
    "<label for=\"e\">Email</label><input id=\"e\" name=\"email\">"
    "<label for=\"p\">Password</label><input id=\"p\" name=\"password\" type=\"password\">"
    "<button>Sign in</button></form>";

// "/live/<id>?token=…" of a liveView URL.
QString pathOf(const QString &url)
{
    const QUrl u(url);
    return u.path() + QLatin1Char('?') + u.query();
}

// The stream and input routes of the same link.
QString streamPath(const QString &url)
{
    const QUrl u(url);
    return u.path() + QStringLiteral("/stream?") + u.query();
}

QString inputPath(const QString &url)
{
    const QUrl u(url);
    return u.path() + QStringLiteral("/input?") + u.query();
}

QString tokenOf(const QString &url)
{
    return QUrlQuery(QUrl(url).query()).queryItemValue(QStringLiteral("token"));
}

QVariant evaluate(QWebEnginePage *page, const QString &script)
{
    QVariant out;
    bool done = false;
    page->runJavaScript(script, [&](const QVariant &v) {
        out = v;
        done = true;
    });
    (void)QTest::qWaitFor([&] { return done; }, 10000);
    return out;
}

QImage jpegOf(const SseEvent &frame)
{
    return QImage::fromData(
        QByteArray::fromBase64(frame.data.value(QStringLiteral("jpeg")).toString().toLatin1()),
        "JPG");
}

} // namespace

class tst_LiveView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();
    void givesTheLinkInTheFirstAnswerAndWhileTheRunLives();
    void refusesATokenThatIsNotValid_data();
    void refusesATokenThatIsNotValid();
    void refusesAnExpiredToken();
    void servesTheViewerPageUnderAStrictPolicy();
    void refusesInputWhileTheRunExecutesAndAfterItEnds();
    void streamsFramesOfTheViewportAndTakesInputWhileTheRunWaits();
    void refusesBadInput_data();
    void refusesBadInput();
    void printsThePageWithoutAView();
    void leavesTheConsoleTilesTheirPages();
    void aPersonTakesOverInChromium();

private:
    // A run on the login page, waiting for input, with a live view link.
    QJsonObject startLogin();
    BrowserLease *leaseOf(const QString &trajectoryId) const;

    std::unique_ptr<TestService> m_ph;
    FixtureServer m_site;
    QStringList m_started; // runs to cancel after each test (each holds a page)
};

void tst_LiveView::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    QVERIFY(m_site.start());
    m_site.page("/login", kLoginPage);
    m_site.page("/orders", "<!doctype html><title>Orders</title><h1>Your orders</h1>");
    m_site.route("/slow", [](const FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html(
            htmlPage(QStringLiteral("Slow"), QStringLiteral("<h1>Slow news</h1><p>Late.</p>")));
        r.delayMs = 3000;
        return r;
    });
}

void tst_LiveView::cleanupTestCase()
{
    m_ph.reset();
}

void tst_LiveView::init()
{
    // Real pixels and real input events, as the console's build registers.
    m_ph->service().liveViews().setFrameSourceFactory(ui::ViewFrameSource::factory());
}

void tst_LiveView::cleanup()
{
    HttpClient c = m_ph->client();
    for (const QString &id : std::exchange(m_started, {}))
        c.send("DELETE", QStringLiteral("/agent/") + id);
}

QJsonObject tst_LiveView::startLogin()
{
    HttpClient c = m_ph->client();
    const HttpResponse r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Log in and read my orders")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/login"))}},
                {QStringLiteral("options"), QJsonObject{{QStringLiteral("liveView"), true}}}});
    if (r.json().value(QStringLiteral("status")).toString() != QLatin1String("requires_input"))
        qWarning().noquote() << r.body;
    m_started << r.json().value(QStringLiteral("trajectoryId")).toString();
    return r.json();
}

BrowserLease *tst_LiveView::leaseOf(const QString &trajectoryId) const
{
    for (BrowserLease *l : m_ph->service().pool().leases()) {
        if (l->label() == trajectoryId)
            return l;
    }
    return nullptr;
}

void tst_LiveView::givesTheLinkInTheFirstAnswerAndWhileTheRunLives()
{
    HttpClient c = m_ph->client();
    const qint64 askedAt = m_ph->service().store().clock().nowMs();
    const HttpResponse started =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/slow"))}},
                {QStringLiteral("options"), QJsonObject{{QStringLiteral("liveView"), true}}}},
               {{"Prefer", "wait=0"}});
    const qint64 answeredAt = m_ph->service().store().clock().nowMs();
    QCOMPARE(started.status, 202);
    const QJsonObject link = started.json().value(QStringLiteral("liveView")).toObject();
    const QString id = started.json().value(QStringLiteral("trajectoryId")).toString();
    QVERIFY2(
        link.value(QStringLiteral("url"))
            .toString()
            .startsWith(m_ph->base() + QStringLiteral("/live/") + id + QStringLiteral("?token=")),
        started.body.constData());
    const QDateTime expires = QDateTime::fromString(
        link.value(QStringLiteral("expiresAt")).toString(), Qt::ISODateWithMs);
    QVERIFY(expires.isValid());
    // agent.liveViewTokenSeconds: 1800 by default, from the moment the link was made (between
    // the request and its answer: bounds from the order of events, not from how fast they were).
    const qint64 expiresMs = expires.toMSecsSinceEpoch();
    QVERIFY2(expiresMs >= askedAt + 1800 * 1000 && expiresMs <= answeredAt + 1800 * 1000,
             qPrintable(QStringLiteral("%1 not in [%2, %3]")
                            .arg(expiresMs)
                            .arg(askedAt + 1800 * 1000)
                            .arg(answeredAt + 1800 * 1000)));

    // While it runs, GET gives the link again (the same one).
    const HttpResponse running = c.get(QStringLiteral("/agent/") + id);
    QCOMPARE(running.status, 202);
    QCOMPARE(running.json().value(QStringLiteral("liveView")).toObject(), link);

    // Once it ended: no link (the run no longer lives), and the stored response never had one.
    const HttpResponse ended =
        c.send("GET", QStringLiteral("/agent/") + id, {}, {{"Prefer", "wait=30"}});
    QCOMPARE(ended.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QVERIFY(!ended.json().contains(QStringLiteral("liveView")));

    // A run that did not ask has none.
    const HttpResponse plain =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/orders"))}}});
    QCOMPARE(plain.status, 200);
    QVERIFY(!plain.json().contains(QStringLiteral("liveView")));

    // The synchronous answer of a run that ended at once carries it too: it shows the end.
    const HttpResponse quick =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/orders"))}},
                {QStringLiteral("options"), QJsonObject{{QStringLiteral("liveView"), true}}}});
    QCOMPARE(quick.json().value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    const QString quickUrl =
        quick.json()[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    QVERIFY(!quickUrl.isEmpty());
    SseStream stream;
    QVERIFY(stream.open(m_ph->port(), streamPath(quickUrl)));
    QCOMPARE(stream.status(), 200);
    const auto end = stream.next("end");
    QVERIFY(end);
    QCOMPARE(end->data.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QTRY_VERIFY(stream.closed());

    // options.liveView must be a boolean.
    const HttpResponse bad =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("options"), QJsonObject{{QStringLiteral("liveView"), 1}}}});
    QCOMPARE(bad.status, 400);
    QCOMPARE(bad.json().value(QStringLiteral("field")).toString(),
             QStringLiteral("options.liveView"));
}

void tst_LiveView::refusesATokenThatIsNotValid_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("refuses a token whose signature was changed") << "forged";
    QTest::newRow("refuses another trajectory's token") << "other";
    QTest::newRow("refuses a token for another phase") << "phase";
    QTest::newRow("refuses a token whose expiry was pushed back") << "extended";
    QTest::newRow("refuses a malformed token") << "malformed";
    QTest::newRow("refuses a request without a token") << "none";
}

void tst_LiveView::refusesATokenThatIsNotValid()
{
    QFETCH(QString, how);
    const QJsonObject run = startLogin();
    const QString id = run.value(QStringLiteral("trajectoryId")).toString();
    const QString token =
        tokenOf(run[QStringLiteral("liveView")][QStringLiteral("url")].toString());
    QStringList parts = token.split(QLatin1Char('.'));
    QCOMPARE(parts.size(), 3);
    QString path = QStringLiteral("/live/") + id;
    QString bad;
    if (how == QLatin1String("forged")) {
        QString sig = parts[2];
        sig[0] = sig[0] == QLatin1Char('a') ? QLatin1Char('b') : QLatin1Char('a');
        bad = parts[0] + QLatin1Char('.') + parts[1] + QLatin1Char('.') + sig;
    } else if (how == QLatin1String("other")) {
        bad = token;
        path = QStringLiteral("/live/trj_someoneelse");
    } else if (how == QLatin1String("phase")) {
        bad = QStringLiteral("2.") + parts[1] + QLatin1Char('.') + parts[2];
    } else if (how == QLatin1String("extended")) {
        bad = parts[0] + QLatin1Char('.') + QString::number(parts[1].toLongLong() + 86400000) +
              QLatin1Char('.') + parts[2];
    } else if (how == QLatin1String("malformed")) {
        bad = QStringLiteral("not-a-token");
    }
    HttpClient anonymous(m_ph->base());
    const QString query = bad.isEmpty() ? QString() : QStringLiteral("?token=") + bad;
    for (const QString &route : {path + query, path + QStringLiteral("/stream") + query}) {
        const HttpResponse r = anonymous.get(route);
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
                 QStringLiteral("LIVE_VIEW_TOKEN_INVALID"));
    }
    const HttpResponse input = anonymous.post(path + QStringLiteral("/input") + query,
                                              {{QStringLiteral("type"), QStringLiteral("key")},
                                               {QStringLiteral("key"), QStringLiteral("Tab")}});
    QCOMPARE(input.status, 403);
    QCOMPARE(input.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("LIVE_VIEW_TOKEN_INVALID"));
    // The real token still opens it, with no API key.
    QCOMPARE(
        anonymous.get(QStringLiteral("/live/") + id + QStringLiteral("?token=") + token).status,
        200);
}

void tst_LiveView::refusesAnExpiredToken()
{
    ManualClock clock(QDateTime::currentMSecsSinceEpoch());
    TestService ph({QStringLiteral("agent.liveViewTokenSeconds=60")}, {}, &clock);
    QVERIFY2(ph.ok(), qPrintable(ph.error()));
    HttpClient c = ph.client();
    const HttpResponse r =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Log in and read my orders")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/login"))}},
                {QStringLiteral("options"), QJsonObject{{QStringLiteral("liveView"), true}}}});
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    const QString url = r.json()[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    HttpClient anonymous(ph.base());
    QCOMPARE(anonymous.get(pathOf(url)).status, 200);
    clock.advance(61 * 1000);
    const HttpResponse expired = anonymous.get(pathOf(url));
    QCOMPARE(expired.status, 403);
    QCOMPARE(expired.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("LIVE_VIEW_TOKEN_EXPIRED"));
    QCOMPARE(expired.json().value(QStringLiteral("field")).toString(), QStringLiteral("token"));
    // While the run lives, GET /agent/{id} gives a fresh link that works.
    const HttpResponse again = c.get(QStringLiteral("/agent/") +
                                     r.json().value(QStringLiteral("trajectoryId")).toString());
    const QString fresh =
        again.json()[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    QVERIFY(!fresh.isEmpty());
    QVERIFY(fresh != url);
    QCOMPARE(anonymous.get(pathOf(fresh)).status, 200);
}

void tst_LiveView::servesTheViewerPageUnderAStrictPolicy()
{
    const QJsonObject run = startLogin();
    const QString url = run[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    HttpClient anonymous(m_ph->base());
    const HttpResponse page = anonymous.get(pathOf(url));
    QCOMPARE(page.status, 200);
    QVERIFY(page.header("content-type").startsWith("text/html"));
    const QByteArray csp = page.header("content-security-policy");
    QCOMPARE(csp, cloud::LiveViewController::contentSecurityPolicy());
    QVERIFY(csp.startsWith("default-src 'none'"));
    QVERIFY(!csp.contains("unsafe-inline"));
    QVERIFY(!csp.contains("unsafe-eval"));
    QVERIFY(csp.contains("connect-src 'self'"));
    QVERIFY(csp.contains("frame-ancestors 'none'"));
    // The one inline script is allowed by its hash; nothing is loaded from elsewhere.
    const qsizetype open = page.body.indexOf("<script>") + 8;
    const QByteArray script = page.body.mid(open, page.body.indexOf("</script>") - open);
    QVERIFY(csp.contains("'sha256-" +
                         QCryptographicHash::hash(script, QCryptographicHash::Sha256).toBase64() +
                         "'"));
    QVERIFY(!page.body.contains("src=\"http"));
    QVERIFY(!page.body.contains("href=\"http"));
    QVERIFY(!page.body.contains("eval("));
    QVERIFY(!page.body.contains("new Function"));
    QCOMPARE(page.header("referrer-policy"), QByteArray("no-referrer"));
    QCOMPARE(page.header("x-frame-options"), QByteArray("DENY"));
    QCOMPARE(page.header("cache-control"), QByteArray("no-store"));
}

void tst_LiveView::refusesInputWhileTheRunExecutesAndAfterItEnds()
{
    HttpClient c = m_ph->client();
    const HttpResponse started =
        c.post(QStringLiteral("/agent"),
               {{QStringLiteral("input"), QStringLiteral("Read the page")},
                {QStringLiteral("urls"), QJsonArray{m_site.url(QStringLiteral("/slow"))}},
                {QStringLiteral("options"), QJsonObject{{QStringLiteral("liveView"), true}}}},
               {{"Prefer", "wait=0"}});
    QCOMPARE(started.status, 202);
    const QString url =
        started.json()[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    const QString input = inputPath(url);
    HttpClient anonymous(m_ph->base());
    const QJsonObject click{{QStringLiteral("type"), QStringLiteral("click")},
                            {QStringLiteral("x"), 10},
                            {QStringLiteral("y"), 10}};
    const HttpResponse watching = anonymous.post(input, click);
    QCOMPARE(watching.status, 409);
    QCOMPARE(watching.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("LIVE_VIEW_WATCH_ONLY"));
    // The stream says so too: watching only while the run executes.
    SseStream stream;
    QVERIFY(stream.open(m_ph->port(), streamPath(url)));
    const auto status = stream.next("status");
    QVERIFY(status);
    QCOMPARE(status->data.value(QStringLiteral("status")).toString(), QStringLiteral("executing"));
    QCOMPARE(status->data.value(QStringLiteral("input")).toBool(), false);
    // The end reaches the viewer, and the stream closes.
    const auto end = stream.next("end", 60000);
    QVERIFY(end);
    QCOMPARE(end->data.value(QStringLiteral("status")).toString(), QStringLiteral("success"));
    QTRY_VERIFY(stream.closed());
    const HttpResponse after = anonymous.post(input, click);
    QCOMPARE(after.status, 409);
    QCOMPARE(after.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("LIVE_VIEW_RUN_ENDED"));
}

void tst_LiveView::streamsFramesOfTheViewportAndTakesInputWhileTheRunWaits()
{
    const QJsonObject run = startLogin();
    const QString id = run.value(QStringLiteral("trajectoryId")).toString();
    const QString url = run[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    SseStream stream;
    QVERIFY(stream.open(m_ph->port(), streamPath(url)));
    QCOMPARE(stream.status(), 200);
    QVERIFY(stream.headers().toLower().contains("content-type: text/event-stream"));
    const auto status = stream.next("status");
    QVERIFY(status);
    QCOMPARE(status->data.value(QStringLiteral("status")).toString(),
             QStringLiteral("requires_input"));
    QCOMPARE(status->data.value(QStringLiteral("input")).toBool(), true);
    QVERIFY(status->data.value(QStringLiteral("url")).toString().endsWith(QLatin1String("/login")));
    QCOMPARE(status->data.value(QStringLiteral("frames")).toString(), QStringLiteral("view"));
    QVERIFY(!status->data.value(QStringLiteral("questions")).toArray().isEmpty());

    // A frame: a JPEG of the page's viewport.
    const auto frame = stream.next("frame");
    QVERIFY(frame);
    const QImage image = jpegOf(*frame);
    QVERIFY(!image.isNull());
    BrowserLease *lease = leaseOf(id);
    QVERIFY(lease);
    const QStringList viewport =
        evaluate(lease->page(), QStringLiteral("innerWidth + 'x' + innerHeight"))
            .toString()
            .split(QLatin1Char('x'));
    QCOMPARE(image.size(), QSize(viewport.value(0).toInt(), viewport.value(1).toInt()));
    QCOMPARE(image.size(), QSize(1280, 800));
    QCOMPARE(frame->data.value(QStringLiteral("width")).toInt(), 1280);

    // Taken over: a click on the email field, typing, then Enter submits the form.
    const QJsonObject box =
        QJsonDocument::fromJson(
            evaluate(lease->page(), QStringLiteral("JSON.stringify(document.getElementById('e')"
                                                   ".getBoundingClientRect())"))
                .toString()
                .toUtf8())
            .object();
    const double x = box.value(QStringLiteral("x")).toDouble() + 10;
    const double y = box.value(QStringLiteral("y")).toDouble() + 5;
    const QString input = inputPath(url);
    HttpClient anonymous(m_ph->base());
    HttpResponse r = anonymous.post(input, {{QStringLiteral("type"), QStringLiteral("click")},
                                            {QStringLiteral("x"), x},
                                            {QStringLiteral("y"), y}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("ok")).toBool(), true);
    r = anonymous.post(input, {{QStringLiteral("type"), QStringLiteral("type")},
                               {QStringLiteral("text"), QStringLiteral("ann@example.com")}});
    QCOMPARE(r.status, 200);
    QTRY_COMPARE(
        evaluate(lease->page(), QStringLiteral("document.getElementById('e').value")).toString(),
        QStringLiteral("ann@example.com"));
    // What the person did shows in the next frame.
    const auto after = stream.next("frame");
    QVERIFY(after);
    QVERIFY(jpegOf(*after) != image);
    const qsizetype before = m_site.requests("/orders").size();
    r = anonymous.post(input, {{QStringLiteral("type"), QStringLiteral("key")},
                               {QStringLiteral("key"), QStringLiteral("Enter")}});
    QCOMPARE(r.status, 200);
    QTRY_VERIFY(m_site.requests("/orders").size() > before);
    QVERIFY2(m_site.requests("/orders").last().path.contains("email=ann%40example.com"),
             m_site.requests("/orders").last().path.constData());
    const auto moved = stream.next("status");
    QVERIFY(moved);
}

void tst_LiveView::refusesBadInput_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("field");
    QTest::newRow("refuses an input without a type") << QJsonObject{} << "type";
    QTest::newRow("refuses an unknown type")
        << QJsonObject{{QStringLiteral("type"), QStringLiteral("drag")}} << "type";
    QTest::newRow("refuses a click without x")
        << QJsonObject{{QStringLiteral("type"), QStringLiteral("click")}, {QStringLiteral("y"), 1}}
        << "x";
    QTest::newRow("refuses a click outside the frame")
        << QJsonObject{{QStringLiteral("type"), QStringLiteral("click")},
                       {QStringLiteral("x"), 5000},
                       {QStringLiteral("y"), 1}}
        << "x";
    QTest::newRow("refuses typing without text")
        << QJsonObject{{QStringLiteral("type"), QStringLiteral("type")},
                       {QStringLiteral("text"), QString()}}
        << "text";
    QTest::newRow("refuses a key it does not know")
        << QJsonObject{{QStringLiteral("type"), QStringLiteral("key")},
                       {QStringLiteral("key"), QStringLiteral("F13")}}
        << "key";
}

void tst_LiveView::refusesBadInput()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, field);
    const QJsonObject run = startLogin();
    const QString url = run[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    HttpClient anonymous(m_ph->base());
    const HttpResponse r = anonymous.post(inputPath(url), body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), field);
}

void tst_LiveView::printsThePageWithoutAView()
{
    // The headless-only build has no Widgets: the page is printed, input goes by the DOM.
    m_ph->service().liveViews().setFrameSourceFactory(nullptr);
    const QJsonObject run = startLogin();
    const QString id = run.value(QStringLiteral("trajectoryId")).toString();
    const QString url = run[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    SseStream stream;
    QVERIFY(stream.open(m_ph->port(), streamPath(url)));
    const auto status = stream.next("status");
    QVERIFY(status);
    QCOMPARE(status->data.value(QStringLiteral("frames")).toString(), QStringLiteral("print"));
    const auto frame = stream.next("frame");
    QVERIFY(frame);
    const QImage image = jpegOf(*frame);
    QCOMPARE(image.size(), QSize(1280, 800));
    // The page's own viewport is untouched (no view was attached).
    BrowserLease *lease = leaseOf(id);
    QVERIFY(lease);
    QVERIFY(!QWebEngineView::forPage(lease->page()));
    // The field's place in the print layout (the document at the frame's width).
    const QJsonObject box =
        QJsonDocument::fromJson(
            evaluate(lease->page(),
                     QStringLiteral("(function(){var r=document.documentElement;"
                                    "r.style.width='1280px';var b=document.getElementById('e')"
                                    ".getBoundingClientRect();r.removeAttribute('style');"
                                    "return JSON.stringify(b);})()"))
                .toString()
                .toUtf8())
            .object();
    const QString input = inputPath(url);
    HttpClient anonymous(m_ph->base());
    HttpResponse r = anonymous.post(
        input, {{QStringLiteral("type"), QStringLiteral("click")},
                {QStringLiteral("x"), box.value(QStringLiteral("x")).toDouble() + 5},
                {QStringLiteral("y"), box.value(QStringLiteral("y")).toDouble() + 5}});
    QCOMPARE(r.status, 200);
    r = anonymous.post(input, {{QStringLiteral("type"), QStringLiteral("type")},
                               {QStringLiteral("text"), QStringLiteral("bo@example.com")}});
    QCOMPARE(r.status, 200);
    QCOMPARE(
        evaluate(lease->page(), QStringLiteral("document.getElementById('e').value")).toString(),
        QStringLiteral("bo@example.com"));
    // Typing with no field focused is refused by the page, typed.
    r = anonymous.post(input, {{QStringLiteral("type"), QStringLiteral("key")},
                               {QStringLiteral("key"), QStringLiteral("Escape")}});
    QCOMPARE(r.status, 200);
    r = anonymous.post(input, {{QStringLiteral("type"), QStringLiteral("type")},
                               {QStringLiteral("text"), QStringLiteral("x")}});
    QCOMPARE(r.status, 409);
    QCOMPARE(r.json().value(QStringLiteral("code")).toString(),
             QStringLiteral("LIVE_VIEW_INPUT_FAILED"));
}

void tst_LiveView::leavesTheConsoleTilesTheirPages()
{
    ui::BrowserViewsDock dock(ui::ConsoleServices::of(m_ph->service()));
    dock.resize(900, 700);
    dock.show();
    const QJsonObject run = startLogin();
    const QString id = run.value(QStringLiteral("trajectoryId")).toString();
    const QString url = run[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    QTRY_VERIFY(dock.tileFor(id));
    ui::BrowserTile *tile = dock.tileFor(id);
    BrowserLease *lease = leaseOf(id);
    QVERIFY(lease);
    QCOMPARE(QWebEngineView::forPage(lease->page()), tile->view());
    {
        // The tile shows the page: the live view takes its frames from the tile.
        SseStream stream;
        QVERIFY(stream.open(m_ph->port(), streamPath(url)));
        const auto frame = stream.next("frame");
        QVERIFY(frame);
        QCOMPARE(jpegOf(*frame).size(), tile->view()->size());
        QCOMPARE(QWebEngineView::forPage(lease->page()), tile->view());
        // Input goes through the page (the tile's view stays as the operator set it).
        QVERIFY(!tile->view()->isEnabled());
        const HttpResponse r =
            HttpClient(m_ph->base())
                .post(inputPath(url), {{QStringLiteral("type"), QStringLiteral("key")},
                                       {QStringLiteral("key"), QStringLiteral("Tab")}});
        QCOMPARE(r.status, 200);
    }
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().liveViews().sessionCount(), 0, 10000);
    QCOMPARE(QWebEngineView::forPage(lease->page()), tile->view());
    // A tile nobody sees lends its page while someone watches, and gets it back after.
    dock.hide();
    {
        SseStream stream;
        QVERIFY(stream.open(m_ph->port(), streamPath(url)));
        const auto frame = stream.next("frame");
        QVERIFY(frame);
        QCOMPARE(jpegOf(*frame).size(), QSize(1280, 800));
        QVERIFY(QWebEngineView::forPage(lease->page()) != tile->view());
    }
    // The viewer left: after the session's grace the page is back in its tile.
    QTRY_COMPARE_WITH_TIMEOUT(m_ph->service().liveViews().sessionCount(), 0, 10000);
    QCOMPARE(QWebEngineView::forPage(lease->page()), tile->view());
}

void tst_LiveView::aPersonTakesOverInChromium()
{
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/chromium")))
        QSKIP("Debian's chromium is not installed (packaging/dev/deps.sh --bench installs it)");
    const QJsonObject run = startLogin();
    const QString id = run.value(QStringLiteral("trajectoryId")).toString();
    const QString url = run[QStringLiteral("liveView")][QStringLiteral("url")].toString();
    QVERIFY(!url.isEmpty());
    // Where the email field is on the frames: the page as the live view shows it.
    engine::LiveViews &views = m_ph->service().liveViews();
    QObject holder;
    views.watch(views.verify(id, tokenOf(url)), &holder);
    BrowserLease *lease = leaseOf(id);
    QVERIFY(lease);
    QTRY_VERIFY(QWebEngineView::forPage(lease->page()));
    const QJsonObject box =
        QJsonDocument::fromJson(
            evaluate(lease->page(), QStringLiteral("JSON.stringify(document.getElementById('e')"
                                                   ".getBoundingClientRect())"))
                .toString()
                .toUtf8())
            .object();
    const QJsonObject cfg{{QStringLiteral("url"), url},
                          {QStringLiteral("x"), box.value(QStringLiteral("x")).toDouble() + 10},
                          {QStringLiteral("y"), box.value(QStringLiteral("y")).toDouble() + 5},
                          {QStringLiteral("text"), QStringLiteral("cy@example.com")}};
    const qsizetype before = m_site.requests("/orders").size();
    const NodeResult r =
        runNodeScript(QStringLiteral(PILOTHOUSE_BROWSER_TEST_DIR),
                      {QStringLiteral("liveview.mjs"),
                       QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
                      120000);
    QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
    const QJsonObject out = r.result();
    // A frame was shown (an image of the page's size), the run waited for input, and the
    // take-over switch was offered.
    QCOMPARE(out.value(QStringLiteral("naturalWidth")).toInt(), 1280);
    QCOMPARE(out.value(QStringLiteral("naturalHeight")).toInt(), 800);
    QCOMPARE(out.value(QStringLiteral("status")).toString(), QStringLiteral("requires_input"));
    QVERIFY2(out.value(QStringLiteral("errors")).toArray().isEmpty(),
             QJsonDocument(out).toJson().constData());
    // What the person typed reached the site: the form was submitted with it.
    QTRY_VERIFY_WITH_TIMEOUT(m_site.requests("/orders").size() > before, 15000);
    QVERIFY2(m_site.requests("/orders").last().path.contains("email=cy%40example.com"),
             m_site.requests("/orders").last().path.constData());
}

PH_WIDGETS_TEST_MAIN(tst_LiveView)
#include "tst_liveview.moc"
