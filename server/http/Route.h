#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

class QJsonObject;

namespace ph {
class DomainError;
}

namespace ph::http {

class Exchange;

// Who may call a route. The authenticator turns credentials into a Principal and
// refuses the request (401/403) when the policy is not met.
enum class AuthPolicy {
    Public, // no credential needed
    // Anonymous calls that carry no API key (A2W): an Authorization header is not an API
    // key here and is left to the handler, which checks the run or workflow access
    // token it needs (AccessToken) or none (Anonymous).
    Anonymous,
    AccessToken,
    ApiKey, // any active API key (Authorization: Bearer, bare key, or x-api-key)
    Owner,  // the owner's key
    // Owner-only calls of the site protocol (workspace management, analytics): the
    // owner's API key or an identity-provider ID token accepted as the owner's.
    Workspace,
    // The owner's-AI surface (configuration REST and MCP): Workspace credentials or a
    // Connect AI key, which the handler scopes to its one site.
    SiteAgent,
};

using Handler = std::function<void(Exchange &)>;
// Renders an DomainError in an area's error envelope; null means the standard one
// ({success:false, error, code, field?, requestId}).
using ErrorEnvelope = QJsonObject (*)(const DomainError &, const QString &requestId);

struct Route
{
    QByteArray method;
    QString pattern; // "/agent/{trajectoryId}"; `{name}` matches one path segment
    AuthPolicy auth = AuthPolicy::ApiKey;
    Handler handler;
    ErrorEnvelope envelope = nullptr;
    // An API-key capability the route needs (cloudScrape, cloudAgent …); empty: none.
    QString capability;

    Route requiring(const QString &needed) &&
    {
        capability = needed;
        return std::move(*this);
    }

    // Route table rows name a member function of the controller:
    //   Route::to("POST", "/scrape", AuthPolicy::ApiKey, this, &ScrapeController::scrape)
    template <class C>
    static Route to(const char *method, const QString &pattern, AuthPolicy auth, C *controller,
                    void (C::*member)(Exchange &))
    {
        return Route{QByteArray(method),
                     pattern,
                     auth,
                     [controller, member](Exchange &ex) { (controller->*member)(ex); },
                     nullptr,
                     QString()};
    }
};

// A controller owns one API area and declares its routes in one table.
class Controller
{
public:
    virtual ~Controller() = default;
    virtual QList<Route> routes() = 0;
};

// Matches paths against the route table: 404 when no pattern matches, 405 (with the
// allowed methods) when the path matches under another method.
class Router
{
public:
    struct Match
    {
        const Route *route = nullptr;
        QHash<QString, QString> params;
        QStringList allowedMethods; // filled when the path matched but not the method
    };

    // Adds a route. A route whose method and path shape (parameters count as one
    // segment whatever their names) another already has is not added: the answer says
    // which ("GET /keys/{id} is routed twice …"); empty when added.
    QString add(const Route &route);
    Match match(const QByteArray &method, const QString &path) const;
    // Every route, in the order added (the API description lists them).
    QList<Route> routes() const;

private:
    struct Compiled
    {
        Route route;
        QStringList segments;
    };
    QList<Compiled> m_routes;
};

} // namespace ph::http
