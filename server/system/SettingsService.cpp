#include "SettingsService.h"

#include "core/DomainError.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QJsonObject>

namespace ph::sys {

SettingsService::SettingsService(Settings &settings)
    : m_settings(settings)
{}

void SettingsService::apply(const QJsonObject &values)
{
    // Every key and value is checked before anything is written.
    for (auto it = values.begin(); it != values.end(); ++it) {
        if (!Settings::definition(it.key()))
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_SETTING"),
                              QStringLiteral("%1 is not a setting").arg(it.key()), it.key());
        if (const QString error = m_settings.validate(it.key(), it.value()); !error.isEmpty())
            throw DomainError::invalidField(it.key(), error.mid(it.key().size() + 1));
    }
    m_settings.store().transaction([&] {
        for (auto it = values.begin(); it != values.end(); ++it) {
            if (const QString error = m_settings.set(it.key(), it.value()); !error.isEmpty())
                throw DomainError::invalidField(it.key(), error.mid(it.key().size() + 1));
        }
    });
}

} // namespace ph::sys
