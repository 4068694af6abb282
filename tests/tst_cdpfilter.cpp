// The DevTools relay's filter (browser/chromium/CdpFilter), on its own: one row per rule
// of docs/api/sessions.md, "The DevTools relay". Pure: no browser, no event loop.
#include "browser/chromium/CdpFilter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;

namespace {

using Kind = CdpFilter::Verdict::Kind;

// What every row's client was shown before its command: the target KNOWN (an event),
// the stream STREAM (a printToPDF result), and Fetch on its session FETCHING.
void showTheUsual(CdpFilter &filter)
{
    filter.observeEvent(QStringLiteral("Target.targetCreated"),
                        {{QStringLiteral("targetInfo"),
                          QJsonObject{{QStringLiteral("targetId"), QStringLiteral("KNOWN")},
                                      {QStringLiteral("type"), QStringLiteral("page")}}}});
    filter.observeResult(QStringLiteral("Page.printToPDF"),
                         {{QStringLiteral("transferMode"), QStringLiteral("ReturnAsStream")}},
                         QStringLiteral("PAGE"),
                         {{QStringLiteral("stream"), QStringLiteral("STREAM")}});
    filter.observeResult(QStringLiteral("Fetch.enable"), {}, QStringLiteral("FETCHING"), {});
}

} // namespace

class tst_CdpFilter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void judgesEachCommand_data();
    void judgesEachCommand();
    void forgetsWhatIsGone();
    void answersBrowserCloseByClosingTheClient();

private:
    CdpFilter makeFilter() const;
    QString expand(QString text) const;

    QTemporaryDir m_dir;
};

void tst_CdpFilter::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("uploads")));
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("downloads")));
    QFile ok(m_dir.filePath(QStringLiteral("uploads/form.txt")));
    QVERIFY(ok.open(QIODevice::WriteOnly));
    ok.write("a file the session's owner put here");
    ok.close();
    // A link in the upload directory to a file of the server's.
    QVERIFY(
        QFile::link(QStringLiteral("/etc/passwd"), m_dir.filePath(QStringLiteral("uploads/link"))));
}

CdpFilter tst_CdpFilter::makeFilter() const
{
    CdpFilter::Scope scope;
    scope.contextId = QStringLiteral("CTX");
    scope.downloadDir = m_dir.filePath(QStringLiteral("downloads"));
    scope.uploadDir = m_dir.filePath(QStringLiteral("uploads"));
    CdpFilter filter(scope);
    showTheUsual(filter);
    return filter;
}

QString tst_CdpFilter::expand(QString text) const
{
    return text.replace(QStringLiteral("$UPLOADS"), m_dir.filePath(QStringLiteral("uploads")))
        .replace(QStringLiteral("$DOWNLOADS"), m_dir.filePath(QStringLiteral("downloads")));
}

void tst_CdpFilter::judgesEachCommand_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("params");    // JSON; $UPLOADS, $DOWNLOADS expanded
    QTest::addColumn<QString>("sessionId"); // empty: the client's browser-level session
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("said"); // in the refusal, or the rewritten params (JSON)
    const int allow = int(Kind::Allow), refuse = int(Kind::Refuse), rewrite = int(Kind::Rewrite);
    const QString none;

    // Target: the session's one context, URLs the engine opens, targets the client knows.
    QTest::newRow("a client may not create a browser context outside its session")
        << "Target.createBrowserContext"
        << R"({"proxyServer":"direct://"})" << none << refuse << "exactly one browser context";
    QTest::newRow("a client may not dispose of the session's browser context")
        << "Target.disposeBrowserContext"
        << R"({"browserContextId":"CTX"})" << none << refuse << "exactly one browser context";
    QTest::newRow("a client may open a blank page in its session")
        << "Target.createTarget"
        << R"({"url":"about:blank"})" << none << allow << none;
    QTest::newRow("a client may name its session's context when it opens a page")
        << "Target.createTarget"
        << R"({"url":"https://example.com/","browserContextId":"CTX"})" << none << allow << none;
    QTest::newRow("a client may not open a page in another browser context")
        << "Target.createTarget"
        << R"({"url":"about:blank","browserContextId":"OTHER"})" << none << refuse
        << "not this session's";
    QTest::newRow("a client may not open a page on a file URL")
        << "Target.createTarget"
        << R"({"url":"file:///etc/passwd"})" << none << refuse << "file";
    QTest::newRow("a client may not hide a file URL behind spaces and tabs")
        << "Target.createTarget"
        << R"({"url":" \tfi\tle:///etc/passwd"})" << none << refuse << "file";
    QTest::newRow("a client may not open a chrome page")
        << "Target.createTarget"
        << R"({"url":"chrome://settings"})" << none << refuse << "chrome";
    QTest::newRow("a client may not give a page raw DevTools")
        << "Target.exposeDevToolsProtocol"
        << R"({"targetId":"KNOWN"})" << none << refuse << "not available";
    QTest::newRow("a client may not add remote locations to discover")
        << "Target.setRemoteLocations"
        << R"({"locations":[{"host":"10.0.0.1","port":9222}]})" << none << refuse
        << "not available";
    QTest::newRow("a client may not open DevTools windows")
        << "Target.openDevTools"
        << R"({"targetId":"KNOWN"})" << none << refuse << "not available";
    QTest::newRow("a client may not tunnel unfiltered commands to a target")
        << "Target.sendMessageToTarget"
        << R"({"message":"{}","targetId":"KNOWN"})" << none << refuse << "flat sessions";
    QTest::newRow("a client may not open a second browser-level session")
        << "Target.attachToBrowserTarget"
        << "{}" << none << refuse << "not available";
    QTest::newRow("a client may attach to a target it was told of")
        << "Target.attachToTarget"
        << R"({"targetId":"KNOWN","flatten":true})" << none << allow << none;
    QTest::newRow("a client may not attach to a target it was never told of")
        << "Target.attachToTarget"
        << R"({"targetId":"ELSEWHERE","flatten":true})" << none << refuse << "no target";
    QTest::newRow("a client may not activate a target it was never told of")
        << "Target.activateTarget"
        << R"({"targetId":"ELSEWHERE"})" << none << refuse << "no target";
    QTest::newRow("a client may not close a target it was never told of")
        << "Target.closeTarget"
        << R"({"targetId":"ELSEWHERE"})" << none << refuse << "no target";
    QTest::newRow("a client may not attach without flat sessions")
        << "Target.attachToTarget"
        << R"({"targetId":"KNOWN","flatten":false})" << none << refuse << "flatten";
    QTest::newRow("a client may auto-attach with flat sessions")
        << "Target.setAutoAttach"
        << R"({"autoAttach":true,"waitForDebuggerOnStart":true,"flatten":true})" << none << allow
        << none;
    QTest::newRow("a client may not auto-attach without flat sessions")
        << "Target.setAutoAttach"
        << R"({"autoAttach":true,"waitForDebuggerOnStart":false})" << none << refuse << "flatten";

    // Page: no navigation to a URL the engine does not open.
    for (const char *url : {"file:///etc/passwd", "chrome://version", "devtools://devtools/x",
                            "view-source:https://example.com/", "chrome-extension://abc/x.html",
                            "javascript:alert(1)"}) {
        QTest::newRow(
            qPrintable(QStringLiteral("a client may not navigate a page to %1")
                           .arg(QString::fromLatin1(url).section(QLatin1Char(':'), 0, 0))))
            << "Page.navigate" << QStringLiteral(R"({"url":"%1"})").arg(QLatin1String(url))
            << "PAGE" << refuse << "Page.navigate refused";
    }
    QTest::newRow("a client may navigate a page to an https URL")
        << "Page.navigate"
        << R"({"url":"https://example.com/"})"
        << "PAGE" << allow << none;

    // Fetch: the session's own request checks stay on whatever a client does.
    QTest::newRow("a client may not turn off Fetch it never turned on")
        << "Fetch.disable"
        << "{}"
        << "PAGE" << refuse << "has not enabled Fetch";
    QTest::newRow("a client may turn off the Fetch it turned on") << "Fetch.disable"
                                                                  << "{}"
                                                                  << "FETCHING" << allow << none;
    QTest::newRow("a client may not send a paused request on to a file URL")
        << "Fetch.continueRequest"
        << R"({"requestId":"1","url":"file:///etc/passwd"})"
        << "FETCHING" << refuse << "http(s) URLs only";
    QTest::newRow("a client may continue a paused request as it is") << "Fetch.continueRequest"
                                                                     << R"({"requestId":"1"})"
                                                                     << "FETCHING" << allow << none;

    // Domains that act outside the session's pages.
    for (const char *method : {"Tethering.bind", "SystemInfo.getInfo", "Extensions.loadUnpacked",
                               "PWA.install", "Cast.enable", "Nonsense.command", "noDomain"}) {
        QTest::newRow(
            qPrintable(QStringLiteral("a client may not call %1").arg(QLatin1String(method))))
            << method << "{}" << none << refuse << "not available in a browser session";
    }
    QTest::newRow("a client may evaluate script in its pages") << "Runtime.evaluate"
                                                               << R"({"expression":"1+1"})"
                                                               << "PAGE" << allow << none;

    // Browser: only what acts on the session's own browser.
    for (const char *method : {"Browser.getVersion", "Browser.getWindowForTarget",
                               "Browser.getWindowBounds", "Browser.setWindowBounds"})
        QTest::newRow(qPrintable(QStringLiteral("a client may call %1").arg(QLatin1String(method))))
            << method << "{}" << none << allow << none;
    for (const char *method :
         {"Browser.crash", "Browser.crashGpuProcess", "Browser.getBrowserCommandLine",
          "Browser.executeBrowserCommand", "Browser.setDockTile", "Browser.getHistograms"})
        QTest::newRow(
            qPrintable(QStringLiteral("a client may not call %1").arg(QLatin1String(method))))
            << method << "{}" << none << refuse << "not available in a browser session";
    QTest::newRow("downloads a client allows go to the session's own directory")
        << "Browser.setDownloadBehavior"
        << R"({"behavior":"allowAndName","downloadPath":"/root","eventsEnabled":true})" << none
        << rewrite
        << R"({"behavior":"allowAndName","downloadPath":"$DOWNLOADS","eventsEnabled":true})";
    QTest::newRow("a client may deny downloads")
        << "Browser.setDownloadBehavior"
        << R"({"behavior":"deny"})" << none << allow << none;
    QTest::newRow("a path beside a denial is dropped")
        << "Browser.setDownloadBehavior"
        << R"({"behavior":"deny","downloadPath":"/root"})" << none << rewrite
        << R"({"behavior":"deny"})";
    QTest::newRow("a client may not set downloads of another browser context")
        << "Browser.setDownloadBehavior"
        << R"({"behavior":"deny","browserContextId":"OTHER"})" << none << refuse
        << "not this session's";
    QTest::newRow("the page-level download switch is judged as the browser's")
        << "Page.setDownloadBehavior"
        << R"({"behavior":"allow","downloadPath":"/etc"})"
        << "PAGE" << rewrite << R"({"behavior":"allow","downloadPath":"$DOWNLOADS"})";
    QTest::newRow("a client may grant permissions in its session's context")
        << "Browser.grantPermissions"
        << R"({"permissions":["geolocation"],"browserContextId":"CTX"})" << none << allow << none;
    QTest::newRow("a client may grant permissions without naming a context")
        << "Browser.grantPermissions"
        << R"({"permissions":["geolocation"]})" << none << allow << none;
    QTest::newRow("a client may not grant permissions in another context")
        << "Browser.grantPermissions"
        << R"({"permissions":["geolocation"],"browserContextId":"OTHER"})" << none << refuse
        << "not this session's";
    QTest::newRow("a client may not reset permissions of another context")
        << "Browser.resetPermissions"
        << R"({"browserContextId":"OTHER"})" << none << refuse << "not this session's";

    // Storage and Network on other contexts, and resources off the web.
    QTest::newRow("a client may read its session's cookies")
        << "Storage.getCookies"
        << R"({"browserContextId":"CTX"})" << none << allow << none;
    QTest::newRow("a client may read cookies without naming a context")
        << "Storage.getCookies"
        << "{}" << none << allow << none;
    QTest::newRow("a client may not read another context's cookies")
        << "Storage.getCookies"
        << R"({"browserContextId":"OTHER"})" << none << refuse << "not this session's";
    QTest::newRow("a client may not clear another context's cookies")
        << "Storage.clearCookies"
        << R"({"browserContextId":"OTHER"})" << none << refuse << "not this session's";
    QTest::newRow("a client may not load a file as a network resource")
        << "Network.loadNetworkResource"
        << R"({"frameId":"F","url":"file:///etc/passwd","options":{"disableCache":true,"includeCredentials":false}})"
        << "PAGE" << refuse << "only http(s)";
    QTest::newRow("a client may load a web resource")
        << "Network.loadNetworkResource"
        << R"({"frameId":"F","url":"https://example.com/map.js","options":{"disableCache":true,"includeCredentials":false}})"
        << "PAGE" << allow << none;

    // Files: only the session's upload directory; streams: only those given.
    QTest::newRow("a client may not upload a server file")
        << "DOM.setFileInputFiles"
        << R"({"files":["/etc/passwd"],"backendNodeId":1})"
        << "PAGE" << refuse << "upload directory";
    QTest::newRow("a client may upload a file of the session's upload directory")
        << "DOM.setFileInputFiles"
        << R"({"files":["$UPLOADS/form.txt"],"backendNodeId":1})"
        << "PAGE" << allow << none;
    QTest::newRow("a client may not climb out of the upload directory")
        << "DOM.setFileInputFiles"
        << R"({"files":["$UPLOADS/../../../../etc/passwd"]})"
        << "PAGE" << refuse << "upload directory";
    QTest::newRow("a client may not upload through a link out of the upload directory")
        << "DOM.setFileInputFiles"
        << R"({"files":["$UPLOADS/link"]})"
        << "PAGE" << refuse << "upload directory";
    QTest::newRow("a client may not upload by a relative path")
        << "DOM.setFileInputFiles"
        << R"({"files":["form.txt"]})"
        << "PAGE" << refuse << "upload directory";
    QTest::newRow("a client may not drop a server file on a page")
        << "Input.dispatchDragEvent"
        << R"({"type":"drop","x":1,"y":1,"data":{"items":[],"files":["/etc/shadow"],"dragOperationsMask":1}})"
        << "PAGE" << refuse << "upload directory";
    QTest::newRow("a client may read a stream it was given")
        << "IO.read"
        << R"({"handle":"STREAM"})" << none << allow << none;
    QTest::newRow("a client may not read a stream it was not given")
        << "IO.read"
        << R"({"handle":"7"})" << none << refuse << "not given to this client";
    QTest::newRow("a client may not close a stream it was not given")
        << "IO.close"
        << R"({"handle":"7"})" << none << refuse << "not given to this client";
}

void tst_CdpFilter::judgesEachCommand()
{
    QFETCH(QString, method);
    QFETCH(QString, params);
    QFETCH(QString, sessionId);
    QFETCH(int, kind);
    QFETCH(QString, said);
    QJsonParseError error;
    const QJsonObject p = QJsonDocument::fromJson(expand(params).toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(params));
    const CdpFilter filter = makeFilter();
    const CdpFilter::Verdict v = filter.judge(method, p, sessionId);
    QCOMPARE(int(v.kind), kind);
    if (v.kind == Kind::Refuse) {
        QVERIFY2(v.reason.contains(said), qPrintable(v.reason));
        QVERIFY2(v.reason.contains(method.section(QLatin1Char('.'), 0, 0)), qPrintable(v.reason));
    }
    if (v.kind == Kind::Rewrite)
        QCOMPARE(v.params, QJsonDocument::fromJson(expand(said).toUtf8()).object());
}

// A target that went, a stream closed, Fetch turned off: known no more.
void tst_CdpFilter::forgetsWhatIsGone()
{
    CdpFilter filter = makeFilter();
    const QJsonObject known{{QStringLiteral("targetId"), QStringLiteral("KNOWN")}};
    QCOMPARE(int(filter.judge(QStringLiteral("Target.closeTarget"), known).kind), int(Kind::Allow));
    filter.observeEvent(QStringLiteral("Target.targetDestroyed"), known);
    QCOMPARE(int(filter.judge(QStringLiteral("Target.closeTarget"), known).kind),
             int(Kind::Refuse));

    const QJsonObject stream{{QStringLiteral("handle"), QStringLiteral("STREAM")}};
    filter.observeResult(QStringLiteral("IO.close"), stream, {}, {});
    QCOMPARE(int(filter.judge(QStringLiteral("IO.read"), stream).kind), int(Kind::Refuse));

    const QString fetching = QStringLiteral("FETCHING");
    QCOMPARE(int(filter.judge(QStringLiteral("Fetch.disable"), {}, fetching).kind),
             int(Kind::Allow));
    filter.observeResult(QStringLiteral("Fetch.disable"), {}, fetching, {});
    QCOMPARE(int(filter.judge(QStringLiteral("Fetch.disable"), {}, fetching).kind),
             int(Kind::Refuse));

    // A page the client opened itself is one it knows.
    filter.observeResult(QStringLiteral("Target.createTarget"), {}, {},
                         {{QStringLiteral("targetId"), QStringLiteral("MINE")}});
    QCOMPARE(int(filter
                     .judge(QStringLiteral("Target.attachToTarget"),
                            {{QStringLiteral("targetId"), QStringLiteral("MINE")},
                             {QStringLiteral("flatten"), true}})
                     .kind),
             int(Kind::Allow));
}

// Browser.close ends the client's connection, not the session (its owner ends it).
void tst_CdpFilter::answersBrowserCloseByClosingTheClient()
{
    const CdpFilter filter = makeFilter();
    const CdpFilter::Verdict v = filter.judge(QStringLiteral("Browser.close"), {});
    QCOMPARE(int(v.kind), int(Kind::Answer));
    QVERIFY(v.closeClient);
    QVERIFY(v.params.isEmpty());
}

QTEST_GUILESS_MAIN(tst_CdpFilter)
#include "tst_cdpfilter.moc"
