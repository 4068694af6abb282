#pragma once

class QJsonObject;

namespace ph {
class Settings;
}

namespace ph::sys {

// Changing settings, for both front ends: PATCH /settings (SystemController) and the
// console's Settings panel.
class SettingsService
{
public:
    explicit SettingsService(Settings &settings);

    // Stores every {key: value} of `values`, or none: an unknown key is 400
    // UNKNOWN_SETTING naming it, a bad value 400 INVALID_FIELD naming its key, and then
    // no setting has changed. The values are written in one store transaction.
    void apply(const QJsonObject &values);

private:
    Settings &m_settings;
};

} // namespace ph::sys
