#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTableView;

namespace ph {
class DomainError;
} // namespace ph

namespace ph::ui {

class ConnectKeysModel;
class ConnectKeysPane;
class SecretReveal;
class SiteConfigEditor;
class SiteKeyMintForm;
class SiteKeyPolicyForm;
class SiteKeysModel;
class SitesModel;

// Sites and their keys (the workspace calls of docs/api/sites.md): every site with its
// site keys (public keys masked), allowed domains, capabilities, policy and expiry.
// The dock holds the lists and the selection and makes the calls; its panes hold the
// fields: SiteKeyMintForm mints a site key for a new or an existing site,
// SiteKeyPolicyForm edits, rotates and (de)activates the selected key, ConnectKeysPane
// creates and revokes the site's Connect AI keys, SiteConfigEditor edits the site's
// configuration. A new public key or Connect AI secret
// is shown once, with Copy, until dismissed. Delete on a list deletes the site (after a
// confirmation), deactivates the key or revokes the Connect AI key.
class SitesDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit SitesDock(const ConsoleServices &services, QWidget *parent = nullptr);

    SitesModel *model() const { return m_sites; }
    SiteKeysModel *siteKeysModel() const { return m_keys; }
    ConnectKeysModel *connectKeysModel() const { return m_connect; }
    QTableView *sitesView() const { return m_sitesView; }
    QTableView *siteKeysView() const { return m_keysView; }
    QTabWidget *tabs() const { return m_tabs; }
    QPushButton *deleteSiteButton() const { return m_deleteSite; }
    SiteKeyMintForm *mintForm() const { return m_mintForm; }
    SiteKeyPolicyForm *keyForm() const { return m_keyForm; }
    ConnectKeysPane *connectPane() const { return m_connectPane; }
    // The selected site's configuration (greeting, shortcuts, … as upsertSiteConfig).
    SiteConfigEditor *configEditor() const { return m_configEditor; }
    // Raises the configuration tab.
    void showConfiguration();
    // A key to copy: a new public key (minted, rotated) or a new Connect AI secret
    // (shown this once). Empty again after Done.
    SecretReveal *secretBox() const { return m_secret; }
    QLabel *messageLabel() const { return m_message; }
    // The one-line install snippet of the selected site key (docs/embed.md).
    QLineEdit *snippetEdit() const { return m_snippet; }
    QPushButton *copySnippetButton() const { return m_copySnippet; }
    // The selected site's private hosts its visitors' work may reach (docs/security.md,
    // "What visitors and visiting agents may reach"): "host" or "host:port", comma
    // separated; Save stores them (a bad entry is an error naming it).
    QLineEdit *privateHostsEdit() const { return m_privateHosts; }
    QPushButton *savePrivateHostsButton() const { return m_savePrivateHosts; }

    bool select(const QString &siteId);
    bool selectSiteKey(const QString &keyId);
    bool selectConnectKey(const QString &keyId);
    QString currentSiteId() const { return m_siteId; }
    QString currentSiteKeyId() const { return m_keyId; }
    QString currentConnectKeyId() const { return m_connectId; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void connectSelection();
    void retranslateUi();
    void connectActions();
    void makeKeysTab();
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
    void loadPrivateHosts();
    void savePrivateHosts();

    ConsoleServices m_services;
    SitesModel *m_sites;
    SiteKeysModel *m_keys;
    ConnectKeysModel *m_connect;
    QTableView *m_sitesView;
    QTableView *m_keysView;
    QPushButton *m_deleteSite;
    SiteKeyMintForm *m_mintForm;
    QLabel *m_siteHeading;
    QTabWidget *m_tabs;
    QWidget *m_keysTab;
    SiteKeyPolicyForm *m_keyForm;
    ConnectKeysPane *m_connectPane;
    SiteConfigEditor *m_configEditor;
    SecretReveal *m_secret;
    QLabel *m_message;
    QLabel *m_snippetLabel;
    QLineEdit *m_snippet;
    QPushButton *m_copySnippet;
    QLabel *m_privateHostsLabel;
    QLineEdit *m_privateHosts;
    QPushButton *m_savePrivateHosts;
    QString m_snippetText; // the whole line, with the full public key
    QString m_siteId;
    QString m_keyId;
    QString m_connectId;
    bool m_secretIsConnectKey = false;
};

} // namespace ph::ui
