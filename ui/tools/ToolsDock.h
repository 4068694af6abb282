#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace ph {
class DomainError;
namespace http {}
} // namespace ph

namespace ph::ui {

class JsonEdit;
class JsonView;
class ToolsModel;

// The owner key's saved tools (docs/api/tools.md): the list, an editor (name,
// description, parameters' JSON Schema, and steps JSON or JavaScript with its page),
// saved through the same checks as POST and PUT /tools; delete (Delete); and a test run
// with parameters, built as the bridge builds user_<name> calls, whose result shows
// when the run settles.
class ToolsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit ToolsDock(const ConsoleServices &services, QWidget *parent = nullptr);

    ToolsModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    // Selects a tool and loads it into the editor; false when it is not listed.
    bool select(const QString &name);
    // Clears the editor for a new tool.
    void startNew();
    QString editing() const { return m_editing; }

    QLineEdit *nameField() const { return m_name; }
    QLineEdit *descriptionField() const { return m_description; }
    QComboBox *kindCombo() const { return m_kind; }
    JsonEdit *parametersField() const { return m_parameters; }
    JsonEdit *stepsField() const { return m_steps; }
    QPlainTextEdit *codeField() const { return m_code; }
    QLineEdit *urlField() const { return m_url; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *deleteButton() const { return m_delete; }
    QLabel *errorLabel() const { return m_error; }
    JsonEdit *argumentsField() const { return m_arguments; }
    QPushButton *runButton() const { return m_run; }
    QLabel *runStatus() const { return m_runStatus; }
    JsonView *resultView() const { return m_result; }
    // The trajectory of the last test run ("" before one).
    QString testRunId() const { return m_runId; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void connectActions();
    void addShortcuts(QWidget *editor);
    void makeTestRun(QWidget *right);
    QWidget *makeEditor(QWidget *right);
    QString ownerKeyId() const;
    void followOwnerKey();
    void loadCurrent();
    void save();
    void remove();
    void testRun();
    void showRun();
    void showError(const DomainError &error);
    void updateButtons();

    ConsoleServices m_services;
    ToolsModel *m_model;
    QTableView *m_view;
    QPushButton *m_new;
    QPushButton *m_delete;
    QLabel *m_nameCaption;
    QLabel *m_descriptionCaption;
    QLabel *m_kindCaption;
    QLabel *m_parametersCaption;
    QLineEdit *m_name;
    QLineEdit *m_description;
    QComboBox *m_kind;
    JsonEdit *m_parameters;
    JsonEdit *m_steps;
    QPlainTextEdit *m_code;
    QLineEdit *m_url;
    QLabel *m_stepsCaption;
    QLabel *m_codeCaption;
    QLabel *m_urlCaption;
    QPushButton *m_save;
    QLabel *m_error;
    QLabel *m_argumentsCaption;
    JsonEdit *m_arguments;
    QPushButton *m_run;
    QLabel *m_runStatus;
    JsonView *m_result;
    QString m_editing; // the stored tool in the editor; "" for a new one
    bool m_dirty = false;
    bool m_loading = false;
    QString m_runId;
    QString m_runKeyId;
};

} // namespace ph::ui
