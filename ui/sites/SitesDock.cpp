#include "SitesDock.h"

#include "SitesModel.h"

#include "Service.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Store.h"
#include "sites/ConnectKeyRepository.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"
#include "sites/WorkspaceActions.h"

#include "common/Icons.h"
#include "common/SecretReveal.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const QString kErrorStyle = QStringLiteral("color: #c0392b");
const QString kActor = QStringLiteral("console");

// Allowed domains as typed: separated by commas, semicolons or white space.
QJsonArray domainList(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    return QJsonArray::fromStringList(text.split(separators, Qt::SkipEmptyParts));
}

QTableView *makeTable(QAbstractItemModel *model, int stretchColumn, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    view->horizontalHeader()->setMinimumSectionSize(60);
    view->setWordWrap(false);
    view->setAlternatingRowColors(true);
    return view;
}

const char *const kCapabilities[] = {"embed", "cloudAgent", "cloudScrape",
                                     "externalWebContextScrape"};

// Delete on a list (while it has the focus) runs `slot`.
template <class Owner, class Slot> void onDeleteKey(QTableView *view, Owner *owner, Slot slot)
{
    auto *action = new QAction(owner);
    action->setShortcut(QKeySequence::Delete);
    action->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(action, &QAction::triggered, owner, slot);
    view->addAction(action);
}
} // namespace

SitesDock::SitesDock(Service &service, QWidget *parent)
    : QDockWidget(parent)
    , m_service(service)
{
    setObjectName(QStringLiteral("sitesDock"));
    sites::SitesArea &area = service.sites();
    m_sites =
        new SitesModel(area.sites(), area.connectKeys(), area.changes(), service.store(), this);
    m_keys = new SiteKeysModel(area.sites(), service.store(), this);
    m_connect = new ConnectKeysModel(area.connectKeys(), area.sites(), service.store(), this);

    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *split = new QSplitter(Qt::Horizontal, body);

    // Left: the sites, a new site key.
    auto *left = new QWidget(split);
    auto *l = new QVBoxLayout(left);
    l->setContentsMargins(0, 0, 0, 0);
    m_sitesView = makeTable(m_sites, SitesModel::Name, left);
    l->addWidget(m_sitesView, 1);
    auto *siteButtons = new QHBoxLayout;
    m_deleteSite = new QPushButton(icon(Icon::Delete), QString(), left);
    siteButtons->addStretch(1);
    siteButtons->addWidget(m_deleteSite);
    l->addLayout(siteButtons);

    m_mintBox = new QGroupBox(left);
    auto *mintForm = new QFormLayout(m_mintBox);
    m_siteNameCaption = new QLabel(m_mintBox);
    m_labelCaption = new QLabel(m_mintBox);
    m_domainsCaption = new QLabel(m_mintBox);
    m_environmentCaption = new QLabel(m_mintBox);
    // A site's name: an existing one adds a key to it, a new one creates the site.
    m_siteName = new QComboBox(m_mintBox);
    m_siteName->setEditable(true);
    m_siteName->setInsertPolicy(QComboBox::NoInsert);
    m_siteName->setModel(m_sites);
    m_siteName->setModelColumn(SitesModel::Name);
    m_label = new QLineEdit(m_mintBox);
    m_domains = new QLineEdit(m_mintBox);
    m_environment = new QComboBox(m_mintBox);
    for (const char *e : {"production", "development", "test"})
        m_environment->addItem(QString(), QLatin1String(e));
    m_ttlCaption = new QLabel(m_mintBox);
    m_ttlDays = new QSpinBox(m_mintBox);
    m_ttlDays->setRange(0, 3650);
    m_mintCapabilitiesCaption = new QLabel(m_mintBox);
    QHBoxLayout *mintCapabilityRow = capabilityBoxes(m_mintCapabilities, m_mintBox);
    const QJsonObject defaults = sites::SiteConfigSchema::capabilityDefaults();
    for (const Capability &c : std::as_const(m_mintCapabilities))
        c.box->setChecked(defaults.value(c.name).toBool());
    m_mint = new QPushButton(icon(Icon::Add), QString(), m_mintBox);
    mintForm->addRow(m_siteNameCaption, m_siteName);
    mintForm->addRow(m_labelCaption, m_label);
    mintForm->addRow(m_domainsCaption, m_domains);
    mintForm->addRow(m_environmentCaption, m_environment);
    mintForm->addRow(m_ttlCaption, m_ttlDays);
    mintForm->addRow(m_mintCapabilitiesCaption, mintCapabilityRow);
    mintForm->addRow(QString(), m_mint);
    l->addWidget(m_mintBox);

    // Right: the selected site's keys and Connect AI keys.
    auto *right = new QWidget(split);
    auto *r = new QVBoxLayout(right);
    r->setContentsMargins(0, 0, 0, 0);
    m_siteHeading = new QLabel(right);
    m_siteHeading->setWordWrap(true);
    m_siteHeading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    r->addWidget(m_siteHeading);
    m_tabs = new QTabWidget(right);

    m_keysTab = new QWidget(m_tabs);
    auto *k = new QVBoxLayout(m_keysTab);
    m_keysView = makeTable(m_keys, SiteKeysModel::AllowedDomains, m_keysTab);
    k->addWidget(m_keysView, 1);
    m_keyBox = new QGroupBox(m_keysTab);
    auto *keyForm = new QFormLayout(m_keyBox);
    m_keyHeading = new QLabel(m_keyBox);
    m_keyHeading->setWordWrap(true);
    m_keyHeading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keyDomainsCaption = new QLabel(m_keyBox);
    m_capabilitiesCaption = new QLabel(m_keyBox);
    m_siteModeCaption = new QLabel(m_keyBox);
    m_domainScopeCaption = new QLabel(m_keyBox);
    m_keyDomains = new QLineEdit(m_keyBox);
    QHBoxLayout *capabilityRow = capabilityBoxes(m_capabilities, m_keyBox);
    m_siteMode = new QComboBox(m_keyBox);
    for (const char *m : {"live", "test", "paused"})
        m_siteMode->addItem(QString(), QLatin1String(m));
    m_domainScope = new QComboBox(m_keyBox);
    for (const char *s : {"registrable_domain", "exact_host"})
        m_domainScope->addItem(QString(), QLatin1String(s));
    m_cloudSandbox = new QCheckBox(m_keyBox);
    m_externalAllowCaption = new QLabel(m_keyBox);
    m_externalDenyCaption = new QLabel(m_keyBox);
    m_externalAllow = new QLineEdit(m_keyBox);
    m_externalDeny = new QLineEdit(m_keyBox);
    m_mascotCaption = new QLabel(m_keyBox);
    m_mascotEnabled = new QCheckBox(m_keyBox);
    m_mascotName = new QLineEdit(m_keyBox);
    m_mascotName->setMaxLength(40);
    m_mascotAvatar = new QLineEdit(m_keyBox);
    m_mascotStyle = new QComboBox(m_keyBox);
    for (const char *s : {"friendly", "minimal", "professional"})
        m_mascotStyle->addItem(QString(), QLatin1String(s));
    auto *mascotRow = new QHBoxLayout;
    mascotRow->addWidget(m_mascotEnabled);
    mascotRow->addWidget(m_mascotName, 1);
    mascotRow->addWidget(m_mascotStyle);
    mascotRow->addWidget(m_mascotAvatar, 2);
    m_limitsCaption = new QLabel(m_keyBox);
    m_maxVisibleCaption = new QLabel(m_keyBox);
    m_maxShortcuts = new QSpinBox(m_keyBox);
    m_maxShortcuts->setRange(0, sites::SiteConfigSchema::kMaxShortcuts);
    m_maxVisible = new QSpinBox(m_keyBox);
    m_maxVisible->setRange(0, 20);
    auto *limitsRow = new QHBoxLayout;
    limitsRow->addWidget(m_maxShortcuts);
    limitsRow->addWidget(m_maxVisibleCaption);
    limitsRow->addWidget(m_maxVisible);
    limitsRow->addStretch(1);
    auto *keyButtons = new QHBoxLayout;
    m_savePolicy = new QPushButton(icon(Icon::Save), QString(), m_keyBox);
    m_rotate = new QPushButton(icon(Icon::Rotate), QString(), m_keyBox);
    m_toggleActive = new QPushButton(m_keyBox);
    keyButtons->addStretch(1);
    keyButtons->addWidget(m_savePolicy);
    keyButtons->addWidget(m_rotate);
    keyButtons->addWidget(m_toggleActive);
    keyForm->addRow(m_keyHeading);
    keyForm->addRow(m_keyDomainsCaption, m_keyDomains);
    keyForm->addRow(m_capabilitiesCaption, capabilityRow);
    keyForm->addRow(m_siteModeCaption, m_siteMode);
    keyForm->addRow(m_domainScopeCaption, m_domainScope);
    keyForm->addRow(QString(), m_cloudSandbox);
    keyForm->addRow(m_externalAllowCaption, m_externalAllow);
    keyForm->addRow(m_externalDenyCaption, m_externalDeny);
    keyForm->addRow(m_mascotCaption, mascotRow);
    keyForm->addRow(m_limitsCaption, limitsRow);
    keyForm->addRow(keyButtons);
    // The form is taller than a small window: it scrolls, the list keeps its room.
    auto *keyScroll = new QScrollArea(m_keysTab);
    keyScroll->setWidgetResizable(true);
    keyScroll->setFrameShape(QFrame::NoFrame);
    keyScroll->setWidget(m_keyBox);
    k->addWidget(keyScroll, 1);
    m_tabs->addTab(m_keysTab, QString());

    m_connectTab = new QWidget(m_tabs);
    auto *c = new QVBoxLayout(m_connectTab);
    m_connectCount = new QLabel(m_connectTab);
    m_connectCount->setWordWrap(true);
    c->addWidget(m_connectCount);
    m_connectView = makeTable(m_connect, ConnectKeysModel::Label, m_connectTab);
    c->addWidget(m_connectView, 1);
    auto *connectRow = new QHBoxLayout;
    m_connectLabel = new QLineEdit(m_connectTab);
    m_createConnect = new QPushButton(icon(Icon::Add), QString(), m_connectTab);
    m_revokeConnect = new QPushButton(icon(Icon::Delete), QString(), m_connectTab);
    connectRow->addWidget(m_connectLabel, 1);
    connectRow->addWidget(m_createConnect);
    connectRow->addWidget(m_revokeConnect);
    c->addLayout(connectRow);
    m_tabs->addTab(m_connectTab, QString());
    r->addWidget(m_tabs, 1);

    // A new key to copy: a public key (minted, rotated) or a Connect AI secret (once).
    m_secret = new SecretReveal(right);
    r->addWidget(m_secret);
    m_message = new QLabel(right);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    r->addWidget(m_message);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    setWidget(body);

    // Keyboard: Delete deletes the selected site (after the confirmation), deactivates
    // the selected site key, revokes the selected Connect AI key; F5 re-reads the
    // Connect AI keys (their last use).
    onDeleteKey(m_sitesView, this, &SitesDock::deleteSite);
    onDeleteKey(m_keysView, this, &SitesDock::deactivate);
    onDeleteKey(m_connectView, this, &SitesDock::revokeConnectKey);
    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this, [this] {
        m_connect->refresh();
        showCurrent();
    });
    addAction(refresh);

    connect(m_mint, &QPushButton::clicked, this, &SitesDock::mint);
    connect(m_domains, &QLineEdit::returnPressed, this, &SitesDock::mint);
    connect(m_deleteSite, &QPushButton::clicked, this, &SitesDock::deleteSite);
    connect(m_savePolicy, &QPushButton::clicked, this, &SitesDock::savePolicy);
    connect(m_keyDomains, &QLineEdit::returnPressed, this, &SitesDock::savePolicy);
    connect(m_rotate, &QPushButton::clicked, this, &SitesDock::rotate);
    connect(m_toggleActive, &QPushButton::clicked, this, [this] {
        const auto key = m_service.sites().sites().findKey(m_keyId);
        if (key)
            setActive(!key->active);
    });
    connect(m_createConnect, &QPushButton::clicked, this, &SitesDock::createConnectKey);
    connect(m_connectLabel, &QLineEdit::returnPressed, this, &SitesDock::createConnectKey);
    connect(m_revokeConnect, &QPushButton::clicked, this, &SitesDock::revokeConnectKey);

    connect(m_sitesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                const QString id = index.isValid() ? m_sites->rowAt(index).site.id : QString();
                if (id == m_siteId)
                    return;
                m_siteId = id;
                m_keys->setSiteId(id);
                m_connect->setSiteId(id);
                m_message->clear();
                loadKeyForm();
                showCurrent();
            });
    connect(m_keysView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_keyId = index.isValid() ? m_keys->rowAt(index).id : QString();
                loadKeyForm();
                showCurrent();
            });
    connect(m_connectView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_connectId = index.isValid() ? m_connect->rowAt(index).id : QString();
                showCurrent();
            });
    // A new site (or none) empties the key lists: nothing is selected in them.
    connect(m_keys, &QAbstractItemModel::modelReset, this, [this] {
        m_keyId.clear();
        loadKeyForm();
    });
    connect(m_connect, &QAbstractItemModel::modelReset, this, [this] { m_connectId.clear(); });
    // The headings follow their rows (keys added, rotated or revoked elsewhere).
    connect(m_sites, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &from, const QModelIndex &to) {
                const int row = m_sites->rowOf(m_siteId);
                if (row >= from.row() && row <= to.row())
                    showCurrent();
            });
    connect(m_keys, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &from, const QModelIndex &to) {
                const int row = m_keys->rowOf(m_keyId);
                if (row < from.row() || row > to.row())
                    return;
                if (!m_keyBox->isAncestorOf(QApplication::focusWidget()))
                    loadKeyForm();
                showCurrent();
            });
    connect(m_connect, &QAbstractItemModel::dataChanged, this, &SitesDock::showCurrent);
    retranslateUi();
    loadKeyForm();
    showCurrent();
}

QHBoxLayout *SitesDock::capabilityBoxes(QList<Capability> &boxes, QWidget *parent)
{
    auto *row = new QHBoxLayout;
    for (const char *c : kCapabilities) {
        auto *box = new QCheckBox(parent);
        box->setToolTip(QLatin1String(c));
        row->addWidget(box);
        boxes.append({QLatin1String(c), box});
    }
    row->addStretch(1);
    return row;
}

QCheckBox *SitesDock::findBox(const QList<Capability> &boxes, const QString &capability)
{
    for (const Capability &c : boxes) {
        if (c.name == capability)
            return c.box;
    }
    return nullptr;
}

QCheckBox *SitesDock::capabilityBox(const QString &capability) const
{
    return findBox(m_capabilities, capability);
}

QCheckBox *SitesDock::mintCapabilityBox(const QString &capability) const
{
    return findBox(m_mintCapabilities, capability);
}

QLineEdit *SitesDock::secretField() const
{
    return m_secret->field();
}

QPushButton *SitesDock::copySecretButton() const
{
    return m_secret->copyButton();
}

QPushButton *SitesDock::dismissSecretButton() const
{
    return m_secret->doneButton();
}

bool SitesDock::select(const QString &siteId)
{
    const int row = m_sites->rowOf(siteId);
    if (row < 0)
        return false;
    m_sitesView->setCurrentIndex(m_sites->index(row, 0));
    return m_siteId == siteId;
}

bool SitesDock::selectSiteKey(const QString &keyId)
{
    const auto key = m_service.sites().sites().findKey(keyId);
    if (!key || !select(key->siteId))
        return false;
    const int row = m_keys->rowOf(keyId);
    if (row < 0)
        return false;
    m_tabs->setCurrentWidget(m_keysTab);
    m_keysView->setCurrentIndex(m_keys->index(row, 0));
    return m_keyId == keyId;
}

bool SitesDock::selectConnectKey(const QString &keyId)
{
    const auto key = m_service.sites().connectKeys().find(keyId);
    if (!key || !select(key->siteId))
        return false;
    const int row = m_connect->rowOf(keyId);
    if (row < 0)
        return false;
    m_tabs->setCurrentWidget(m_connectTab);
    m_connectView->setCurrentIndex(m_connect->index(row, 0));
    return m_connectId == keyId;
}

void SitesDock::showMessage(const QString &text, bool error)
{
    m_message->setStyleSheet(error ? kErrorStyle : QString());
    m_message->setText(text);
}

void SitesDock::showError(const DomainError &error)
{
    showMessage(tr("%1 (%2)").arg(error.message(), error.code()), true);
}

void SitesDock::mint()
{
    QJsonObject capabilities;
    for (const Capability &c : std::as_const(m_mintCapabilities))
        capabilities.insert(c.name, c.box->isChecked());
    QJsonObject body{{QStringLiteral("label"), m_label->text()},
                     {QStringLiteral("allowedDomains"), domainList(m_domains->text())},
                     {QStringLiteral("environment"), m_environment->currentData().toString()},
                     {QStringLiteral("ttlDays"), m_ttlDays->value()},
                     {QStringLiteral("capabilities"), capabilities}};
    // The site chosen from the list by its id; a name typed in, by its name (the API
    // reuses the owner's site of that name, or creates it).
    const QString name = m_siteName->currentText();
    const int listed = m_siteName->currentIndex();
    if (listed >= 0 && listed < m_sites->rowCount() && m_siteName->itemText(listed) == name)
        body.insert(QStringLiteral("siteId"), m_sites->rowAt(m_sites->index(listed, 0)).site.id);
    else
        body.insert(QStringLiteral("siteName"), name);
    try {
        sites::SitesArea &area = m_service.sites();
        const sites::GeneratedSiteKey g =
            sites::generateSiteKey(m_service.store(), area.sites(), body);
        m_label->clear();
        m_domains->clear();
        m_ttlDays->setValue(0);
        m_siteName->setCurrentIndex(m_sites->rowOf(g.site.id));
        selectSiteKey(g.key.id);
        showKey(g.key.publicKey, false);
        showMessage(
            g.siteCreated
                ? tr("Created the site %1 with the site key %2.").arg(g.site.name, g.key.label)
                : tr("Minted the site key %2 for %1.").arg(g.site.name, g.key.label),
            false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void SitesDock::savePolicy()
{
    if (m_keyId.isEmpty())
        return;
    QJsonObject capabilities;
    for (const Capability &c : std::as_const(m_capabilities))
        capabilities.insert(c.name, c.box->isChecked());
    // Every policy field as the form shows it; an empty avatar URL removes the avatar.
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
    const QJsonObject body{{QStringLiteral("keyId"), m_keyId},
                           {QStringLiteral("allowedDomains"), domainList(m_keyDomains->text())},
                           {QStringLiteral("capabilities"), capabilities},
                           {QStringLiteral("sitePolicy"), policy}};
    try {
        const sites::SiteKey key = sites::updateSiteKeyPolicy(m_service.sites().sites(), body);
        loadKeyForm();
        showCurrent();
        showMessage(tr("Saved the allowed domains, capabilities and policy of %1.").arg(key.label),
                    false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void SitesDock::rotate()
{
    if (m_keyId.isEmpty())
        return;
    try {
        const sites::SiteKey key =
            sites::rotateSiteKey(m_service.store(), m_service.sites().sites(),
                                 QJsonObject{{QStringLiteral("keyId"), m_keyId}});
        showKey(key.publicKey, false);
        showCurrent();
        showMessage(tr("Rotated %1: its new public key is shown; the previous one no longer works.")
                        .arg(key.label),
                    false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void SitesDock::setActive(bool active)
{
    if (m_keyId.isEmpty())
        return;
    try {
        const sites::SiteKey key = sites::updateSiteKeyPolicy(
            m_service.sites().sites(),
            QJsonObject{{QStringLiteral("keyId"), m_keyId}, {QStringLiteral("active"), active}});
        showCurrent();
        showMessage(active ? tr("Activated %1.").arg(key.label)
                           : tr("Deactivated %1; pages that use it stop working.").arg(key.label),
                    false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void SitesDock::deactivate()
{
    const auto key = m_keyId.isEmpty() ? std::nullopt : m_service.sites().sites().findKey(m_keyId);
    if (key && key->active)
        setActive(false);
}

void SitesDock::deleteSite()
{
    sites::SitesArea &area = m_service.sites();
    const auto site = m_siteId.isEmpty() ? std::nullopt : area.sites().findSite(m_siteId);
    if (!site)
        return;
    QMessageBox box(QMessageBox::Warning, tr("Delete site"),
                    tr("Delete the site %1? Its site keys (%2), Connect AI keys (%3), "
                       "configuration and proposals are removed, and pages that use its keys "
                       "stop working. Its analytics history is kept. This cannot be undone.")
                        .arg(site->name)
                        .arg(area.sites().keyCount(site->id))
                        .arg(area.connectKeys().list(site->id).size()),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("confirmDeleteSite"));
    box.setTextFormat(Qt::PlainText);
    QPushButton *confirm = box.addButton(tr("Delete site"), QMessageBox::DestructiveRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(cancel);
    box.exec();
    if (box.clickedButton() != confirm)
        return;
    try {
        const sites::DeletedSite deleted = sites::deleteSite(
            area.sites(), area.connectKeys(), QJsonObject{{QStringLiteral("siteId"), site->id}});
        showCurrent();
        showMessage(tr("Deleted the site %1.").arg(deleted.site.name), false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void SitesDock::createConnectKey()
{
    if (m_siteId.isEmpty())
        return;
    sites::SitesArea &area = m_service.sites();
    try {
        const auto minted =
            sites::createConnectKey(area.sites(), area.connectKeys(),
                                    QJsonObject{{QStringLiteral("siteId"), m_siteId},
                                                {QStringLiteral("label"), m_connectLabel->text()}},
                                    kActor);
        // Shown here once; the model and the store only know its hash and prefix.
        showKey(minted.secret, true);
        m_connectLabel->clear();
        selectConnectKey(minted.key.id);
        showMessage(tr("Created the Connect AI key %1.").arg(minted.key.label), false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void SitesDock::revokeConnectKey()
{
    if (m_connectId.isEmpty())
        return;
    sites::SitesArea &area = m_service.sites();
    const auto key = area.connectKeys().find(m_connectId);
    if (!key || key->revokedAt)
        return;
    try {
        sites::revokeConnectKey(area.sites(), area.connectKeys(),
                                QJsonObject{{QStringLiteral("keyId"), key->id}});
        showCurrent();
        showMessage(tr("Revoked %1; it now answers 401.").arg(key->label), false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void SitesDock::showKey(const QString &key, bool secret)
{
    m_secretIsConnectKey = secret;
    retranslateSecret();
    m_secret->reveal(key);
}

void SitesDock::loadKeyForm()
{
    const auto key = m_keyId.isEmpty() ? std::nullopt : m_service.sites().sites().findKey(m_keyId);
    if (!key) {
        for (QLineEdit *e :
             {m_keyDomains, m_externalAllow, m_externalDeny, m_mascotName, m_mascotAvatar})
            e->clear();
        for (const Capability &c : std::as_const(m_capabilities))
            c.box->setChecked(false);
        m_cloudSandbox->setChecked(false);
        m_mascotEnabled->setChecked(false);
        return;
    }
    m_keyDomains->setText(key->allowedDomains.join(QStringLiteral(", ")));
    for (const Capability &c : std::as_const(m_capabilities))
        c.box->setChecked(key->capability(c.name));
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

void SitesDock::showCurrent()
{
    sites::SitesArea &area = m_service.sites();
    const auto site = m_siteId.isEmpty() ? std::nullopt : area.sites().findSite(m_siteId);
    if (!site) {
        m_siteHeading->setText(tr("Select a site to see its site keys and Connect AI keys."));
        m_connectCount->clear();
    } else {
        m_siteHeading->setText(
            QStringLiteral("<b>%1</b> — %2").arg(site->name.toHtmlEscaped(), site->id));
        m_connectCount->setText(
            tr("%1 of at most %2 Connect AI keys are active. Each lets an AI read this site's "
               "configuration and propose changes for your review.")
                .arg(area.connectKeys().activeCount(site->id))
                .arg(sites::ConnectKeyRepository::kMaxActivePerSite));
    }
    m_deleteSite->setEnabled(site.has_value());
    m_connectLabel->setEnabled(site.has_value());
    m_createConnect->setEnabled(site.has_value());

    auto key = m_keyId.isEmpty() ? std::nullopt : area.sites().findKey(m_keyId);
    if (key && key->siteId != m_siteId)
        key.reset();
    if (!key) {
        m_keyHeading->setText(site ? tr("Select a site key to edit, rotate or deactivate it.")
                                   : QString());
    } else {
        const qint64 now = m_service.store().clock().nowMs();
        m_keyHeading->setText(QStringLiteral("<b>%1</b> — %2 — %3")
                                  .arg(key->label.toHtmlEscaped(),
                                       SiteKeysModel::maskedPublicKey(key->publicKey),
                                       !key->active          ? tr("deactivated")
                                       : key->isExpired(now) ? tr("expired")
                                                             : tr("active")));
    }
    for (QWidget *w : std::initializer_list<QWidget *>{
             m_keyDomains, m_siteMode, m_domainScope, m_cloudSandbox, m_externalAllow,
             m_externalDeny, m_mascotEnabled, m_mascotName, m_mascotAvatar, m_mascotStyle,
             m_maxShortcuts, m_maxVisible, m_savePolicy, m_rotate, m_toggleActive})
        w->setEnabled(key.has_value());
    for (const Capability &c : std::as_const(m_capabilities))
        c.box->setEnabled(key.has_value());
    m_toggleActive->setText(key && !key->active ? tr("Activate") : tr("Deactivate (Del)"));
    m_toggleActive->setIcon(icon(key && !key->active ? Icon::Run : Icon::Pause));

    const auto connectKey =
        m_connectId.isEmpty() ? std::nullopt : area.connectKeys().find(m_connectId);
    m_revokeConnect->setEnabled(connectKey && connectKey->isActive());
}

void SitesDock::retranslateSecret()
{
    if (m_secretIsConnectKey) {
        m_secret->setTexts(tr("The new Connect AI key"),
                           tr("Copy the key now and give it to your AI as a bearer key. "
                              "It is shown only this once; Pilothouse keeps only its hash."));
    } else {
        m_secret->setTexts(tr("The new public site key"),
                           tr("Place this key in your pages' embed code. It is public; "
                              "the list shows it shortened."));
    }
}

void SitesDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void SitesDock::retranslateUi()
{
    setWindowTitle(tr("Sites"));
    m_deleteSite->setText(tr("Delete site… (Del)"));
    m_mintBox->setTitle(tr("New site key"));
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
    m_mintCapabilitiesCaption->setText(tr("Capabilities"));
    m_mint->setText(tr("Mint site key"));
    m_tabs->setTabText(m_tabs->indexOf(m_keysTab), tr("Site keys"));
    m_tabs->setTabText(m_tabs->indexOf(m_connectTab), tr("Connect AI"));
    m_keyBox->setTitle(tr("Selected site key"));
    m_keyDomainsCaption->setText(tr("Allowed domains"));
    m_keyDomains->setPlaceholderText(tr("At least one domain"));
    m_capabilitiesCaption->setText(tr("Capabilities"));
    for (const QList<Capability> *list : {&m_capabilities, &m_mintCapabilities}) {
        for (const Capability &c : *list) {
            if (c.name == QLatin1String("embed"))
                c.box->setText(tr("Embed in pages"));
            else if (c.name == QLatin1String("cloudAgent"))
                c.box->setText(tr("Cloud agent"));
            else if (c.name == QLatin1String("cloudScrape"))
                c.box->setText(tr("Cloud scrape"));
            else
                c.box->setText(tr("External web context"));
        }
    }
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
    m_savePolicy->setText(tr("Save"));
    m_rotate->setText(tr("Rotate"));
    m_connectLabel->setPlaceholderText(tr("Which AI, e.g. Claude (default: Connect AI)"));
    m_createConnect->setText(tr("Create Connect AI key"));
    m_revokeConnect->setText(tr("Revoke (Del)"));
    retranslateSecret();
    m_sites->retranslate();
    m_keys->retranslate();
    m_connect->retranslate();
    showCurrent();
}

} // namespace ph::ui
