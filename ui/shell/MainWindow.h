#pragma once

#include <QMainWindow>

class QAction;
class QDockWidget;
class QMenu;
class QSystemTrayIcon;
class QTranslator;

namespace ph {
class Service;
}

namespace ph::ui {

struct ConsoleServices;
class OverviewDock;
class StatusBar;
class BrowserViewsDock;
class A2wRunsDock;
class DeliveriesDock;
class DevicesDock;
class KeysDock;
class ProposalsDock;
class SettingsDock;
class SitesDock;
class ToolsDock;
class TrajectoriesDock;
class TriggersDock;

// The console's frame: menus, dock areas the panels attach to, the overview page in
// the middle and the status bar (API address, copy-key, pool load).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(Service &service, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Installs the translation for `language` ("en", "de") and retranslates live; the
    // settings panel shows it. One picked in that panel is remembered (QSettings
    // console/language) and used at the next start instead of the system's.
    void setLanguage(const QString &language);

    // What closing the window does while a system tray exists: ask (the default),
    // keep serving from the tray, or quit. Remembered in QSettings when the operator
    // ticks "do not ask again". Without a tray, closing quits.
    enum class CloseAction { Ask, Tray, Quit };
    void setCloseAction(CloseAction action);
    CloseAction closeAction() const { return m_closeAction; }
    QSystemTrayIcon *trayIcon() const { return m_tray; }
    // Quits for real: File > Quit and the tray's Quit.
    void quit();

    // The window's size and place, its docks (shown, tabbed, floating) and every panel's
    // splitters, kept in QSettings (console/geometry, console/windowState,
    // console/splitters/<panel>/<n>). Saved when the window closes or goes to the tray,
    // restored when it is made; restoreLayout() is false when nothing was saved.
    void saveLayout() const;
    bool restoreLayout();
    // Help > Keyboard shortcuts (F1).
    void showShortcuts();
    // Every panel, in the View menu's order (Ctrl+1 … Ctrl+0 go to the first ten).
    QList<QDockWidget *> panels() const { return m_panels; }
    // Shows and raises a panel and puts the keyboard focus in it.
    void goToPanel(QDockWidget *panel);

Q_SIGNALS:
    void quitRequested();

protected:
    void changeEvent(QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    // Whether a system tray can hold the console (virtual for tests).
    virtual bool canUseTray() const;

private:
    void retranslateUi();
    void addPanelNavigation();
    void connectOverview();
    void addPanels(const ConsoleServices &services);
    void hideToTray();
    CloseAction askOnClose();

    Service &m_service;
    OverviewDock *m_overview;
    TrajectoriesDock *m_trajectories;
    DeliveriesDock *m_deliveries;
    A2wRunsDock *m_a2wRuns;
    TriggersDock *m_triggers;
    ProposalsDock *m_proposals;
    BrowserViewsDock *m_browserViews;
    ToolsDock *m_tools;
    KeysDock *m_keys;
    SettingsDock *m_settingsDock;
    SitesDock *m_sitesDock;
    DevicesDock *m_devicesDock;
    StatusBar *m_statusBar;
    QMenu *m_fileMenu;
    QMenu *m_viewMenu;
    QMenu *m_helpMenu;
    QAction *m_quitAction;
    QAction *m_aboutAction;
    QAction *m_shortcutsAction;
    QAction *m_nextPanelAction;
    QAction *m_previousPanelAction;
    QMenu *m_goMenu;
    QList<QDockWidget *> m_panels;
    QList<QAction *> m_goActions;
    QTranslator *m_translator = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
    QAction *m_showAction = nullptr;
    QAction *m_trayQuitAction = nullptr;
    CloseAction m_closeAction = CloseAction::Ask;
    bool m_quitting = false;
};

} // namespace ph::ui
