#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph::mcp {
class McpServer;
}

namespace ph::sites {

class ConfigApi;

// The owner's-AI surface over HTTP (AuthPolicy::SiteAgent: a Connect AI key, or the
// owner's credentials). REST under /config/v1 (routes() writes every path in full), MCP at
// /config/mcp (created by SitesArea); both call ConfigApi.
//   GET  /config/v1/sites
//   GET  /config/v1/sites/{siteId}/config?fields=a,b
//   GET  /config/v1/sites/{siteId}/journeys
//   GET  /config/v1/sites/{siteId}/journeys/{journeyId}
//   GET  /config/v1/sites/{siteId}/analytics/summary?range=7d|30d
//   GET  /config/v1/sites/{siteId}/changes?limit=&cursor=
//   POST /config/v1/sites/{siteId}/changes
//   GET  /config/v1/sites/{siteId}/briefs/{section}
//   POST /config/v1/validate
//   POST|DELETE /config/mcp   (MCP streamable HTTP; ten tools, no apply)
class ConfigController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    // Registers the configuration tools on `mcp`.
    ConfigController(ConfigApi &api, mcp::McpServer &mcp, QObject *parent = nullptr);
    QList<http::Route> routes() override;

private:
    void listSites(http::Exchange &ex);
    void getConfig(http::Exchange &ex);
    void listJourneys(http::Exchange &ex);
    void getJourney(http::Exchange &ex);
    void analyticsSummary(http::Exchange &ex);
    void listChanges(http::Exchange &ex);
    void createChange(http::Exchange &ex);
    void brief(http::Exchange &ex);
    void validate(http::Exchange &ex);
    void registerTools(mcp::McpServer &mcp);

    ConfigApi &m_api;
};

} // namespace ph::sites
