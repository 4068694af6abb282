#pragma once

#include <QMainWindow>

class QAction;
class QMenu;
class QTranslator;

namespace ph {
class Service;
}

namespace ph::ui {

class OverviewPage;
class StatusBar;
class DeliveriesDock;
class ProposalsDock;
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

    // Installs the translation for `language` ("en", "de") and retranslates live.
    void setLanguage(const QString &language);

Q_SIGNALS:
    void quitRequested();

protected:
    void changeEvent(QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void retranslateUi();

    Service &m_service;
    OverviewPage *m_overview;
    TrajectoriesDock *m_trajectories;
    DeliveriesDock *m_deliveries;
    TriggersDock *m_triggers;
    ProposalsDock *m_proposals;
    StatusBar *m_statusBar;
    QMenu *m_fileMenu;
    QMenu *m_viewMenu;
    QMenu *m_helpMenu;
    QAction *m_quitAction;
    QAction *m_aboutAction;
    QTranslator *m_translator = nullptr;
};

} // namespace ph::ui
