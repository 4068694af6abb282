#include "SiteKeyMintForm.h"

#include "CapabilityBoxes.h"
#include "SitesModel.h"

#include "sites/SiteConfigSchema.h"

#include "common/Icons.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ph::ui {

SiteKeyMintForm::SiteKeyMintForm(SitesModel *sites, QWidget *parent)
    : QGroupBox(parent)
    , m_sites(sites)
{
    auto *form = new QFormLayout(this);
    m_siteNameCaption = new QLabel(this);
    m_labelCaption = new QLabel(this);
    m_domainsCaption = new QLabel(this);
    m_environmentCaption = new QLabel(this);
    // A site's name: an existing one adds a key to it, a new one creates the site.
    m_siteName = new QComboBox(this);
    m_siteName->setEditable(true);
    m_siteName->setInsertPolicy(QComboBox::NoInsert);
    m_siteName->setModel(m_sites);
    m_siteName->setModelColumn(SitesModel::Name);
    m_label = new QLineEdit(this);
    m_domains = new QLineEdit(this);
    m_environment = new QComboBox(this);
    for (const char *e : {"production", "development", "test"})
        m_environment->addItem(QString(), QLatin1String(e));
    m_ttlCaption = new QLabel(this);
    m_ttlDays = new QSpinBox(this);
    m_ttlDays->setRange(0, 3650);
    m_capabilitiesCaption = new QLabel(this);
    m_capabilities = new CapabilityBoxes(this);
    const QJsonObject defaults = sites::SiteConfigSchema::capabilityDefaults();
    m_capabilities->setChecked(
        [&defaults](const QString &name) { return defaults.value(name).toBool(); });
    m_mint = new QPushButton(icon(Icon::Add), QString(), this);
    form->addRow(m_siteNameCaption, m_siteName);
    form->addRow(m_labelCaption, m_label);
    form->addRow(m_domainsCaption, m_domains);
    form->addRow(m_environmentCaption, m_environment);
    form->addRow(m_ttlCaption, m_ttlDays);
    form->addRow(m_capabilitiesCaption, m_capabilities);
    form->addRow(QString(), m_mint);
    connect(m_mint, &QPushButton::clicked, this, &SiteKeyMintForm::mintRequested);
    connect(m_domains, &QLineEdit::returnPressed, this, &SiteKeyMintForm::mintRequested);
}

QCheckBox *SiteKeyMintForm::capabilityBox(const QString &capability) const
{
    return m_capabilities->box(capability);
}

QJsonObject SiteKeyMintForm::request() const
{
    QJsonObject body{{QStringLiteral("label"), m_label->text()},
                     {QStringLiteral("allowedDomains"), domainList(m_domains->text())},
                     {QStringLiteral("environment"), m_environment->currentData().toString()},
                     {QStringLiteral("ttlDays"), m_ttlDays->value()},
                     {QStringLiteral("capabilities"), m_capabilities->values()}};
    const QString name = m_siteName->currentText();
    const int listed = m_siteName->currentIndex();
    if (listed >= 0 && listed < m_sites->rowCount() && m_siteName->itemText(listed) == name)
        body.insert(QStringLiteral("siteId"), m_sites->rowAt(m_sites->index(listed, 0)).site.id);
    else
        body.insert(QStringLiteral("siteName"), name);
    return body;
}

void SiteKeyMintForm::reset(const QString &siteId)
{
    m_label->clear();
    m_domains->clear();
    m_ttlDays->setValue(0);
    m_siteName->setCurrentIndex(m_sites->rowOf(siteId));
}

void SiteKeyMintForm::retranslateUi()
{
    setTitle(tr("New site key"));
    m_siteNameCaption->setText(tr("Site"));
    m_siteName->lineEdit()->setPlaceholderText(tr("An existing site, or a new name"));
    m_labelCaption->setText(tr("Label"));
    m_label->setPlaceholderText(tr("Where the key is used, e.g. production embed"));
    m_domainsCaption->setText(tr("Allowed domains"));
    m_domains->setPlaceholderText(tr("example.com, *.example.com, =shop.example.com"));
    m_environmentCaption->setText(tr("Environment"));
    m_environment->setItemText(0, tr("Production"));
    m_environment->setItemText(1, tr("Development"));
    m_environment->setItemText(2, tr("Test"));
    m_ttlCaption->setText(tr("Expires after"));
    m_ttlDays->setSpecialValueText(tr("Never"));
    m_ttlDays->setSuffix(tr(" days"));
    m_capabilitiesCaption->setText(tr("Capabilities"));
    m_capabilities->retranslateUi();
    m_mint->setText(tr("Mint site key"));
}

} // namespace ph::ui
