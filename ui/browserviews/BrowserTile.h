#pragma once

#include "common/ConsoleServices.h"

#include <QFrame>
#include <QPointer>

class QCheckBox;
class QLabel;
class QWebEnginePage;
class QWebEngineView;

namespace ph {
class BrowserLease;
} // namespace ph

namespace ph::ui {

// One leased page in the live views: its run, its URL, the page itself, and the
// take-over switch.
class BrowserTile : public QFrame
{
    Q_OBJECT
public:
    // A QtWebEngine page is shown in a view; a chromium page by its screencast.
    BrowserTile(const ConsoleServices &services, BrowserLease *lease, QWidget *parent = nullptr);
    ~BrowserTile() override;

    QString label() const { return m_label; }
    // The QtWebEngine view (null for a chromium page) and the widget showing the page.
    QWebEngineView *view() const { return m_view; }
    QWidget *pageWidget() const { return m_shown; }
    QCheckBox *takeOver() const { return m_takeOver; }
    // Whether the run behind the page is paused (waiting for input): only then may the
    // operator take over.
    bool runIsPaused() const;
    void retranslateUi();

protected:
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    void update();
    void enlarge();

    ConsoleServices m_services;
    QString m_leaseId;
    QString m_label;
    QPointer<QWebEnginePage> m_page;
    QPointer<BrowserLease> m_lease;
    QLabel *m_caption;
    QWebEngineView *m_view = nullptr;
    QWidget *m_shown = nullptr;
    QCheckBox *m_takeOver;
};

} // namespace ph::ui
