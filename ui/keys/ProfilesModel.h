#pragma once

#include "common/RowTableModel.h"

#include <QDateTime>

namespace ph {
class ApiKeyService;
namespace sessions {
class SessionService;
}
} // namespace ph

namespace ph::ui {

// One key's named browser profile (GET /sessions/profiles), with the key's label.
struct KeyProfileRow
{
    QString keyId;
    QString keyLabel;
    QString name;
    QDateTime createdAt;
    QDateTime lastUsedAt;
    qint64 bytes = 0;
    bool inUse = false;
    QString id() const { return keyId + QLatin1Char('/') + name; }
};

// Every key's browser profiles (issue 30): name, key, last used, size, in use. Live
// through SessionService's signals (a session opening or closing a profile changes its
// "in use", last use and size; profilesChanged: one was deleted): rows update in place,
// new ones go on top, deleted ones go.
class ProfilesModel : public RowTableModel<KeyProfileRow>
{
    Q_OBJECT
public:
    enum Column { Name, Key, LastUsed, Size, InUse, ColumnCount };

    ProfilesModel(sessions::SessionService &sessions, ApiKeyService &keys,
                  QObject *parent = nullptr);

    // Re-reads the profiles of every key.
    void refresh();

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<KeyProfileRow> load() const;

    sessions::SessionService &m_sessions;
    ApiKeyService &m_keys;
};

} // namespace ph::ui
