#pragma once

#include <QString>

namespace ph::ui {

// A setting's name for people, in the console's language ("Navigation time limit" for
// pool.navigationTimeoutMs); the key itself for a setting without one.
QString settingLabel(const QString &key);
// Whether settingLabel() has a name of its own for `key` (tst_settingspanel checks all).
bool hasSettingLabel(const QString &key);

} // namespace ph::ui
