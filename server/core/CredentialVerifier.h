#pragma once

#include "core/Principal.h"

#include <QString>

#include <functional>

namespace ph {

// A credential form other than API keys, offered to the Workspace and SiteAgent
// policies: identity-provider ID tokens (IdTokenVerifier), Connect AI keys (sites).
class CredentialVerifier
{
public:
    virtual ~CredentialVerifier() = default;
    // Whether `credential` has this verifier's shape (a JWT, a `ck_` prefix). A
    // credential no verifier recognises is treated as an API key.
    virtual bool recognizes(const QString &credential) const = 0;
    // Resolves the credential or throws DomainError (Unauthenticated).
    virtual Principal verify(const QString &credential) = 0;
    // Asynchronous preparation (fetching signing keys). Returns true when `credential`
    // can be verified now; otherwise it calls `ready` once it can and returns false.
    virtual bool prepare(const QString &credential, const std::function<void()> &ready)
    {
        Q_UNUSED(credential);
        Q_UNUSED(ready);
        return true;
    }
};

} // namespace ph
