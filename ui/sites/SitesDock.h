#pragma once

#include <QDockWidget>
#include <QList>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace ph {
class DomainError;
class Service;
namespace http {}
} // namespace ph

namespace ph::ui {

class ConnectKeysModel;
class SecretReveal;
class SiteKeysModel;
class SitesModel;

// Sites and their keys (the workspace calls of docs/api/sites.md): every site with its
// site keys (public keys masked), allowed domains, capabilities, policy and expiry. Mint
// a site key (with its capabilities and lifetime) for a new or an existing site; edit a
// key's allowed domains, capabilities and every site policy field (mode, domain scope,
// cloud sandbox, external navigation lists, mascot, shortcut limits); rotate it (the new
// public key is shown); deactivate it (Delete); delete a site after a confirmation. Connect AI keys
// per site: create one (its secret shown once, with Copy, until dismissed; never again), list them,
// revoke one (Delete).
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
    QSpinBox *ttlDaysBox() const { return m_ttlDays; }
    QCheckBox *mintCapabilityBox(const QString &capability) const;
    QPushButton *mintButton() const { return m_mint; }
    QPushButton *deleteSiteButton() const { return m_deleteSite; }
    // The selected site key.
    QLineEdit *keyDomainsField() const { return m_keyDomains; }
    QCheckBox *capabilityBox(const QString &capability) const;
    QComboBox *siteModeCombo() const { return m_siteMode; }
    QComboBox *domainScopeCombo() const { return m_domainScope; }
    QCheckBox *cloudSandboxBox() const { return m_cloudSandbox; }
    QLineEdit *externalAllowField() const { return m_externalAllow; }
    QLineEdit *externalDenyField() const { return m_externalDeny; }
    QCheckBox *mascotBox() const { return m_mascotEnabled; }
    QLineEdit *mascotNameField() const { return m_mascotName; }
    QLineEdit *mascotAvatarField() const { return m_mascotAvatar; }
    QComboBox *mascotStyleCombo() const { return m_mascotStyle; }
    QSpinBox *maxShortcutsBox() const { return m_maxShortcuts; }
    QSpinBox *maxVisibleBox() const { return m_maxVisible; }
    QPushButton *savePolicyButton() const { return m_savePolicy; }
    QPushButton *rotateButton() const { return m_rotate; }
    QPushButton *activeButton() const { return m_toggleActive; }
    // Connect AI.
    QLineEdit *connectLabelField() const { return m_connectLabel; }
    QPushButton *createConnectButton() const { return m_createConnect; }
    QPushButton *revokeConnectButton() const { return m_revokeConnect; }
    // A key to copy: a new public key (minted, rotated) or a new Connect AI secret
    // (shown this once). Empty again after Done.
    SecretReveal *secretBox() const { return m_secret; }
    QLineEdit *secretField() const;
    QPushButton *copySecretButton() const;
    QPushButton *dismissSecretButton() const;
    QLabel *messageLabel() const { return m_message; }

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Capability
    {
        QString name;
        QCheckBox *box;
    };
    // One check box per capability in a row; the boxes are appended to `boxes`.
    static QHBoxLayout *capabilityBoxes(QList<Capability> &boxes, QWidget *parent);
    static QCheckBox *findBox(const QList<Capability> &boxes, const QString &capability);

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
    void showCurrent();
    void loadKeyForm();
    void showMessage(const QString &text, bool error);
    void showError(const DomainError &error);

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
    QLabel *m_ttlCaption;
    QSpinBox *m_ttlDays;
    QLabel *m_mintCapabilitiesCaption;
    QList<Capability> m_mintCapabilities;
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
    QCheckBox *m_cloudSandbox;
    QLabel *m_externalAllowCaption;
    QLabel *m_externalDenyCaption;
    QLineEdit *m_externalAllow;
    QLineEdit *m_externalDeny;
    QLabel *m_mascotCaption;
    QCheckBox *m_mascotEnabled;
    QLineEdit *m_mascotName;
    QLineEdit *m_mascotAvatar;
    QComboBox *m_mascotStyle;
    QLabel *m_limitsCaption;
    QLabel *m_maxVisibleCaption;
    QSpinBox *m_maxShortcuts;
    QSpinBox *m_maxVisible;
    QPushButton *m_savePolicy;
    QPushButton *m_rotate;
    QPushButton *m_toggleActive;
    QLabel *m_connectCount;
    QLineEdit *m_connectLabel;
    QPushButton *m_createConnect;
    QPushButton *m_revokeConnect;
    SecretReveal *m_secret;
    QLabel *m_message;
    QString m_siteId;
    QString m_keyId;
    QString m_connectId;
    bool m_secretIsConnectKey = false;
};

} // namespace ph::ui
