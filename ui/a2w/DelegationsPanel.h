#pragma once

#include "common/ConsoleServices.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace ph::ui {

// Delegated sessions visiting agents act under: listed with their scope and spend
// (live through A2wService::delegationsChanged); the operator revokes the selected one.
class DelegationsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DelegationsPanel(const ConsoleServices &services, QWidget *parent = nullptr);

    QTableWidget *view() const { return m_delegations; }
    QPushButton *revokeButton() const { return m_revoke; }
    void refresh();

Q_SIGNALS:
    // What went wrong with the operator's last action (empty: nothing, clear it).
    void error(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void revoke();

    ConsoleServices m_services;
    QLabel *m_heading;
    QTableWidget *m_delegations;
    QPushButton *m_revoke;
};

} // namespace ph::ui
