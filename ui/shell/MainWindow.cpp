#include "MainWindow.h"

#include "OverviewPage.h"
#include "StatusBar.h"
#include "deliveries/DeliveriesDock.h"
#include "proposals/ProposalsDock.h"
#include "trajectories/TrajectoriesDock.h"
#include "triggers/TriggersDock.h"

#include "Service.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QEvent>
#include <QIcon>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
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
    m_overview = new OverviewPage(service, this);
    setCentralWidget(m_overview);
    m_statusBar = new StatusBar(service, this);
    setStatusBar(m_statusBar);

    m_fileMenu = menuBar()->addMenu(QString());
    m_quitAction = m_fileMenu->addAction(QString(), this, &MainWindow::close);
    m_quitAction->setShortcut(QKeySequence::Quit);
    // Each panel is a dock; the View menu shows and hides them.
    m_viewMenu = menuBar()->addMenu(QString());
    m_trajectories = new TrajectoriesDock(service, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_trajectories);
    m_viewMenu->addAction(m_trajectories->toggleViewAction());
    m_deliveries = new DeliveriesDock(service, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_deliveries);
    tabifyDockWidget(m_trajectories, m_deliveries);
    m_viewMenu->addAction(m_deliveries->toggleViewAction());
    m_triggers = new TriggersDock(service, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_triggers);
    tabifyDockWidget(m_deliveries, m_triggers);
    m_viewMenu->addAction(m_triggers->toggleViewAction());
    m_proposals = new ProposalsDock(service, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_proposals);
    tabifyDockWidget(m_triggers, m_proposals);
    m_viewMenu->addAction(m_proposals->toggleViewAction());
    m_trajectories->raise();
    m_helpMenu = menuBar()->addMenu(QString());
    m_aboutAction = m_helpMenu->addAction(QString(), this, [this] {
        QMessageBox::about(this, tr("About Pilothouse"),
                           tr("<b>Pilothouse %1</b><p>A self-hosted web-automation service: "
                              "an API server, a cloud browser and this console.</p>")
                               .arg(QStringLiteral(PILOTHOUSE_VERSION)));
    });

    resize(1100, 720);
    setLanguage(QLocale().name().section(QLatin1Char('_'), 0, 0));
    retranslateUi();
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
    // Installing or removing a translator sends LanguageChange; English needs a nudge.
    retranslateUi();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    Q_EMIT quitRequested();
    event->accept();
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("Pilothouse console"));
    m_fileMenu->setTitle(tr("&File"));
    m_quitAction->setText(tr("&Quit"));
    m_viewMenu->setTitle(tr("&View"));
    m_helpMenu->setTitle(tr("&Help"));
    m_aboutAction->setText(tr("&About Pilothouse"));
}

} // namespace ph::ui
