#pragma once

class QWidget;

namespace ph::ui {

// Makes each label of every QFormLayout under `root` the buddy of its row's field (the
// field itself, or the first control that takes focus in a row that is a layout), where
// it has none: screen readers name the field by its label (QAccessible), and the
// label's mnemonic, if any, moves the focus to it. MainWindow calls it once the panels
// are built; a panel's own accessibleName on a control wins over the label.
void labelFormFields(QWidget *root);

} // namespace ph::ui
