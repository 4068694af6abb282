#pragma once

#include "core/Settings.h"

#include <QDockWidget>
#include <QJsonValue>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace ph {
class Service;
}

namespace ph::ui {

class SettingsModel;

// The service's settings as a form (the definitions GET /settings lists): every value
// editable, stored through the same checks as PATCH /settings (a refused value shows
// the typed error under its field and stays unchanged); the LLM API key write-only
// (only whether one is set shows); the listening address and data directory (set at
// start); and the console's language.
class SettingsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit SettingsDock(Service &service, QWidget *parent = nullptr);

    SettingsModel *model() const { return m_model; }
    // The editor of a setting: a QLineEdit (numbers, text, secrets) or a QCheckBox.
    QWidget *editor(const QString &key) const;
    QLineEdit *lineEdit(const QString &key) const;
    QCheckBox *checkBox(const QString &key) const;
    QLabel *errorLabel(const QString &key) const;
    // For secrets: "set" or "not set".
    QLabel *secretState(const QString &key) const;
    QPushButton *clearSecretButton(const QString &key) const;
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *revertButton() const { return m_revert; }
    QLabel *messageLabel() const { return m_message; }
    QLineEdit *addressField() const { return m_address; }
    QLineEdit *dataDirField() const { return m_dataDir; }
    QComboBox *languageCombo() const { return m_language; }
    // Shows the console's language (set elsewhere) without requesting it again.
    void showLanguage(const QString &language);

    // Stores every edited field (each through the PATCH /settings path); true when all
    // were accepted.
    bool apply();
    // Puts the stored values back into the fields.
    void revert();

Q_SIGNALS:
    // The language picked in the panel ("en", "de"); MainWindow installs it.
    void languageRequested(const QString &language);

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Field
    {
        const Settings::Definition *definition = nullptr;
        QLabel *caption = nullptr;
        QLineEdit *line = nullptr;
        QCheckBox *check = nullptr;
        QLabel *hint = nullptr;
        QLabel *error = nullptr;
        QLabel *secretState = nullptr;
        QPushButton *clearSecret = nullptr;
        bool clearRequested = false;
        QJsonValue baseline; // what the editor held when last loaded
    };

    void retranslateUi();
    const Field *field(const QString &key) const;
    void load(Field &field);
    QJsonValue editorValue(const Field &field) const;
    bool edited(const Field &field) const;
    QString groupTitle(const QString &prefix) const;

    Service &m_service;
    SettingsModel *m_model;
    QGroupBox *m_serviceBox;
    QLabel *m_addressCaption;
    QLabel *m_dataDirCaption;
    QLabel *m_languageCaption;
    QLineEdit *m_address;
    QLineEdit *m_dataDir;
    QComboBox *m_language;
    QList<QPair<QString, QGroupBox *>> m_groups;
    QList<Field> m_fields;
    QPushButton *m_apply;
    QPushButton *m_revert;
    QLabel *m_message;
};

} // namespace ph::ui
