#pragma once

#include "core/Settings.h"

#include "common/ConsoleServices.h"

#include <QDockWidget>
#include <QJsonValue>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QGridLayout;

namespace ph {}

namespace ph::ui {

class QuantityEdit;
class SettingsModel;

// The service's settings as a form (the definitions GET /settings lists), grouped by
// key prefix: each setting by its name for people (the key in its tooltip) with a
// widget that fits it: a spin box with its unit (bytes and durations in a unit of
// one's choice, written in the key's own unit), a toggle for a boolean, a URL field
// checked as one types. Every edit is checked as it is typed by the same
// Settings::validate PATCH /settings uses, and stored through SettingsService (a
// refused value shows the typed error under its field and stays unchanged). A setting
// that takes effect only after a restart (or only for new sessions) says so. A search
// box filters the settings by name and key. The LLM API key is write-only (only
// whether one is set shows); the listening address and data directory (set at start)
// and the console's language are shown on top.
class SettingsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit SettingsDock(const ConsoleServices &services, QWidget *parent = nullptr);

    SettingsModel *model() const { return m_model; }
    // The editor of a setting: a QuantityEdit (numbers), a QLineEdit (text, URLs,
    // secrets) or a QCheckBox (booleans).
    QWidget *editor(const QString &key) const;
    QuantityEdit *quantityEdit(const QString &key) const;
    QLineEdit *lineEdit(const QString &key) const;
    QCheckBox *checkBox(const QString &key) const;
    // The setting's name for people (its key in the tooltip).
    QLabel *caption(const QString &key) const;
    // "Needs a restart" and the like; nullptr for a setting that applies at once.
    QLabel *appliesLabel(const QString &key) const;
    // Whether the search leaves the setting shown.
    bool isListed(const QString &key) const;
    QLineEdit *searchField() const { return m_search; }
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
    // Filters the settings: those whose name (in the console's language) or key
    // contains `text`, ignoring case; all for an empty text.
    void filter(const QString &text);
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
        QGridLayout *grid = nullptr;
        QWidget *editorRow = nullptr;
        QuantityEdit *quantity = nullptr;
        QLineEdit *line = nullptr;
        QCheckBox *check = nullptr;
        QLabel *hint = nullptr;
        QLabel *error = nullptr;
        QLabel *applies = nullptr;
        QLabel *secretState = nullptr;
        QPushButton *clearSecret = nullptr;
        bool clearRequested = false;
        QJsonValue baseline; // what the editor held when last loaded
    };

    void retranslateUi();
    QWidget *makeServiceBox(QWidget *body);
    QWidget *makeFieldsArea(QWidget *body);
    Field makeField(const Settings::Definition &d, QGridLayout *grid);
    void connectActions();
    const Field *field(const QString &key) const;
    void load(Field &field);
    QJsonValue editorValue(const Field &field) const;
    bool edited(const Field &field) const;
    // Checks an edited field as typed (Settings::validate); true when it may be stored.
    bool check(Field &field);
    void updateApply();
    QString groupTitle(const QString &prefix) const;

    ConsoleServices m_services;
    SettingsModel *m_model;
    QGroupBox *m_serviceBox;
    QLabel *m_addressCaption;
    QLabel *m_dataDirCaption;
    QLabel *m_languageCaption;
    QLineEdit *m_address;
    QLineEdit *m_dataDir;
    QComboBox *m_language;
    QLineEdit *m_search;
    QList<QPair<QString, QGroupBox *>> m_groups;
    QList<Field> m_fields;
    QPushButton *m_apply;
    QPushButton *m_revert;
    QLabel *m_message;
};

} // namespace ph::ui
