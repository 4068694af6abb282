#include "ToolsModel.h"
#include "common/DateText.h"

#include <QDateTime>
#include <QLocale>

namespace ph::ui {

namespace {
bool sameTool(const cloud::SavedTool &a, const cloud::SavedTool &b)
{
    return a.id == b.id && a.updatedAt == b.updatedAt && a.kind == b.kind &&
           a.description == b.description && a.parameters == b.parameters && a.steps == b.steps &&
           a.code == b.code && a.url == b.url;
}
} // namespace

ToolsModel::ToolsModel(cloud::LibraryRepository &library, QString keyId, QObject *parent)
    : RowTableModel(
          ColumnCount, [](const cloud::SavedTool &r) { return r.name; }, parent)
    , m_library(library)
    , m_keyId(std::move(keyId))
{
    if (!m_keyId.isEmpty())
        m_rows = m_library.tools(m_keyId);
    // The id of a removed tool is its name (the row is gone); refresh() sorts it out.
    connect(&m_library, &cloud::LibraryRepository::toolsChanged, this, &ToolsModel::refresh);
}

void ToolsModel::setKeyId(const QString &keyId)
{
    if (keyId == m_keyId)
        return;
    beginResetModel();
    m_keyId = keyId;
    m_rows = m_keyId.isEmpty() ? QList<cloud::SavedTool>() : m_library.tools(m_keyId);
    endResetModel();
}

void ToolsModel::refresh()
{
    const QList<cloud::SavedTool> fresh =
        m_keyId.isEmpty() ? QList<cloud::SavedTool>() : m_library.tools(m_keyId);
    // Gone first, bottom up.
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        const bool kept = std::any_of(fresh.cbegin(), fresh.cend(),
                                      [&](const auto &t) { return t.id == m_rows.at(i).id; });
        if (!kept) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
    }
    // Both lists are by name now and what is left is a subsequence of `fresh`: walk
    // them together, inserting the new and updating the changed.
    for (int i = 0; i < fresh.size(); ++i) {
        if (i < m_rows.size() && m_rows.at(i).id == fresh.at(i).id) {
            if (!sameTool(m_rows.at(i), fresh.at(i))) {
                m_rows[i] = fresh.at(i);
                Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
            }
            continue;
        }
        beginInsertRows({}, i, i);
        m_rows.insert(i, fresh.at(i));
        endInsertRows();
    }
}

QVariant ToolsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const cloud::SavedTool &t = m_rows.at(index.row());
    if (role == Qt::UserRole)
        return t.name;
    if (role == Qt::ToolTipRole && index.column() == Name)
        return tr("Called as user_%1 on the browser bridge").arg(t.name);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name:
        return t.name;
    case Kind:
        return t.kind == QLatin1String("javascript") ? tr("JavaScript") : tr("Steps");
    case Description:
        return t.description.simplified();
    case Parameters:
        return t.parameters.value(QStringLiteral("properties"))
            .toObject()
            .keys()
            .join(QStringLiteral(", "));
    case Updated:
        return role == Qt::ToolTipRole ? fullDateTime(t.updatedAt) : shortDateTime(t.updatedAt);
    default:
        return {};
    }
}

QVariant ToolsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Kind:
        return tr("Kind");
    case Description:
        return tr("Description");
    case Parameters:
        return tr("Parameters");
    case Updated:
        return tr("Updated");
    default:
        return {};
    }
}

} // namespace ph::ui
