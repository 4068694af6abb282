#pragma once

#include "common/ConsoleServices.h"

#include <QGroupBox>

class QLabel;
class QPushButton;
class QTableView;

namespace ph::ui {

class EmptyState;
class ProfilesModel;

// The keys' browser profiles (issue 30; in the API keys panel, since a profile belongs
// to a key): name, key, last use, size on disk, whether a session has it open. Delete
// asks first; the service refuses a profile in use, and its message is shown.
class ProfilesPanel : public QGroupBox
{
    Q_OBJECT
public:
    explicit ProfilesPanel(const ConsoleServices &services, QWidget *parent = nullptr);

    ProfilesModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QPushButton *deleteButton() const { return m_delete; }
    QLabel *messageLabel() const { return m_message; }
    // Selects a profile of a key; false when there is none by that name.
    bool select(const QString &keyId, const QString &name);

    // Asks, then deletes the selected profile; true when it was deleted.
    bool deleteSelected();
    void retranslateUi();

private:
    void showMessage(const QString &text, bool error);
    void updateButtons();

    ConsoleServices m_services;
    ProfilesModel *m_model;
    QTableView *m_view;
    EmptyState *m_empty;
    QPushButton *m_delete;
    QLabel *m_message;
};

} // namespace ph::ui
