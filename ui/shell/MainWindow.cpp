#include "MainWindow.h"

#include "ShortcutsDialog.h"
#include "StatusBar.h"
#include "a2w/A2wRunsDock.h"
#include "browserviews/BrowserViewsDock.h"
#include "deliveries/DeliveriesDock.h"
#include "devices/DevicesDock.h"
#include "keys/KeysDock.h"
#include "overview/OverviewDock.h"
#include "proposals/ProposalsDock.h"
#include "settings/SettingsDock.h"
#include "sites/SitesDock.h"
#include "tools/ToolsDock.h"
#include "trajectories/TrajectoriesDock.h"
#include "triggers/TriggersDock.h"

#include "Service.h"
#include "common/Accessibility.h"
#include "common/ConsoleServices.h"
#include "common/Icons.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QEvent>
#include <QIcon>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QSystemTrayIcon>
#include <QTranslator>

namespace ph::ui {

MainWindow::MainWindow(Service &service, QWidget *parent)
    : QMainWindow(parent)
    , m_service(service)
{
    setWindowIcon(QIcon::fromTheme(QStringLiteral("pilothouse"),
                                   QIcon(QStringLiteral(":/pilothouse/icons/pilothouse.svg"))));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks |
                   QMainWindow::AllowTabbedDocks);
    // No central widget: the panels have the whole window, the Overview first among them.
    m_statusBar = new StatusBar(service, this);
    const ConsoleServices services = ConsoleServices::of(service);
    setStatusBar(m_statusBar);

    m_fileMenu = menuBar()->addMenu(QString());
    m_quitAction = m_fileMenu->addAction(icon(Icon::Quit), QString(), this, &MainWindow::quit);
    m_quitAction->setShortcut(QKeySequence::Quit);
    // Each panel is a dock; the View menu shows and hides them.
    m_viewMenu = menuBar()->addMenu(QString());
    addPanels(services);
    connectOverview();
    m_overview->raise();
    addPanelNavigation();
    m_helpMenu = menuBar()->addMenu(QString());
    m_shortcutsAction =
        m_helpMenu->addAction(icon(Icon::About), QString(), this, &MainWindow::showShortcuts);
    m_shortcutsAction->setShortcut(QKeySequence::HelpContents);
    m_aboutAction = m_helpMenu->addAction(icon(Icon::About), QString(), this, [this] {
        QMessageBox::about(this, tr("About Pilothouse"),
                           tr("<b>Pilothouse %1</b><p>A self-hosted web-automation service: "
                              "an API server, a cloud browser and this console.</p>")
                               .arg(QStringLiteral(PILOTHOUSE_VERSION)));
    });

    // Screen readers name a form's fields by their labels.
    labelFormFields(this);
    resize(1100, 720);
    restoreLayout();
    const QString remembered = QSettings().value(QStringLiteral("console/closeAction")).toString();
    if (remembered == QLatin1String("tray"))
        m_closeAction = CloseAction::Tray;
    else if (remembered == QLatin1String("quit"))
        m_closeAction = CloseAction::Quit;
    setLanguage(QSettings()
                    .value(QStringLiteral("console/language"),
                           QLocale().name().section(QLatin1Char('_'), 0, 0))
                    .toString());
    retranslateUi();
}

void MainWindow::addPanelNavigation()
{
    // Keyboard: Ctrl+1 … Ctrl+0 go to the first ten panels, Ctrl+PgDown / Ctrl+PgUp to the
    // next and previous one; every panel is in View > Go to panel.
    m_panels = {m_overview, m_trajectories, m_a2wRuns,      m_deliveries,
                m_triggers, m_proposals,    m_browserViews, m_tools,
                m_keys,     m_settingsDock, m_sitesDock,    m_devicesDock};
    m_viewMenu->addSeparator();
    m_goMenu = m_viewMenu->addMenu(icon(Icon::Open), QString());
    for (int i = 0; i < m_panels.size(); ++i) {
        QDockWidget *panel = m_panels.at(i);
        QAction *go = m_goMenu->addAction(icon(Icon::Open), QString(), this,
                                          [this, panel] { goToPanel(panel); });
        if (i < 10)
            go->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + (i + 1) % 10)));
        connect(panel, &QWidget::windowTitleChanged, go,
                [go](const QString &title) { go->setText(tr("Go to %1").arg(title)); });
        m_goActions.append(go);
    }
    const auto step = [this](int by) {
        QDockWidget *now = nullptr;
        for (QDockWidget *p : std::as_const(m_panels)) {
            if (p->isAncestorOf(QApplication::focusWidget()))
                now = p;
        }
        const int at = now ? int(m_panels.indexOf(now)) : 0;
        goToPanel(m_panels.at((at + by + m_panels.size()) % m_panels.size()));
    };
    m_nextPanelAction = m_goMenu->addAction(icon(Icon::Open), QString(), this, [step] { step(1); });
    m_nextPanelAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    m_previousPanelAction =
        m_goMenu->addAction(icon(Icon::Open), QString(), this, [step] { step(-1); });
    m_previousPanelAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
}

void MainWindow::connectOverview()
{
    // The Overview's charts open their panels, filtered by the status or outcome clicked.
    auto bringUp = [](QDockWidget *dock) {
        dock->show();
        dock->raise();
        dock->setFocus();
    };
    connect(m_overview, &OverviewDock::runsRequested, this, [this, bringUp](const QString &s) {
        m_trajectories->filterByStatus(s);
        bringUp(m_trajectories);
    });
    connect(m_overview, &OverviewDock::deliveriesRequested, this,
            [this, bringUp](const QString &s) {
                m_deliveries->filterByStatus(s);
                bringUp(m_deliveries);
            });
    connect(m_overview, &OverviewDock::browserViewsRequested, this,
            [this, bringUp] { bringUp(m_browserViews); });
    connect(m_overview, &OverviewDock::keysRequested, this, [this, bringUp] { bringUp(m_keys); });
    connect(m_overview, &OverviewDock::a2wRunsRequested, this,
            [this, bringUp] { bringUp(m_a2wRuns); });
}

void MainWindow::addPanels(const ConsoleServices &services)
{
    m_overview = new OverviewDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_overview);
    m_viewMenu->addAction(m_overview->toggleViewAction());
    m_trajectories = new TrajectoriesDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_trajectories);
    tabifyDockWidget(m_overview, m_trajectories);
    m_viewMenu->addAction(m_trajectories->toggleViewAction());
    m_a2wRuns = new A2wRunsDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_a2wRuns);
    tabifyDockWidget(m_trajectories, m_a2wRuns);
    m_viewMenu->addAction(m_a2wRuns->toggleViewAction());
    m_deliveries = new DeliveriesDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_deliveries);
    tabifyDockWidget(m_trajectories, m_deliveries);
    m_viewMenu->addAction(m_deliveries->toggleViewAction());
    m_triggers = new TriggersDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_triggers);
    tabifyDockWidget(m_deliveries, m_triggers);
    m_viewMenu->addAction(m_triggers->toggleViewAction());
    m_proposals = new ProposalsDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_proposals);
    tabifyDockWidget(m_triggers, m_proposals);
    m_viewMenu->addAction(m_proposals->toggleViewAction());
    m_browserViews = new BrowserViewsDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_browserViews);
    tabifyDockWidget(m_proposals, m_browserViews);
    m_viewMenu->addAction(m_browserViews->toggleViewAction());
    connect(m_a2wRuns, &A2wRunsDock::browserViewRequested, m_browserViews, [this] {
        m_browserViews->show();
        m_browserViews->raise();
    });
    m_tools = new ToolsDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_tools);
    tabifyDockWidget(m_proposals, m_tools);
    m_viewMenu->addAction(m_tools->toggleViewAction());
    m_keys = new KeysDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_keys);
    tabifyDockWidget(m_tools, m_keys);
    m_viewMenu->addAction(m_keys->toggleViewAction());
    m_settingsDock = new SettingsDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_settingsDock);
    tabifyDockWidget(m_keys, m_settingsDock);
    m_viewMenu->addAction(m_settingsDock->toggleViewAction());
    // The language picked in the panel is the console's from now on, also after a restart.
    connect(m_settingsDock, &SettingsDock::languageRequested, this, [this](const QString &l) {
        QSettings().setValue(QStringLiteral("console/language"), l);
        setLanguage(l);
    });
    m_sitesDock = new SitesDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_sitesDock);
    tabifyDockWidget(m_settingsDock, m_sitesDock);
    m_viewMenu->addAction(m_sitesDock->toggleViewAction());
    m_devicesDock = new DevicesDock(services, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_devicesDock);
    tabifyDockWidget(m_sitesDock, m_devicesDock);
    m_viewMenu->addAction(m_devicesDock->toggleViewAction());
}

MainWindow::~MainWindow() = default;

void MainWindow::setLanguage(const QString &language)
{
    if (m_translator) {
        QCoreApplication::removeTranslator(m_translator);
        delete m_translator;
        m_translator = nullptr;
    }
    if (language != QLatin1String("en")) {
        auto *translator = new QTranslator(this);
        if (translator->load(QStringLiteral(":/pilothouse/i18n/pilothouse_%1.qm").arg(language))) {
            QCoreApplication::installTranslator(translator);
            m_translator = translator;
        } else {
            delete translator;
        }
    }
    m_settingsDock->showLanguage(language);
    // Installing or removing a translator sends LanguageChange; English needs a nudge.
    retranslateUi();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::setCloseAction(CloseAction action)
{
    m_closeAction = action;
}

bool MainWindow::canUseTray() const
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

void MainWindow::quit()
{
    m_quitting = true;
    close();
}

MainWindow::CloseAction MainWindow::askOnClose()
{
    QMessageBox box(QMessageBox::Question, tr("Close the console"),
                    tr("Keep Pilothouse serving in the system tray, or quit it? Runs in "
                       "progress stop when it quits."),
                    QMessageBox::NoButton, this);
    QPushButton *tray = box.addButton(tr("Keep serving in the tray"), QMessageBox::AcceptRole);
    QPushButton *quit = box.addButton(tr("Quit"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(tray);
    auto *remember = new QCheckBox(tr("Do not ask again"), &box);
    box.setCheckBox(remember);
    box.exec();
    CloseAction choice = CloseAction::Ask; // Ask here means "cancel"
    if (box.clickedButton() == tray)
        choice = CloseAction::Tray;
    else if (box.clickedButton() == quit)
        choice = CloseAction::Quit;
    if (choice != CloseAction::Ask && remember->isChecked()) {
        setCloseAction(choice);
        QSettings().setValue(QStringLiteral("console/closeAction"), choice == CloseAction::Tray
                                                                        ? QStringLiteral("tray")
                                                                        : QStringLiteral("quit"));
    }
    return choice;
}

void MainWindow::hideToTray()
{
    if (!m_tray) {
        m_tray = new QSystemTrayIcon(windowIcon(), this);
        auto *menu = new QMenu(this);
        m_showAction = menu->addAction(QString(), this, [this] {
            showNormal();
            raise();
            activateWindow();
        });
        m_trayQuitAction = menu->addAction(icon(Icon::Quit), QString(), this, &MainWindow::quit);
        m_tray->setContextMenu(menu);
        connect(m_tray, &QSystemTrayIcon::activated, this, [this](auto reason) {
            if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick) {
                showNormal();
                raise();
            }
        });
        retranslateUi();
    }
    m_tray->show();
    hide();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_quitting && canUseTray()) {
        CloseAction action = m_closeAction;
        if (action == CloseAction::Ask)
            action = askOnClose();
        if (action == CloseAction::Ask) { // cancelled
            event->ignore();
            return;
        }
        if (action == CloseAction::Tray) {
            saveLayout();
            hideToTray();
            event->ignore();
            return;
        }
    }
    saveLayout();
    if (m_tray)
        m_tray->hide();
    Q_EMIT quitRequested();
    event->accept();
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("console/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("console/windowState"), saveState());
    // Splitters by panel and position among the panel's splitters (the same each start).
    for (const QDockWidget *panel : m_panels) {
        const QList<QSplitter *> splitters = panel->findChildren<QSplitter *>();
        for (int i = 0; i < splitters.size(); ++i)
            settings.setValue(
                QStringLiteral("console/splitters/%1/%2").arg(panel->objectName()).arg(i),
                splitters.at(i)->saveState());
    }
}

bool MainWindow::restoreLayout()
{
    QSettings settings;
    const QByteArray geometry = settings.value(QStringLiteral("console/geometry")).toByteArray();
    if (geometry.isEmpty())
        return false;
    restoreGeometry(geometry);
    restoreState(settings.value(QStringLiteral("console/windowState")).toByteArray());
    for (QDockWidget *panel : std::as_const(m_panels)) {
        const QList<QSplitter *> splitters = panel->findChildren<QSplitter *>();
        for (int i = 0; i < splitters.size(); ++i) {
            const QByteArray state =
                settings
                    .value(
                        QStringLiteral("console/splitters/%1/%2").arg(panel->objectName()).arg(i))
                    .toByteArray();
            if (!state.isEmpty())
                splitters.at(i)->restoreState(state);
        }
    }
    return true;
}

void MainWindow::goToPanel(QDockWidget *panel)
{
    panel->show();
    panel->raise();
    // The first control that takes the keyboard, so the keys work in the panel at once.
    if (QWidget *body = panel->widget()) {
        QWidget *w = body;
        do {
            w = w->nextInFocusChain();
        } while (w != body && !(body->isAncestorOf(w) && (w->focusPolicy() & Qt::TabFocus) &&
                                w->isEnabled() && w->isVisibleTo(body)));
        (w == body ? body : w)->setFocus(Qt::ShortcutFocusReason);
    }
}

void MainWindow::showShortcuts()
{
    ShortcutsDialog dialog(this, this);
    dialog.exec();
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("Pilothouse console"));
    m_fileMenu->setTitle(tr("&File"));
    m_quitAction->setText(tr("&Quit"));
    m_viewMenu->setTitle(tr("&View"));
    m_helpMenu->setTitle(tr("&Help"));
    m_aboutAction->setText(tr("&About Pilothouse"));
    m_shortcutsAction->setText(tr("&Keyboard shortcuts"));
    m_goMenu->setTitle(tr("&Go to panel"));
    for (int i = 0; i < m_goActions.size(); ++i)
        m_goActions.at(i)->setText(tr("Go to %1").arg(m_panels.at(i)->windowTitle()));
    m_nextPanelAction->setText(tr("Next panel"));
    m_previousPanelAction->setText(tr("Previous panel"));
    if (m_tray) {
        m_tray->setToolTip(tr("Pilothouse is serving at %1").arg(m_service.apiAddress()));
        m_showAction->setText(tr("Show the console"));
        m_trayQuitAction->setText(tr("Quit Pilothouse"));
    }
}

} // namespace ph::ui
