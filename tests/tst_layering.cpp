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
// The areas: server/<area>/…, server/<area>/<sub>/… ("<area>/<sub>", a sub-area such as
// engine/planners), the server library's own files (server/*.cpp: "server"), ui/…, app/….
QString areaOf(const QString &relativePath)
{
    const QStringList parts = relativePath.split(QLatin1Char('/'));
    if (parts.value(0) == QLatin1String("server")) {
        if (parts.size() > 3)
            return parts.at(1) + QLatin1Char('/') + parts.at(2);
        return parts.size() > 2 ? parts.at(1) : QStringLiteral("server");
    }
    return parts.value(0);
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

// Which areas an area's files may include (and reach through the headers they include).
// A sub-area (engine/planners) is judged by its own row and is reached only by rows that
// name it; a sub-area without a row of its own counts as part of its area both ways. Controllers
// (files named *Controller) of an area may also include http/; nothing outside http/ and app/
// includes a controller but the wiring in server/ (Service) and the area's own files.
const QHash<QString, QSet<QString>> &allowed()
{
    static const QHash<QString, QSet<QString>> rules = {
        {QStringLiteral("core"), {"core"}},
        {QStringLiteral("net"), {"net", "core"}},
        // data/internal: the readers' and writers' private parts, reached only by data/.
        {QStringLiteral("data"), {"data", "data/internal", "core"}},
        {QStringLiteral("data/internal"), {"data/internal", "data", "core"}},
        {QStringLiteral("http"), {"http", "core"}},
        {QStringLiteral("browser"), {"browser", "net", "core"}},
        {QStringLiteral("browser/qtwebengine"), {"browser/qtwebengine", "browser", "net", "core"}},
        {QStringLiteral("browser/chromium"), {"browser/chromium", "browser", "net", "core"}},
        {QStringLiteral("mcp"), {"mcp", "http", "core"}},
        // The run core (engine/) never reaches its planners, tools or live views; they
        // include the core, never each other.
        {QStringLiteral("engine"), {"engine", "browser", "data", "net", "core"}},
        {QStringLiteral("engine/planners"),
         {"engine/planners", "engine", "browser", "data", "net", "core"}},
        {QStringLiteral("engine/tools"),
         {"engine/tools", "engine", "browser", "data", "net", "core"}},
        // browser/qtwebengine: the print frame source prints a QtWebEngine page (PagePrint).
        {QStringLiteral("engine/liveview"),
         {"engine/liveview", "engine", "browser", "browser/qtwebengine", "data", "net", "core"}},
        {QStringLiteral("webhooks"), {"webhooks", "net", "core"}},
        {QStringLiteral("system"), {"system", "browser", "net", "core"}},
        {QStringLiteral("sites"), {"sites", "mcp", "webhooks", "net", "core"}},
        {QStringLiteral("cloud"),
         {"cloud", "engine", "engine/liveview", "browser", "data", "webhooks", "mcp", "net",
          "core"}},
        {QStringLiteral("a2w"),
         {"a2w", "cloud", "engine", "browser", "data", "webhooks", "sites", "mcp", "net", "core"}},
        {QStringLiteral("runtime"),
         {"runtime", "a2w", "cloud", "engine", "browser", "data", "webhooks", "sites", "http",
          "mcp", "net", "core"}},
        // sessions: browser sessions on the session browser of browser/ (never an engine's
        // own classes), the run settings' proxy reader of engine/, data/'s zip files.
        {QStringLiteral("sessions"), {"sessions", "engine", "browser", "data", "net", "core"}},
        {QStringLiteral("firecrawl"),
         {"firecrawl", "cloud", "engine", "browser", "data", "webhooks", "net", "core"}},
        // oauth: the authorization server of the MCP endpoints; it fetches client metadata
        // documents through the network policy and knows no MCP server.
        {QStringLiteral("oauth"), {"oauth", "net", "core"}},
        // devices: the caller's own browser; implements cloud's DeviceLink for the bridge.
        {QStringLiteral("devices"), {"devices", "cloud", "net", "core"}},
        {QStringLiteral("server"),
         {"server",
          "core",
          "net",
          "data",
          "http",
          "browser",
          "mcp",
          "engine",
          "engine/planners",
          "engine/tools",
          "engine/liveview",
          "webhooks",
          "system",
          "sites",
          "cloud",
          "a2w",
          "runtime",
          "sessions",
          "firecrawl",
          "oauth",
          "devices"}},
        {QStringLiteral("ui"),
         {"ui", "server", "core", "net", "data", "browser", "engine", "webhooks", "system", "sites",
          "cloud", "a2w", "runtime", "sessions", "oauth", "devices"}},
    };
    return rules;
}

// The row an area is judged by: its own, or its area's for a sub-area without one.
QString ruledArea(const QString &area)
{
    if (allowed().contains(area))
        return area;
    return area.section(QLatin1Char('/'), 0, 0);
}

// Why the edge from `from` to `to` (paths relative to the source root) breaks a rule,
// or empty. Also judges a header `to` that `from` reaches through a chain of includes.
QString edgeProblem(const QString &from, const QString &to)
{
    const QString a = ruledArea(areaOf(from));
    const QString b = ruledArea(areaOf(to));
    if (a == QLatin1String("app") || a == QLatin1String("tests") || a == b)
        return {};
    if (b == QLatin1String("http") && facesHttp(from))
        return {};
    if (b.startsWith(QLatin1String("browser/")) && makesEnginePages(from))
        return {};
    // A controller is reached only by the HTTP wiring (server/Service) and its own area
    // (its *Area among them).
    if (isController(to) && a != QLatin1String("server"))
        return QStringLiteral("%1 includes the controller %2").arg(from, to);
    if (!allowed().value(a).contains(b))
        return QStringLiteral("%1 (%2) includes %3 (%4)").arg(from, a, to, b);
    return {};
}

using IncludeGraph = QHash<QString, QStringList>; // a file -> the files it includes

// Every file the graph's files reach through chains of two or more includes, judged as if
// included directly: cloud/ToolLibrary.cpp -> mcp/McpServer.h -> http/Route.h breaks the
// rules although each edge alone looks allowed. One problem per (file, reached area),
// with the chain that reaches it.
QStringList transitiveProblems(const IncludeGraph &graph)
{
    QStringList problems;
    QStringList files = graph.keys();
    files.sort();
    for (const QString &from : std::as_const(files)) {
        QHash<QString, QString> cameFrom; // a reached file -> the file that included it
        QStringList queue = graph.value(from);
        for (const QString &first : std::as_const(queue))
            cameFrom.insert(first, from);
        QSet<QString> reported;
        for (qsizetype i = 0; i < queue.size(); ++i) {
            const QString at = queue.at(i);
            for (const QString &next : graph.value(at)) {
                if (next == from || cameFrom.contains(next))
                    continue;
                cameFrom.insert(next, at);
                queue.append(next);
                const QString problem = edgeProblem(from, next);
                if (problem.isEmpty() || reported.contains(areaOf(next)))
                    continue;
                reported.insert(areaOf(next));
                QStringList chain{next};
                for (QString step = at; step != from; step = cameFrom.value(step))
                    chain.prepend(step);
                chain.prepend(from);
                problems << QStringLiteral("%1, through %2").arg(problem, chain.join(u" -> "));
            }
        }
    }
    return problems;
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
    void namesSubAreas_data();
    void namesSubAreas();
    void judgesTransitiveIncludes_data();
    void judgesTransitiveIncludes();
    void everyTransitiveIncludeIsAllowed();
};

void tst_Layering::serverLibrariesNeverLinkWidgets_data()
{
    QTest::addColumn<QString>("library");
    for (const char *lib :
         {"core", "http", "mcp", "browser", "engine", "webhooks", "cloud", "sites", "system",
          "data", "a2w", "runtime", "sessions", "firecrawl", "oauth", "devices", "server"})
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
    QTest::newRow("refuses the service wiring including app's demo shop") << "server/Service.cpp"
                                                                          << "app/Demo.h" << false;
    QTest::newRow("allows the cloud to check tool arguments with core's schema check")
        << "server/cloud/ToolLibrary.cpp"
        << "server/core/JsonSchema.h" << true;
    QTest::newRow("allows the sites' analytics notifications onto the webhook queue")
        << "server/sites/AnalyticsNotifications.cpp"
        << "server/webhooks/WebhookQueue.h" << true;
    QTest::newRow("allows an area's wiring to include its own controllers")
        << "server/a2w/A2wArea.cpp"
        << "server/a2w/A2wController.h" << true;
    QTest::newRow("refuses an area's wiring including another area's controller")
        << "server/runtime/RuntimeArea.cpp"
        << "server/a2w/A2wController.h" << false;

    QTest::newRow("refuses the run core naming a planner")
        << "server/engine/RunManager.cpp"
        << "server/engine/planners/RulePlanner.h" << false;
    QTest::newRow("refuses the tool registry including a tool family")
        << "server/engine/Tool.cpp"
        << "server/engine/tools/SheetTools.h" << false;
    QTest::newRow("refuses a planner reaching into a tool family")
        << "server/engine/planners/RulePlanner.cpp"
        << "server/engine/tools/SheetTools.h" << false;
    QTest::newRow("refuses the live views reaching into the planners")
        << "server/engine/liveview/LiveViews.cpp"
        << "server/engine/planners/LlmPlanner.h" << false;
    QTest::newRow("refuses the library area reaching into the tool implementations")
        << "server/cloud/ToolLibrary.cpp"
        << "server/engine/tools/BuiltinTools.h" << false;
    QTest::newRow("refuses a reader of another area reaching data's private parts")
        << "server/engine/InputLoader.cpp"
        << "server/data/internal/ZipArchive.h" << false;
    QTest::newRow("allows a tool family to use the run core")
        << "server/engine/tools/SheetTools.cpp"
        << "server/engine/RunContext.h" << true;
    QTest::newRow("allows a planner to use the run core's sheet shaping")
        << "server/engine/planners/RulePlanner.cpp"
        << "server/engine/SheetShape.h" << true;
    QTest::newRow("allows the service wiring to give the run manager its planners")
        << "server/Service.cpp"
        << "server/engine/planners/BuiltinPlanners.h" << true;
    QTest::newRow("allows the live view controller to use the live views")
        << "server/cloud/LiveViewController.cpp"
        << "server/engine/liveview/LiveViews.h" << true;

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
        << "server/engine/liveview/PrintFrameSource.cpp"
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

void tst_Layering::namesSubAreas_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("area");
    QTest::newRow("a file directly in an area belongs to the area")
        << "server/engine/RunManager.cpp"
        << "engine";
    QTest::newRow("a file in a folder of an area belongs to that sub-area")
        << "server/engine/planners/RulePlanner.cpp"
        << "engine/planners";
    QTest::newRow("the service wiring at the server root is the server area")
        << "server/Service.cpp"
        << "server";
    QTest::newRow("a console file is the console area however deep")
        << "ui/overview/OverviewDock.cpp"
        << "ui";
}

void tst_Layering::namesSubAreas()
{
    QFETCH(QString, path);
    QFETCH(QString, area);
    QCOMPARE(areaOf(path), area);
}

void tst_Layering::judgesTransitiveIncludes_data()
{
    QTest::addColumn<QStringList>("edges"); // "from>to" pairs
    QTest::addColumn<QString>("chain");     // the reported chain, or empty when allowed
    QTest::newRow("refuses cloud code that reaches http through an mcp header")
        << QStringList{"server/cloud/ToolLibrary.cpp>server/mcp/McpServer.h",
                       "server/mcp/McpServer.h>server/http/Route.h"}
        << "server/cloud/ToolLibrary.cpp -> server/mcp/McpServer.h -> server/http/Route.h";
    QTest::newRow("refuses the console reaching a controller through a service header")
        << QStringList{"ui/tools/ToolsDock.cpp>server/cloud/RunService.h",
                       "server/cloud/RunService.h>server/cloud/Helper.h",
                       "server/cloud/Helper.h>server/cloud/AgentController.h"}
        << "ui/tools/ToolsDock.cpp -> server/cloud/RunService.h -> server/cloud/Helper.h -> "
           "server/cloud/AgentController.h";
    QTest::newRow("refuses a sub-area reaching what its area's row forbids")
        << QStringList{"server/engine/planners/RulePlanner.cpp>server/engine/RunContext.h",
                       "server/engine/RunContext.h>server/webhooks/WebhookQueue.h"}
        << "server/engine/planners/RulePlanner.cpp -> server/engine/RunContext.h -> "
           "server/webhooks/WebhookQueue.h";
    QTest::newRow("allows a controller that reaches http through an mcp header")
        << QStringList{"server/cloud/BridgeController.cpp>server/mcp/McpServer.h",
                       "server/mcp/McpServer.h>server/http/Route.h"}
        << QString();
    QTest::newRow("allows a chain whose every reached area the first file may include")
        << QStringList{"server/engine/RunManager.cpp>server/browser/BrowserPool.h",
                       "server/browser/BrowserPool.h>server/net/NetworkPolicy.h",
                       "server/net/NetworkPolicy.h>server/core/Clock.h"}
        << QString();
}

void tst_Layering::judgesTransitiveIncludes()
{
    QFETCH(QStringList, edges);
    QFETCH(QString, chain);
    IncludeGraph graph;
    for (const QString &edge : std::as_const(edges))
        graph[edge.section(u'>', 0, 0)].append(edge.section(u'>', 1));
    const QStringList problems = transitiveProblems(graph);
    if (chain.isEmpty()) {
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        return;
    }
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems.first().endsWith(QStringLiteral(", through ") + chain),
             qPrintable(problems.first()));
}

void tst_Layering::everyTransitiveIncludeIsAllowed()
{
    IncludeGraph graph;
    for (const auto &[from, to] : includeEdges(QStringLiteral(SOURCE_DIR)))
        graph[from].append(to);
    const QStringList problems = transitiveProblems(graph);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(tst_Layering)
#include "tst_layering.moc"
