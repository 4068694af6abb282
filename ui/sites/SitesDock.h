#pragma once

#include <QDockWidget>
#include <QList>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTableView;

namespace ph {
class Service;
namespace http {
class ApiError;
}
} // namespace ph

namespace ph::ui {

class ConnectKeysModel;
class SiteKeysModel;
class SitesModel;

// Sites and their keys (the workspace calls of docs/api/sites.md): every site with its
// site keys (public keys masked), allowed domains, capabilities and policy. Mint a site
// key for a new or an existing site; edit a key's allowed domains, capabilities and
// policy; rotate it (the new public key is shown); deactivate it (Delete); delete a
// site after a confirmation. Connect AI keys per site: create one (its secret shown
// once, with Copy, until dismissed; never again), list them, revoke one (Delete).
class SitesDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit SitesDock(Service &service, QWidget *parent = nullptr);

    SitesModel *model() const { return m_sites; }
    SiteKeysModel *siteKeysModel() const { return m_keys; }
    ConnectKeysModel *connectKeysModel() const { return m_connect; }
    QTableView *sitesView() const { return m_sitesView; }
    QTableView *siteKeysView() const { return m_keysView; }
    QTableView *connectKeysView() const { return m_connectView; }
    QTabWidget *tabs() const { return m_tabs; }

    bool select(const QString &siteId);
    bool selectSiteKey(const QString &keyId);
    bool selectConnectKey(const QString &keyId);
    QString currentSiteId() const { return m_siteId; }
    QString currentSiteKeyId() const { return m_keyId; }
    QString currentConnectKeyId() const { return m_connectId; }

    // New site key.
    QComboBox *siteNameCombo() const { return m_siteName; }
    QLineEdit *labelField() const { return m_label; }
    QLineEdit *domainsField() const { return m_domains; }
    QComboBox *environmentCombo() const { return m_environment; }
    QPushButton *mintButton() const { return m_mint; }
    QPushButton *deleteSiteButton() const { return m_deleteSite; }
    // The selected site key.
    QLineEdit *keyDomainsField() const { return m_keyDomains; }
    QCheckBox *capabilityBox(const QString &capability) const;
    QComboBox *siteModeCombo() const { return m_siteMode; }
    QComboBox *domainScopeCombo() const { return m_domainScope; }
    QPushButton *savePolicyButton() const { return m_savePolicy; }
    QPushButton *rotateButton() const { return m_rotate; }
    QPushButton *activeButton() const { return m_toggleActive; }
    // Connect AI.
    QLineEdit *connectLabelField() const { return m_connectLabel; }
    QPushButton *createConnectButton() const { return m_createConnect; }
    QPushButton *revokeConnectButton() const { return m_revokeConnect; }
    // A key to copy: a new public key (minted, rotated) or a new Connect AI secret
    // (shown this once). Empty again after Done.
    QGroupBox *secretBox() const { return m_secretBox; }
    QLineEdit *secretField() const { return m_secret; }
    QPushButton *copySecretButton() const { return m_copySecret; }
    QPushButton *dismissSecretButton() const { return m_dismissSecret; }
    QLabel *messageLabel() const { return m_message; }

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Capability
    {
        QString name;
        QCheckBox *box;
    };

    void retranslateUi();
    void retranslateSecret();
    void mint();
    void savePolicy();
    void rotate();
    void setActive(bool active);
    void deactivate();
    void deleteSite();
    void createConnectKey();
    void revokeConnectKey();
    void showKey(const QString &key, bool secret);
    void dismissSecret();
    void showCurrent();
    void loadKeyForm();
    void showMessage(const QString &text, bool error);
    void showError(const http::ApiError &error);

    Service &m_service;
    SitesModel *m_sites;
    SiteKeysModel *m_keys;
    ConnectKeysModel *m_connect;
    QTableView *m_sitesView;
    QTableView *m_keysView;
    QTableView *m_connectView;
    QPushButton *m_deleteSite;
    QGroupBox *m_mintBox;
    QLabel *m_siteNameCaption;
    QLabel *m_labelCaption;
    QLabel *m_domainsCaption;
    QLabel *m_environmentCaption;
    QComboBox *m_siteName;
    QLineEdit *m_label;
    QLineEdit *m_domains;
    QComboBox *m_environment;
    QPushButton *m_mint;
    QLabel *m_siteHeading;
    QTabWidget *m_tabs;
    QWidget *m_keysTab;
    QWidget *m_connectTab;
    QGroupBox *m_keyBox;
    QLabel *m_keyHeading;
    QLabel *m_keyDomainsCaption;
    QLabel *m_capabilitiesCaption;
    QLabel *m_siteModeCaption;
    QLabel *m_domainScopeCaption;
    QLineEdit *m_keyDomains;
    QList<Capability> m_capabilities;
    QComboBox *m_siteMode;
    QComboBox *m_domainScope;
    QPushButton *m_savePolicy;
    QPushButton *m_rotate;
    QPushButton *m_toggleActive;
    QLabel *m_connectCount;
    QLineEdit *m_connectLabel;
    QPushButton *m_createConnect;
    QPushButton *m_revokeConnect;
    QGroupBox *m_secretBox;
    QLabel *m_secretWarning;
    QLineEdit *m_secret;
    QPushButton *m_copySecret;
    QPushButton *m_dismissSecret;
    QLabel *m_message;
    QString m_siteId;
    QString m_keyId;
    QString m_connectId;
    bool m_secretIsConnectKey = false;
};

} // namespace ph::ui
