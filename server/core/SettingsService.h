#pragma once

#include "core/Settings.h"

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace ph {

class Store;

// One setting to change: its key and the new value (typed as the setting's definition
// says: a number, a boolean or a string).
struct SettingChange
{
    QString key;
    QJsonValue value;
};
using SettingsPatch = QList<SettingChange>;

// Reading and changing the service's settings (docs/decisions.md, "Domain services").
// GET/PATCH /settings (sys::SystemController) and the console's settings panel both
// call it. A patch is applied all or nothing.
class SettingsService
{
public:
    // A setting as a reader may see it: secrets only as whether they are set.
    struct Entry
    {
        const Settings::Definition *definition;
        QJsonValue shown;
    };

    SettingsService(Settings &settings, Store &store);

    // Every setting, in the definitions' order.
    QList<Entry> list() const;
    // Validates every change first: an unknown key is 400 UNKNOWN_SETTING, a bad value
    // 400 INVALID_FIELD, each naming the key; nothing is stored then. Otherwise stores
    // them all in one transaction. Returns the keys whose stored value does not take
    // effect yet because a --set given at start wins until the next start.
    QStringList apply(const SettingsPatch &patch);

private:
    Settings &m_settings;
    Store &m_store;
};

} // namespace ph
