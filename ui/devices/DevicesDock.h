#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ph::ui {

class DevicesModel;
class EmptyState;

// Devices (issue 32): the browsers paired through the Pilothouse extension, every key's,
// with the key, extension version, connected or offline, last seen and tab count, live
// through DeviceService::deviceChanged. "Pair a device" shows a fresh code for a chosen
// key (DeviceService::pair, as POST /devices/pair); Revoke asks first, then ends the
// device's token and connection (as DELETE /devices/{id}). The extension's folder for
// "Load unpacked" is shown with Copy and Open, under a how-to.
class DevicesDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit DevicesDock(const ConsoleServices &services, QWidget *parent = nullptr);
    // The folder shown is `folder` (tests; the default is extensionFolder() of the binary's).
    DevicesDock(const ConsoleServices &services, const QString &folder, QWidget *parent = nullptr);

    DevicesModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QComboBox *keyChooser() const { return m_key; }
    QPushButton *pairButton() const { return m_pair; }
    QLabel *codeLabel() const { return m_code; }
    QLabel *expiryLabel() const { return m_expiry; }
    QPushButton *revokeButton() const { return m_revoke; }
    QLineEdit *folderField() const { return m_folder; }
    QPushButton *copyFolderButton() const { return m_copyFolder; }
    QPushButton *openFolderButton() const { return m_openFolder; }
    QLabel *howToLabel() const { return m_howTo; }
    QLabel *messageLabel() const { return m_message; }
    EmptyState *emptyState() const { return m_empty; }

    bool select(const QString &deviceId);
    // Chooses the key a new code is for; false when it is not an active key.
    bool chooseKey(const QString &keyId);
    // A fresh pairing code for the chosen key, shown with its expiry; the code, or empty.
    QString pairChosenKey();
    // Asks (unless `confirmed`), then revokes the selected device; true when revoked.
    bool revokeSelected(bool confirmed = false);

protected:
    void changeEvent(QEvent *event) override;

private:
    QWidget *makeFolderRow();
    QWidget *makePairRow();
    void retranslateUi();
    void reloadKeys();
    void updateButtons();
    void showMessage(const QString &text, bool error);

    ConsoleServices m_services;
    QString m_folderPath;
    DevicesModel *m_model;
    QLabel *m_howTo;
    QLabel *m_folderCaption;
    QLineEdit *m_folder;
    QPushButton *m_copyFolder;
    QPushButton *m_openFolder;
    QTableView *m_view;
    EmptyState *m_empty;
    QLabel *m_keyCaption;
    QComboBox *m_key;
    QPushButton *m_pair;
    QLabel *m_code;
    QLabel *m_expiry;
    QPushButton *m_revoke;
    QLabel *m_message;
    qint64 m_codeExpiresAt = 0;
};

} // namespace ph::ui
