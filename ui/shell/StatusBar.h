#pragma once

#include <QStatusBar>

class QLabel;
class QToolButton;

namespace ph {
class Service;
}

namespace ph::ui {

// API address, a button that copies an API key, and the browser pool's load.
class StatusBar : public QStatusBar
{
    Q_OBJECT
public:
    explicit StatusBar(Service &service, QWidget *parent = nullptr);

    QString addressText() const;
    QString poolText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updatePool();
    void copyKey();

    Service &m_service;
    QLabel *m_address;
    QToolButton *m_copyKey;
    QLabel *m_pool;
    QString m_sessionKey; // the key minted at this start or by this button, in memory only
};

} // namespace ph::ui
