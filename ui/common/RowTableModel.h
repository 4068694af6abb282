#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace ph::ui {

// The table model every panel list shares: typed rows with an id, a fixed number of
// columns, and live changes applied where they happen (a changed row is updated in
// place, a new one goes on top, one that left the view is removed) — never a reset for
// a single change. Subclasses add data(), headerData() and how rows are loaded.
template <class Row> class RowTableModel : public QAbstractTableModel
{
public:
    const Row &rowAt(const QModelIndex &index) const { return m_rows.at(index.row()); }

    int rowOf(const QString &id) const
    {
        for (int i = 0; i < m_rows.size(); ++i) {
            if (m_idOf(m_rows.at(i)) == id)
                return i;
        }
        return -1;
    }

    // The row of `id`, fetching further pages (a paged model) until it is listed or there
    // are none left; -1 when it is not there.
    int fetchRowOf(const QString &id)
    {
        int row = rowOf(id);
        while (row < 0 && canFetchMore({})) {
            fetchMore({});
            row = rowOf(id);
        }
        return row;
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }

    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : m_columns;
    }

    // Header texts (and translated cells) follow the language.
    void retranslate()
    {
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, m_columns - 1);
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, m_columns - 1));
    }

protected:
    RowTableModel(int columns, std::function<QString(const Row &)> idOf, QObject *parent)
        : QAbstractTableModel(parent)
        , m_columns(columns)
        , m_idOf(std::move(idOf))
    {}

    // `fresh`: the row with `id` as the store has it now (nullopt: gone); `belongs`:
    // whether it is in this view (filters).
    void place(const QString &id, const std::optional<Row> &fresh, bool belongs)
    {
        const int row = rowOf(id);
        if (row >= 0) {
            if (!fresh || !belongs) {
                beginRemoveRows({}, row, row);
                m_rows.removeAt(row);
                endRemoveRows();
                return;
            }
            m_rows[row] = *fresh;
            Q_EMIT dataChanged(index(row, 0), index(row, m_columns - 1));
        } else if (fresh && belongs) {
            beginInsertRows({}, 0, 0);
            m_rows.prepend(*fresh);
            endInsertRows();
        }
    }

    // A new filter: the one reset a view needs.
    void resetRows(QList<Row> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }

    // The next page (fetchMore).
    void appendRows(const QList<Row> &more)
    {
        if (more.isEmpty())
            return;
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + more.size() - 1));
        m_rows.append(more);
        endInsertRows();
    }

    QList<Row> m_rows;

private:
    int m_columns;
    std::function<QString(const Row &)> m_idOf;
};

} // namespace ph::ui
