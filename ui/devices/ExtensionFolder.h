#pragma once

#include <QString>

namespace ph::ui {

// Where the device extension (resources/extension) lies for Chromium's "Load unpacked",
// seen from the folder of the running binary (`binaryDir`): the installed copy,
// <prefix>/share/pilothouse/extension beside <prefix>/bin (the .deb: /usr/share/…), else
// the build tree's, build/extension beside build/bin. The first that holds a
// manifest.json, as a clean absolute path; empty when neither does.
QString extensionFolder(const QString &binaryDir);

} // namespace ph::ui
