#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ph {
class DomainError;
namespace http {}
} // namespace ph

namespace ph::ui {

class GrantsPanel;
class KeysModel;
class ProfilesPanel;
class SecretReveal;

// API keys and credits (the /keys endpoints): every key with its role, prefix, balance
// and credits used; mint one (its secret shown once, with Copy, until dismissed; never
// again); revoke the selected key (Delete); set its balance (empty: unlimited). Below
// them, the keys' browser profiles (ProfilesPanel) and the OAuth grants of MCP clients
// (GrantsPanel).
class KeysDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit KeysDock(const ConsoleServices &services, QWidget *parent = nullptr);

    KeysModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    bool select(const QString &keyId);
    QString currentId() const { return m_current; }

    QLineEdit *labelField() const { return m_label; }
    QComboBox *roleCombo() const { return m_role; }
    QLineEdit *mintBalanceField() const { return m_mintBalance; }
    QCheckBox *mintUnlimitedBox() const { return m_mintUnlimited; }
    QPushButton *mintButton() const { return m_mint; }
    // The newly minted secret: filled once after Mint, empty again after Done.
    SecretReveal *secretBox() const { return m_secret; }
    QLineEdit *secretField() const;
    QPushButton *copySecretButton() const;
    QPushButton *dismissSecretButton() const;
    QLineEdit *balanceField() const { return m_balance; }
    QCheckBox *unlimitedBox() const { return m_unlimited; }
    QPushButton *setBalanceButton() const { return m_setBalance; }
    QPushButton *revokeButton() const { return m_revoke; }
    QLabel *messageLabel() const { return m_message; }
    ProfilesPanel *profilesPanel() const { return m_profiles; }
    GrantsPanel *grantsPanel() const { return m_grants; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void installShortcuts();
    void mint();
    void setBalance();
    void revoke();
    void showCurrent();
    void showMessage(const QString &text, bool error);
    void showError(const DomainError &error);

    ConsoleServices m_services;
    KeysModel *m_model;
    QTableView *m_view;
    QGroupBox *m_mintBox;
    QLabel *m_labelCaption;
    QLabel *m_roleCaption;
    QLabel *m_mintBalanceCaption;
    QLineEdit *m_label;
    QComboBox *m_role;
    QLineEdit *m_mintBalance;
    QCheckBox *m_mintUnlimited;
    QPushButton *m_mint;
    SecretReveal *m_secret;
    QGroupBox *m_keyBox;
    QLabel *m_heading;
    QLabel *m_balanceCaption;
    QLineEdit *m_balance;
    QCheckBox *m_unlimited;
    QPushButton *m_setBalance;
    QPushButton *m_revoke;
    QLabel *m_message;
    ProfilesPanel *m_profiles;
    GrantsPanel *m_grants;
    QString m_current;
};

} // namespace ph::ui
