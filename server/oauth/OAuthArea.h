#pragma once

#include <QList>

#include <memory>

namespace ph {
class CredentialVerifier;
class NetworkPolicy;
class Settings;
class Store;
namespace http {
class ApiKeyAuthenticator;
class Controller;
} // namespace http
} // namespace ph

namespace ph::oauth {

class OAuthController;
class OAuthService;

// OAuth sign-in for MCP clients as one piece for Service: the authorization server
// (OAuthService), its controller, and the authenticator's check of its access tokens on
// the MCP endpoints (installOn).
class OAuthArea
{
public:
    // `idTokens`: the owner's identity-provider sign-in (used when auth.oidc.* is set);
    // `loopbackInstall`: the service listens on loopback only (the owner key may sign in).
    OAuthArea(Store &store, Settings &settings, NetworkPolicy &policy, CredentialVerifier *idTokens,
              bool loopbackInstall);
    ~OAuthArea();

    OAuthService &service() { return *m_service; }
    QList<http::Controller *> controllers();
    void installOn(http::ApiKeyAuthenticator &authenticator);

private:
    std::unique_ptr<OAuthService> m_service;
    std::unique_ptr<OAuthController> m_controller;
};

} // namespace ph::oauth
