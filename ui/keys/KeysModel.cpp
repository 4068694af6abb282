#include "KeysModel.h"

#include "common/DateText.h"

#include "core/ApiKeyService.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>

namespace ph::ui {

namespace {
bool sameRow(const KeyRow &a, const KeyRow &b)
{
    return a.key.label == b.key.label && a.key.role == b.key.role &&
           a.key.balanceMilli == b.key.balanceMilli && a.key.lastUsedAt == b.key.lastUsedAt &&
           a.key.revokedAt == b.key.revokedAt && a.usage.usedMilli == b.usage.usedMilli &&
           a.usage.requests == b.usage.requests;
}

QString credits(qint64 milli)
{
    return QLocale().toString(creditsFromMilli(milli), 'f', 3);
}

} // namespace

KeysModel::KeysModel(ApiKeyService &keys, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const KeyRow &r) { return r.key.id; }, parent)
    , m_keys(keys)
{
    for (const ApiKeyService::KeyUsage &k : m_keys.list())
        m_rows.append({k.key, k.usage});
    connect(&m_keys, &ApiKeyService::keyChanged, this, &KeysModel::update);
    connect(&m_keys, &ApiKeyService::creditsChanged, this, &KeysModel::update);
}

void KeysModel::update(const QString &id)
{
    const auto found = m_keys.lookup(id);
    if (!found)
        return; // keys are revoked, never deleted
    const KeyRow fresh{found->key, found->usage};
    const int row = rowOf(id);
    if (row >= 0) {
        if (!sameRow(m_rows.at(row), fresh)) {
            m_rows[row] = fresh;
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
        return;
    }
    const int at = int(m_rows.size());
    beginInsertRows({}, at, at);
    m_rows.append(fresh);
    endInsertRows();
}

void KeysModel::refresh()
{
    for (const ApiKeyService::KeyUsage &k : m_keys.list())
        update(k.key.id);
}

QVariant KeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const KeyRow &r = m_rows.at(index.row());
    const ApiKey &k = r.key;
    if (role == Qt::UserRole)
        return k.id;
    if (role == Qt::ForegroundRole) {
        if (k.revokedAt)
            return QColor(0x80, 0x80, 0x80);
        if (index.column() == Balance && k.balanceMilli && *k.balanceMilli <= 0)
            return QColor(0xc0, 0x39, 0x2b);
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == Label)
        return k.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Label:
        return k.label;
    case Role:
        return k.isOwner() ? tr("owner") : tr("user");
    case Prefix:
        return k.prefix.isEmpty() ? QString() : k.prefix + QStringLiteral("…");
    case State:
        return k.revokedAt ? tr("revoked %1").arg(shortDateTime(*k.revokedAt)) : tr("active");
    case Balance:
        return k.balanceMilli ? credits(*k.balanceMilli) : tr("unlimited");
    case CreditsUsed:
        return credits(r.usage.usedMilli);
    case Requests:
        return r.usage.requests;
    case Created:
        return dateCell(k.createdAt, role);
    case LastUsed:
        return k.lastUsedAt ? dateCell(*k.lastUsedAt, role) : QVariant(QString());
    default:
        return {};
    }
}

QVariant KeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Label:
        return tr("Label");
    case Role:
        return tr("Role");
    case Prefix:
        return tr("Prefix");
    case State:
        return tr("State");
    case Balance:
        return tr("Balance");
    case CreditsUsed:
        return tr("Credits used");
    case Requests:
        return tr("Billed requests");
    case Created:
        return tr("Created");
    case LastUsed:
        return tr("Last used");
    default:
        return {};
    }
}

} // namespace ph::ui
