#pragma once

#include "core/Principal.h"

#include <QByteArray>
#include <QString>

namespace ph {

// Bearer tokens bound to one protected resource (OAuth access tokens for the MCP
// endpoints, server/oauth). The authenticator asks it about every credential it
// recognises, whatever the route's policy, and for the challenge of a 401.
class ResourceTokenVerifier
{
public:
    virtual ~ResourceTokenVerifier() = default;
    // Whether `credential` has this verifier's shape (its prefix).
    virtual bool recognizes(const QString &credential) const = 0;
    // The principal the token acts as on the request path `path`, or throws DomainError
    // (Unauthenticated) when the token is unknown, expired, revoked or bound to another
    // resource.
    virtual Principal verify(const QString &credential, const QString &path) = 0;
    // The WWW-Authenticate value of a 401 on `path` (RFC 9728 resource_metadata and the
    // scope), or empty for a path that is not a protected resource.
    virtual QByteArray challenge(const QString &path) const = 0;
};

} // namespace ph
