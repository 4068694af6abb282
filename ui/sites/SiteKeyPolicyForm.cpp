#include "SiteKeyPolicyForm.h"

#include "CapabilityBoxes.h"
#include "SitesModel.h"

#include "core/DomainError.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include "common/Icons.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ph::ui {

SiteKeyPolicyForm::SiteKeyPolicyForm(QWidget *parent)
    : QGroupBox(parent)
{
    auto *form = new QFormLayout(this);
    m_heading = new QLabel(this);
    m_heading->setWordWrap(true);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_domainsCaption = new QLabel(this);
    m_capabilitiesCaption = new QLabel(this);
    m_siteModeCaption = new QLabel(this);
    m_domainScopeCaption = new QLabel(this);
    m_domains = new QLineEdit(this);
    m_capabilities = new CapabilityBoxes(this);
    m_siteMode = new QComboBox(this);
    for (const char *m : {"live", "test", "paused"})
        m_siteMode->addItem(QString(), QLatin1String(m));
    m_domainScope = new QComboBox(this);
    for (const char *s : {"registrable_domain", "exact_host"})
        m_domainScope->addItem(QString(), QLatin1String(s));
    m_cloudSandbox = new QCheckBox(this);
    m_externalAllowCaption = new QLabel(this);
    m_externalDenyCaption = new QLabel(this);
    m_externalAllow = new QLineEdit(this);
    m_externalDeny = new QLineEdit(this);
    m_mascotCaption = new QLabel(this);
    m_mascotEnabled = new QCheckBox(this);
    m_mascotName = new QLineEdit(this);
    m_mascotName->setMaxLength(40);
    m_mascotAvatar = new QLineEdit(this);
    m_mascotStyle = new QComboBox(this);
    for (const char *s : {"friendly", "minimal", "professional"})
        m_mascotStyle->addItem(QString(), QLatin1String(s));
    auto *mascotRow = new QHBoxLayout;
    mascotRow->addWidget(m_mascotEnabled);
    mascotRow->addWidget(m_mascotName, 1);
    mascotRow->addWidget(m_mascotStyle);
    mascotRow->addWidget(m_mascotAvatar, 2);
    m_limitsCaption = new QLabel(this);
    m_maxVisibleCaption = new QLabel(this);
    m_maxShortcuts = new QSpinBox(this);
    m_maxShortcuts->setRange(0, sites::SiteConfigSchema::kMaxShortcuts);
    m_maxVisible = new QSpinBox(this);
    m_maxVisible->setRange(0, 20);
    auto *limitsRow = new QHBoxLayout;
    limitsRow->addWidget(m_maxShortcuts);
    limitsRow->addWidget(m_maxVisibleCaption);
    limitsRow->addWidget(m_maxVisible);
    limitsRow->addStretch(1);
    auto *buttons = new QHBoxLayout;
    m_save = new QPushButton(icon(Icon::Save), QString(), this);
    m_rotate = new QPushButton(icon(Icon::Rotate), QString(), this);
    m_toggleActive = new QPushButton(this);
    buttons->addStretch(1);
    buttons->addWidget(m_save);
    buttons->addWidget(m_rotate);
    buttons->addWidget(m_toggleActive);
    form->addRow(m_heading);
    form->addRow(m_domainsCaption, m_domains);
    form->addRow(m_capabilitiesCaption, m_capabilities);
    form->addRow(m_siteModeCaption, m_siteMode);
    form->addRow(m_domainScopeCaption, m_domainScope);
    form->addRow(QString(), m_cloudSandbox);
    form->addRow(m_externalAllowCaption, m_externalAllow);
    form->addRow(m_externalDenyCaption, m_externalDeny);
    form->addRow(m_mascotCaption, mascotRow);
    form->addRow(m_limitsCaption, limitsRow);
    form->addRow(buttons);

    connect(m_save, &QPushButton::clicked, this, &SiteKeyPolicyForm::saveRequested);
    connect(m_domains, &QLineEdit::returnPressed, this, &SiteKeyPolicyForm::saveRequested);
    connect(m_rotate, &QPushButton::clicked, this, &SiteKeyPolicyForm::rotateRequested);
    connect(m_toggleActive, &QPushButton::clicked, this, &SiteKeyPolicyForm::toggleActiveRequested);
}

QCheckBox *SiteKeyPolicyForm::capabilityBox(const QString &capability) const
{
    return m_capabilities->box(capability);
}

void SiteKeyPolicyForm::load(const sites::SiteKey *key)
{
    if (!key) {
        for (QLineEdit *e :
             {m_domains, m_externalAllow, m_externalDeny, m_mascotName, m_mascotAvatar})
            e->clear();
        m_capabilities->setChecked([](const QString &) { return false; });
        m_cloudSandbox->setChecked(false);
        m_mascotEnabled->setChecked(false);
        return;
    }
    m_domains->setText(key->allowedDomains.join(QStringLiteral(", ")));
    m_capabilities->setChecked([key](const QString &name) { return key->capability(name); });
    m_siteMode->setCurrentIndex(std::max(
        0, m_siteMode->findData(key->sitePolicy.value(QStringLiteral("siteMode")).toString())));
    m_domainScope->setCurrentIndex(
        std::max(0, m_domainScope->findData(
                        key->sitePolicy.value(QStringLiteral("domainScopeMode")).toString())));
    // Fields a key stored before they existed read as their defaults.
    QJsonObject policy = sites::SiteConfigSchema::sitePolicyDefaults();
    try {
        policy = sites::SiteConfigSchema::mergeSitePolicy(policy, key->sitePolicy, QString());
    } catch (const DomainError &) {
        // Stored before a check tightened: show the defaults for what no longer passes.
    }
    const auto joined = [&policy](const char *field) {
        QStringList list;
        for (const QJsonValue &v : policy.value(QLatin1String(field)).toArray())
            list << v.toString();
        return list.join(QStringLiteral(", "));
    };
    m_cloudSandbox->setChecked(policy.value(QStringLiteral("cloudSandboxEnabled")).toBool());
    m_externalAllow->setText(joined("externalAllowDomains"));
    m_externalDeny->setText(joined("externalDenyDomains"));
    const QJsonObject mascot = policy.value(QStringLiteral("mascot")).toObject();
    m_mascotEnabled->setChecked(mascot.value(QStringLiteral("enabled")).toBool());
    m_mascotName->setText(mascot.value(QStringLiteral("name")).toString());
    m_mascotAvatar->setText(mascot.value(QStringLiteral("avatarUrl")).toString());
    m_mascotStyle->setCurrentIndex(
        std::max(0, m_mascotStyle->findData(mascot.value(QStringLiteral("style")).toString())));
    const QJsonObject limits = policy.value(QStringLiteral("shortcutLimits")).toObject();
    m_maxShortcuts->setValue(limits.value(QStringLiteral("maxShortcuts")).toInt());
    m_maxVisible->setValue(limits.value(QStringLiteral("maxVisible")).toInt());
}

void SiteKeyPolicyForm::showKey(const sites::SiteKey *key, bool siteSelected, qint64 nowMs)
{
    if (!key) {
        m_heading->setText(siteSelected ? tr("Select a site key to edit, rotate or deactivate it.")
                                        : QString());
    } else {
        m_heading->setText(QStringLiteral("<b>%1</b> — %2 — %3")
                               .arg(key->label.toHtmlEscaped(),
                                    SiteKeysModel::maskedPublicKey(key->publicKey),
                                    !key->active            ? tr("deactivated")
                                    : key->isExpired(nowMs) ? tr("expired")
                                                            : tr("active")));
    }
    for (QWidget *w : std::initializer_list<QWidget *>{
             m_domains, m_capabilities, m_siteMode, m_domainScope, m_cloudSandbox, m_externalAllow,
             m_externalDeny, m_mascotEnabled, m_mascotName, m_mascotAvatar, m_mascotStyle,
             m_maxShortcuts, m_maxVisible, m_save, m_rotate, m_toggleActive})
        w->setEnabled(key != nullptr);
    m_keyActive = !key || key->active;
    m_toggleActive->setText(m_keyActive ? tr("Deactivate (Del)") : tr("Activate"));
    m_toggleActive->setIcon(icon(m_keyActive ? Icon::Pause : Icon::Run));
}

QJsonObject SiteKeyPolicyForm::request(const QString &keyId) const
{
    const QJsonObject policy{
        {QStringLiteral("siteMode"), m_siteMode->currentData().toString()},
        {QStringLiteral("domainScopeMode"), m_domainScope->currentData().toString()},
        {QStringLiteral("cloudSandboxEnabled"), m_cloudSandbox->isChecked()},
        {QStringLiteral("externalAllowDomains"), domainList(m_externalAllow->text())},
        {QStringLiteral("externalDenyDomains"), domainList(m_externalDeny->text())},
        {QStringLiteral("mascot"),
         QJsonObject{{QStringLiteral("enabled"), m_mascotEnabled->isChecked()},
                     {QStringLiteral("name"), m_mascotName->text()},
                     {QStringLiteral("avatarUrl"), m_mascotAvatar->text().trimmed()},
                     {QStringLiteral("style"), m_mascotStyle->currentData().toString()}}},
        {QStringLiteral("shortcutLimits"),
         QJsonObject{{QStringLiteral("maxShortcuts"), m_maxShortcuts->value()},
                     {QStringLiteral("maxVisible"), m_maxVisible->value()}}}};
    return {{QStringLiteral("keyId"), keyId},
            {QStringLiteral("allowedDomains"), domainList(m_domains->text())},
            {QStringLiteral("capabilities"), m_capabilities->values()},
            {QStringLiteral("sitePolicy"), policy}};
}

void SiteKeyPolicyForm::retranslateUi()
{
    setTitle(tr("Selected site key"));
    m_domainsCaption->setText(tr("Allowed domains"));
    m_domains->setPlaceholderText(tr("At least one domain"));
    m_capabilitiesCaption->setText(tr("Capabilities"));
    m_capabilities->retranslateUi();
    m_siteModeCaption->setText(tr("Site mode"));
    m_siteMode->setItemText(0, tr("Live"));
    m_siteMode->setItemText(1, tr("Test"));
    m_siteMode->setItemText(2, tr("Paused"));
    m_domainScopeCaption->setText(tr("Domain scope"));
    m_domainScope->setItemText(0, tr("Registrable domain (with its subdomains)"));
    m_domainScope->setItemText(1, tr("Exact host"));
    m_cloudSandbox->setText(tr("Cloud sandbox (the site's agent may run in a cloud browser)"));
    m_externalAllowCaption->setText(tr("External sites allowed"));
    m_externalAllow->setPlaceholderText(tr("Other domains the embedded agent may open"));
    m_externalDenyCaption->setText(tr("External sites denied"));
    m_externalDeny->setPlaceholderText(tr("Domains it must never open"));
    m_mascotCaption->setText(tr("Mascot"));
    m_mascotEnabled->setText(tr("Shown"));
    m_mascotName->setPlaceholderText(tr("Name"));
    m_mascotAvatar->setPlaceholderText(tr("Avatar URL (https://…)"));
    m_mascotStyle->setItemText(0, tr("Friendly"));
    m_mascotStyle->setItemText(1, tr("Minimal"));
    m_mascotStyle->setItemText(2, tr("Professional"));
    m_limitsCaption->setText(tr("Shortcuts at most"));
    m_maxVisibleCaption->setText(tr("visible at once"));
    m_save->setText(tr("Save"));
    m_rotate->setText(tr("Rotate"));
    m_toggleActive->setText(m_keyActive ? tr("Deactivate (Del)") : tr("Activate"));
}

} // namespace ph::ui
