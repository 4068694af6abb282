// DESIGN.md: nothing in server/ links Widgets, and -DPILOTHOUSE_UI=OFF gives a binary
// without the console. Checked on the built artefacts themselves.
#include "HttpClient.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using ph::test::HttpClient;

namespace {
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
};

void tst_Layering::serverLibrariesNeverLinkWidgets_data()
{
    QTest::addColumn<QString>("library");
    for (const char *lib : {"core", "http", "mcp", "browser", "engine", "webhooks", "cloud",
                            "sites", "system", "data", "server"})
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

QTEST_GUILESS_MAIN(tst_Layering)
#include "tst_layering.moc"
