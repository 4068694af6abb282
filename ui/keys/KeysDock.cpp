#include "KeysDock.h"

#include "GrantsPanel.h"
#include "KeysModel.h"
#include "ProfilesModel.h"
#include "ProfilesPanel.h"

#include "core/ApiKeyRepository.h"
#include "core/ApiKeyService.h"
#include "core/CreditLedger.h"
#include "core/DomainError.h"

#include "common/Icons.h"
#include "common/SecretReveal.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
const QString kErrorStyle = QStringLiteral("color: #c0392b");

// A balance field: unlimited when ticked, nothing when empty, else the number it reads
// as (in the console's locale or plain); other text is refused by name, as the API
// refuses a balance that is not a number. The range is the service's to check.
std::optional<ApiKeyService::Balance> balanceOf(const QString &text, bool unlimited)
{
    if (unlimited)
        return ApiKeyService::Balance::unlimited();
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    bool ok = false;
    double credits = QLocale().toDouble(t, &ok);
    if (!ok)
        credits = QLocale::c().toDouble(t, &ok);
    if (!ok)
        throw DomainError::invalidField(QStringLiteral("balance"),
                                        QStringLiteral("must be a number, got string"));
    return ApiKeyService::Balance::of(credits);
}
} // namespace

KeysDock::KeysDock(const ConsoleServices &services, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
{
    setObjectName(QStringLiteral("keysDock"));
    m_model = new KeysModel(services.keyService, this);

    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    auto *split = new QSplitter(Qt::Horizontal, body);
    m_view = new QTableView(split);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(KeysModel::Label, QHeaderView::Stretch);
    m_view->horizontalHeader()->setMinimumSectionSize(60);
    m_view->setWordWrap(false);
    m_view->setAlternatingRowColors(true);

    auto *side = new QWidget(split);
    auto *s = new QVBoxLayout(side);
    s->setContentsMargins(0, 0, 0, 0);

    // Mint.
    m_mintBox = new QGroupBox(side);
    auto *mintForm = new QFormLayout(m_mintBox);
    m_labelCaption = new QLabel(m_mintBox);
    m_roleCaption = new QLabel(m_mintBox);
    m_mintBalanceCaption = new QLabel(m_mintBox);
    m_label = new QLineEdit(m_mintBox);
    m_role = new QComboBox(m_mintBox);
    m_role->addItem(QString(), QStringLiteral("user"));
    m_role->addItem(QString(), QStringLiteral("owner"));
    auto *mintBalanceRow = new QHBoxLayout;
    m_mintBalance = new QLineEdit(m_mintBox);
    m_mintUnlimited = new QCheckBox(m_mintBox);
    mintBalanceRow->addWidget(m_mintBalance, 1);
    mintBalanceRow->addWidget(m_mintUnlimited);
    m_mint = new QPushButton(icon(Icon::Add), QString(), m_mintBox);
    mintForm->addRow(m_labelCaption, m_label);
    mintForm->addRow(m_roleCaption, m_role);
    mintForm->addRow(m_mintBalanceCaption, mintBalanceRow);
    mintForm->addRow(QString(), m_mint);
    s->addWidget(m_mintBox);

    // The new secret, once.
    m_secret = new SecretReveal(side);
    s->addWidget(m_secret);

    // The selected key.
    m_keyBox = new QGroupBox(side);
    auto *keyForm = new QFormLayout(m_keyBox);
    m_heading = new QLabel(m_keyBox);
    m_heading->setWordWrap(true);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_balanceCaption = new QLabel(m_keyBox);
    auto *balanceRow = new QHBoxLayout;
    m_balance = new QLineEdit(m_keyBox);
    m_unlimited = new QCheckBox(m_keyBox);
    m_setBalance = new QPushButton(icon(Icon::Save), QString(), m_keyBox);
    balanceRow->addWidget(m_balance, 1);
    balanceRow->addWidget(m_unlimited);
    balanceRow->addWidget(m_setBalance);
    m_revoke = new QPushButton(icon(Icon::Delete), QString(), m_keyBox);
    keyForm->addRow(m_heading);
    keyForm->addRow(m_balanceCaption, balanceRow);
    keyForm->addRow(QString(), m_revoke);
    s->addWidget(m_keyBox);
    m_message = new QLabel(side);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    s->addWidget(m_message);
    s->addStretch(1);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    // The keys' browser profiles below them (a profile belongs to a key).
    auto *rows = new QSplitter(Qt::Vertical, body);
    rows->setObjectName(QStringLiteral("keysProfilesSplitter"));
    rows->addWidget(split);
    m_profiles = new ProfilesPanel(services, rows);
    rows->addWidget(m_profiles);
    // The OAuth grants of MCP clients: each acts as one of the keys above.
    m_grants = new GrantsPanel(services, rows);
    rows->addWidget(m_grants);
    rows->setStretchFactor(0, 3);
    rows->setStretchFactor(1, 1);
    rows->setStretchFactor(2, 1);
    layout->addWidget(rows, 1);
    setWidget(body);

    installShortcuts();

    connect(m_mint, &QPushButton::clicked, this, &KeysDock::mint);
    connect(m_label, &QLineEdit::returnPressed, this, &KeysDock::mint);
    connect(m_setBalance, &QPushButton::clicked, this, &KeysDock::setBalance);
    connect(m_balance, &QLineEdit::returnPressed, this, &KeysDock::setBalance);
    connect(m_revoke, &QPushButton::clicked, this, &KeysDock::revoke);
    connect(m_mintUnlimited, &QCheckBox::toggled, m_mintBalance, &QWidget::setDisabled);
    connect(m_unlimited, &QCheckBox::toggled, m_balance, &QWidget::setDisabled);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                m_current = index.isValid() ? m_model->rowAt(index).key.id : QString();
                m_message->clear();
                showCurrent();
            });
    // The selected key's heading follows its row (balance spent, revoked elsewhere).
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &from, const QModelIndex &to) {
                const int row = m_model->rowOf(m_current);
                if (row >= from.row() && row <= to.row())
                    showCurrent();
            });
    retranslateUi();
    showCurrent();
}

// Keyboard: Delete revokes the selected key, F5 re-reads the list.
void KeysDock::installShortcuts()
{
    auto *revokeAction = new QAction(this);
    revokeAction->setShortcut(QKeySequence::Delete);
    revokeAction->setShortcutContext(Qt::WidgetShortcut);
    connect(revokeAction, &QAction::triggered, this, &KeysDock::revoke);
    m_view->addAction(revokeAction);
    auto *refresh = new QAction(this);
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(refresh, &QAction::triggered, this, [this] {
        m_model->refresh();
        m_profiles->model()->refresh();
        showCurrent();
    });
    addAction(refresh);
}

QLineEdit *KeysDock::secretField() const
{
    return m_secret->field();
}

QPushButton *KeysDock::copySecretButton() const
{
    return m_secret->copyButton();
}

QPushButton *KeysDock::dismissSecretButton() const
{
    return m_secret->doneButton();
}

bool KeysDock::select(const QString &keyId)
{
    const int row = m_model->rowOf(keyId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    m_current = keyId;
    showCurrent();
    return true;
}

void KeysDock::showMessage(const QString &text, bool error)
{
    m_message->setStyleSheet(error ? kErrorStyle : QString());
    m_message->setText(text);
}

void KeysDock::showError(const DomainError &error)
{
    showMessage(tr("%1 (%2)").arg(error.message(), error.code()), true);
}

void KeysDock::mint()
{
    try {
        ApiKeyService::NewKey request;
        request.label = m_label->text().trimmed();
        request.role = m_role->currentData().toString();
        request.balance = balanceOf(m_mintBalance->text(), m_mintUnlimited->isChecked());
        const ApiKeyRepository::Minted minted = m_services.keyService.mint(request);
        // Shown here once; the model and the store only know its hash and prefix.
        m_secret->reveal(minted.secret);
        m_label->clear();
        m_mintBalance->clear();
        m_mintUnlimited->setChecked(false);
        select(minted.key.id);
        showMessage(tr("Minted %1.").arg(minted.key.label), false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void KeysDock::setBalance()
{
    if (m_current.isEmpty())
        return;
    try {
        const auto balance = balanceOf(m_balance->text(), m_unlimited->isChecked());
        if (!balance)
            throw DomainError::missingField(QStringLiteral("balance"));
        const ApiKey key =
            m_services.keyService.setBalance(m_current, *balance, QStringLiteral("console"));
        showCurrent();
        showMessage(key.balanceMilli
                        ? tr("%1 now has %2 credits.")
                              .arg(key.label,
                                   QLocale().toString(creditsFromMilli(*key.balanceMilli), 'f', 3))
                        : tr("%1 is now unlimited.").arg(key.label),
                    false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void KeysDock::revoke()
{
    if (m_current.isEmpty())
        return;
    const auto key = m_services.keyService.lookup(m_current);
    if (!key || key->key.revokedAt)
        return;
    try {
        const ApiKey revoked = m_services.keyService.revoke(m_current);
        showCurrent();
        showMessage(tr("Revoked %1; it now answers 401.").arg(revoked.label), false);
    } catch (const DomainError &e) {
        showError(e);
    }
}

void KeysDock::showCurrent()
{
    const auto found = m_current.isEmpty() ? std::nullopt : m_services.keyService.lookup(m_current);
    const std::optional<ApiKey> key =
        found ? std::optional<ApiKey>(found->key) : std::optional<ApiKey>();
    const bool active = key && key->isActive();
    if (!key) {
        m_heading->setText(tr("Select a key to set its balance or revoke it."));
        m_balance->clear();
    } else {
        m_heading->setText(QStringLiteral("<b>%1</b> — %2 — %3")
                               .arg(key->label.toHtmlEscaped(), key->id,
                                    key->revokedAt ? tr("revoked") : tr("active")));
        // The fields show the stored balance unless they are being edited.
        if (!m_balance->hasFocus()) {
            m_unlimited->setChecked(!key->balanceMilli);
            m_balance->setText(
                key->balanceMilli ? QLocale().toString(creditsFromMilli(*key->balanceMilli), 'f', 3)
                                  : QString());
        }
    }
    m_balance->setEnabled(active && !m_unlimited->isChecked());
    m_unlimited->setEnabled(active);
    m_setBalance->setEnabled(active);
    m_revoke->setEnabled(active);
}

void KeysDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void KeysDock::retranslateUi()
{
    setWindowTitle(tr("API keys"));
    m_view->setAccessibleName(tr("API keys"));
    m_mintBalance->setAccessibleName(tr("Starting balance"));
    m_balance->setAccessibleName(tr("Balance"));
    m_mintBox->setTitle(tr("New key"));
    m_labelCaption->setText(tr("Label"));
    m_label->setPlaceholderText(tr("Who or what uses it"));
    m_roleCaption->setText(tr("Role"));
    m_role->setItemText(0, tr("User (its own runs and credits)"));
    m_role->setItemText(1, tr("Owner (everything, including this console's areas)"));
    m_mintBalanceCaption->setText(tr("Credits"));
    m_mintBalance->setPlaceholderText(tr("Empty: 1000 for user keys, unlimited for owners"));
    m_mintUnlimited->setText(tr("Unlimited"));
    m_mint->setText(tr("Mint key"));
    m_secret->setTexts(tr("The new key"), tr("Copy the key now. It is shown only this once; "
                                             "Pilothouse keeps only its hash."));
    m_keyBox->setTitle(tr("Selected key"));
    m_balanceCaption->setText(tr("Balance"));
    m_balance->setPlaceholderText(tr("Credits"));
    m_unlimited->setText(tr("Unlimited"));
    m_setBalance->setText(tr("Set balance"));
    m_revoke->setText(tr("Revoke (Del)"));
    m_model->retranslate();
    m_profiles->retranslateUi();
    m_grants->retranslateUi();
    showCurrent();
}

} // namespace ph::ui
