#pragma once

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QJsonObject;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ph::sites {
struct SiteKey;
}

namespace ph::ui {

class CapabilityBoxes;

// "Selected site key": its allowed domains, capabilities and every site policy field
// (mode, domain scope, cloud sandbox, external navigation lists, mascot, shortcut
// limits), with Save, Rotate and Activate/Deactivate. The dock does the calls when the
// form's signals fire and tells the form which key to show.
class SiteKeyPolicyForm : public QGroupBox
{
    Q_OBJECT
public:
    explicit SiteKeyPolicyForm(QWidget *parent = nullptr);

    QLineEdit *domainsField() const { return m_domains; }
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
    QPushButton *saveButton() const { return m_save; }
    QPushButton *rotateButton() const { return m_rotate; }
    QPushButton *activeButton() const { return m_toggleActive; }

    // Fills the fields from `key` (null: empties them).
    void load(const sites::SiteKey *key);
    // The heading and what can be used: `key` null disables the form; `siteSelected`
    // decides the hint shown then.
    void showKey(const sites::SiteKey *key, bool siteSelected, qint64 nowMs);
    // The updateSiteKeyPolicy request for `keyId`: every field as the form shows it; an
    // empty avatar URL removes the avatar.
    QJsonObject request(const QString &keyId) const;
    void retranslateUi();

Q_SIGNALS:
    void saveRequested();
    void rotateRequested();
    void toggleActiveRequested();

private:
    QLabel *m_heading;
    QLabel *m_domainsCaption;
    QLabel *m_capabilitiesCaption;
    QLabel *m_siteModeCaption;
    QLabel *m_domainScopeCaption;
    QLabel *m_externalAllowCaption;
    QLabel *m_externalDenyCaption;
    QLabel *m_mascotCaption;
    QLabel *m_limitsCaption;
    QLabel *m_maxVisibleCaption;
    QLineEdit *m_domains;
    CapabilityBoxes *m_capabilities;
    QComboBox *m_siteMode;
    QComboBox *m_domainScope;
    QCheckBox *m_cloudSandbox;
    QLineEdit *m_externalAllow;
    QLineEdit *m_externalDeny;
    QCheckBox *m_mascotEnabled;
    QLineEdit *m_mascotName;
    QLineEdit *m_mascotAvatar;
    QComboBox *m_mascotStyle;
    QSpinBox *m_maxShortcuts;
    QSpinBox *m_maxVisible;
    QPushButton *m_save;
    QPushButton *m_rotate;
    QPushButton *m_toggleActive;
    bool m_keyActive = true;
};

} // namespace ph::ui
