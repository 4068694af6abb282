#include "sites/SiteConfig.h"

#include "sites/SiteConfigSchema.h"

#include <utility>

namespace ph::sites {

namespace {
const QJsonObject &defaults()
{
    static const QJsonObject d = SiteConfigSchema::defaults();
    return d;
}

// The stored value when it has the default's type (any string when there is no
// default), else the default.
QJsonValue pick(const QJsonObject &stored, const QJsonObject &defaults, const QString &name,
                QJsonValue::Type wanted)
{
    const QJsonValue fallback = defaults.value(name);
    const QJsonValue value = stored.value(name);
    const QJsonValue::Type type = fallback.isUndefined() ? wanted : fallback.type();
    return value.type() == type ? value : fallback;
}
} // namespace

SiteConfig::Section::Section(QJsonObject stored, QJsonObject defaults)
    : m_stored(std::move(stored))
    , m_defaults(std::move(defaults))
{}

bool SiteConfig::Section::boolean(const QString &name) const
{
    return pick(m_stored, m_defaults, name, QJsonValue::Bool).toBool();
}

int SiteConfig::Section::integer(const QString &name) const
{
    const QJsonValue fallback = m_defaults.value(name);
    return pick(m_stored, m_defaults, name, QJsonValue::Double).toInt(fallback.toInt());
}

QString SiteConfig::Section::string(const QString &name) const
{
    return pick(m_stored, m_defaults, name, QJsonValue::String).toString();
}

SiteConfig::Section SiteConfig::Section::section(const QString &name) const
{
    return sub<Section>(name);
}

QJsonObject SiteConfig::Section::effective() const
{
    QJsonObject out = m_defaults;
    for (auto it = m_stored.begin(); it != m_stored.end(); ++it) {
        const QJsonValue base = out.value(it.key());
        if (base.isObject() && it.value().isObject())
            out.insert(it.key(), section(it.key()).effective());
        else
            out.insert(it.key(), it.value());
    }
    return out;
}

SiteConfig::SiteConfig(QJsonObject stored)
    : m_stored(std::move(stored))
{}

SiteConfig::Section SiteConfig::root() const
{
    return {m_stored, defaults()};
}

QJsonObject SiteConfig::effective() const
{
    return SiteConfigSchema::effective(m_stored);
}

QString SiteConfig::businessType() const
{
    return root().string(QStringLiteral("businessType"));
}

QJsonArray SiteConfig::shortcuts() const
{
    return pick(m_stored, defaults(), QStringLiteral("shortcuts"), QJsonValue::Array).toArray();
}

QJsonArray SiteConfig::knowledge() const
{
    return pick(m_stored, defaults(), QStringLiteral("knowledge"), QJsonValue::Array).toArray();
}

#define PH_SECTION(Type, name)                                                                     \
    SiteConfig::Type SiteConfig::name() const                                                      \
    {                                                                                              \
        return root().sub<Type>(QStringLiteral(#name));                                            \
    }
PH_SECTION(Experience, experience)
PH_SECTION(Greeting, greeting)
PH_SECTION(Voice, voice)
PH_SECTION(AiAccess, aiAccess)
PH_SECTION(Analytics, analytics)
PH_SECTION(AgentDiscovery, agentDiscovery)
PH_SECTION(PageConfig, pageConfig)
#undef PH_SECTION

// Field accessors: one line each, the name is the schema's.
#define PH_FIELD(Class, Ret, name, kind)                                                           \
    Ret SiteConfig::Class::name() const                                                            \
    {                                                                                              \
        return kind(QStringLiteral(#name));                                                        \
    }

PH_FIELD(AiAccess, bool, enabled, boolean)
PH_FIELD(AiAccess, bool, browserDeepLinks, boolean)
PH_FIELD(AiAccess, bool, cloudBrowser, boolean)
PH_FIELD(AiAccess, bool, allowDelegatedHandoffs, boolean)
PH_FIELD(AiAccess, QString, confirmation, string)
PH_FIELD(AiAccess, QString, crossHost, string)
PH_FIELD(AiAccess, int, maxHops, integer)

bool SiteConfig::AiAccess::confirmationRequired() const
{
    return confirmation() == QLatin1String("required");
}

bool SiteConfig::AiAccess::crossHostAllowed() const
{
    return crossHost() == QLatin1String("allow");
}

PH_FIELD(Analytics, bool, enabled, boolean)
PH_FIELD(Analytics, bool, displayPersonalData, boolean)

PH_FIELD(AgentDiscovery, bool, enabled, boolean)
PH_FIELD(AgentDiscovery, QString, preferExecution, string)
PH_FIELD(AgentDiscovery, QString, siteManifestUrl, string)
PH_FIELD(AgentDiscovery, QString, agentCardUrl, string)
PH_FIELD(AgentDiscovery::Expose, bool, prompt, boolean)
PH_FIELD(AgentDiscovery::Expose, bool, shortcuts, boolean)
PH_FIELD(AgentDiscovery::Expose, bool, playbooks, boolean)
PH_FIELD(AgentDiscovery::DiscoverySurface, QString, mode, string)
PH_FIELD(AgentDiscovery::DiscoverySurface, QString, branding, string)
PH_FIELD(AgentDiscovery::DiscoverySurface, QString, hostSurface, string)
PH_FIELD(AgentDiscovery::DiscoverySurface, QString, actionReveal, string)
PH_FIELD(AgentDiscovery::DiscoverySurface, QString, beaconLabel, string)

SiteConfig::AgentDiscovery::Expose SiteConfig::AgentDiscovery::expose() const
{
    return sub<Expose>(QStringLiteral("expose"));
}

SiteConfig::AgentDiscovery::DiscoverySurface SiteConfig::AgentDiscovery::discoverySurface() const
{
    return sub<DiscoverySurface>(QStringLiteral("discoverySurface"));
}

PH_FIELD(Experience, QString, seedCallToAction, string)
PH_FIELD(Experience, QString, anchor, string)
PH_FIELD(Experience, QString, liveActionMode, string)
PH_FIELD(Experience, int, liveCardCount, integer)
PH_FIELD(Experience, QString, launcherLabel, string)

PH_FIELD(Greeting, QString, text, string)
PH_FIELD(Greeting, int, delay, integer)
PH_FIELD(Greeting, int, duration, integer)
PH_FIELD(Greeting, bool, disabled, boolean)

PH_FIELD(Voice, bool, enabled, boolean)
PH_FIELD(Voice, QString, language, string)
PH_FIELD(Voice, int, autoStopMs, integer)

PH_FIELD(PageConfig, bool, disableAutoScroll, boolean)
PH_FIELD(PageConfig, int, adaptiveSettleMaxWaitMs, integer)
#undef PH_FIELD

} // namespace ph::sites
