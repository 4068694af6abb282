#pragma once

#include <QHostAddress>
#include <QString>
#include <QStringList>

namespace ph {

// pilothouse [--headless] [--bind ADDR] [--port N] [--data-dir DIR] [--print-api-key]
//            [--set KEY=VALUE]... [-- CHROMIUM-FLAGS...]
// Parsed before the application object exists, because --headless decides which
// application class to create and Chromium reads the application's arguments.
struct CommandLine
{
    bool headless = false;
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = 8710;
    QString dataDir; // empty: the XDG data directory
    bool printApiKey = false;
    bool demo = false;      // seed an empty store with demo content (docs/demo.md)
    QString screenshotsDir; // save a PNG of each console panel there, then quit
    QStringList settings;
    QStringList chromiumArguments; // after "--", handed to QtWebEngine

    enum class Outcome { Run, Exit };
    Outcome outcome = Outcome::Run;
    int exitCode = 0;

    static CommandLine parse(const QStringList &arguments);
};

} // namespace ph
