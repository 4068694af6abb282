#include "TableViews.h"

#include <QHeaderView>

namespace ph::ui {

QTableView *makeTableView(QAbstractItemModel *model, int stretchColumn, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    view->horizontalHeader()->setMinimumSectionSize(60);
    view->setWordWrap(false);
    view->setAlternatingRowColors(true);
    return view;
}

} // namespace ph::ui
