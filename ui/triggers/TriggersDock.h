#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace ph {}

namespace ph::ui {

class EmptyState;
class TriggersModel;

// Trigger URLs: every trigger with its state and firings; create one for a saved tool,
// a past run or a prompt (owned by the owner key); the selected one's URL with a ready
// curl example, copy, revoke (Delete).
class TriggersDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit TriggersDock(const ConsoleServices &services, QWidget *parent = nullptr);

    TriggersModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QComboBox *kindCombo() const { return m_kind; }
    QComboBox *toolCombo() const { return m_tool; }
    QLineEdit *runField() const { return m_run; }
    QPlainTextEdit *promptField() const { return m_prompt; }
    QLineEdit *urlsField() const { return m_urls; }
    QLineEdit *labelField() const { return m_label; }
    QPushButton *createButton() const { return m_create; }
    QPushButton *revokeButton() const { return m_revoke; }
    QLineEdit *urlField() const { return m_url; }
    QPlainTextEdit *curlExample() const { return m_curl; }
    QLabel *errorLabel() const { return m_error; }
    // Reloads the saved tools the tool target offers.
    void reloadTools();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void create();
    void revoke();
    void showCurrent();
    QString ownerKeyId() const;

    ConsoleServices m_services;
    TriggersModel *m_model;
    QTableView *m_view;
    QLineEdit *m_label;
    QComboBox *m_kind;
    QStackedWidget *m_targets;
    QComboBox *m_tool;
    QLineEdit *m_run;
    QPlainTextEdit *m_prompt;
    QLineEdit *m_urls;
    QPushButton *m_create;
    QLabel *m_error;
    QLineEdit *m_url;
    QPlainTextEdit *m_curl;
    QPushButton *m_copy;
    QPushButton *m_revoke;
    QLabel *m_labelCaption;
    QLabel *m_kindCaption;
    QLabel *m_urlCaption;
    EmptyState *m_empty;
    QString m_current;
};

} // namespace ph::ui
