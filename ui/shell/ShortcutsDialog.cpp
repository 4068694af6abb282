#include "ShortcutsDialog.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ph::ui {

ShortcutsDialog::ShortcutsDialog(QWidget *window, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    auto *layout = new QVBoxLayout(this);
    m_table = new QTableWidget(0, 3, this);
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Keys"), tr("Where")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    for (QAction *a : shortcutActions(window)) {
        // Where it works: the panel that holds it, else everywhere in the window.
        QString where = tr("Everywhere");
        for (QObject *o = a->parent(); o; o = o->parent()) {
            if (auto *dock = qobject_cast<QDockWidget *>(o)) {
                where = dock->windowTitle();
                break;
            }
        }
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(describe(a)));
        m_table->setItem(row, 1, new QTableWidgetItem(keys.join(QStringLiteral(", "))));
        m_table->setItem(row, 2, new QTableWidgetItem(where));
    }
    layout->addWidget(m_table);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 520);
}

QList<QAction *> ShortcutsDialog::shortcutActions(QWidget *window)
{
    QList<QAction *> out;
    for (QAction *a : window->findChildren<QAction *>()) {
        if (!a->shortcut().isEmpty() && !out.contains(a))
            out.append(a);
    }
    return out;
}

QString ShortcutsDialog::describe(const QAction *action)
{
    QString text = action->text();
    text.remove(QLatin1Char('&'));
    if (!text.isEmpty())
        return text;
    const QByteArray help = action->property("help").toByteArray();
    if (!help.isEmpty())
        return QCoreApplication::translate("ph::ui::ShortcutsDialog", help.constData());
    const QKeySequence key = action->shortcut();
    if (key == QKeySequence(QKeySequence::Refresh))
        return tr("Reload the list");
    if (key == QKeySequence(QKeySequence::Find))
        return tr("Search the list");
    if (key == QKeySequence(QKeySequence::Save))
        return tr("Save the form");
    if (key == QKeySequence(QKeySequence::Delete))
        return tr("Cancel, revoke or delete the selected row");
    return {};
}

} // namespace ph::ui
