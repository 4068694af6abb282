#include "SiteCapabilities.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Store.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

namespace ph::a2w {

namespace {

QJsonObject schemaOf(const QJsonObject &properties, const QStringList &required)
{
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("object")},
                  {QStringLiteral("properties"), properties},
                  {QStringLiteral("additionalProperties"), false}};
    if (!required.isEmpty())
        o.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return o;
}

const QJsonObject kUrlProperty{
    {QStringLiteral("type"), QStringLiteral("string")},
    {QStringLiteral("description"),
     QStringLiteral("The page on this site to start on (an absolute URL of an allowed host).")}};

} // namespace

SiteCapabilities::SiteCapabilities(Store &store, sites::SiteRepository &sites)
    : m_store(store)
    , m_sites(sites)
{}

SiteTools SiteCapabilities::capabilities(const QString &url, const QString &host,
                                         const QString &siteId) const
{
    const qint64 now = m_store.clock().nowMs();
    std::optional<sites::SiteKey> key;
    QString field = QStringLiteral("url");
    if (!url.isEmpty()) {
        key = m_sites.usableKeyFor(url, now);
    } else if (!host.isEmpty()) {
        field = QStringLiteral("host");
        key = m_sites.usableKeyFor(QStringLiteral("https://%1/").arg(host), now);
    } else if (!siteId.isEmpty()) {
        field = QStringLiteral("siteId");
        for (const sites::SiteKey &k : m_sites.listKeys(siteId))
            if (k.isUsable(now) && !key)
                key = k;
    } else {
        throw DomainError::missingField(QStringLiteral("url"));
    }
    if (!key)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_NOT_ENABLED"),
                          QStringLiteral("%1 is not an enabled site (no active site key allows "
                                         "it)")
                              .arg(url.isEmpty() ? host.isEmpty() ? siteId : host : url),
                          field);
    SiteTools out = capabilitiesOfSite(key->siteId);
    if (!url.isEmpty())
        out.url = url;
    return out;
}

SiteTools SiteCapabilities::capabilitiesOfSite(const QString &siteId) const
{
    const std::optional<sites::Site> site = m_sites.findSite(siteId);
    const qint64 now = m_store.clock().nowMs();
    std::optional<sites::SiteKey> key;
    if (site)
        for (const sites::SiteKey &k : m_sites.listKeys(siteId))
            if (k.isUsable(now) && !key)
                key = k;
    if (!site || !key)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("SITE_NOT_ENABLED"),
                          QStringLiteral("no enabled site has this id"), QStringLiteral("siteId"));
    SiteTools out;
    out.siteId = site->id;
    out.siteName = site->name;
    out.config = sites::SiteConfigSchema::effective(m_sites.config(site->id).config);
    const QJsonObject ai = out.config.value(QStringLiteral("aiAccess")).toObject();
    const QJsonObject discovery = out.config.value(QStringLiteral("agentDiscovery")).toObject();
    if (!ai.value(QStringLiteral("enabled")).toBool())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("AI_ACCESS_DISABLED"),
                          QStringLiteral("the site does not accept runs of AI agents "
                                         "(aiAccess.enabled is off)"));
    if (!discovery.value(QStringLiteral("enabled")).toBool())
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("DISCOVERY_DISABLED"),
                          QStringLiteral("the site does not publish its capabilities "
                                         "(agentDiscovery.enabled is off)"));
    for (const QString &d : key->allowedDomains)
        if (!d.contains(u'*') && out.url.isEmpty())
            out.url = QStringLiteral("https://%1/").arg(d);

    const QJsonObject expose = discovery.value(QStringLiteral("expose")).toObject();
    if (expose.value(QStringLiteral("prompt")).toBool(true))
        out.tools.append(QJsonObject{
            {QStringLiteral("name"), QStringLiteral("run_task")},
            {QStringLiteral("title"), QStringLiteral("Do a task on %1").arg(site->name)},
            {QStringLiteral("description"),
             QStringLiteral("Start an A2W run on %1: a browser does the task on the site and "
                            "returns what it found.")
                 .arg(site->name)},
            {QStringLiteral("inputSchema"),
             schemaOf({{QStringLiteral("url"), kUrlProperty},
                       {QStringLiteral("prompt"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                    {QStringLiteral("minLength"), 1},
                                    {QStringLiteral("description"),
                                     QStringLiteral("What to do, in plain words.")}}}},
                      {QStringLiteral("url"), QStringLiteral("prompt")})}});
    for (const QJsonValue &v : out.config.value(QStringLiteral("shortcuts")).toArray()) {
        const QJsonObject s = v.toObject();
        const bool journey = s.value(QStringLiteral("kind")).toString() == QLatin1String("journey");
        if (!s.value(QStringLiteral("enabled")).toBool(true) ||
            !expose.value(journey ? QStringLiteral("playbooks") : QStringLiteral("shortcuts"))
                 .toBool(true))
            continue;
        QJsonObject properties{{QStringLiteral("url"), kUrlProperty}};
        const QString capability = s.value(QStringLiteral("capabilityId")).toString();
        if (!capability.isEmpty()) {
            // The owner's argsSchema when the entry declares one (A2W runs check args
            // against it), else any object.
            QJsonObject args = s.value(QStringLiteral("argsSchema")).toObject();
            if (args.isEmpty())
                args.insert(QStringLiteral("type"), QStringLiteral("object"));
            args.insert(QStringLiteral("description"),
                        QStringLiteral("Arguments of the capability %1.").arg(capability));
            properties.insert(QStringLiteral("args"), args);
        }
        const QString description = s.value(QStringLiteral("description")).toString();
        QJsonObject tool{
            {QStringLiteral("name"),
             (journey ? QStringLiteral("playbook_") : QStringLiteral("shortcut_")) +
                 s.value(QStringLiteral("id")).toString()},
            {QStringLiteral("title"), s.value(QStringLiteral("label")).toString()},
            {QStringLiteral("description"),
             description.isEmpty() ? s.value(QStringLiteral("label")).toString() : description},
            {QStringLiteral("inputSchema"),
             schemaOf(properties, s.value(QStringLiteral("url")).toString().isEmpty()
                                      ? QStringList{QStringLiteral("url")}
                                      : QStringList())}};
        QJsonObject meta{{QStringLiteral("kind"),
                          journey ? QStringLiteral("playbook") : QStringLiteral("shortcut")},
                         {QStringLiteral("id"), s.value(QStringLiteral("id"))}};
        if (!capability.isEmpty())
            meta.insert(QStringLiteral("capabilityId"), capability);
        if (s.contains(QStringLiteral("engagementKind")))
            meta.insert(QStringLiteral("engagementKind"),
                        s.value(QStringLiteral("engagementKind")));
        tool.insert(QStringLiteral("_meta"), QJsonObject{{QStringLiteral("pilothouse/a2w"), meta}});
        out.tools.append(tool);
    }
    return out;
}

CreateRequest SiteCapabilities::requestForTool(const SiteTools &site, const QString &tool,
                                               const QJsonObject &arguments) const
{
    for (const QJsonValue &v : site.tools) {
        const QJsonObject t = v.toObject();
        if (t.value(QStringLiteral("name")).toString() != tool)
            continue;
        QJsonObject body;
        const QJsonObject meta = t.value(QStringLiteral("_meta"))
                                     .toObject()
                                     .value(QStringLiteral("pilothouse/a2w"))
                                     .toObject();
        QString url = arguments.value(QStringLiteral("url")).toString();
        if (tool == QLatin1String("run_task")) {
            body.insert(QStringLiteral("prompt"), arguments.value(QStringLiteral("prompt")));
        } else {
            const QString id = meta.value(QStringLiteral("id")).toString();
            const bool playbook =
                meta.value(QStringLiteral("kind")).toString() == QLatin1String("playbook");
            body.insert(playbook ? QStringLiteral("playbookId") : QStringLiteral("shortcutId"), id);
            if (meta.contains(QStringLiteral("capabilityId")) &&
                arguments.contains(QStringLiteral("args"))) {
                body.insert(QStringLiteral("capabilityId"),
                            meta.value(QStringLiteral("capabilityId")));
                body.insert(QStringLiteral("args"), arguments.value(QStringLiteral("args")));
            }
            if (url.isEmpty())
                for (const QJsonValue &s : site.config.value(QStringLiteral("shortcuts")).toArray())
                    if (s.toObject().value(QStringLiteral("id")).toString() == id)
                        url = s.toObject().value(QStringLiteral("url")).toString();
        }
        body.insert(QStringLiteral("url"), url.isEmpty() ? site.url : url);
        body.insert(QStringLiteral("execution"),
                    QJsonObject{{QStringLiteral("mode"), QStringLiteral("cloud")}});
        return CreateRequest::fromJson(body);
    }
    throw DomainError(DomainError::Kind::NotFound, QStringLiteral("TOOL_NOT_FOUND"),
                      QStringLiteral("the site offers no tool %1").arg(tool),
                      QStringLiteral("name"));
}

QStringList SiteCapabilities::scopeItems(const QString &siteId) const
{
    QStringList known{QStringLiteral("*")};
    for (const QJsonValue &t : capabilitiesOfSite(siteId).tools) {
        const QJsonObject meta =
            t[QStringLiteral("_meta")][QStringLiteral("pilothouse/a2w")].toObject();
        known << meta.value(QStringLiteral("id")).toString()
              << meta.value(QStringLiteral("capabilityId")).toString();
    }
    return known;
}

} // namespace ph::a2w
