#pragma once

#include <QDialog>

class QAction;
class QTableWidget;

namespace ph::ui {

// Help > Keyboard shortcuts: every action of the window that has a shortcut, read from
// the window itself (menus and each panel's actions), so the list cannot drift from
// what the keys do. Columns: what it does, the keys, where it works.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ShortcutsDialog(QWidget *window, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }

    // What an action with a shortcut does, in words: its text, else its "help" property
    // (a QT_TRANSLATE_NOOP in context "ph::ui::ShortcutsDialog"), else a name for the
    // standard key (Refresh, Find, Delete).
    static QString describe(const QAction *action);
    // Every enabled-or-not action under `window` that has a shortcut.
    static QList<QAction *> shortcutActions(QWidget *window);

private:
    QTableWidget *m_table;
};

} // namespace ph::ui
