#pragma once

#include <QIcon>
#include <QList>

namespace ph::ui {

// The console's action icons. Each is the desktop theme's icon of its freedesktop name
// when the theme has one, else the bundled SVG (resources/icons/actions) drawn in the
// palette's text colour at paint time, so it follows a light or dark palette live.
enum class Icon {
    Add,
    Apply,
    Copy,
    Delete,
    Discard,
    Done,
    Find,
    Open,
    Pause,
    Quit,
    Refresh,
    Revert,
    Rotate,
    Run,
    Save,
    Send,
    Stop,
    About,
    Clear,
};

QIcon icon(Icon which);
// The freedesktop icon name looked up in the theme (and the bundled file's base name).
QString iconName(Icon which);
QList<Icon> allIcons();

} // namespace ph::ui
