// Browser sessions end to end (issue 30): the real service on loopback with the real
// chromium session browser, driven by the real clients in tests/cdp/ (playwright-core
// connectOverCDP, puppeteer-core connect, a raw WebSocket), signing in to a fixture site.
#include "Engines.h"
#include "FixtureServer.h"
#include "NodeScript.h"
#include "SseStream.h"
#include "TestMain.h"
#include "TestService.h"

#include "browser/LiveViewPage.h"

#include <QDir>
#include <QDirIterator>
#include <QImage>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUrl>

#include <csignal>

using namespace ph;
using namespace ph::test;

namespace {

QString cdpDir()
{
    return QStringLiteral(PILOTHOUSE_CDP_TEST_DIR);
}

bool processAlive(qint64 pid)
{
    if (pid <= 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    // A zombie has ended; only its parent has not read its status yet.
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close < 0 || s.mid(close + 2, 1) != "Z";
}

// The processes whose command line names `needle` (a data directory), zombies aside.
QList<qint64> processesNaming(const QString &needle)
{
    QList<qint64> out;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok)
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(needle.toUtf8()) &&
            processAlive(pid))
            out.append(pid);
    }
    return out;
}

QStringList cookiesOf(const NodeResult &r)
{
    QStringList out;
    for (const QJsonValue &v : r.result().value(QStringLiteral("cookies")).toArray())
        out.append(v.toString());
    return out;
}

} // namespace

class tst_Sessions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void aProfileKeepsTheSignInForTheNextSessionOfItsKey();
    void puppeteerConnectsWithTheWebSocketUrl();
    void aWrongTokenIsRefusedWithNoHint_data();
    void aWrongTokenIsRefusedWithNoHint();
    void releaseEndsTheBrowserProcess();
    void aKilledBrowserEndsItsSessionAsCrashed();
    void theQtWebEngineEngineIsRefusedWithWhy();
    void killingPilothouseLeavesNoBrowserBehind();
    void theLiveViewShowsTheSessionsPageAndTakesAClick();

private:
    QJsonObject create(const QString &key, const QJsonObject &body);
    QJsonObject get(const QString &key, const QString &id);
    NodeResult client(const QString &which, const QString &endpoint, const QString &path);
    QJsonObject livePage(const QString &action, const QString &endpoint, const QString &path = {});

    std::unique_ptr<TestService> m_ph;
    FixtureServer m_site;
    QString m_owner;
    QString m_other;
};

void tst_Sessions::initTestCase()
{
    if (!chromiumInstalled())
        QSKIP("chromium is not installed (packaging/dev/deps.sh --bench installs it)");
    QVERIFY(QFile::exists(cdpDir() + QStringLiteral("/node_modules/playwright-core")));
    m_site.route("/login", [](const FixtureRequest &) {
        FixtureResponse r = FixtureResponse::html(htmlPage(QStringLiteral("Signed in"), {}));
        r.headers.append(qMakePair(QByteArray("Set-Cookie"),
                                   QByteArray("sid=signed-in; Max-Age=86400; Path=/; HttpOnly")));
        return r;
    });
    // The whole viewport is the button: a click anywhere on the frame presses it.
    m_site.page("/button",
                htmlPage(QStringLiteral("Not clicked"),
                         QStringLiteral("<button style=\"position:fixed;inset:0;width:100%;"
                                        "height:100%\" onclick=\"document.title='Clicked'\">"
                                        "Press</button>")));
    m_site.page("/home", htmlPage(QStringLiteral("Home"), QStringLiteral("<p>home</p>")));
    QVERIFY(m_site.start());
    m_ph = std::make_unique<TestService>();
    QVERIFY2(m_ph->ok(), qPrintable(m_ph->error()));
    m_owner = m_ph->ownerKey();
    m_other = m_ph->mintKey(100);
}

void tst_Sessions::cleanup()
{
    // Every test leaves no session running.
    HttpClient c(m_ph->base());
    for (const QString &key : {m_owner, m_other}) {
        c.setBearer(key);
        for (const QJsonValue &s :
             c.get(QStringLiteral("/sessions")).json().value(QStringLiteral("sessions")).toArray())
            c.send("DELETE", QStringLiteral("/sessions/") + s[QStringLiteral("id")].toString());
    }
}

QJsonObject tst_Sessions::create(const QString &key, const QJsonObject &body)
{
    HttpClient c(m_ph->base());
    c.setBearer(key);
    const HttpResponse r = c.post(QStringLiteral("/sessions"), body);
    if (!r.expectStatus({201}, __FILE__, __LINE__))
        return {};
    return r.json();
}

QJsonObject tst_Sessions::get(const QString &key, const QString &id)
{
    HttpClient c(m_ph->base());
    c.setBearer(key);
    return c.get(QStringLiteral("/sessions/") + id).json();
}

NodeResult tst_Sessions::client(const QString &which, const QString &endpoint, const QString &path)
{
    const QJsonObject cfg{{QStringLiteral("client"), which},
                          {QStringLiteral("endpoint"), endpoint},
                          {QStringLiteral("site"), m_site.url(QString())},
                          {QStringLiteral("path"), path}};
    return runNodeScript(cdpDir(),
                         {QStringLiteral("session-client.mjs"),
                          QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
                         90000);
}

void tst_Sessions::aProfileKeepsTheSignInForTheNextSessionOfItsKey()
{
    const QJsonObject first =
        create(m_owner, {{QStringLiteral("profile"), QStringLiteral("shop")}});
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("active"));
    const QString httpUrl = first.value(QStringLiteral("cdpHttpUrl")).toString();
    QVERIFY(httpUrl.startsWith(m_ph->base() + QStringLiteral("/cdp/")));
    const NodeResult signin =
        client(QStringLiteral("playwright"), httpUrl, QStringLiteral("/login"));
    QVERIFY2(signin.ok(), qPrintable(signin.diagnostics()));
    QCOMPARE(signin.result().value(QStringLiteral("contexts")).toInt(), 1);
    QVERIFY(cookiesOf(signin).contains(QStringLiteral("sid=signed-in")));

    // Released: the profile is sealed; the next session of the same profile has the cookie.
    HttpClient c(m_ph->base());
    c.setBearer(m_owner);
    const QString firstId = first.value(QStringLiteral("id")).toString();
    QCOMPARE(c.send("DELETE", QStringLiteral("/sessions/") + firstId).status, 200);
    auto profileInUse = [&c] {
        const QJsonArray profiles = c.get(QStringLiteral("/sessions/profiles"))
                                        .json()
                                        .value(QStringLiteral("profiles"))
                                        .toArray();
        return profiles.isEmpty() ||
               profiles.first().toObject().value(QStringLiteral("inUse")).toBool();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!profileInUse(), 30000);
    const QJsonObject again =
        create(m_owner, {{QStringLiteral("profile"), QStringLiteral("shop")}});
    const NodeResult back =
        client(QStringLiteral("playwright"), again.value(QStringLiteral("cdpHttpUrl")).toString(),
               QStringLiteral("/home"));
    QVERIFY2(back.ok(), qPrintable(back.diagnostics()));
    QVERIFY2(cookiesOf(back).contains(QStringLiteral("sid=signed-in")),
             qPrintable(cookiesOf(back).join(QLatin1Char(' '))));

    // Another profile of the same key, and the same name in another key: not signed in.
    const QJsonObject otherProfile =
        create(m_owner, {{QStringLiteral("profile"), QStringLiteral("news")}});
    const QJsonObject otherKey =
        create(m_other, {{QStringLiteral("profile"), QStringLiteral("shop")}});
    for (const QJsonObject &s : {otherProfile, otherKey}) {
        const NodeResult r =
            client(QStringLiteral("playwright"), s.value(QStringLiteral("cdpHttpUrl")).toString(),
                   QStringLiteral("/home"));
        QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
        QVERIFY(!cookiesOf(r).contains(QStringLiteral("sid=signed-in")));
    }
}

void tst_Sessions::puppeteerConnectsWithTheWebSocketUrl()
{
    const QJsonObject s = create(m_other, {});
    const QString ws = s.value(QStringLiteral("cdpUrl")).toString();
    QVERIFY2(ws.startsWith(QStringLiteral("ws://")) &&
                 ws.endsWith(QStringLiteral("/devtools/browser")),
             qPrintable(ws));
    // /json/version names the same WebSocket (Playwright reads it first).
    HttpClient anonymous(m_ph->base());
    const HttpResponse version = anonymous.get(s.value(QStringLiteral("cdpHttpUrl")).toString() +
                                               QStringLiteral("/json/version/"));
    QCOMPARE(version.status, 200);
    QCOMPARE(version.json().value(QStringLiteral("webSocketDebuggerUrl")).toString(), ws);
    const NodeResult r = client(QStringLiteral("puppeteer"), ws, QStringLiteral("/home"));
    QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
    QCOMPARE(r.result().value(QStringLiteral("title")).toString(), QStringLiteral("Home"));
}

void tst_Sessions::aWrongTokenIsRefusedWithNoHint_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("a made-up token") << QStringLiteral("made-up");
    QTest::newRow("the token of a released session") << QStringLiteral("released");
    QTest::newRow("the API key in place of the token") << QStringLiteral("api-key");
}

void tst_Sessions::aWrongTokenIsRefusedWithNoHint()
{
    QFETCH(QString, how);
    QString token = QStringLiteral("cdp_notAToken0000000000000000000000000000");
    if (how == QLatin1String("api-key")) {
        token = m_owner;
    } else if (how == QLatin1String("released")) {
        const QJsonObject s = create(m_owner, {});
        token = s.value(QStringLiteral("cdpHttpUrl")).toString().section(QLatin1Char('/'), -1);
        HttpClient c(m_ph->base());
        c.setBearer(m_owner);
        QCOMPARE(c.send("DELETE", QStringLiteral("/sessions/") + s[QStringLiteral("id")].toString())
                     .status,
                 200);
    }
    HttpClient anonymous(m_ph->base());
    for (const QString &path : {QStringLiteral("/json/version"), QStringLiteral("/json/list")}) {
        const HttpResponse r = anonymous.get(QStringLiteral("/cdp/") + token + path);
        QCOMPARE(r.status, 401);
        QVERIFY(!r.body.contains(token.toUtf8()));
    }
    const QString url =
        QStringLiteral("ws://127.0.0.1:%1/cdp/%2/devtools/browser").arg(m_ph->port()).arg(token);
    const NodeResult r =
        runNodeScript(cdpDir(),
                      {QStringLiteral("wrong-token.mjs"),
                       QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("url"), url}})
                                             .toJson(QJsonDocument::Compact))},
                      30000);
    QVERIFY2(r.ok(), qPrintable(r.diagnostics()));
    QCOMPARE(r.result().value(QStringLiteral("code")).toInt(), 1008);
    QCOMPARE(r.result().value(QStringLiteral("answered")).toBool(), false);
    QCOMPARE(r.result().value(QStringLiteral("reason")).toString(), QString());
}

void tst_Sessions::releaseEndsTheBrowserProcess()
{
    const QJsonObject s = create(m_owner, {});
    const qint64 pid = s.value(QStringLiteral("pid")).toInteger();
    QVERIFY(processAlive(pid));
    HttpClient c(m_ph->base());
    c.setBearer(m_owner);
    const HttpResponse r =
        c.send("DELETE", QStringLiteral("/sessions/") + s[QStringLiteral("id")].toString());
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("status")).toString(), QStringLiteral("released"));
    QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 20000);
    // Another key's DELETE of it is 404, as for an id that never was.
    HttpClient other(m_ph->base());
    other.setBearer(m_other);
    QCOMPARE(other.send("DELETE", QStringLiteral("/sessions/") + s[QStringLiteral("id")].toString())
                 .status,
             404);
}

void tst_Sessions::aKilledBrowserEndsItsSessionAsCrashed()
{
    const QJsonObject s = create(m_owner, {{QStringLiteral("profile"), QStringLiteral("crashy")}});
    const QString id = s.value(QStringLiteral("id")).toString();
    const qint64 pid = s.value(QStringLiteral("pid")).toInteger();
    QVERIFY(processAlive(pid));
    ::kill(pid_t(pid), SIGKILL);
    QTRY_COMPARE_WITH_TIMEOUT(get(m_owner, id).value(QStringLiteral("status")).toString(),
                              QStringLiteral("crashed"), 20000);
    QVERIFY(!get(m_owner, id).value(QStringLiteral("endReason")).toString().isEmpty());
    // The profile was sealed back: nothing of it is left in clear.
    QTRY_VERIFY(!QDir(m_ph->dataDir() + QStringLiteral("/profiles/open/") + id).exists());
}

void tst_Sessions::theQtWebEngineEngineIsRefusedWithWhy()
{
    HttpClient c(m_ph->base());
    c.setBearer(m_owner);
    const HttpResponse r = c.post(QStringLiteral("/sessions"),
                                  {{QStringLiteral("engine"), QStringLiteral("qtwebengine")}});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("field")).toString(), QStringLiteral("engine"));
    QVERIFY(r.body.contains("DevTools protocol"));
}

void tst_Sessions::killingPilothouseLeavesNoBrowserBehind()
{
    QTemporaryDir data;
    QProcess ph;
    ph.setProcessChannelMode(QProcess::SeparateChannels);
    ph.setStandardErrorFile(QProcess::nullDevice());
    ph.start(qEnvironmentVariable("PILOTHOUSE_BINARY"),
             {QStringLiteral("--headless"), QStringLiteral("--port"), QStringLiteral("0"),
              QStringLiteral("--data-dir"), data.path(), QStringLiteral("--print-api-key")});
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += ph.readAllStandardOutput()).contains("Data directory:"),
                             30000);
    const QString base = QRegularExpression(QStringLiteral("listening on (http://\\S+)"))
                             .match(QString::fromUtf8(out))
                             .captured(1);
    const QString key = QRegularExpression(QStringLiteral("API key: (phk_\\w+)"))
                            .match(QString::fromUtf8(out))
                            .captured(1);
    QVERIFY2(!base.isEmpty() && !key.isEmpty(), out.constData());
    HttpClient c(base);
    c.setBearer(key);
    const HttpResponse s =
        c.post(QStringLiteral("/sessions"), {{QStringLiteral("profile"), QStringLiteral("kept")}});
    QCOMPARE(s.status, 201);
    QVERIFY(!processesNaming(data.path() + QStringLiteral("/profiles/open")).isEmpty());
    ::kill(pid_t(ph.processId()), SIGKILL);
    QVERIFY(ph.waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(processesNaming(data.path()).isEmpty(), 30000);
}

QJsonObject tst_Sessions::livePage(const QString &action, const QString &endpoint,
                                   const QString &path)
{
    const QJsonObject cfg{{QStringLiteral("action"), action},
                          {QStringLiteral("endpoint"), endpoint},
                          {QStringLiteral("site"), m_site.url(QString())},
                          {QStringLiteral("path"), path}};
    return runNodeScript(cdpDir(),
                         {QStringLiteral("liveview-page.mjs"),
                          QString::fromUtf8(QJsonDocument(cfg).toJson(QJsonDocument::Compact))},
                         60000)
        .result();
}

// The session's live view (docs/api/sessions.md#live-view): the run live view's page
// under its policy, frames of the page a client opened, a click that reaches it, no way
// in without the token, and the stream's end when the session is released.
void tst_Sessions::theLiveViewShowsTheSessionsPageAndTakesAClick()
{
    const QJsonObject s = create(m_owner, {});
    const QString id = s.value(QStringLiteral("id")).toString();
    const QString endpoint = s.value(QStringLiteral("cdpHttpUrl")).toString();
    const QUrl live(s.value(QStringLiteral("liveViewUrl")).toString());
    QVERIFY2(live.isValid() && live.path() == QStringLiteral("/sessions/%1/live").arg(id),
             qPrintable(live.toString()));
    QCOMPARE(live.toString(QUrl::RemovePath | QUrl::RemoveQuery), m_ph->base());
    QCOMPARE(get(m_owner, id).value(QStringLiteral("liveViewUrl")).toString(), live.toString());
    const QJsonObject opened =
        livePage(QStringLiteral("open"), endpoint, QStringLiteral("/button"));
    QVERIFY2(opened.value(QStringLiteral("ok")).toBool(),
             qPrintable(opened.value(QStringLiteral("error")).toString()));
    QCOMPARE(opened.value(QStringLiteral("title")).toString(), QStringLiteral("Not clicked"));

    const QString query = QLatin1Char('?') + live.query();
    HttpClient anonymous(m_ph->base());
    const HttpResponse page = anonymous.get(live.path() + query);
    QCOMPARE(page.status, 200);
    QVERIFY(page.header("content-type").startsWith("text/html"));
    QCOMPARE(page.header("content-security-policy"), liveview::contentSecurityPolicy());
    QCOMPARE(page.body, liveview::pageHtml());
    QCOMPARE(anonymous.get(live.path() + QStringLiteral("?token=1.abc")).status, 403);

    SseStream stream;
    QVERIFY(stream.open(m_ph->port(), live.path() + QStringLiteral("/stream") + query));
    QCOMPARE(stream.status(), 200);
    const std::optional<SseEvent> status = stream.next("status");
    QVERIFY(status);
    QCOMPARE(status->data.value(QStringLiteral("status")).toString(), QStringLiteral("active"));
    // The page speaks of a session, not of a run.
    QCOMPARE(status->data.value(QStringLiteral("kind")).toString(), QStringLiteral("session"));
    const std::optional<SseEvent> frame = stream.next("frame", 30000);
    QVERIFY(frame);
    QVERIFY(frame->data.value(QStringLiteral("width")).toInt() > 0);
    const QImage image = QImage::fromData(
        QByteArray::fromBase64(frame->data.value(QStringLiteral("jpeg")).toString().toLatin1()),
        "JPG");
    QVERIFY(!image.isNull());

    const HttpResponse click = anonymous.post(
        live.path() + QStringLiteral("/input") + query,
        {{QStringLiteral("type"), QStringLiteral("click")},
         {QStringLiteral("x"), frame->data.value(QStringLiteral("width")).toInt() / 2},
         {QStringLiteral("y"), frame->data.value(QStringLiteral("height")).toInt() / 2}});
    QVERIFY2(click.status == 200, click.body.constData());
    QVERIFY(click.json().value(QStringLiteral("ok")).toBool());
    QTRY_VERIFY_WITH_TIMEOUT(livePage(QStringLiteral("titles"), endpoint)
                                 .value(QStringLiteral("titles"))
                                 .toArray()
                                 .contains(QStringLiteral("Clicked")),
                             30000);

    HttpClient c(m_ph->base());
    c.setBearer(m_owner);
    QCOMPARE(c.send("DELETE", QStringLiteral("/sessions/") + id).status, 200);
    const std::optional<SseEvent> end = stream.next("end");
    QVERIFY(end);
    QVERIFY(end->data.value(QStringLiteral("ended")).toBool());
    QTRY_VERIFY(stream.closed());
    QCOMPARE(anonymous
                 .post(live.path() + QStringLiteral("/input") + query,
                       {{QStringLiteral("type"), QStringLiteral("key")},
                        {QStringLiteral("key"), QStringLiteral("Enter")}})
                 .status,
             410);
}

PH_WEBENGINE_TEST_MAIN(tst_Sessions)
#include "tst_sessions.moc"
