#include "EmptyState.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QEvent>

namespace ph::ui {

EmptyState::EmptyState(QAbstractItemView *view)
    : QLabel(view->viewport())
    , m_view(view)
{
    setObjectName(QStringLiteral("emptyState"));
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setTextFormat(Qt::PlainText);
    setMargin(16);
    setForegroundRole(QPalette::PlaceholderText);
    view->viewport()->installEventFilter(this);
    QAbstractItemModel *model = view->model();
    Q_ASSERT(model); // set the model first
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::modelReset, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::layoutChanged, this, &EmptyState::refresh);
    setGeometry(view->viewport()->rect());
    refresh();
}

bool EmptyState::isShowing() const
{
    return m_view->model() && m_view->model()->rowCount() == 0;
}

void EmptyState::refresh()
{
    setVisible(isShowing());
}

bool EmptyState::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        setGeometry(m_view->viewport()->rect());
    return QLabel::eventFilter(watched, event);
}

} // namespace ph::ui
