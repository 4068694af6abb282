#pragma once

#include <QDockWidget>

class QLabel;
class QPlainTextEdit;

namespace ph {
class Service;
}

namespace ph::ui {

// The first panel: where the API is, how to call it, and the requests as they happen.
// (The API address and a key are also always in the status bar.)
class OverviewDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit OverviewDock(Service &service, QWidget *parent = nullptr);
    QPlainTextEdit *activity() const { return m_activity; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void onStoreChanged(const QString &table, const QString &id);

    Service &m_service;
    QLabel *m_title;
    QLabel *m_intro;
    QPlainTextEdit *m_example;
    QLabel *m_activityTitle;
    QPlainTextEdit *m_activity;
};

} // namespace ph::ui
