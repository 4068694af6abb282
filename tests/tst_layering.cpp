// DESIGN.md and docs/architecture.md: the dependency rules, checked two ways. On the
// built artefacts: nothing in server/ links Widgets, and -DPILOTHOUSE_UI=OFF gives a
// binary without the console. On the sources: every `#include "…"` edge between areas
// is on the allow-list below (the console reaches services, never http/ or a
// controller; engine, data and the other domain areas never reach http/).
#include "HttpClient.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using ph::test::HttpClient;

namespace {
// The areas: server/<area>/…, the server library's own files (server/*.cpp: "server"),
// ui/…, app/….
const QHash<QString, QSet<QString>> &allowed();

// server/<area>/file is in <area>; server/<area>/<sub>/file is in the sub-area
// "<area>/<sub>" when that has rules of its own (browser/qtwebengine, browser/chromium),
// else in <area> (data/internal is the data library's own).
QString areaOf(const QString &relativePath)
{
    const QStringList parts = relativePath.split(QLatin1Char('/'));
    if (parts.value(0) != QLatin1String("server"))
        return parts.value(0);
    if (parts.size() > 3) {
        const QString sub = parts.at(1) + QLatin1Char('/') + parts.at(2);
        if (allowed().contains(sub))
            return sub;
    }
    return parts.size() > 2 ? parts.at(1) : QStringLiteral("server");
}

// The browser's engines are behind browser/PageEngine: the engine-neutral core (the pool's
// leases, the interface) knows neither; only the pool, which makes the engines' pages,
// includes them.
bool makesEnginePages(const QString &relativePath)
{
    return relativePath == QLatin1String("server/browser/BrowserPool.cpp");
}

bool isController(const QString &relativePath)
{
    const QString name = QFileInfo(relativePath).completeBaseName();
    return name.endsWith(QLatin1String("Controller"));
}

// An area's wiring of its controllers (sites/SitesArea) is HTTP-facing like them.
bool facesHttp(const QString &relativePath)
{
    return isController(relativePath) ||
           QFileInfo(relativePath).completeBaseName().endsWith(QLatin1String("Area"));
}

// Which areas an area's files may include. Controllers (files named *Controller) of an
// area may also include http/; nothing outside http/ and app/ includes a controller but
// the wiring in server/ (Service) and the area's own files.
const QHash<QString, QSet<QString>> &allowed()
{
    static const QHash<QString, QSet<QString>> rules = {
        {QStringLiteral("core"), {"core"}},
        {QStringLiteral("net"), {"net", "core"}},
        {QStringLiteral("data"), {"data", "core"}},
        {QStringLiteral("http"), {"http", "core"}},
        {QStringLiteral("browser"), {"browser", "net", "core"}},
        {QStringLiteral("browser/qtwebengine"), {"browser/qtwebengine", "browser", "net", "core"}},
        {QStringLiteral("browser/chromium"), {"browser/chromium", "browser", "net", "core"}},
        {QStringLiteral("mcp"), {"mcp", "http", "core"}},
        // browser/qtwebengine: the print frame source prints a QtWebEngine page (PagePrint).
        {QStringLiteral("engine"),
         {"engine", "browser", "browser/qtwebengine", "data", "net", "core"}},
        {QStringLiteral("webhooks"), {"webhooks", "net", "core"}},
        {QStringLiteral("system"), {"system", "browser", "net", "core"}},
        {QStringLiteral("sites"), {"sites", "mcp", "net", "core"}},
        {QStringLiteral("cloud"),
         {"cloud", "engine", "browser", "data", "webhooks", "mcp", "net", "core"}},
        {QStringLiteral("a2w"),
         {"a2w", "cloud", "engine", "browser", "data", "webhooks", "sites", "mcp", "net", "core"}},
        {QStringLiteral("runtime"),
         {"runtime", "a2w", "cloud", "engine", "browser", "data", "webhooks", "sites", "http",
          "mcp", "net", "core"}},
        {QStringLiteral("server"),
         {"server", "core", "net", "data", "http", "browser", "mcp", "engine", "webhooks", "system",
          "sites", "cloud", "a2w", "runtime"}},
        {QStringLiteral("ui"),
         {"ui", "server", "core", "net", "data", "browser", "engine", "webhooks", "system", "sites",
          "cloud", "a2w", "runtime"}},
    };
    return rules;
}

// Why the edge from `from` to `to` (paths relative to the source root) breaks a rule,
// or empty.
QString edgeProblem(const QString &from, const QString &to)
{
    const QString a = areaOf(from);
    const QString b = areaOf(to);
    if (a == QLatin1String("app") || a == QLatin1String("tests") || a == b)
        return {};
    if (b == QLatin1String("http") && facesHttp(from))
        return {};
    if (b.startsWith(QLatin1String("browser/")) && makesEnginePages(from))
        return {};
    // A controller is reached only by the HTTP wiring (server/Service) and its own area.
    if (isController(to) && a != QLatin1String("server") && !facesHttp(from))
        return QStringLiteral("%1 includes the controller %2").arg(from, to);
    if (!allowed().value(a).contains(b))
        return QStringLiteral("%1 (%2) includes %3 (%4)").arg(from, a, to, b);
    return {};
}

// The project's own include edges: `#include "x"` resolved against the including file's
// folder, server/, ui/ and the source root.
QList<QPair<QString, QString>> includeEdges(const QString &root)
{
    static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s+\"([^\"]+)\""),
                                            QRegularExpression::MultilineOption);
    QList<QPair<QString, QString>> edges;
    const QDir top(root);
    for (const QString &folder :
         {QStringLiteral("server"), QStringLiteral("ui"), QStringLiteral("app")}) {
        QDirIterator it(top.filePath(folder), {QStringLiteral("*.h"), QStringLiteral("*.cpp")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QString from = top.relativeFilePath(path);
            const QString text = QString::fromUtf8(file.readAll());
            auto m = include.globalMatch(text);
            while (m.hasNext()) {
                const QString name = m.next().captured(1);
                for (const QString &base :
                     {QFileInfo(path).path(), top.filePath(QStringLiteral("server")),
                      top.filePath(QStringLiteral("ui")), root}) {
                    const QString candidate = QDir(base).filePath(name);
                    if (QFileInfo::exists(candidate)) {
                        edges.append(
                            {from, top.relativeFilePath(QFileInfo(candidate).canonicalFilePath())});
                        break;
                    }
                }
            }
        }
    }
    return edges;
}

QByteArray run(const QString &program, const QStringList &args,
               const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.waitForFinished(30000);
    return p.readAllStandardOutput();
}
} // namespace

class tst_Layering : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serverLibrariesNeverLinkWidgets_data();
    void serverLibrariesNeverLinkWidgets();
    void theConsoleLibraryDoesLinkWidgets();
    void headlessBinaryRunsWithoutWidgets();
    void judgesIncludeEdges_data();
    void judgesIncludeEdges();
    void everyIncludeEdgeIsAllowed();
};

void tst_Layering::serverLibrariesNeverLinkWidgets_data()
{
    QTest::addColumn<QString>("library");
    for (const char *lib : {"core", "http", "mcp", "browser", "engine", "webhooks", "cloud",
                            "sites", "system", "data", "a2w", "runtime", "server"})
        QTest::newRow(lib)
            << QStringLiteral(PILOTHOUSE_LIB_DIR "/libpilothouse_%1.so").arg(QLatin1String(lib));
}

void tst_Layering::serverLibrariesNeverLinkWidgets()
{
    QFETCH(QString, library);
    QVERIFY2(QFile::exists(library), qPrintable(library));
    const QByteArray deps = run(QStringLiteral("ldd"), {library});
    QVERIFY(deps.contains("libQt6Core"));
    QVERIFY2(!deps.contains("libQt6Widgets"), deps.constData());
}

void tst_Layering::theConsoleLibraryDoesLinkWidgets()
{
    // The control: the same check does see Widgets where it is.
    const QString ui = QStringLiteral(PILOTHOUSE_LIB_DIR "/libpilothouse_ui.so");
    if (!QFile::exists(ui))
        QSKIP("this build has no console (PILOTHOUSE_UI=OFF)");
    QVERIFY(run(QStringLiteral("ldd"), {ui}).contains("libQt6Widgets"));
}

void tst_Layering::headlessBinaryRunsWithoutWidgets()
{
    const QString binary = qEnvironmentVariable("PILOTHOUSE_HEADLESS_BINARY");
    if (binary.isEmpty())
        QSKIP("no headless-only binary given; packaging/dev/test.sh builds one");
    QVERIFY2(QFile::exists(binary), qPrintable(binary));
    const QByteArray deps = run(QStringLiteral("ldd"), {binary});
    QVERIFY(deps.contains("libQt6WebEngineCore"));
    QVERIFY2(!deps.contains("libQt6Widgets"), deps.constData());

    // With no display and no --headless flag it still serves: there is no window to open.
    QTemporaryDir dir;
    auto env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardErrorFile(QProcess::nullDevice());
    p.start(binary, {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"),
                     dir.path()});
    QByteArray out;
    QTRY_VERIFY_WITH_TIMEOUT((out += p.readAllStandardOutput()).contains("Data directory"), 30000);
    const auto m = QRegularExpression(QStringLiteral("listening on (http://\\S+)"))
                       .match(QString::fromUtf8(out));
    QVERIFY(m.hasMatch());
    HttpClient c(m.captured(1));
    QCOMPARE(c.get(QStringLiteral("/health")).status, 200);
    ::kill(pid_t(p.processId()), SIGTERM);
    QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 0);
}

void tst_Layering::judgesIncludeEdges_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("refuses a console panel that includes an http header")
        << "ui/keys/KeysDock.cpp"
        << "server/http/Exchange.h" << false;
    QTest::newRow("refuses a console panel that includes a controller")
        << "ui/tools/ToolsDock.cpp"
        << "server/cloud/LibraryController.h" << false;
    QTest::newRow("refuses engine code that includes http") << "server/engine/RunManager.cpp"
                                                            << "server/http/Request.h" << false;
    QTest::newRow("refuses a sites repository that includes http")
        << "server/sites/SiteRepository.cpp"
        << "server/http/ErrorMapping.h" << false;
    QTest::newRow("refuses the data library reaching up into the engine")
        << "server/data/Reader.cpp"
        << "server/engine/RunContext.h" << false;
    QTest::newRow("refuses core reaching any other area") << "server/core/Store.cpp"
                                                          << "server/net/NetworkPolicy.h" << false;
    QTest::newRow("refuses webhooks linking the browser")
        << "server/webhooks/WebhookQueue.cpp"
        << "server/browser/BrowserPool.h" << false;
    QTest::newRow("allows a controller to include http") << "server/sites/WorkspaceController.cpp"
                                                         << "server/http/Exchange.h" << true;
    QTest::newRow("allows the engine to use the browser")
        << "server/engine/BrowserTab.cpp"
        << "server/browser/BrowserLease.h" << true;
    QTest::newRow("allows a panel to use a domain service")
        << "ui/proposals/ProposalsDock.cpp"
        << "server/sites/ChangeDecisions.h" << true;
    QTest::newRow("refuses a console panel that includes the system controller")
        << "ui/keys/KeysDock.cpp"
        << "server/system/SystemController.h" << false;
    QTest::newRow("allows a panel to use the tool library and the run service")
        << "ui/tools/ToolsDock.cpp"
        << "server/cloud/RunService.h" << true;
    QTest::newRow("allows a panel to use the key service") << "ui/keys/KeysDock.cpp"
                                                           << "server/core/ApiKeyService.h" << true;
    QTest::newRow("allows the service wiring to include controllers")
        << "server/Service.cpp"
        << "server/cloud/AgentController.h" << true;
    QTest::newRow("refuses the engine-neutral lease that includes an engine's page")
        << "server/browser/BrowserLease.cpp"
        << "server/browser/chromium/CdpPage.h" << false;
    QTest::newRow("refuses the pool's header that names an engine's page")
        << "server/browser/BrowserPool.h"
        << "server/browser/qtwebengine/PageSlot.h" << false;
    QTest::newRow("allows the pool to make the qtwebengine engine's pages")
        << "server/browser/BrowserPool.cpp"
        << "server/browser/qtwebengine/PageSlot.h" << true;
    QTest::newRow("allows the pool to make the chromium engine's pages")
        << "server/browser/BrowserPool.cpp"
        << "server/browser/chromium/ChromiumEngine.h" << true;
    QTest::newRow("allows an engine to implement the page-engine interface")
        << "server/browser/chromium/CdpPage.h"
        << "server/browser/PageEngine.h" << true;
    QTest::newRow("allows an engine's files to include each other")
        << "server/browser/qtwebengine/PageSlot.cpp"
        << "server/browser/qtwebengine/WebEngineNavigation.h" << true;
    QTest::newRow("refuses one browser engine that reaches into the other")
        << "server/browser/chromium/CdpPage.cpp"
        << "server/browser/qtwebengine/PageSlot.h" << false;
    QTest::newRow("refuses an engine reaching up into the run engine")
        << "server/browser/qtwebengine/PageSlot.cpp"
        << "server/engine/RunContext.h" << false;
    QTest::newRow("refuses the run engine that drives chromium past the lease")
        << "server/engine/BrowserTab.cpp"
        << "server/browser/chromium/CdpPage.h" << false;
    QTest::newRow("allows the print frame source to print a QtWebEngine page")
        << "server/engine/PrintFrameSource.cpp"
        << "server/browser/qtwebengine/PagePrint.h" << true;
    QTest::newRow("refuses a console panel that includes an engine's page")
        << "ui/browserviews/BrowserTile.cpp"
        << "server/browser/qtwebengine/PageSlot.h" << false;
    QTest::newRow("allows files of one area to include each other")
        << "server/net/EgressProxy.cpp"
        << "server/net/HostResolver.h" << true;
    QTest::newRow("allows a library to include its own internal folder")
        << "server/data/Reader.cpp"
        << "server/data/internal/Delimited.h" << true;
}

void tst_Layering::judgesIncludeEdges()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(bool, allowed);
    QCOMPARE(edgeProblem(from, to).isEmpty(), allowed);
}

void tst_Layering::everyIncludeEdgeIsAllowed()
{
    const auto edges = includeEdges(QStringLiteral(SOURCE_DIR));
    QVERIFY(edges.size() > 300);
    QStringList problems;
    for (const auto &[from, to] : edges) {
        if (const QString p = edgeProblem(from, to); !p.isEmpty())
            problems << p;
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(tst_Layering)
#include "tst_layering.moc"
