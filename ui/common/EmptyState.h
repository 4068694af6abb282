#pragma once

#include <QLabel>

class QAbstractItemView;

namespace ph::ui {

// What a list shows while it has no rows: a centred hint over its viewport that says
// what will appear there and how to make some ("No runs yet — try: curl …"). Its text
// is selectable, so a command in it can be copied. Shown and hidden with the model's rows.
class EmptyState : public QLabel
{
    Q_OBJECT
public:
    explicit EmptyState(QAbstractItemView *view);

    // Whether the hint is up (the view's model has no rows).
    bool isShowing() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();

    QAbstractItemView *m_view;
};

} // namespace ph::ui
