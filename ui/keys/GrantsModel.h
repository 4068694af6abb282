#pragma once

#include "common/RowTableModel.h"

namespace ph {
class ApiKeyService;
namespace oauth {
class OAuthService;
struct Grant;
} // namespace oauth
} // namespace ph

namespace ph::ui {

// One OAuth grant (GET /oauth/grants): an MCP client acting as an API key.
struct GrantRow
{
    QString id;
    QString clientName;
    QString keyLabel;
    QString resource;
    qint64 createdAt = 0;
    qint64 lastUsedAt = 0; // 0: never
    bool active = true;
};

// The OAuth grants of MCP clients (issue 32): client, the key it acts as, endpoint,
// created, last used, active or revoked. Live through OAuthService::grantChanged (a
// consent, a first use in a while, a revocation by the console, the API or a reused
// refresh token).
class GrantsModel : public RowTableModel<GrantRow>
{
    Q_OBJECT
public:
    enum Column { Client, Key, Endpoint, Created, LastUsed, Status, ColumnCount };

    GrantsModel(oauth::OAuthService &oauth, ApiKeyService &keys, QObject *parent = nullptr);

    void refresh();

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<GrantRow> load() const;

    oauth::OAuthService &m_oauth;
    ApiKeyService &m_keys;
};

} // namespace ph::ui
