#include "SettingsService.h"

#include "core/DomainError.h"
#include "core/Store.h"

namespace ph {

SettingsService::SettingsService(Settings &settings, Store &store)
    : m_settings(settings)
    , m_store(store)
{}

QList<SettingsService::Entry> SettingsService::list() const
{
    QList<Entry> out;
    for (const Settings::Definition &d : Settings::definitions())
        out.append({&d, Settings::masked(d, m_settings.value(d.key))});
    return out;
}

QStringList SettingsService::apply(const SettingsPatch &patch)
{
    // Everything is checked before anything is stored: unknown keys first, then values.
    for (const SettingChange &c : patch) {
        if (!Settings::definition(c.key))
            throw DomainError(DomainError::Kind::Invalid, QStringLiteral("UNKNOWN_SETTING"),
                              QStringLiteral("%1 is not a setting").arg(c.key), c.key);
    }
    for (const SettingChange &c : patch) {
        const QString problem = m_settings.validate(c.key, c.value);
        if (!problem.isEmpty())
            throw DomainError::invalidField(c.key, problem.mid(c.key.size() + 1));
    }
    m_store.transaction([&] {
        for (const SettingChange &c : patch) {
            const QString problem = m_settings.set(c.key, c.value);
            if (!problem.isEmpty()) // checked above; a refusal here undoes the whole patch
                throw DomainError::invalidField(c.key, problem.mid(c.key.size() + 1));
        }
    });
    QStringList overridden;
    for (const SettingChange &c : patch) {
        if (m_settings.value(c.key) != c.value)
            overridden.append(c.key);
    }
    return overridden;
}

} // namespace ph
