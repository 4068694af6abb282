#pragma once

#include "common/ConsoleServices.h"

#include <QHash>
#include <QJsonObject>
#include <QStringList>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace ph {}

namespace ph::ui {

class JsonView;

// The owner's site configuration (siteConfig, docs/api/sites.md) of one site: a form
// per section (greeting, shortcuts, knowledge, AI access, agent discovery, page config,
// voice) and the whole draft as JSON, both editing the same draft. The draft is checked
// as it is typed by sites::checkSiteConfigPatch, the check POST /upsertSiteConfig makes
// (an error names the field's path, e.g. siteConfig.greeting.delay, and blocks Save).
// A section set to null (Clear, or `null` in the JSON) is cleared on Save and shows so:
// its tab and banner say it, its fields are disabled. Beside the draft, read-only, the
// effective configuration: the draft over the runtime-owned defaults, computed by
// SiteConfigSchema::effective as the runtime serves it. Save shows the changes first
// and stores through sites::upsertSiteConfig, as the API does.
class SiteConfigEditor : public QWidget
{
    Q_OBJECT
public:
    explicit SiteConfigEditor(const ConsoleServices &services, QWidget *parent = nullptr);

    // Loads the stored configuration of `siteId` (none: an empty, disabled editor).
    void setSiteId(const QString &siteId);
    QString siteId() const { return m_siteId; }
    // Reads the stored configuration again, dropping the draft.
    void reload();

    // The section forms and the JSON page ("json"), each tab named by its section.
    QTabWidget *sections() const { return m_tabs; }
    QPlainTextEdit *jsonEdit() const { return m_json; }
    JsonView *effectiveView() const { return m_effective; }
    QLabel *errorLabel() const { return m_error; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *revertButton() const { return m_revert; }
    // The form widget of a field, by its path under siteConfig ("greeting.delay").
    QWidget *field(const QString &path) const { return m_fieldWidgets.value(path); }
    // A section's Clear toggle, and whether the section is cleared in the draft.
    QPushButton *clearButton(const QString &section) const { return m_clear.value(section); }
    bool isCleared(const QString &section) const;
    QTableWidget *shortcutsTable() const { return m_shortcuts; }
    QTableWidget *knowledgeTable() const { return m_knowledge; }

    // The draft as the JSON page shows it (a cleared section is null).
    QJsonObject draft() const { return m_draft; }
    // What Save sends as the upsertSiteConfig patch: changed sections, null for cleared.
    QJsonObject patch() const;
    // The path of the field the check refuses ("" when the draft is valid).
    QString errorPath() const { return m_errorPath; }
    bool isValid() const { return m_valid; }
    bool hasChanges() const { return !patch().isEmpty(); }
    // The changes between two configurations, one line per changed field, as the dialog
    // before Save lists them.
    static QStringList diff(const QJsonObject &before, const QJsonObject &after);
    // The lines of the last dialog before Save.
    QStringList lastDiff() const { return m_lastDiff; }

    // Shows the changes in a dialog and, when confirmed, stores the draft; true when
    // stored.
    bool save();
    void retranslateUi();

Q_SIGNALS:
    // After a save or a refused one, for the panel's message line.
    void message(const QString &text, bool error);

protected:
    void changeEvent(QEvent *event) override;

private:
    enum class Kind { Text, Url, Boolean, Number, Choice };
    struct Spec
    {
        QString section;
        QString path; // under the section, dots for nested objects
        Kind kind;
        QStringList choices = {};
        const char *label = nullptr;
        QString suffix = {};
    };
    struct Section
    {
        QString name;
        QWidget *page = nullptr;
        QWidget *form = nullptr;
        QLabel *banner = nullptr;
    };
    static const QList<Spec> &specs();
    void buildSection(const QString &name);
    void buildLists();
    QWidget *makeField(const Spec &spec, QWidget *parent);
    QJsonValue defaultAt(const Spec &spec) const;
    // Form → draft, and draft → form/JSON.
    void fromForm(const QString &section);
    void fromTable(const QString &section);
    void fromJson();
    void showDraft(bool json);
    void check();
    void onConfigChanged(const QString &siteId);
    QString sectionTitle(const QString &name) const;

    ConsoleServices m_services;
    QString m_siteId;
    QJsonObject m_stored;
    int m_version = 0;
    QJsonObject m_draft;
    QJsonObject m_merged;
    bool m_valid = true;
    bool m_updating = false;
    QString m_errorPath;
    QStringList m_lastDiff;

    QTabWidget *m_tabs;
    QLabel *m_heading;
    QList<Section> m_sections;
    QHash<QString, QWidget *> m_fieldWidgets;
    QHash<QString, QLabel *> m_fieldLabels;
    QHash<QString, QPushButton *> m_clear;
    QTableWidget *m_shortcuts = nullptr;
    QTableWidget *m_knowledge = nullptr;
    QHash<QString, QPushButton *> m_addRow;
    QHash<QString, QPushButton *> m_removeRow;
    QWidget *m_jsonPage;
    QLabel *m_jsonNote;
    QPlainTextEdit *m_json;
    QLabel *m_effectiveCaption;
    JsonView *m_effective;
    QLabel *m_error;
    QPushButton *m_save;
    QPushButton *m_revert;
};

} // namespace ph::ui
