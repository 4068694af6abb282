#pragma once

#include <QFrame>
#include <QPointer>

class QCheckBox;
class QLabel;
class QWebEnginePage;
class QWebEngineView;

namespace ph {
class Service;
}

namespace ph::ui {

// One leased page in the live views: its run, its URL, the page itself, and the
// take-over switch.
class BrowserTile : public QFrame
{
    Q_OBJECT
public:
    BrowserTile(Service &service, QString leaseId, QString label, QWebEnginePage *page,
                QWidget *parent = nullptr);
    ~BrowserTile() override;

    QString label() const { return m_label; }
    QWebEngineView *view() const { return m_view; }
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

    Service &m_service;
    QString m_leaseId;
    QString m_label;
    QPointer<QWebEnginePage> m_page;
    QLabel *m_caption;
    QWebEngineView *m_view;
    QCheckBox *m_takeOver;
};

} // namespace ph::ui
