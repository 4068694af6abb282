// The console shell: status bar, copy-key, pool load and live translation.
#include "TestMain.h"
#include "TestService.h"

#include "MainWindow.h"
#include "StatusBar.h"

#include "browser/BrowserPool.h"

#include <QApplication>
#include <QClipboard>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSystemTrayIcon>
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
    void copiesThisSessionsKey();
    void showsThePoolLoad();
    void switchesToGermanLive();
    void keepsServingInTheTrayOrQuits();

private:
    std::unique_ptr<TestService> m_ph;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::StatusBar *statusBar() { return m_window->findChild<ui::StatusBar *>(); }
};

void tst_MainWindow::initTestCase()
{
    m_ph = std::make_unique<TestService>();
    QVERIFY(m_ph->ok());
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

int main(int argc, char **argv)
{
    ph::test::prepareWebEngineEnvironment();
    QApplication app(argc, argv);
    tst_MainWindow tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}
#include "tst_mainwindow.moc"
