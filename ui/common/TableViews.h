#pragma once

#include <QAction>
#include <QKeySequence>
#include <QTableView>

class QAbstractItemModel;

namespace ph::ui {

// A list of rows as the panels show them: whole rows selected one at a time, no row
// numbers, columns sized to their contents but `stretchColumn`, alternating colours.
QTableView *makeTableView(QAbstractItemModel *model, int stretchColumn, QWidget *parent);

// Delete on `view` (while it has the focus) runs `slot` of `owner`.
template <class Owner, class Slot> void onDeleteKey(QTableView *view, Owner *owner, Slot slot)
{
    auto *action = new QAction(owner);
    action->setShortcut(QKeySequence::Delete);
    action->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(action, &QAction::triggered, owner, slot);
    view->addAction(action);
}

} // namespace ph::ui
