#pragma once

#include "A2wRequest.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace ph {
class Store;
namespace sites {
class SiteRepository;
}
} // namespace ph

namespace ph::a2w {

// The capabilities of an enabled site (docs/api/a2w.md, "Capabilities"): the site, its
// effective configuration and its tools.
struct SiteTools
{
    QString siteId;
    QString siteName;
    QString url; // the site's first allowed host as an https URL, for tools without one
    QJsonObject config;
    QJsonArray tools; // MCP tools: name, title, description, inputSchema
};

// The capability / MCP catalogue of A2wService: what an enabled, discoverable site
// offers visiting agents, and the create request a tool call stands for.
class SiteCapabilities
{
public:
    SiteCapabilities(Store &store, sites::SiteRepository &sites);

    // The site `url`, `host` or `siteId` names (the first given).
    SiteTools capabilities(const QString &url, const QString &host, const QString &siteId) const;
    // Tools of a site by id (the MCP server's tools/list); 404 when not discoverable.
    SiteTools capabilitiesOfSite(const QString &siteId) const;
    // The create request a tools/call of `tool` with `arguments` stands for.
    CreateRequest requestForTool(const SiteTools &site, const QString &tool,
                                 const QJsonObject &arguments) const;
    // What a delegated session's scope may name on the site: "*", its shortcuts',
    // playbooks' and capabilities' ids.
    QStringList scopeItems(const QString &siteId) const;

private:
    Store &m_store;
    sites::SiteRepository &m_sites;
};

} // namespace ph::a2w
