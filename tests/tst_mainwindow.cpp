// The console shell: status bar, copy-key, pool load, live translation, close to the tray,
// and its icons (the desktop theme's, else the bundled ones in the palette's colours).
#include "TestMain.h"
#include "TestService.h"

#include "MainWindow.h"
#include "StatusBar.h"
#include "settings/SettingsDock.h"

#include "browser/BrowserPool.h"
#include "common/Icons.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSystemTrayIcon>
#include <QTabBar>
#include <QTemporaryDir>
#include <QToolButton>

using namespace ph;
using namespace ph::test;

class tst_MainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void showsTheApiAddress();
    void givesThePanelsTheWholeWindowWithTheOverviewFirst();
    void copiesThisSessionsKey();
    void showsThePoolLoad();
    void switchesToGermanLive();
    void settingsFollowAndRememberTheLanguage();
    void keepsServingInTheTrayOrQuits();
    void everyButtonAndCommandHasAnIcon();
    void bundledIconsFollowThePalette();
    void prefersTheDesktopThemesIcon();

private:
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::StatusBar *statusBar() { return m_window->findChild<ui::StatusBar *>(); }
};

void tst_MainWindow::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
    // The default layout, not one an earlier run saved when it closed the window.
    for (const char *key : {"console/geometry", "console/windowState", "console/splitters"})
        QSettings().remove(QLatin1String(key));
    m_window = std::make_unique<ui::MainWindow>(m_ph->service());
    m_window->setLanguage(QStringLiteral("en"));
    m_window->show();
}

void tst_MainWindow::cleanupTestCase()
{
    m_window.reset();
    m_ph.reset();
}

void tst_MainWindow::showsTheApiAddress()
{
    QVERIFY(statusBar()->addressText().contains(m_ph->base()));
}

void tst_MainWindow::givesThePanelsTheWholeWindowWithTheOverviewFirst()
{
    // No central block above the panels: the docks fill the window.
    QVERIFY(!m_window->centralWidget());
    auto *overview = m_window->findChild<QDockWidget *>(QStringLiteral("overviewDock"));
    QVERIFY(overview);
    QVERIFY(overview->isVisible());
    const QList<QDockWidget *> tabs = m_window->tabifiedDockWidgets(overview);
    QVERIFY(tabs.size() >= 8);
    // Every other panel shares the Overview's tab bar, so each gets the full height.
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
        if (dock != overview)
            QVERIFY2(tabs.contains(dock), qPrintable(dock->objectName()));
    }
    // The first tab is the Overview's.
    const QList<QTabBar *> bars = m_window->findChildren<QTabBar *>();
    bool first = false;
    for (QTabBar *bar : bars) {
        if (bar->count() > 1 && bar->tabText(0) == overview->windowTitle())
            first = true;
    }
    QVERIFY(first);
}

void tst_MainWindow::copiesThisSessionsKey()
{
    auto *button = statusBar()->findChild<QToolButton *>();
    QVERIFY(button);
    button->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), m_ph->service().mintedApiKey());
}

void tst_MainWindow::showsThePoolLoad()
{
    QVERIFY(statusBar()->poolText().contains(QLatin1String("0 of 4 busy")));
    BrowserPool::Options o = m_ph->service().pool().options();
    o.size = 6;
    m_ph->service().pool().setOptions(o);
    QTRY_VERIFY(statusBar()->poolText().contains(QLatin1String("0 of 6 busy")));
}

void tst_MainWindow::switchesToGermanLive()
{
    m_window->setLanguage(QStringLiteral("de"));
    QCOMPARE(m_window->windowTitle(), QStringLiteral("Pilothouse-Konsole"));
    // Child widgets retranslate on the LanguageChange event that follows.
    QTRY_VERIFY(statusBar()->poolText().startsWith(QLatin1String("Browser-Pool:")));
    QCOMPARE(m_window->menuBar()->actions().first()->text(), QStringLiteral("&Datei"));
    m_window->setLanguage(QStringLiteral("en"));
    QCOMPARE(m_window->windowTitle(), QStringLiteral("Pilothouse console"));
}

void tst_MainWindow::settingsFollowAndRememberTheLanguage()
{
    auto *settings = m_window->findChild<ui::SettingsDock *>();
    QVERIFY(settings);
    QComboBox *combo = settings->languageCombo();
    // Set elsewhere (the View menu, a test, the start-up default): the panel shows it.
    m_window->setLanguage(QStringLiteral("de"));
    QCOMPARE(combo->currentData().toString(), QStringLiteral("de"));
    m_window->setLanguage(QStringLiteral("en"));
    QCOMPARE(combo->currentData().toString(), QStringLiteral("en"));
    // Picked in the panel: applied at once, and the next console starts in it.
    combo->setCurrentIndex(combo->findData(QStringLiteral("de")));
    QCOMPARE(m_window->windowTitle(), QStringLiteral("Pilothouse-Konsole"));
    {
        ui::MainWindow next(m_ph->service());
        QCOMPARE(next.windowTitle(), QStringLiteral("Pilothouse-Konsole"));
        QCOMPARE(next.findChild<ui::SettingsDock *>()->languageCombo()->currentData().toString(),
                 QStringLiteral("de"));
    }
    combo->setCurrentIndex(combo->findData(QStringLiteral("en")));
    QCOMPARE(m_window->windowTitle(), QStringLiteral("Pilothouse console"));
}

namespace {
// A window that believes a system tray exists (offscreen has none).
class TrayWindow : public ui::MainWindow
{
public:
    using ui::MainWindow::MainWindow;

protected:
    bool canUseTray() const override { return true; }
};
} // namespace

void tst_MainWindow::keepsServingInTheTrayOrQuits()
{
    TrayWindow window(m_ph->service());
    QSignalSpy quit(&window, &ui::MainWindow::quitRequested);
    window.show();
    window.setCloseAction(ui::MainWindow::CloseAction::Tray);
    QVERIFY(!window.close()); // the close is refused: the window goes to the tray
    QVERIFY(!window.isVisible());
    QVERIFY(window.trayIcon());
    QCOMPARE(quit.count(), 0);
    // The tray's menu brings it back, and its Quit quits.
    const QList<QAction *> actions = window.trayIcon()->contextMenu()->actions();
    QCOMPARE(actions.size(), 2);
    actions.at(0)->trigger();
    QVERIFY(window.isVisible());
    actions.at(1)->trigger();
    QCOMPARE(quit.count(), 1);
    // Set to quit: closing quits.
    TrayWindow other(m_ph->service());
    QSignalSpy otherQuit(&other, &ui::MainWindow::quitRequested);
    other.show();
    other.setCloseAction(ui::MainWindow::CloseAction::Quit);
    QVERIFY(other.close());
    QCOMPARE(otherQuit.count(), 1);
}

namespace {
// The colours of an icon's opaque pixels (anti-aliased edges left out).
QSet<QRgb> opaqueColours(const QIcon &icon)
{
    const QImage image =
        icon.pixmap(QSize(48, 48)).toImage().convertToFormat(QImage::Format_ARGB32);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            if (qAlpha(p) == 255)
                colours.insert(p);
        }
    }
    return colours;
}

// Whether an icon has opaque pixels and all of them are `colour` (±2 for rounding).
bool drawnIn(const QIcon &icon, QColor colour)
{
    const QSet<QRgb> colours = opaqueColours(icon);
    for (QRgb c : colours) {
        if (std::abs(qRed(c) - colour.red()) > 2 || std::abs(qGreen(c) - colour.green()) > 2 ||
            std::abs(qBlue(c) - colour.blue()) > 2)
            return false;
    }
    return !colours.isEmpty();
}
} // namespace

void tst_MainWindow::everyButtonAndCommandHasAnIcon()
{
    int buttons = 0;
    for (const QPushButton *b : m_window->findChildren<QPushButton *>()) {
        if (b->text().isEmpty())
            continue;
        ++buttons;
        QVERIFY2(!b->icon().isNull(), qPrintable(b->text()));
        QVERIFY2(!b->icon().pixmap(QSize(16, 16)).isNull(), qPrintable(b->text()));
    }
    QVERIFY2(buttons >= 25, qPrintable(QString::number(buttons)));
    for (const QAction *menu : m_window->menuBar()->actions()) {
        // Panel toggles (checkable) show check marks instead.
        for (const QAction *a : menu->menu()->actions()) {
            if (!a->isSeparator() && !a->isCheckable())
                QVERIFY2(!a->icon().isNull(), qPrintable(a->text()));
        }
    }
}

void tst_MainWindow::bundledIconsFollowThePalette()
{
    // No desktop theme: every icon is the bundled one, drawn in the text colour.
    const QStringList paths = QIcon::themeSearchPaths();
    const QString theme = QIcon::themeName();
    QIcon::setThemeSearchPaths({});
    QIcon::setThemeName(QStringLiteral("no-such-theme"));
    const QPalette original = QApplication::palette();
    QPalette light = original;
    light.setColor(QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    QApplication::setPalette(light);
    QList<QIcon> icons;
    for (ui::Icon which : ui::allIcons()) {
        const QIcon i = ui::icon(which);
        QVERIFY2(!i.isNull(), qPrintable(ui::iconName(which)));
        QVERIFY2(drawnIn(i, QColor(0x20, 0x20, 0x20)), qPrintable(ui::iconName(which)));
        icons.append(i);
    }
    // A dark palette: the same icons now draw light, without being made again.
    QPalette dark = original;
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    QApplication::setPalette(dark);
    for (const QIcon &i : std::as_const(icons))
        QVERIFY2(drawnIn(i, QColor(0xee, 0xee, 0xee)), qPrintable(i.name()));
    QApplication::setPalette(original);
    QIcon::setThemeSearchPaths(paths);
    QIcon::setThemeName(theme);
}

void tst_MainWindow::prefersTheDesktopThemesIcon()
{
    // A desktop theme with a red view-refresh and nothing else.
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("redtheme/16x16/actions")));
    QFile index(dir.filePath(QStringLiteral("redtheme/index.theme")));
    QVERIFY(index.open(QIODevice::WriteOnly));
    index.write("[Icon Theme]\nName=redtheme\nDirectories=16x16/actions\n\n"
                "[16x16/actions]\nSize=16\nType=Fixed\n");
    index.close();
    QImage red(16, 16, QImage::Format_ARGB32);
    red.fill(Qt::red);
    QVERIFY(red.save(dir.filePath(QStringLiteral("redtheme/16x16/actions/view-refresh.png"))));
    const QStringList paths = QIcon::themeSearchPaths();
    const QString theme = QIcon::themeName();
    QIcon::setThemeSearchPaths({dir.path()});
    QIcon::setThemeName(QStringLiteral("redtheme"));
    QVERIFY(drawnIn(ui::icon(ui::Icon::Refresh), Qt::red));
    // What the theme lacks comes from the bundle.
    const QSet<QRgb> add = opaqueColours(ui::icon(ui::Icon::Add));
    QVERIFY(!add.isEmpty() && !add.contains(qRgb(255, 0, 0)));
    QIcon::setThemeSearchPaths(paths);
    QIcon::setThemeName(theme);
}

int main(int argc, char **argv)
{
    ph::test::prepareWebEngineEnvironment();
    QApplication app(argc, argv);
    tst_MainWindow tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}
#include "tst_mainwindow.moc"
