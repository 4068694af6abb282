#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ph::ui {

class ConnectKeysModel;

// The selected site's Connect AI keys: how many are active of the most allowed, the
// list, a label and Create, Revoke (also Delete on the list). The dock does the calls
// when the signals fire.
class ConnectKeysPane : public QWidget
{
    Q_OBJECT
public:
    ConnectKeysPane(ConnectKeysModel *model, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    QLineEdit *labelField() const { return m_label; }
    QPushButton *createButton() const { return m_create; }
    QPushButton *revokeButton() const { return m_revoke; }

    // `activeCount` < 0: no site is selected. `canRevoke`: the selected key is active.
    void showState(int activeCount, bool canRevoke);
    void retranslateUi();

Q_SIGNALS:
    void createRequested();
    void revokeRequested();

private:
    QLabel *m_count;
    QTableView *m_view;
    QLineEdit *m_label;
    QPushButton *m_create;
    QPushButton *m_revoke;
};

} // namespace ph::ui
