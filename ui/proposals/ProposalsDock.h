#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableView;

namespace ph {}

namespace ph::ui {

class JsonView;
class ProposalsModel;

// Configuration proposals from the owner's AI, for review in under a minute: title,
// description, who and when; what changes (path by path), the current and the proposed
// configuration side by side, the paths the proposal could not keep; Apply (validated
// again against the current configuration) or Discard. The filter shows the history.
class ProposalsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit ProposalsDock(const ConsoleServices &services, QWidget *parent = nullptr);

    ProposalsModel *model() const { return m_model; }
    QComboBox *statusFilter() const { return m_filter; }
    bool select(const QString &changeId);
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *discardButton() const { return m_discard; }
    QListWidget *changedPaths() const { return m_changes; }
    QLabel *messageLabel() const { return m_message; }
    JsonView *proposedView() const { return m_proposed; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showCurrent();
    void decide(bool apply);

    ConsoleServices m_services;
    ProposalsModel *m_model;
    QComboBox *m_filter;
    QTableView *m_view;
    QLabel *m_heading;
    QLabel *m_meta;
    QLabel *m_description;
    QListWidget *m_changes;
    QLabel *m_dropped;
    JsonView *m_currentView;
    JsonView *m_proposed;
    QLineEdit *m_note;
    QPushButton *m_apply;
    QPushButton *m_discard;
    QLabel *m_message;
    QLabel *m_currentCaption;
    QLabel *m_proposedCaption;
    QString m_current;
};

} // namespace ph::ui
