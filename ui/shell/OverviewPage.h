#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace ph {
class Service;
}

namespace ph::ui {

// The console's centre until panels are docked: where the API is, how to call it, and
// the requests as they happen.
class OverviewPage : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewPage(Service &service, QWidget *parent = nullptr);

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
