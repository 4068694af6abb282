#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace ph::sites {

// A read-only, typed view over a site's stored configuration (siteConfig). Every
// accessor answers the stored value when it has the type of the runtime-owned default
// and that default otherwise (an unset field, a wrong type). The defaults live in one
// place, SiteConfigSchema::defaults() (docs/api/sites.md#runtime-owned-defaults); no
// caller writes a default at the read. Accessors are named after the schema's fields:
//
//     SiteConfig(stored).aiAccess().maxHops()
class SiteConfig
{
public:
    // One object of the configuration: its stored values over its defaults.
    class Section
    {
    public:
        Section() = default;
        Section(QJsonObject stored, QJsonObject defaults);

        bool boolean(const QString &name) const;
        int integer(const QString &name) const;
        // A field without a default answers an empty string when unset.
        QString string(const QString &name) const;
        Section section(const QString &name) const;
        // The section's stored fields over its defaults, objects merged key by key.
        QJsonObject effective() const;
        // A nested object as a typed section.
        template <class T> T sub(const QString &name) const
        {
            return T(m_stored.value(name).toObject(), m_defaults.value(name).toObject());
        }

    private:
        QJsonObject m_stored;
        QJsonObject m_defaults;
    };

    class AiAccess : public Section
    {
    public:
        using Section::Section;
        bool enabled() const;
        bool browserDeepLinks() const;
        bool cloudBrowser() const;
        bool allowDelegatedHandoffs() const;
        QString confirmation() const; // "auto" | "required"
        bool confirmationRequired() const;
        QString crossHost() const; // "allow" | "same_host"
        bool crossHostAllowed() const;
        int maxHops() const;
    };

    class Analytics : public Section
    {
    public:
        using Section::Section;
        bool enabled() const;
        bool displayPersonalData() const;
    };

    class AgentDiscovery : public Section
    {
    public:
        class Expose : public Section
        {
        public:
            using Section::Section;
            bool prompt() const;
            bool shortcuts() const;
            bool playbooks() const;
        };
        class DiscoverySurface : public Section
        {
        public:
            using Section::Section;
            QString mode() const;
            QString branding() const;
            QString hostSurface() const;
            QString actionReveal() const;
            QString beaconLabel() const;
        };
        using Section::Section;
        bool enabled() const;
        QString preferExecution() const; // "cloud" | "browser" | "auto"
        Expose expose() const;
        QString siteManifestUrl() const;
        QString agentCardUrl() const;
        DiscoverySurface discoverySurface() const;
    };

    class Experience : public Section
    {
    public:
        using Section::Section;
        QString seedCallToAction() const;
        QString anchor() const;
        QString liveActionMode() const;
        int liveCardCount() const;
        QString launcherLabel() const;
    };

    class Greeting : public Section
    {
    public:
        using Section::Section;
        QString text() const;
        int delay() const;
        int duration() const;
        bool disabled() const;
    };

    class Voice : public Section
    {
    public:
        using Section::Section;
        bool enabled() const;
        QString language() const;
        int autoStopMs() const;
    };

    class PageConfig : public Section
    {
    public:
        using Section::Section;
        bool disableAutoScroll() const;
        int adaptiveSettleMaxWaitMs() const;
    };

    SiteConfig() = default;
    explicit SiteConfig(QJsonObject stored);

    // What the owner stored, as stored.
    const QJsonObject &stored() const { return m_stored; }
    // Stored fields over the defaults (SiteConfigSchema::effective).
    QJsonObject effective() const;

    QString businessType() const;
    QJsonArray shortcuts() const;
    QJsonArray knowledge() const;
    Experience experience() const;
    Greeting greeting() const;
    Voice voice() const;
    AiAccess aiAccess() const;
    Analytics analytics() const;
    AgentDiscovery agentDiscovery() const;
    PageConfig pageConfig() const;

private:
    Section root() const;

    QJsonObject m_stored;
};

} // namespace ph::sites
