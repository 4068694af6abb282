#include "Accessibility.h"

#include <QFormLayout>
#include <QLabel>
#include <QWidget>

namespace ph::ui {

namespace {
QWidget *firstControl(QLayoutItem *item)
{
    if (!item)
        return nullptr;
    if (QWidget *w = item->widget())
        return (w->focusPolicy() & Qt::TabFocus) ? w : nullptr;
    if (QLayout *layout = item->layout()) {
        for (int i = 0; i < layout->count(); ++i) {
            if (QWidget *w = firstControl(layout->itemAt(i)))
                return w;
        }
    }
    return nullptr;
}
} // namespace

void labelFormFields(QWidget *root)
{
    for (QFormLayout *form : root->findChildren<QFormLayout *>()) {
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem *labelItem = form->itemAt(row, QFormLayout::LabelRole);
            auto *label = labelItem ? qobject_cast<QLabel *>(labelItem->widget()) : nullptr;
            if (!label || label->buddy())
                continue;
            if (QWidget *field = firstControl(form->itemAt(row, QFormLayout::FieldRole)))
                label->setBuddy(field);
        }
    }
}

} // namespace ph::ui
