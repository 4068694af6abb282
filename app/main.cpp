// Pilothouse: builds the object graph and nothing else.
#include "CommandLine.h"
#include "SignalWatcher.h"

#include "Demo.h"
#include "Service.h"

#include <QDir>
#include <QGuiApplication>
#include <QStandardPaths>
#include <QTextStream>
#include <QTimer>

#ifdef PILOTHOUSE_WITH_UI
#include "MainWindow.h"
#include "browserviews/ViewFrameSource.h"
#include "engine/liveview/LiveViews.h"
#include "sites/SitesDock.h"
#include <QApplication>
#include <QDockWidget>
#include <QTableView>
#endif

#include <cstdio>
#include <memory>
#include <unistd.h>
#include <vector>

namespace {

// QtWebEngine refuses to start its sandbox as root, and a service without a display
// renders offscreen. Both are set only when the environment leaves them open.
void prepareEnvironment(bool withWindow)
{
    if (::geteuid() == 0 && !qEnvironmentVariableIsSet("QTWEBENGINE_DISABLE_SANDBOX"))
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    if (!withWindow && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

#ifdef PILOTHOUSE_WITH_UI
// docs/screenshots: the whole window once per panel, that panel raised.
void saveScreenshots(QMainWindow &window, const QString &dir)
{
    QDir().mkpath(dir);
    window.resize(1440, 900);
    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        dock->show();
        dock->raise();
        // Show a detail: the run waiting for input where there is one, else the first row
        // of each list (twice: choosing a site fills its key list).
        for (int pass = 0; pass < 2; ++pass) {
            for (QTableView *view : dock->findChildren<QTableView *>()) {
                if (view->currentIndex().isValid() || view->model()->rowCount() == 0)
                    continue;
                int row = 0;
                for (int r = 0; r < view->model()->rowCount(); ++r) {
                    if (view->model()->index(r, 0).data().toString() ==
                        QLatin1String("requires_input"))
                        row = r;
                }
                view->setCurrentIndex(view->model()->index(row, 0));
            }
        }
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QString name = dock->objectName();
        name.remove(QStringLiteral("Dock"));
        window.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
        // The Sites panel once more, with the selected site's configuration editor open.
        if (auto *sites = qobject_cast<ph::ui::SitesDock *>(dock)) {
            sites->showConfiguration();
            QCoreApplication::processEvents();
            QCoreApplication::processEvents();
            window.grab().save(QDir(dir).filePath(QStringLiteral("siteConfig.png")));
        }
    }
}

// Only the console needs a display; a headless-only build never asks.
bool hasDisplay()
{
    return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY") ||
           qEnvironmentVariableIsSet("QT_QPA_PLATFORM");
}
#endif

// Chromium reads the application's arguments: it gets only the program name and what
// came after "--". The storage outlives the application, which keeps argc and argv.
struct AppArguments
{
    AppArguments(const char *program, const QStringList &chromiumArguments)
    {
        storage.push_back(QByteArray(program));
        for (const QString &a : chromiumArguments)
            storage.push_back(a.toLocal8Bit());
        for (auto &s : storage)
            argv.push_back(s.data());
        argv.push_back(nullptr);
        argc = int(storage.size());
    }
    std::vector<QByteArray> storage;
    std::vector<char *> argv;
    int argc = 0;
};

std::unique_ptr<QGuiApplication> makeApplication(AppArguments &args)
{
    std::unique_ptr<QGuiApplication> app;
#ifdef PILOTHOUSE_WITH_UI
    // A QApplication with or without the console: live views show pages in offscreen
    // widgets (ui/browserviews/ViewFrameSource). The headless-only build prints them.
    app = std::make_unique<QApplication>(args.argc, args.argv.data());
#endif
    if (!app)
        app = std::make_unique<QGuiApplication>(args.argc, args.argv.data());
    QCoreApplication::setApplicationName(QStringLiteral("pilothouse"));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Pilothouse"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PILOTHOUSE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("pilothouse"));
    return app;
}

ph::ServiceConfig serviceConfig(const ph::CommandLine &cl, ph::DemoSite *demoSite)
{
    ph::ServiceConfig config;
    config.dataDir = cl.dataDir.isEmpty()
                         ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                         : cl.dataDir;
    config.bind = cl.bind;
    config.port = cl.port;
    config.settingOverrides = cl.settings;
    config.printApiKey = cl.printApiKey;
    if (demoSite)
        config.extraControllers.append(demoSite);
    return config;
}

void announce(const ph::Service &service)
{
    QTextStream out(stdout);
    out << "Pilothouse listening on " << service.apiAddress() << "\n";
    if (!service.mintedApiKey().isEmpty())
        out << "API key: " << service.mintedApiKey() << "\n";
    else if (service.ownerKeyFromEnvironment())
        out << "API key: taken from PILOTHOUSE_API_KEY (not printed)\n";
    out << "Data directory: " << service.dataDir() << "\n";
    out.flush();
}

// Demo mode: an empty store is filled through the real API; null when there is nothing
// to seed.
std::unique_ptr<ph::DemoSeeder> startDemo(ph::Service &service)
{
    const QString key = service.mintedApiKey().isEmpty()
                            ? qEnvironmentVariable("PILOTHOUSE_API_KEY")
                            : service.mintedApiKey();
    if (!ph::DemoSeeder::storeIsEmpty(service) || key.isEmpty()) {
        std::fprintf(stdout, "Demo: the demo shop is at %s/demo/shop.html\n",
                     qPrintable(service.apiAddress()));
        std::fflush(stdout);
        return nullptr;
    }
    std::fprintf(stdout, "Demo: seeding the store…\n");
    std::fflush(stdout);
    auto seeder = std::make_unique<ph::DemoSeeder>(service, key);
    QObject::connect(seeder.get(), &ph::DemoSeeder::finished, [](const QString &what) {
        std::fprintf(stdout, "Demo: seeded %s\n", qPrintable(what));
        std::fflush(stdout);
    });
    seeder->start();
    return seeder;
}

} // namespace

int main(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i) // parse() takes the program name first
        arguments << QString::fromLocal8Bit(argv[i]);
    const ph::CommandLine cl = ph::CommandLine::parse(arguments);
    if (cl.outcome == ph::CommandLine::Outcome::Exit)
        return cl.exitCode;

    bool withWindow = false;
#ifdef PILOTHOUSE_WITH_UI
    withWindow = !cl.headless;
    if (withWindow && !hasDisplay()) {
        std::fprintf(stderr, "pilothouse: no display found; start with --headless to run the "
                             "service without the console\n");
        return 2;
    }
#endif
    prepareEnvironment(withWindow);
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);

    AppArguments appArgs(argv[0], cl.chromiumArguments);
    const std::unique_ptr<QGuiApplication> app = makeApplication(appArgs);
    // The demo shop's routes are app/'s own; the service serves them beside the API.
    const std::unique_ptr<ph::DemoSite> demoSite =
        cl.demo ? std::make_unique<ph::DemoSite>() : nullptr;
    const ph::ServiceConfig config = serviceConfig(cl, demoSite.get());

    // Signals are watched before anything is announced, so a SIGTERM that follows the
    // "listening" line at once still shuts down cleanly.
    ph::SignalWatcher watcher;
    auto owned = std::make_unique<ph::Service>(config);
    ph::Service &service = *owned;
    QString error;
    if (!service.start(&error)) {
        std::fprintf(stderr, "pilothouse: %s\n", qPrintable(error));
        return 1;
    }
    announce(service);

#ifdef PILOTHOUSE_WITH_UI
    service.liveViews().setFrameSourceFactory(ph::ui::ViewFrameSource::factory());
#endif
    QObject::connect(&watcher, &ph::SignalWatcher::terminationRequested, &service,
                     &ph::Service::shutdown);
    QObject::connect(&service, &ph::Service::stopped, app.get(), &QCoreApplication::quit);

#ifdef PILOTHOUSE_WITH_UI
    std::unique_ptr<ph::ui::MainWindow> window;
    if (withWindow) {
        window = std::make_unique<ph::ui::MainWindow>(service);
        QObject::connect(window.get(), &ph::ui::MainWindow::quitRequested, &service,
                         &ph::Service::shutdown);
        window->show();
    }
#endif

    std::unique_ptr<ph::DemoSeeder> seeder;
    if (cl.demo)
        seeder = startDemo(service);
#ifdef PILOTHOUSE_WITH_UI
    if (window && !cl.screenshotsDir.isEmpty()) {
        // After seeding (or at once), each panel is raised and the window saved.
        auto shoot = [&window, dir = cl.screenshotsDir, &service] {
            QTimer::singleShot(2500, window.get(), [&window, dir, &service] {
                saveScreenshots(*window, dir);
                service.shutdown();
            });
        };
        if (seeder)
            QObject::connect(seeder.get(), &ph::DemoSeeder::finished, window.get(), shoot);
        else
            shoot();
    }
#endif

    const int code = app->exec();
#ifdef PILOTHOUSE_WITH_UI
    window.reset();
#endif
    // Every page and profile goes before QtWebEngine itself does.
    owned.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return code;
}
