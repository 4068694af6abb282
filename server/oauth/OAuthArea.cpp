#include "OAuthArea.h"

#include "OAuthController.h"
#include "OAuthService.h"

#include "http/Authenticator.h"

namespace ph::oauth {

OAuthArea::OAuthArea(Store &store, Settings &settings, NetworkPolicy &policy,
                     CredentialVerifier *idTokens, bool loopbackInstall)
    : m_service(std::make_unique<OAuthService>(store, settings, policy, idTokens, loopbackInstall))
    , m_controller(std::make_unique<OAuthController>(*m_service))
{}

OAuthArea::~OAuthArea() = default;

QList<http::Controller *> OAuthArea::controllers()
{
    return {m_controller.get()};
}

void OAuthArea::installOn(http::ApiKeyAuthenticator &authenticator)
{
    authenticator.setResourceTokens(m_service.get());
}

} // namespace ph::oauth
