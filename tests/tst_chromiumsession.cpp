// A browser session's browser (browser/chromium/ChromiumSession) with Debian's real
// chromium: served on a test-local WebSocket server whose connections go to
// attachClient, driven by the real clients (playwright-core connectOverCDP,
// puppeteer-core connect; tests/cdp/) and by a raw DevTools client trying each escape
// of issue 30. A profile directory kept across two sessions, a crash, and no browser left
// behind after kill -9 of the process that started it.
#include "FixtureServer.h"
#include "NodeScript.h"

#include "browser/LiveFrameSource.h"
#include "browser/chromium/ChromiumEngine.h"
#include "browser/chromium/ChromiumSession.h"
#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWebSocket>
#include <QWebSocketServer>
#include <QtTest>

#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace ph;
using ph::test::FixtureResponse;
using ph::test::FixtureServer;

namespace {

const EgressGrant kLocal{true, QStringLiteral("test")};
const EgressGrant kPublicOnly{false, QStringLiteral("test")};

// A session's browser served on a WebSocket server of its own, as the API serves it.
struct Served
{
    std::unique_ptr<SessionBrowser> browser;
    std::unique_ptr<QWebSocketServer> server;
    QString endpoint() const
    {
        return QStringLiteral("ws://127.0.0.1:%1/devtools/browser").arg(server->serverPort());
    }
};

// A raw DevTools client: commands answered by id, events kept.
class RawClient
{
public:
    bool open(const QString &url)
    {
        m_socket.open(QUrl(url));
        QObject::connect(&m_socket, &QWebSocket::textMessageReceived, [this](const QString &text) {
            const QJsonObject m = QJsonDocument::fromJson(text.toUtf8()).object();
            if (m.contains(QStringLiteral("id")))
                m_answers.insert(m.value(QStringLiteral("id")).toInteger(), m);
            else
                m_events.append(m);
        });
        return QTest::qWaitFor(
            [this] { return m_socket.state() == QAbstractSocket::ConnectedState; }, 10000);
    }
    // The whole answer ({id, result} or {id, error}); empty when none came in time.
    QJsonObject call(const QString &method, const QJsonObject &params = {},
                     const QString &sessionId = {})
    {
        const qint64 id = ++m_nextId;
        QJsonObject m{{QStringLiteral("id"), id},
                      {QStringLiteral("method"), method},
                      {QStringLiteral("params"), params}};
        if (!sessionId.isEmpty())
            m.insert(QStringLiteral("sessionId"), sessionId);
        sendText(QString::fromUtf8(QJsonDocument(m).toJson(QJsonDocument::Compact)));
        (void)QTest::qWaitFor([&] { return m_answers.contains(id); }, 20000);
        return m_answers.take(id);
    }
    void sendText(const QString &text) { m_socket.sendTextMessage(text); }
    QJsonObject nextAnswerWithoutId()
    {
        (void)QTest::qWaitFor([&] { return m_answers.contains(0) || errorEvent(); }, 10000);
        return m_answers.contains(0) ? m_answers.take(0) : *errorEvent();
    }
    const QJsonObject *errorEvent() const
    {
        for (const QJsonObject &e : m_events)
            if (e.contains(QStringLiteral("error")))
                return &e;
        return nullptr;
    }
    const QList<QJsonObject> &events() const { return m_events; }
    QWebSocket &socket() { return m_socket; }

private:
    QWebSocket m_socket;
    qint64 m_nextId = 0;
    QHash<qint64, QJsonObject> m_answers;
    QList<QJsonObject> m_events;
};

QString errorOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("error"))
        .toObject()
        .value(QStringLiteral("message"))
        .toString();
}

QJsonObject resultOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("result")).toObject();
}

bool processExists(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

// The chromium processes of a process group (/proc/<pid>/stat's fifth field).
QList<qint64> chromiumOfGroup(qint64 group)
{
    QList<qint64> pids;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!number || !stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 2 && fields.at(2).toLongLong() == group &&
            QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid))
                .contains(QLatin1String("chrom")))
            pids.append(pid);
    }
    return pids;
}

} // namespace

class tst_ChromiumSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void startsAndAnswersWhatJsonVersionNeeds();
    void playwrightConnectsOverCdp();
    void puppeteerConnects();
    void refusesEachEscapeAndNothingLeaks();
    void refusesAPrivateAddressEvenAfterFetchDisable();
    void rejectsMalformedMessagesWithoutHarm();
    void keepsTwoClientsOfOneSessionApart();
    void givesPagesTheSessionsUserAgentAndWindow_data();
    void givesPagesTheSessionsUserAgentAndWindow();
    void keepsAProfileAcrossSessions();
    void showsItsPageLive();
    void endsWhenItsBrowserIsKilled();
    void leavesNoBrowserAfterKillOfItsStarter_data();
    void leavesNoBrowserAfterKillOfItsStarter();

private:
    Served serve(const EgressGrant &grant, const QString &profile = {},
                 const QString &userAgent = {}, QSize window = {1280, 800});
    // A page of the raw client in its session, attached: its session id.
    QString openPage(RawClient &client, const QString &url, QString *targetId = nullptr);

    FixtureServer m_site;
    NetworkPolicy m_policy{false};
};

void tst_ChromiumSession::initTestCase()
{
    if (ChromiumEngine::findExecutable(QString()).isEmpty())
        QSKIP("chromium is not installed");
    QVERIFY(EgressProxy::instance()->isListening());
    QVERIFY(m_site.start());
    m_site.route("/login", [](const ph::test::FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html("<!doctype html><title>signed in</title><p>hi");
        r.headers.append(
            qMakePair(QByteArray("Set-Cookie"), QByteArray("sid=s3cret; Max-Age=3600; Path=/")));
        return r;
    });
    m_site.page("/", "<!doctype html><title>home</title><p>home");
    m_site.page("/continued", "<!doctype html><title>continued</title><p>continued");
    m_site.page("/private-page", "<!doctype html><title>private</title>");
    m_site.page("/private-fetch", "private");
    m_site.page("/allowed-fetch", "allowed");
}

Served tst_ChromiumSession::serve(const EgressGrant &grant, const QString &profile,
                                  const QString &userAgent, QSize window)
{
    SessionBrowserSpec spec;
    spec.label = QStringLiteral("bs_test");
    spec.userDataDir = profile;
    spec.grant = grant;
    spec.userAgent = userAgent;
    spec.width = window.width();
    spec.height = window.height();
    Served s;
    s.browser = makeChromiumSessionBrowser(QString(), spec, m_policy);
    s.server =
        std::make_unique<QWebSocketServer>(QStringLiteral("test"), QWebSocketServer::NonSecureMode);
    if (!s.server->listen(QHostAddress::LocalHost, 0))
        return s;
    SessionBrowser *browser = s.browser.get();
    QWebSocketServer *server = s.server.get();
    QObject::connect(server, &QWebSocketServer::newConnection, browser, [server, browser] {
        while (QWebSocket *socket = server->nextPendingConnection())
            browser->attachClient(std::unique_ptr<QWebSocket>(socket));
    });
    QString error = QStringLiteral("pending");
    browser->start([&error](const QString &e) { error = e; });
    (void)QTest::qWaitFor([&] { return error != QLatin1String("pending"); }, 30000);
    if (!error.isEmpty())
        qWarning() << "the session did not start:" << error;
    return s;
}

QString tst_ChromiumSession::openPage(RawClient &client, const QString &url, QString *targetId)
{
    const QJsonObject created =
        client.call(QStringLiteral("Target.createTarget"), {{QStringLiteral("url"), url}});
    const QString target = resultOf(created).value(QStringLiteral("targetId")).toString();
    if (targetId)
        *targetId = target;
    const QJsonObject attached =
        client.call(QStringLiteral("Target.attachToTarget"),
                    {{QStringLiteral("targetId"), target}, {QStringLiteral("flatten"), true}});
    return resultOf(attached).value(QStringLiteral("sessionId")).toString();
}

void tst_ChromiumSession::startsAndAnswersWhatJsonVersionNeeds()
{
    Served s = serve(kLocal);
    QVERIFY(s.browser->isRunning());
    QVERIFY(processExists(s.browser->processId()));
    const QJsonObject v = s.browser->version();
    QVERIFY2(v.value(QStringLiteral("Browser")).toString().contains(QLatin1String("Chrom")),
             QJsonDocument(v).toJson().constData());
    QVERIFY(!v.value(QStringLiteral("Protocol-Version")).toString().isEmpty());
    QVERIFY(!v.value(QStringLiteral("User-Agent")).toString().isEmpty());
    bool stopped = false;
    s.browser->stop([&] { stopped = true; });
    QTRY_VERIFY_WITH_TIMEOUT(stopped, 15000);
    QVERIFY(!s.browser->isRunning());
}

void tst_ChromiumSession::playwrightConnectsOverCdp()
{
    Served s = serve(kLocal);
    QVERIFY(s.browser->isRunning());
    QSignalSpy activity(s.browser.get(), &SessionBrowser::activity);
    const QJsonObject cfg{{QStringLiteral("endpoint"), s.endpoint()},
                          {QStringLiteral("site"), m_site.url(QString())}};
    const auto run = ph::test::runNodeScript(
        QStringLiteral(PILOTHOUSE_CDP_TEST_DIR),
        {QStringLiteral("playwright.mjs"),
         QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
        90000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject out = run.result();
    QCOMPARE(out.value(QStringLiteral("contexts")).toInt(), 1);
    QCOMPARE(out.value(QStringLiteral("status")).toInt(), 200);
    QCOMPARE(out.value(QStringLiteral("title")).toString(), QStringLiteral("signed in"));
    QVERIFY(out.value(QStringLiteral("cookies")).toArray().contains(QStringLiteral("sid=s3cret")));
    QCOMPARE(out.value(QStringLiteral("routed")).toString(), QStringLiteral("from the route"));
    QCOMPARE(out.value(QStringLiteral("continued")).toInt(), 200);
    QVERIFY(m_site.hits("/continued") >= 1);
    QVERIFY(!activity.isEmpty());
    // The client went; the browser stays for the session's owner.
    QTRY_COMPARE_WITH_TIMEOUT(s.browser->clientCount(), 0, 10000);
    QVERIFY(s.browser->isRunning());
}

void tst_ChromiumSession::puppeteerConnects()
{
    Served s = serve(kLocal);
    QVERIFY(s.browser->isRunning());
    const QJsonObject cfg{{QStringLiteral("endpoint"), s.endpoint()},
                          {QStringLiteral("site"), m_site.url(QString())}};
    const auto run = ph::test::runNodeScript(
        QStringLiteral(PILOTHOUSE_CDP_TEST_DIR),
        {QStringLiteral("puppeteer.mjs"),
         QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
        90000);
    QVERIFY2(run.ok(), qPrintable(run.diagnostics()));
    const QJsonObject out = run.result();
    QCOMPARE(out.value(QStringLiteral("status")).toInt(), 200);
    QCOMPARE(out.value(QStringLiteral("title")).toString(), QStringLiteral("signed in"));
    QCOMPARE(out.value(QStringLiteral("cookie")).toString(), QStringLiteral("sid=s3cret"));
}

// Another session's target, file: by every door, a second browser context: refused with
// a protocol error, and nothing of it happens.
void tst_ChromiumSession::refusesEachEscapeAndNothingLeaks()
{
    Served a = serve(kLocal);
    Served b = serve(kLocal);
    QVERIFY(a.browser->isRunning() && b.browser->isRunning());
    RawClient ca, cb;
    QVERIFY(ca.open(a.endpoint()));
    QVERIFY(cb.open(b.endpoint()));
    QString otherTarget;
    QVERIFY(!openPage(cb, m_site.url(QStringLiteral("/")), &otherTarget).isEmpty());

    // Another session's target id: unknown here, refused.
    for (const char *method :
         {"Target.attachToTarget", "Target.activateTarget", "Target.closeTarget"}) {
        const QJsonObject answer =
            ca.call(QString::fromLatin1(method),
                    {{QStringLiteral("targetId"), otherTarget}, {QStringLiteral("flatten"), true}});
        QVERIFY2(errorOf(answer).contains(QLatin1String("no target")), method);
    }
    const QJsonObject targets = resultOf(ca.call(QStringLiteral("Target.getTargets")));
    for (const QJsonValue &t : targets.value(QStringLiteral("targetInfos")).toArray())
        QVERIFY(t.toObject().value(QStringLiteral("targetId")).toString() != otherTarget);

    // A second browser context (with its own proxy: direct).
    QVERIFY(errorOf(ca.call(QStringLiteral("Target.createBrowserContext"),
                            {{QStringLiteral("proxyServer"), QStringLiteral("direct://")}}))
                .contains(QLatin1String("exactly one browser context")));
    // file: as a new target, as a navigation, from a page's script.
    QVERIFY(errorOf(ca.call(QStringLiteral("Target.createTarget"),
                            {{QStringLiteral("url"), QStringLiteral("file:///etc/passwd")}}))
                .contains(QLatin1String("file")));
    const QString page = openPage(ca, m_site.url(QStringLiteral("/")));
    QVERIFY(!page.isEmpty());
    QVERIFY(errorOf(ca.call(QStringLiteral("Page.navigate"),
                            {{QStringLiteral("url"), QStringLiteral("file:///etc/passwd")}}, page))
                .contains(QLatin1String("file")));
    const QJsonObject opened = ca.call(
        QStringLiteral("Runtime.evaluate"),
        {{QStringLiteral("expression"),
          QStringLiteral("fetch('file:///etc/passwd').then(r => r.text(), e => 'refused: ' + e)")},
         {QStringLiteral("awaitPromise"), true},
         {QStringLiteral("returnByValue"), true}},
        page);
    const QString fetched = resultOf(opened)
                                .value(QStringLiteral("result"))
                                .toObject()
                                .value(QStringLiteral("value"))
                                .toString();
    QVERIFY2(fetched.startsWith(QLatin1String("refused")), qPrintable(fetched));
    ca.call(
        QStringLiteral("Runtime.evaluate"),
        {{QStringLiteral("expression"), QStringLiteral("window.open('file:///etc/passwd'); 1")}},
        page);
    const QJsonObject after = resultOf(ca.call(QStringLiteral("Target.getTargets")));
    for (const QJsonValue &t : after.value(QStringLiteral("targetInfos")).toArray())
        QVERIFY(!t.toObject()
                     .value(QStringLiteral("url"))
                     .toString()
                     .startsWith(QLatin1String("file:")));
    // Events of the other client's sessions never reached this one.
    for (const QJsonObject &e : ca.events())
        QVERIFY(!QJsonDocument(e).toJson().contains(otherTarget.toUtf8()));
}

// A grant without private targets: the fixture site on 127.0.0.1 is private. The page
// does not load it and the site sees no request; a client's Fetch.disable changes
// nothing, and a fetch() from the page's script is refused too. With the grant, the
// same fetch reaches the site (so the refusal is the session's, not Chromium's own).
void tst_ChromiumSession::refusesAPrivateAddressEvenAfterFetchDisable()
{
    Served s = serve(kPublicOnly);
    QVERIFY(s.browser->isRunning());
    RawClient c;
    QVERIFY(c.open(s.endpoint()));
    const QString page = openPage(c, QStringLiteral("about:blank"));
    QVERIFY(!page.isEmpty());
    const QJsonObject nav =
        c.call(QStringLiteral("Page.navigate"),
               {{QStringLiteral("url"), m_site.url(QStringLiteral("/private-page"))}}, page);
    QVERIFY2(!resultOf(nav).value(QStringLiteral("errorText")).toString().isEmpty(),
             QJsonDocument(nav).toJson().constData());
    QCOMPARE(m_site.hits("/private-page"), 0);

    QVERIFY(errorOf(c.call(QStringLiteral("Fetch.disable"), {}, page))
                .contains(QLatin1String("has not enabled Fetch")));
    QVERIFY(errorOf(c.call(QStringLiteral("Fetch.enable"), {}, page)).isEmpty());
    QVERIFY(errorOf(c.call(QStringLiteral("Fetch.disable"), {}, page)).isEmpty());
    const auto fetchFrom = [](RawClient &client, const QString &session, const QString &url) {
        const QJsonObject r = client.call(
            QStringLiteral("Runtime.evaluate"),
            {{QStringLiteral("expression"),
              QStringLiteral(
                  "fetch('%1', {mode: 'no-cors'}).then(() => 'fetched', e => 'refused: ' + e)")
                  .arg(url)},
             {QStringLiteral("awaitPromise"), true},
             {QStringLiteral("returnByValue"), true}},
            session);
        return resultOf(r)
            .value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("value"))
            .toString();
    };
    const QString refused = fetchFrom(c, page, m_site.url(QStringLiteral("/private-fetch")));
    QVERIFY2(refused.startsWith(QLatin1String("refused")), qPrintable(refused));
    QCOMPARE(m_site.hits("/private-fetch"), 0);

    Served allowed = serve(kLocal);
    RawClient ok;
    QVERIFY(ok.open(allowed.endpoint()));
    const QString okPage = openPage(ok, QStringLiteral("about:blank"));
    QCOMPARE(fetchFrom(ok, okPage, m_site.url(QStringLiteral("/allowed-fetch"))),
             QStringLiteral("fetched"));
    QCOMPARE(m_site.hits("/allowed-fetch"), 1);
}

void tst_ChromiumSession::rejectsMalformedMessagesWithoutHarm()
{
    Served s = serve(kLocal);
    RawClient c;
    QVERIFY(c.open(s.endpoint()));
    c.sendText(QStringLiteral("{not json"));
    QCOMPARE(c.nextAnswerWithoutId()
                 .value(QStringLiteral("error"))
                 .toObject()
                 .value(QStringLiteral("code"))
                 .toInt(),
             -32700);
    c.sendText(QStringLiteral(R"({"id":"seven","method":"Browser.getVersion"})"));
    c.socket().sendBinaryMessage("\x01\x02");
    QVERIFY(errorOf(c.call(QStringLiteral("Runtime.evaluate"), {}, QStringLiteral("NOT-MINE")))
                .contains(QLatin1String("not found")));
    // Still answering.
    QVERIFY(resultOf(c.call(QStringLiteral("Browser.getVersion")))
                .value(QStringLiteral("product"))
                .toString()
                .contains(QLatin1String("Chrom")));
    // A command larger than the relay takes ends that client only.
    RawClient big;
    QVERIFY(big.open(s.endpoint()));
    QTRY_COMPARE_WITH_TIMEOUT(s.browser->clientCount(), 2, 5000);
    big.sendText(
        QStringLiteral(R"({"id":1,"method":"Runtime.evaluate","params":{"expression":"%1"}})")
            .arg(QString(65 * 1024 * 1024, QLatin1Char('x'))));
    QTRY_VERIFY_WITH_TIMEOUT(big.socket().state() == QAbstractSocket::UnconnectedState, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(s.browser->clientCount(), 1, 5000);
    QVERIFY(resultOf(c.call(QStringLiteral("Browser.getVersion")))
                .value(QStringLiteral("product"))
                .toString()
                .contains(QLatin1String("Chrom")));
    QVERIFY(s.browser->isRunning());
}

// Two clients of one session: neither sees nor drives the other's sessions, and one
// going leaves the other and the browser running.
void tst_ChromiumSession::keepsTwoClientsOfOneSessionApart()
{
    Served s = serve(kLocal);
    RawClient a, b;
    QVERIFY(a.open(s.endpoint()));
    QVERIFY(b.open(s.endpoint()));
    QTRY_COMPARE_WITH_TIMEOUT(s.browser->clientCount(), 2, 5000);
    const QString page = openPage(a, m_site.url(QStringLiteral("/")));
    QVERIFY(!page.isEmpty());
    QVERIFY(errorOf(a.call(QStringLiteral("Page.enable"), {}, page)).isEmpty());
    QVERIFY(errorOf(a.call(QStringLiteral("Page.reload"), {}, page)).isEmpty());
    QVERIFY(errorOf(b.call(QStringLiteral("Runtime.evaluate"),
                           {{QStringLiteral("expression"), QStringLiteral("1")}}, page))
                .contains(QLatin1String("not found")));
    // b's own round trip comes after everything a's page said: none of it reached b.
    QVERIFY(errorOf(b.call(QStringLiteral("Browser.getVersion"))).isEmpty());
    QVERIFY(!a.events().isEmpty());
    for (const QJsonObject &e : b.events())
        QVERIFY2(!QJsonDocument(e).toJson().contains(page.toUtf8()),
                 QJsonDocument(e).toJson().constData());
    a.socket().close();
    QTRY_COMPARE_WITH_TIMEOUT(s.browser->clientCount(), 1, 5000);
    QVERIFY(errorOf(b.call(QStringLiteral("Browser.getVersion"))).isEmpty());
    QVERIFY(s.browser->isRunning());
}

void tst_ChromiumSession::givesPagesTheSessionsUserAgentAndWindow_data()
{
    QTest::addColumn<QString>("userAgent");
    QTest::addColumn<QSize>("window");
    QTest::newRow("a session without a user agent says Chrome, not HeadlessChrome")
        << QString() << QSize(1280, 800);
    QTest::newRow("a session's own user agent and window reach its pages")
        << QStringLiteral("PilothouseSession/1.0 (test)") << QSize(1024, 700);
}

void tst_ChromiumSession::givesPagesTheSessionsUserAgentAndWindow()
{
    QFETCH(QString, userAgent);
    QFETCH(QSize, window);
    Served s = serve(kLocal, {}, userAgent, window);
    RawClient c;
    QVERIFY(c.open(s.endpoint()));
    const QString page = openPage(c, m_site.url(QStringLiteral("/")));
    const QJsonObject r = resultOf(
        c.call(QStringLiteral("Runtime.evaluate"),
               {{QStringLiteral("expression"),
                 QStringLiteral("JSON.stringify([navigator.userAgent, innerWidth, innerHeight])")},
                {QStringLiteral("returnByValue"), true}},
               page));
    const QJsonArray seen = QJsonDocument::fromJson(r.value(QStringLiteral("result"))
                                                        .toObject()
                                                        .value(QStringLiteral("value"))
                                                        .toString()
                                                        .toUtf8())
                                .array();
    const QString agent = seen.at(0).toString();
    QVERIFY2(!agent.contains(QLatin1String("Headless")), qPrintable(agent));
    if (!userAgent.isEmpty())
        QCOMPARE(agent, userAgent);
    QCOMPARE(s.browser->version().value(QStringLiteral("User-Agent")).toString(), agent);
    QCOMPARE(seen.at(1).toInt(), window.width());
    QCOMPARE(seen.at(2).toInt(), window.height());
}

// The cookie a page set in one session is there in the next on the same directory.
void tst_ChromiumSession::keepsAProfileAcrossSessions()
{
    QTemporaryDir profile;
    QVERIFY(profile.isValid());
    {
        Served s = serve(kLocal, profile.path());
        RawClient c;
        QVERIFY(c.open(s.endpoint()));
        QVERIFY(!openPage(c, m_site.url(QStringLiteral("/login"))).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(
            QJsonDocument(resultOf(c.call(QStringLiteral("Storage.getCookies"))))
                .toJson()
                .contains("s3cret"),
            15000);
        bool stopped = false;
        s.browser->stop([&] { stopped = true; });
        QTRY_VERIFY_WITH_TIMEOUT(stopped, 20000);
    }
    Served again = serve(kLocal, profile.path());
    QVERIFY(again.browser->isRunning());
    RawClient c;
    QVERIFY(c.open(again.endpoint()));
    const QJsonObject cookies = resultOf(c.call(QStringLiteral("Storage.getCookies")));
    QVERIFY2(QJsonDocument(cookies).toJson().contains("s3cret"),
             QJsonDocument(cookies).toJson().constData());
}

void tst_ChromiumSession::showsItsPageLive()
{
    Served s = serve(kLocal);
    RawClient c;
    QVERIFY(c.open(s.endpoint()));
    QVERIFY(!openPage(c, m_site.url(QStringLiteral("/"))).isEmpty());
    QObject owner;
    std::unique_ptr<LiveFrameSource> live = s.browser->liveFrames(&owner);
    QVERIFY(live);
    QImage frame;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            bool done = false;
            live->capture([&](const QImage &f) {
                frame = f;
                done = true;
            });
            (void)QTest::qWaitFor([&] { return done; }, 3000);
            return !frame.isNull();
        }(),
        15000);
    QCOMPARE(live->frameSize(), QSize(1280, 800));
}

void tst_ChromiumSession::endsWhenItsBrowserIsKilled()
{
    Served s = serve(kLocal);
    QVERIFY(s.browser->isRunning());
    RawClient c;
    QVERIFY(c.open(s.endpoint()));
    QTRY_COMPARE_WITH_TIMEOUT(s.browser->clientCount(), 1, 5000);
    QSignalSpy ended(s.browser.get(), &SessionBrowser::ended);
    ::kill(pid_t(s.browser->processId()), SIGKILL);
    QVERIFY(ended.wait(15000));
    QVERIFY(!ended.first().first().toString().isEmpty());
    QVERIFY(!s.browser->isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(s.browser->clientCount(), 0, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(c.socket().state() == QAbstractSocket::UnconnectedState, 5000);
}

void tst_ChromiumSession::leavesNoBrowserAfterKillOfItsStarter_data()
{
    QTest::addColumn<QString>("build");
    QTest::newRow("the headless shell goes with the process that started it") << QString();
    QTest::newRow("Debian's chromium launcher's browser goes with the process that started it")
        << QStringLiteral("/usr/bin/chromium");
    // This launcher starts the browser as its child and waits: the parent-death signal
    // reaches the script only; the browser goes because its DevTools pipe closes.
    QTest::newRow("a browser a launcher script forked goes with the process that started it")
        << QStringLiteral("/usr/bin/chromium-headless-shell");
}

// This test program again, as a helper that starts a session and prints the browser's
// pid; killed with SIGKILL, it can clean nothing up: the browser must go on its own.
void tst_ChromiumSession::leavesNoBrowserAfterKillOfItsStarter()
{
    QFETCH(QString, build);
    if (ChromiumEngine::findExecutable(build).isEmpty())
        QSKIP("this build is not installed");
    QProcess helper;
    helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    helper.start(
        QCoreApplication::applicationFilePath(),
        {QStringLiteral("--session-helper"), build.isEmpty() ? QStringLiteral("-") : build});
    QVERIFY(helper.waitForStarted());
    QByteArray line;
    QTRY_VERIFY_WITH_TIMEOUT((line += helper.readAllStandardOutput()).contains('\n'), 30000);
    const qint64 group = line.trimmed().toLongLong(); // the browser's process group
    QVERIFY2(processExists(group), line.constData());
    const QList<qint64> chromium = chromiumOfGroup(group);
    QVERIFY(!chromium.isEmpty());
    ::kill(pid_t(helper.processId()), SIGKILL);
    QVERIFY(helper.waitForFinished(5000));
    // Bounded: every process of the group is gone, the browser first of all.
    QTRY_VERIFY_WITH_TIMEOUT(::kill(-pid_t(group), 0) != 0, 15000);
    for (qint64 pid : chromium)
        QVERIFY(!processExists(pid));
}

namespace {

// --session-helper BUILD: starts a session, prints its browser's pid, runs until killed.
int sessionHelper(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString build = QString::fromLocal8Bit(argv[2]);
    SessionBrowserSpec spec;
    spec.label = QStringLiteral("bs_helper");
    spec.grant = kLocal;
    NetworkPolicy policy;
    auto browser =
        makeChromiumSessionBrowser(build == QLatin1String("-") ? QString() : build, spec, policy);
    browser->start([&browser](const QString &error) {
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            QCoreApplication::exit(1);
            return;
        }
        std::printf("%lld\n", static_cast<long long>(browser->processId()));
        std::fflush(stdout);
    });
    return app.exec();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 2 && qstrcmp(argv[1], "--session-helper") == 0)
        return sessionHelper(argc, argv);
    QGuiApplication app(argc, argv);
    tst_ChromiumSession tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}

#include "tst_chromiumsession.moc"
