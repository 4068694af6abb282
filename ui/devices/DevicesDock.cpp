#include "DevicesDock.h"

#include "DevicesModel.h"
#include "ExtensionFolder.h"

#include "core/ApiKeyService.h"
#include "core/DomainError.h"
#include "devices/DeviceService.h"

#include "common/DateText.h"
#include "common/EmptyState.h"
#include "common/Icons.h"
#include "common/TableViews.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

namespace ph::ui {

namespace {
QString keyText(const ApiKey &key)
{
    return QStringLiteral("%1 (%2…)").arg(key.label, key.prefix);
}
} // namespace

DevicesDock::DevicesDock(const ConsoleServices &services, QWidget *parent)
    : DevicesDock(services, extensionFolder(QCoreApplication::applicationDirPath()), parent)
{}

DevicesDock::DevicesDock(const ConsoleServices &services, const QString &folder, QWidget *parent)
    : QDockWidget(parent)
    , m_services(services)
    , m_folderPath(folder)
{
    setObjectName(QStringLiteral("devicesDock"));
    m_model =
        new DevicesModel(services.devices, services.keyService, services.operatorPrincipal(), this);
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    m_howTo = new QLabel(box);
    m_howTo->setWordWrap(true);
    m_howTo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_howTo);
    layout->addWidget(makeFolderRow());
    m_view = makeTableView(m_model, DevicesModel::Name, box);
    m_view->setMinimumHeight(80);
    m_empty = new EmptyState(m_view);
    layout->addWidget(m_view, 1);
    layout->addWidget(makePairRow());
    m_message = new QLabel(box);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_revoke = new QPushButton(icon(Icon::Delete), QString(), box);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_message, 1);
    bottom->addWidget(m_revoke);
    layout->addLayout(bottom);
    setWidget(box);

    onDeleteKey(m_view, this, [this] { revokeSelected(); });
    connect(m_revoke, &QPushButton::clicked, this, [this] { revokeSelected(); });
    connect(m_pair, &QPushButton::clicked, this, [this] { pairChosenKey(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DevicesDock::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &DevicesDock::updateButtons);
    connect(&services.keyService, &ApiKeyService::keyChanged, this, [this](const QString &id) {
        // Fired for every use of a key too: the list is read again only when it moved.
        const auto key = m_services.keyService.lookup(id);
        const int at = m_key->findData(id);
        const bool shown = key && key->key.isActive();
        if (shown == (at >= 0) && (!shown || m_key->itemText(at) == keyText(key->key)))
            return;
        reloadKeys();
    });
    connect(&services.devices, &devices::DeviceService::pairingsWithdrawn, this, [this] {
        m_code->clear();
        m_codeExpiresAt = 0;
        retranslateUi();
        showMessage(tr("Too many wrong pairing codes were tried: every pending code was "
                       "withdrawn. Pair again."),
                    true);
    });
    reloadKeys();
    retranslateUi();
}

QWidget *DevicesDock::makeFolderRow()
{
    auto *row = new QWidget(this);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_folderCaption = new QLabel(row);
    m_folder = new QLineEdit(m_folderPath, row);
    m_folder->setReadOnly(true);
    m_folderCaption->setBuddy(m_folder);
    m_copyFolder = new QPushButton(icon(Icon::Copy), QString(), row);
    m_openFolder = new QPushButton(icon(Icon::Open), QString(), row);
    m_copyFolder->setEnabled(!m_folderPath.isEmpty());
    m_openFolder->setEnabled(!m_folderPath.isEmpty());
    layout->addWidget(m_folderCaption);
    layout->addWidget(m_folder, 1);
    layout->addWidget(m_copyFolder);
    layout->addWidget(m_openFolder);
    connect(m_copyFolder, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_folderPath); });
    connect(m_openFolder, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_folderPath)); });
    return row;
}

QWidget *DevicesDock::makePairRow()
{
    auto *row = new QWidget(this);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_keyCaption = new QLabel(row);
    m_key = new QComboBox(row);
    m_keyCaption->setBuddy(m_key);
    m_pair = new QPushButton(icon(Icon::Add), QString(), row);
    m_code = new QLabel(row);
    QFont big = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_code->setFont(big);
    m_code->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_expiry = new QLabel(row);
    m_expiry->setWordWrap(true);
    layout->addWidget(m_keyCaption);
    layout->addWidget(m_key);
    layout->addWidget(m_pair);
    layout->addWidget(m_code);
    layout->addWidget(m_expiry, 1);
    return row;
}

void DevicesDock::reloadKeys()
{
    const QString chosen = m_key->count() > 0 ? m_key->currentData().toString()
                                              : m_services.keyService.activeOwnerId();
    m_key->clear();
    for (const ApiKeyService::KeyUsage &k : m_services.keyService.list()) {
        if (k.key.isActive())
            m_key->addItem(keyText(k.key), k.key.id);
    }
    const int at = m_key->findData(chosen);
    m_key->setCurrentIndex(at >= 0 ? at : 0);
    m_pair->setEnabled(m_key->count() > 0);
}

bool DevicesDock::chooseKey(const QString &keyId)
{
    const int at = m_key->findData(keyId);
    if (at < 0)
        return false;
    m_key->setCurrentIndex(at);
    return true;
}

QString DevicesDock::pairChosenKey()
{
    const QString keyId = m_key->currentData().toString();
    try {
        const devices::DeviceService::Pairing p =
            m_services.devices.pair(m_services.operatorPrincipal(), keyId);
        m_code->setText(p.code);
        m_codeExpiresAt = p.expiresAt;
        retranslateUi();
        m_message->clear();
        return p.code;
    } catch (const DomainError &e) {
        showMessage(tr("%1 (%2)").arg(e.message(), e.code()), true);
        return {};
    }
}

bool DevicesDock::select(const QString &deviceId)
{
    const int row = m_model->rowOf(deviceId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_model->index(row, 0));
    updateButtons();
    return true;
}

void DevicesDock::updateButtons()
{
    const QModelIndex current = m_view->currentIndex();
    m_revoke->setEnabled(current.isValid() && current.row() < m_model->rowCount());
}

void DevicesDock::showMessage(const QString &text, bool error)
{
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
    m_message->setText(text);
}

bool DevicesDock::revokeSelected(bool confirmed)
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid() || current.row() >= m_model->rowCount())
        return false;
    const DeviceListRow device = m_model->rowAt(current);
    const QString name = device.name.isEmpty() ? device.id : device.name;
    if (!confirmed) {
        QMessageBox box(QMessageBox::Warning, tr("Revoke device"),
                        tr("Revoke %1 (key %2)? Its token stops working at once and it is "
                           "disconnected; to use it again, pair it anew.")
                            .arg(name, device.keyLabel),
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("confirmRevokeDevice"));
        QPushButton *confirm = box.addButton(tr("Revoke device"), QMessageBox::DestructiveRole);
        QPushButton *cancel = box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(cancel);
        box.exec();
        if (box.clickedButton() != confirm)
            return false;
    }
    try {
        m_services.devices.revoke(m_services.operatorPrincipal(), device.id);
    } catch (const DomainError &e) {
        showMessage(tr("%1 (%2)").arg(e.message(), e.code()), true);
        return false;
    }
    showMessage(tr("Revoked %1.").arg(name), false);
    updateButtons();
    return true;
}

void DevicesDock::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDockWidget::changeEvent(event);
}

void DevicesDock::retranslateUi()
{
    setWindowTitle(tr("Devices"));
    m_howTo->setText(
        tr("A device is your own Chromium or Chrome with the Pilothouse extension: through "
           "/mcp, the key it is paired to can list its tabs and (only if you allow it for "
           "that key) run scripts in them, signed in as you. To add one, open "
           "chrome://extensions, turn on Developer mode, choose Load unpacked and pick the "
           "folder below. Then press Pair a device, open the extension's options, enter "
           "the address %1 and the code, and press Pair. Revoke a device here when you no "
           "longer want it reachable.")
            .arg(m_services.apiAddress()));
    m_folderCaption->setText(tr("Extension folder:"));
    if (m_folderPath.isEmpty())
        m_folder->setPlaceholderText(tr("not found beside this program; see docs/api/devices.md"));
    m_copyFolder->setText(tr("Copy path"));
    m_openFolder->setText(tr("Open folder"));
    m_view->setAccessibleName(tr("Devices"));
    m_empty->setText(tr("No device is paired yet. Load the extension, then press Pair a device."));
    m_keyCaption->setText(tr("For key:"));
    m_pair->setText(tr("Pair a device"));
    m_code->setAccessibleName(tr("Pairing code"));
    m_expiry->setText(m_codeExpiresAt > 0
                          ? tr("Valid once, until %1.").arg(shortDateTime(m_codeExpiresAt))
                          : QString());
    m_revoke->setText(tr("Revoke device"));
    m_revoke->setAccessibleName(tr("Revoke device"));
    m_model->retranslate();
    updateButtons();
}

} // namespace ph::ui
