#include "SitesDock.h"

#include "ConnectKeysPane.h"
#include "SiteConfigEditor.h"
#include "SiteKeyMintForm.h"
#include "SiteKeyPolicyForm.h"
#include "SitesModel.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "sites/ConnectKeyRepository.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"
#include "sites/WorkspaceActions.h"

#include "common/Icons.h"
#include "common/SecretReveal.h"
#include "common/TableViews.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const QString kErrorStyle = QStringLiteral("color: #c0392b");
const QString kActor = QStringLiteral("console");
} // namespace

SitesDock::SitesDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("sitesDock"));
    sites::SitesArea &area = services.sites;
    m_sites =
        new SitesModel(area.sites(), area.connectKeys(), area.changes(), services.clock, this);
    m_keys = new SiteKeysModel(area.sites(), services.clock, this);
    m_connect = new ConnectKeysModel(area.connectKeys(), area.sites(), this);

    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *split = new QSplitter(Qt::Horizontal, body);

    // Left: the sites, a new site key.
    auto *left = new QWidget(split);
    auto *l = new QVBoxLayout(left);
    l->setContentsMargins(0, 0, 0, 0);
    m_sitesView = makeTableView(m_sites, SitesModel::Name, left);
    l->addWidget(m_sitesView, 1);
    auto *siteButtons = new QHBoxLayout;
    m_deleteSite = new QPushButton(icon(Icon::Delete), QString(), left);
    siteButtons->addStretch(1);
    siteButtons->addWidget(m_deleteSite);
    l->addLayout(siteButtons);
    m_mintForm = new SiteKeyMintForm(m_sites, left);
    l->addWidget(m_mintForm);

    // Right: the selected site's keys and Connect AI keys.
    auto *right = new QWidget(split);
    auto *r = new QVBoxLayout(right);
    r->setContentsMargins(0, 0, 0, 0);
    m_siteHeading = new QLabel(right);
    m_siteHeading->setWordWrap(true);
    m_siteHeading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    r->addWidget(m_siteHeading);
    // What the site's visitors' work may reach beside the site's own origin.
    m_privateHostsLabel = new QLabel(right);
    m_privateHostsLabel->setWordWrap(true);
    r->addWidget(m_privateHostsLabel);
    auto *privateRow = new QHBoxLayout;
    m_privateHosts = new QLineEdit(right);
    m_privateHostsLabel->setBuddy(m_privateHosts);
    m_savePrivateHosts = new QPushButton(icon(Icon::Save), QString(), right);
    privateRow->addWidget(m_privateHosts, 1);
    privateRow->addWidget(m_savePrivateHosts);
    r->addLayout(privateRow);
    connect(m_savePrivateHosts, &QPushButton::clicked, this, &SitesDock::savePrivateHosts);
    connect(m_privateHosts, &QLineEdit::returnPressed, this, &SitesDock::savePrivateHosts);
    m_tabs = new QTabWidget(right);
    makeKeysTab();
    m_connectPane = new ConnectKeysPane(m_connect, m_tabs);
    m_tabs->addTab(m_connectPane, QString());
    m_configEditor = new SiteConfigEditor(services, m_tabs);
    m_tabs->addTab(m_configEditor, QString());
    connect(m_configEditor, &SiteConfigEditor::message, this, &SitesDock::showMessage);
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

    connectActions();
    connectSelection();
    retranslateUi();
    loadPrivateHosts();
    loadKeyForm();
    showCurrent();
}

void SitesDock::connectActions()
{
    // Keyboard: Delete deletes the selected site (after the confirmation), deactivates
    // the selected site key (the Connect AI pane revokes its key itself); F5 re-reads
    // the Connect AI keys (their last use).
    onDeleteKey(m_sitesView, this, &SitesDock::deleteSite);
    onDeleteKey(m_keysView, this, &SitesDock::deactivate);
    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this, [this] {
        m_connect->refresh();
        showCurrent();
    });
    addAction(refresh);

    connect(m_mintForm, &SiteKeyMintForm::mintRequested, this, &SitesDock::mint);
    connect(m_deleteSite, &QPushButton::clicked, this, &SitesDock::deleteSite);
    connect(m_keyForm, &SiteKeyPolicyForm::saveRequested, this, &SitesDock::savePolicy);
    connect(m_keyForm, &SiteKeyPolicyForm::rotateRequested, this, &SitesDock::rotate);
    connect(m_keyForm, &SiteKeyPolicyForm::toggleActiveRequested, this, [this] {
        const auto key = m_services.sites.sites().findKey(m_keyId);
        if (key)
            setActive(!key->active);
    });
    connect(m_connectPane, &ConnectKeysPane::createRequested, this, &SitesDock::createConnectKey);
    connect(m_connectPane, &ConnectKeysPane::revokeRequested, this, &SitesDock::revokeConnectKey);
}

void SitesDock::makeKeysTab()
{
    m_keysTab = new QWidget(m_tabs);
    auto *k = new QVBoxLayout(m_keysTab);
    m_keysView = makeTableView(m_keys, SiteKeysModel::AllowedDomains, m_keysTab);
    k->addWidget(m_keysView, 1);
    m_keyForm = new SiteKeyPolicyForm(m_keysTab);
    // The form is taller than a small window: it scrolls, the list keeps its room.
    auto *keyScroll = new QScrollArea(m_keysTab);
    keyScroll->setWidgetResizable(true);
    keyScroll->setFrameShape(QFrame::NoFrame);
    keyScroll->setWidget(m_keyForm);
    k->addWidget(keyScroll, 1);
    // The install snippet of the selected key: one script tag for the site's pages.
    m_snippetLabel = new QLabel(m_keysTab);
    k->addWidget(m_snippetLabel);
    auto *snippetRow = new QHBoxLayout;
    m_snippet = new QLineEdit(m_keysTab);
    m_snippet->setReadOnly(true);
    m_snippetLabel->setBuddy(m_snippet);
    m_copySnippet = new QPushButton(icon(Icon::Copy), QString(), m_keysTab);
    snippetRow->addWidget(m_snippet, 1);
    snippetRow->addWidget(m_copySnippet);
    k->addLayout(snippetRow);
    connect(m_copySnippet, &QPushButton::clicked, this, [this] {
        if (!m_snippetText.isEmpty()) {
            QGuiApplication::clipboard()->setText(m_snippetText);
            showMessage(tr("Copied the install snippet: paste it into the site's pages."), false);
        }
    });
    m_tabs->addTab(m_keysTab, QString());
}

void SitesDock::connectSelection()
{
    connect(m_sitesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                const QString id = index.isValid() ? m_sites->rowAt(index).site.id : QString();
                if (id == m_siteId)
                    return;
                m_siteId = id;
                m_keys->setSiteId(id);
                m_connect->setSiteId(id);
                m_configEditor->setSiteId(id);
                m_message->clear();
                loadPrivateHosts();
                loadKeyForm();
                showCurrent();
            });
    connect(m_keysView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_keyId = index.isValid() ? m_keys->rowAt(index).id : QString();
                loadKeyForm();
                showCurrent();
            });
    connect(m_connectPane->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
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
                if (!m_keyForm->isAncestorOf(QApplication::focusWidget()))
                    loadKeyForm();
                showCurrent();
            });
    connect(m_connect, &QAbstractItemModel::dataChanged, this, &SitesDock::showCurrent);
}

bool SitesDock::select(const QString &siteId)
{
    const int row = m_sites->rowOf(siteId);
    if (row < 0)
        return false;
    m_sitesView->setCurrentIndex(m_sites->index(row, 0));
    return m_siteId == siteId;
}

void SitesDock::showConfiguration()
{
    m_tabs->setCurrentWidget(m_configEditor);
}

bool SitesDock::selectSiteKey(const QString &keyId)
{
    const auto key = m_services.sites.sites().findKey(keyId);
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
    const auto key = m_services.sites.connectKeys().find(keyId);
    if (!key || !select(key->siteId))
        return false;
    const int row = m_connect->rowOf(keyId);
    if (row < 0)
        return false;
    m_tabs->setCurrentWidget(m_connectPane);
    m_connectPane->view()->setCurrentIndex(m_connect->index(row, 0));
    return m_connectId == keyId;
}

void SitesDock::loadPrivateHosts()
{
    m_privateHosts->setEnabled(!m_siteId.isEmpty());
    m_savePrivateHosts->setEnabled(!m_siteId.isEmpty());
    m_privateHosts->setText(
        m_siteId.isEmpty()
            ? QString()
            : m_services.sites.sites().privateHosts(m_siteId).join(QStringLiteral(", ")));
}

void SitesDock::savePrivateHosts()
{
    if (m_siteId.isEmpty())
        return;
    QStringList entries;
    for (const QString &e : m_privateHosts->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!e.trimmed().isEmpty())
            entries.append(e.trimmed());
    }
    try {
        const QStringList hosts =
            sites::normalizePrivateHosts(entries, QStringLiteral("privateHosts"));
        m_services.sites.sites().setPrivateHosts(m_siteId, hosts);
        m_privateHosts->setText(hosts.join(QStringLiteral(", ")));
        showMessage(hosts.isEmpty()
                        ? tr("Visitors' work reaches no private host beside the site's own.")
                        : tr("Visitors' work may now reach %1 beside the site's own origin.")
                              .arg(hosts.join(QStringLiteral(", "))),
                    false);
    } catch (const DomainError &e) {
        showError(e);
    }
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
    try {
        sites::SitesArea &area = m_services.sites;
        const sites::GeneratedSiteKey g = area.generateSiteKey(m_mintForm->request());
        m_mintForm->reset(g.site.id);
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
    try {
        const sites::SiteKey key =
            sites::updateSiteKeyPolicy(m_services.sites.sites(), m_keyForm->request(m_keyId));
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
            m_services.sites.rotateSiteKey(QJsonObject{{QStringLiteral("keyId"), m_keyId}});
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
            m_services.sites.sites(),
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
    const auto key = m_keyId.isEmpty() ? std::nullopt : m_services.sites.sites().findKey(m_keyId);
    if (key && key->active)
        setActive(false);
}

void SitesDock::deleteSite()
{
    sites::SitesArea &area = m_services.sites;
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
    sites::SitesArea &area = m_services.sites;
    try {
        const auto minted = sites::createConnectKey(
            area.sites(), area.connectKeys(),
            QJsonObject{{QStringLiteral("siteId"), m_siteId},
                        {QStringLiteral("label"), m_connectPane->labelField()->text()}},
            kActor);
        // Shown here once; the model and the store only know its hash and prefix.
        showKey(minted.secret, true);
        m_connectPane->labelField()->clear();
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
    sites::SitesArea &area = m_services.sites;
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
    const auto key = m_keyId.isEmpty() ? std::nullopt : m_services.sites.sites().findKey(m_keyId);
    m_keyForm->load(key ? &*key : nullptr);
}

void SitesDock::showCurrent()
{
    sites::SitesArea &area = m_services.sites;
    const auto site = m_siteId.isEmpty() ? std::nullopt : area.sites().findSite(m_siteId);
    if (!site)
        m_siteHeading->setText(tr("Select a site to see its site keys and Connect AI keys."));
    else
        m_siteHeading->setText(
            QStringLiteral("<b>%1</b> — %2").arg(site->name.toHtmlEscaped(), site->id));
    m_deleteSite->setEnabled(site.has_value());

    auto key = m_keyId.isEmpty() ? std::nullopt : area.sites().findKey(m_keyId);
    if (key && key->siteId != m_siteId)
        key.reset();
    m_keyForm->showKey(key ? &*key : nullptr, site.has_value(), m_services.clock.nowMs());
    // Shown with the key shortened, as everywhere in the panel; Copy gives the whole line.
    const QString snippet = QStringLiteral("<script src=\"%1/embed.js\" data-site-key=\"%2\" "
                                           "data-site-id=\"%3\" defer></script>");
    m_snippetText =
        key ? snippet.arg(m_services.apiAddress(), key->publicKey, key->siteId) : QString();
    m_snippet->setText(key ? snippet.arg(m_services.apiAddress(),
                                         SiteKeysModel::maskedPublicKey(key->publicKey),
                                         key->siteId)
                           : QString());
    m_copySnippet->setEnabled(key.has_value());

    const auto connectKey =
        m_connectId.isEmpty() ? std::nullopt : area.connectKeys().find(m_connectId);
    m_connectPane->showState(site ? area.connectKeys().activeCount(site->id) : -1,
                             connectKey && connectKey->isActive());
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
    m_sitesView->setAccessibleName(tr("Sites"));
    m_keysView->setAccessibleName(tr("Site keys"));
    m_tabs->setAccessibleName(tr("Site detail"));
    m_keyForm->parentWidget()->parentWidget()->setAccessibleName(tr("Selected site key"));
    m_deleteSite->setText(tr("Delete site… (Del)"));
    m_privateHostsLabel->setText(
        tr("&Private hosts visitors may reach (host or host:port, comma separated; empty: "
           "only the site's own hosts on port 80/443; list a site served on another port):"));
    m_privateHosts->setPlaceholderText(tr("e.g. inventory.lan:8080, 10.0.0.12"));
    m_privateHosts->setAccessibleName(tr("Private hosts visitors may reach"));
    m_savePrivateHosts->setText(tr("Save hosts"));
    m_tabs->setTabText(m_tabs->indexOf(m_keysTab), tr("Site keys"));
    m_tabs->setTabText(m_tabs->indexOf(m_connectPane), tr("Connect AI"));
    m_tabs->setTabText(m_tabs->indexOf(m_configEditor), tr("Configuration"));
    m_configEditor->retranslateUi();
    m_mintForm->retranslateUi();
    m_keyForm->retranslateUi();
    m_connectPane->retranslateUi();
    m_snippetLabel->setText(tr("&Install snippet (one line for the site's pages):"));
    m_snippet->setAccessibleName(tr("Install snippet"));
    m_snippet->setPlaceholderText(tr("Select a site key to see its install snippet."));
    m_copySnippet->setText(tr("Copy snippet"));
    retranslateSecret();
    m_sites->retranslate();
    m_keys->retranslate();
    m_connect->retranslate();
    showCurrent();
}

} // namespace ph::ui
