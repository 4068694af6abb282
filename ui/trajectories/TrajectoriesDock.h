#pragma once

#include "common/ConsoleServices.h"

#include <QDockWidget>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace ph {}

namespace ph::ui {

class EmptyState;
class JsonView;
class TrajectoriesModel;

// Every run: a filterable list (status, text; Ctrl+F) that updates live, and the
// selected run's phases and steps, result and warnings; the selected step's arguments
// and result JSON. Actions: cancel a running one, answer a waiting one's questions and
// continue it, copy its id, copy the request that started it as curl (the key as
// $PILOTHOUSE_API_KEY), open its recording.
class TrajectoriesDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit TrajectoriesDock(const ConsoleServices &services, QWidget *parent = nullptr);
    // How long typing in the filter field must pause before the list is filtered.
    static constexpr int kSearchPauseMs = 250;
    // Typing has not paused yet: the list is filtered when it does (tests wait on this).
    bool isSearchPending() const;

    TrajectoriesModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    // Selects a run in the list (and shows it); false when it is not listed.
    bool select(const QString &trajectoryId);
    // Lists the runs with `status` ("" for every status), the text filter cleared (the
    // Overview's runs chart opens the panel this way).
    void filterByStatus(const QString &status);
    QString statusFilter() const;
    QString currentId() const { return m_current; }
    // The question form's fields by question key (for tests and keyboard users).
    QLineEdit *answerField(const QString &key) const;
    QPushButton *continueButton() const { return m_continue; }
    QPushButton *cancelButton() const { return m_cancel; }
    JsonView *resultView() const { return m_result; }
    QTableWidget *stepsTable() const { return m_steps; }
    // The selected step's arguments and result (the step shown when a row is picked).
    JsonView *stepArgsView() const { return m_stepArgs; }
    JsonView *stepResultView() const { return m_stepResult; }
    void selectStep(int row);
    QPushButton *copyCurlButton() const { return m_copyCurl; }
    // The request that started the selected run as a curl command (empty: none).
    QString currentCurl() const;
    EmptyState *emptyState() const { return m_empty; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void connectActions();
    void addShortcuts();
    void makeDetail(QWidget *split);
    void applyFilter();
    void showCurrent();
    void scheduleDetail();
    void cancelCurrent();
    void continueCurrent();
    void showRecording();
    void showStep(int row);
    void updateEmptyText();

    ConsoleServices m_services;
    TrajectoriesModel *m_model;
    QComboBox *m_statusFilter;
    QLineEdit *m_search;
    QTableView *m_view;
    QLabel *m_heading;
    QLabel *m_problems;
    QPushButton *m_cancel;
    QPushButton *m_copy;
    QPushButton *m_recording;
    QPushButton *m_copyCurl;
    QTableWidget *m_steps;
    QTabWidget *m_detailTabs;
    JsonView *m_result;
    JsonView *m_stepArgs;
    JsonView *m_stepResult;
    QLabel *m_stepArgsCaption;
    QLabel *m_stepResultCaption;
    EmptyState *m_empty;
    QGroupBox *m_questionsBox;
    QFormLayout *m_questionsForm;
    QPushButton *m_continue;
    QTimer *m_detailTimer;
    QTimer *m_searchTimer;
    QString m_current;
    QList<QPair<QString, QLineEdit *>> m_answers;
};

} // namespace ph::ui
