#include "ProfilesModel.h"

#include "common/DateText.h"

#include "core/ApiKeyService.h"
#include "sessions/SessionService.h"

#include <QLocale>
#include <QSet>

namespace ph::ui {

namespace {
bool sameRow(const KeyProfileRow &a, const KeyProfileRow &b)
{
    return a.keyLabel == b.keyLabel && a.lastUsedAt == b.lastUsedAt && a.bytes == b.bytes &&
           a.inUse == b.inUse;
}
} // namespace

ProfilesModel::ProfilesModel(sessions::SessionService &sessions, ApiKeyService &keys,
                             QObject *parent)
    : RowTableModel(
          ColumnCount, [](const KeyProfileRow &r) { return r.id(); }, parent)
    , m_sessions(sessions)
    , m_keys(keys)
{
    m_rows = load();
    // A profile is made and opened as a session starts, sealed back (its size, no longer
    // in use) as it ends, and deleted by the API or the console.
    connect(&m_sessions, &sessions::SessionService::sessionStarted, this, &ProfilesModel::refresh);
    connect(&m_sessions, &sessions::SessionService::sessionEnded, this, &ProfilesModel::refresh);
    connect(&m_sessions, &sessions::SessionService::profilesChanged, this, &ProfilesModel::refresh);
}

QList<KeyProfileRow> ProfilesModel::load() const
{
    QList<KeyProfileRow> rows;
    for (const sessions::ProfileInfo &p : m_sessions.allProfiles()) {
        const auto key = m_keys.lookup(p.keyId);
        rows.append({p.keyId, key ? key->key.label : p.keyId, p.name, p.createdAt, p.lastUsedAt,
                     p.bytes, p.inUse});
    }
    return rows;
}

void ProfilesModel::refresh()
{
    const QList<KeyProfileRow> fresh = load();
    QSet<QString> present;
    for (const KeyProfileRow &r : fresh) {
        present.insert(r.id());
        const int row = rowOf(r.id());
        if (row < 0 || !sameRow(m_rows.at(row), r))
            place(r.id(), r, true);
    }
    QStringList gone;
    for (const KeyProfileRow &r : std::as_const(m_rows)) {
        if (!present.contains(r.id()))
            gone << r.id();
    }
    for (const QString &id : std::as_const(gone))
        place(id, std::nullopt, false);
}

QVariant ProfilesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const KeyProfileRow &r = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return r.id();
    if (role == Qt::ToolTipRole && index.column() == Key)
        return r.keyId;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name:
        return r.name;
    case Key:
        return r.keyLabel;
    case LastUsed:
        return r.lastUsedAt.isValid() ? dateCell(r.lastUsedAt.toMSecsSinceEpoch(), role)
                                      : QVariant(tr("never"));
    case Size:
        return QLocale().formattedDataSize(r.bytes);
    case InUse:
        return r.inUse ? tr("in use") : QString();
    default:
        return {};
    }
}

QVariant ProfilesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Profile");
    case Key:
        return tr("Key");
    case LastUsed:
        return tr("Last used");
    case Size:
        return tr("Size");
    case InUse:
        return tr("In use");
    default:
        return {};
    }
}

} // namespace ph::ui
