#pragma once

#include "common/ConsoleServices.h"

#include <QGroupBox>

class QLabel;
class QPushButton;
class QTableView;

namespace ph::ui {

class EmptyState;
class GrantsModel;

// The OAuth grants of MCP clients (issue 32; in the API keys panel, since a grant acts as
// a key): client, key, endpoint, created, last used. Revoke asks first and ends the
// grant's tokens, as DELETE /oauth/grants/{grantId} does.
class GrantsPanel : public QGroupBox
{
    Q_OBJECT
public:
    explicit GrantsPanel(const ConsoleServices &services, QWidget *parent = nullptr);

    GrantsModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QPushButton *revokeButton() const { return m_revoke; }
    QLabel *messageLabel() const { return m_message; }
    bool select(const QString &grantId);
    // Asks (unless `confirmed`), then revokes the selected grant; true when revoked.
    bool revokeSelected(bool confirmed = false);
    void retranslateUi();

private:
    void updateButtons();

    ConsoleServices m_services;
    GrantsModel *m_model;
    QTableView *m_view;
    EmptyState *m_empty;
    QPushButton *m_revoke;
    QLabel *m_message;
};

} // namespace ph::ui
