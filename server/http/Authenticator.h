#pragma once

#include "Request.h"
#include "Route.h"

namespace ph {
class Store;
}

namespace ph::http {

// Turns a request's credentials into a Principal for a route's policy, or throws
// ApiError: 401 when the credential is missing or invalid, 403 when it is valid but
// not enough for the route.
class Authenticator
{
public:
    virtual ~Authenticator() = default;
    virtual Principal authenticate(const Request &request, AuthPolicy policy) = 0;
};

// API keys, as the spec accepts them: `Authorization: Bearer <key>`, the key without
// `Bearer` in `Authorization`, or `x-api-key: <key>`.
class ApiKeyAuthenticator : public Authenticator
{
public:
    explicit ApiKeyAuthenticator(Store &store);
    Principal authenticate(const Request &request, AuthPolicy policy) override;

    // The presented key, or empty when none was sent.
    static QString presentedKey(const Request &request);

private:
    Store &m_store;
};

} // namespace ph::http
