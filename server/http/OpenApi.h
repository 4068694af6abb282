#pragma once

#include "Route.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace ph::http {

// The API description (OpenAPI 3.1), put together from the route table and the
// descriptions under resources/api/: the route table gives each operation its method,
// path, path parameters, credential and capability; the description files give what a
// table cannot know (summary, request body and response schemas). Standard error
// responses, all in the one envelope http/ErrorMapping writes, are added where the
// route can produce them.
class OpenApi
{
public:
    struct Result
    {
        QJsonObject document;
        QStringList undocumented; // "POST /scrape": routed, with no description
        QStringList stale;        // described, not routed (areas marked "optional" excepted)
        QStringList problems;     // a description file that is not valid JSON
    };

    // `base` is the document's frame (info, components); `areas` are the per-area
    // description files: {"schemas": {...}, "routes": {"POST /scrape": {operation}}}.
    static Result build(const QList<Route> &routes, const QJsonObject &base,
                        const QList<QJsonObject> &areas);
    // build() over the descriptions compiled into the binary.
    static Result describe(const QList<Route> &routes);

    // "POST /scrape" for a route.
    static QString key(const Route &route);
    // "apiKey", "owner", "workspace", "siteAgent", "public".
    static QString authName(AuthPolicy auth);
};

// Serves GET /openapi.json (no credential) from the routes the server holds when asked.
class OpenApiController : public Controller
{
public:
    using RouteSource = std::function<QList<Route>()>;
    explicit OpenApiController(RouteSource routes);
    QList<Route> routes() override;

private:
    void document(Exchange &ex);
    RouteSource m_routes;
};

} // namespace ph::http
