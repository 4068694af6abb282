#pragma once

#include <QString>

namespace ph {

// Who made a request, as the authenticator resolved it.
// Owners are the holder of the owner API key and an identity-provider ID token the
// service accepts as the owner's (docs/api/sites.md#owner-authentication). A Connect AI
// key is bound to one site (`siteId`) and is never an owner.
struct Principal
{
    enum class Kind { Anonymous, ApiKey, IdToken, ConnectKey };
    Kind kind = Kind::Anonymous;
    QString keyId; // API key or Connect AI key id; empty for ID tokens
    QString label; // display name: key label, or the token's email/subject
    bool owner = false;
    QString subject; // ID tokens: the `sub` claim
    QString siteId;  // Connect AI keys: the one site the key is bound to

    bool isAuthenticated() const { return kind != Kind::Anonymous; }
    bool isSiteScoped() const { return kind == Kind::ConnectKey; }
    // A stable name of the caller for audit records: "apiKey:key_…", "idToken:<sub>",
    // "connectKey:ck_…" (the key id, never the secret).
    QString actor() const
    {
        switch (kind) {
        case Kind::ApiKey:
            return QStringLiteral("apiKey:") + keyId;
        case Kind::IdToken:
            return QStringLiteral("idToken:") + subject;
        case Kind::ConnectKey:
            return QStringLiteral("connectKey:") + keyId;
        case Kind::Anonymous:
            break;
        }
        return QStringLiteral("anonymous");
    }
};

} // namespace ph
