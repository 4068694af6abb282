#include "CommandLine.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace ph {

CommandLine CommandLine::parse(const QStringList &arguments)
{
    CommandLine cl;
    QStringList own = arguments;
    const qsizetype split = own.indexOf(QStringLiteral("--"));
    if (split >= 0) {
        cl.chromiumArguments = own.mid(split + 1);
        own = own.first(split);
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Pilothouse: a self-hosted web-automation service with a cloud browser."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"),
                                     QStringLiteral("Show the version."));
    const QCommandLineOption headless(
        QStringLiteral("headless"), QStringLiteral("Run the service without the console window."));
    const QCommandLineOption bind(QStringLiteral("bind"),
                                  QStringLiteral("Address to listen on (default 127.0.0.1)."),
                                  QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption port(
        QStringLiteral("port"),
        QStringLiteral("Port to listen on; 0 picks a free one (default 8710)."),
        QStringLiteral("N"), QStringLiteral("8710"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Where the store lives (default: the XDG data "
                                                    "directory, ~/.local/share/pilothouse)."),
                                     QStringLiteral("DIR"));
    const QCommandLineOption printKey(QStringLiteral("print-api-key"),
                                      QStringLiteral("Mint a new owner API key at start and print "
                                                     "it (the first start always prints one)."));
    const QCommandLineOption set(QStringLiteral("set"),
                                 QStringLiteral("Override a setting for this run, e.g. "
                                                "--set pool.size=8 (repeatable)."),
                                 QStringLiteral("KEY=VALUE"));
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QStringLiteral("Serve a demo shop under /demo/ and, when the store is empty, fill it "
                       "with demo runs, callbacks, a proposal, a saved tool and a trigger."));
    const QCommandLineOption screenshots(
        QStringLiteral("screenshots"),
        QStringLiteral("Save a PNG of each console panel in DIR, then quit (with --demo, after "
                       "seeding)."),
        QStringLiteral("DIR"));
    parser.addOptions(
        {help, version, headless, bind, port, dataDir, printKey, set, demo, screenshots});

    QTextStream err(stderr);
    QTextStream out(stdout);
    if (!parser.parse(own)) {
        err << parser.errorText() << "\n"
            << "Try 'pilothouse --help'.\n";
        cl.outcome = Outcome::Exit;
        cl.exitCode = 2;
        return cl;
    }
    if (parser.isSet(help)) {
        // The options are read before the application object exists, so Qt cannot name
        // the program itself.
        out << parser.helpText().replace(QLatin1String("<executable_name>"),
                                         QLatin1String("pilothouse"))
            << "\nArguments after \"--\" are passed to QtWebEngine (Chromium switches).\n";
        cl.outcome = Outcome::Exit;
        return cl;
    }
    if (parser.isSet(version)) {
        out << "pilothouse " << PILOTHOUSE_VERSION << "\n";
        cl.outcome = Outcome::Exit;
        return cl;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "unexpected argument: " << parser.positionalArguments().first() << "\n";
        cl.outcome = Outcome::Exit;
        cl.exitCode = 2;
        return cl;
    }
    cl.headless = parser.isSet(headless);
    const QString bindValue = parser.value(bind);
    cl.bind = bindValue == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost)
                                                      : QHostAddress(bindValue);
    if (cl.bind.isNull()) {
        err << "--bind: '" << bindValue << "' is not an IP address\n";
        cl.outcome = Outcome::Exit;
        cl.exitCode = 2;
        return cl;
    }
    bool ok = false;
    const uint p = parser.value(port).toUInt(&ok);
    if (!ok || p > 65535) {
        err << "--port: '" << parser.value(port) << "' is not a port number (0-65535)\n";
        cl.outcome = Outcome::Exit;
        cl.exitCode = 2;
        return cl;
    }
    cl.port = quint16(p);
    cl.dataDir = parser.value(dataDir);
    cl.printApiKey = parser.isSet(printKey);
    cl.demo = parser.isSet(demo);
    cl.screenshotsDir = parser.value(screenshots);
    cl.settings = parser.values(set);
    return cl;
}

} // namespace ph
