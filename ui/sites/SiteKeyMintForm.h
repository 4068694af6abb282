#pragma once

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QJsonObject;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ph::ui {

class CapabilityBoxes;
class SitesModel;

// "New site key": the site (an existing one from the list, or a new name), label,
// allowed domains, environment, lifetime and capabilities. The dock mints the key from
// request() when mintRequested() fires (the button, or Return in the domains field).
class SiteKeyMintForm : public QGroupBox
{
    Q_OBJECT
public:
    SiteKeyMintForm(SitesModel *sites, QWidget *parent = nullptr);

    QComboBox *siteNameCombo() const { return m_siteName; }
    QLineEdit *labelField() const { return m_label; }
    QLineEdit *domainsField() const { return m_domains; }
    QComboBox *environmentCombo() const { return m_environment; }
    QSpinBox *ttlDaysBox() const { return m_ttlDays; }
    QCheckBox *capabilityBox(const QString &capability) const;
    QPushButton *mintButton() const { return m_mint; }

    // The generateSiteKey request the form describes: the site chosen from the list by
    // its id, a name typed in by its name (the call reuses the owner's site of that
    // name, or creates it).
    QJsonObject request() const;
    // After a key was minted: empty fields, the key's site chosen.
    void reset(const QString &siteId);
    void retranslateUi();

Q_SIGNALS:
    void mintRequested();

private:
    SitesModel *m_sites;
    QLabel *m_siteNameCaption;
    QLabel *m_labelCaption;
    QLabel *m_domainsCaption;
    QLabel *m_environmentCaption;
    QLabel *m_ttlCaption;
    QLabel *m_capabilitiesCaption;
    QComboBox *m_siteName;
    QLineEdit *m_label;
    QLineEdit *m_domains;
    QComboBox *m_environment;
    QSpinBox *m_ttlDays;
    CapabilityBoxes *m_capabilities;
    QPushButton *m_mint;
};

} // namespace ph::ui
