#pragma once

#include "Request.h"
#include "Route.h"
#include "core/CredentialVerifier.h"
#include "core/ResourceTokenVerifier.h"

#include <QList>

#include <functional>
#include <optional>

namespace ph {
class Store;
}

namespace ph::http {

using ph::CredentialVerifier;

// Turns a request's credentials into a Principal for a route's policy, or throws
// DomainError: 401 when the credential is missing or invalid, 403 when it is valid but
// not enough for the route.
class Authenticator
{
public:
    virtual ~Authenticator() = default;
    virtual Principal authenticate(const Request &request, AuthPolicy policy) = 0;
    // Called before authenticate(). Returns true when authentication can run now;
    // otherwise it calls `ready` later (on the same thread) and returns false, and the
    // server keeps the request until then. The HTTP layer never blocks on this.
    virtual bool prepare(const Request &request, AuthPolicy policy,
                         const std::function<void()> &ready)
    {
        Q_UNUSED(request);
        Q_UNUSED(policy);
        Q_UNUSED(ready);
        return true;
    }
    // Whether the principal may use `capability` (site and API-key capabilities,
    // docs/api/sites.md). Refused: 403 CAPABILITY_DISABLED.
    virtual bool allows(const Principal &principal, const QString &capability)
    {
        Q_UNUSED(principal);
        Q_UNUSED(capability);
        return true;
    }
    // The WWW-Authenticate value a 401 on this request carries; empty: plain "Bearer".
    virtual QByteArray challenge(const Request &request) const
    {
        Q_UNUSED(request);
        return {};
    }
};

// API keys, as the spec accepts them: `Authorization: Bearer <key>`, the key without
// `Bearer` in `Authorization`, or `x-api-key: <key>`. Routes with the Workspace and
// SiteAgent policies also accept the credentials of the added verifiers.
class ApiKeyAuthenticator : public Authenticator
{
public:
    explicit ApiKeyAuthenticator(Store &store);
    Principal authenticate(const Request &request, AuthPolicy policy) override;
    bool allows(const Principal &principal, const QString &capability) override;
    // Looks up a key's capability; nullopt: the key has no setting for it (allowed).
    using CapabilityLookup =
        std::function<std::optional<bool>(const QString &keyId, const QString &capability)>;
    void setCapabilityLookup(CapabilityLookup lookup) { m_capabilities = std::move(lookup); }
    bool prepare(const Request &request, AuthPolicy policy,
                 const std::function<void()> &ready) override;

    // Verifiers are consulted in the order added; the authenticator does not own them.
    void addVerifier(CredentialVerifier *verifier);
    void removeVerifier(CredentialVerifier *verifier);
    // Resource-bound bearer tokens (OAuth access tokens), consulted on every policy but
    // Public-without-credential, Anonymous and AccessToken; not owned.
    void setResourceTokens(ResourceTokenVerifier *tokens) { m_resourceTokens = tokens; }
    QByteArray challenge(const Request &request) const override;

    // The presented key, or empty when none was sent.
    static QString presentedKey(const Request &request);

private:
    Principal apiKeyPrincipal(const QString &key);
    CredentialVerifier *verifierFor(const QString &credential, AuthPolicy policy) const;

    Store &m_store;
    CapabilityLookup m_capabilities;
    QList<CredentialVerifier *> m_verifiers;
    ResourceTokenVerifier *m_resourceTokens = nullptr;
};

} // namespace ph::http
