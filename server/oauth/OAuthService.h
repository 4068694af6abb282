#pragma once

#include "ClientMetadata.h"
#include "OAuthRepository.h"

#include "core/ApiKeyRepository.h"
#include "core/ResourceTokenVerifier.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <functional>
#include <memory>

namespace ph {
class CredentialVerifier;
class Clock;
class NetworkPolicy;
class Settings;
class Store;
} // namespace ph

namespace ph::oauth {

class ClientDirectory;
class FormBody;

// The authorization server of the MCP endpoints (docs/api/mcp.md#oauth): metadata
// (RFC 9728, RFC 8414), clients (metadata documents, RFC 7591), the authorization code
// flow with PKCE S256 and a consent the owner gives, tokens bound to one resource
// (RFC 8707) with rotating refresh tokens, revocation (RFC 7009), and the access
// tokens' check for the authenticator (ResourceTokenVerifier).
class OAuthService : public QObject, public ResourceTokenVerifier
{
    Q_OBJECT
public:
    static constexpr qint64 kAccessTokenMs = 60 * 60 * 1000;
    static constexpr qint64 kRefreshTokenMs = 30LL * 24 * 60 * 60 * 1000;
    static constexpr qint64 kCodeMs = 60 * 1000;
    static constexpr qint64 kConsentMs = 10 * 60 * 1000;
    static constexpr int kMaxPending = 256;
    static constexpr int kMaxClients = 10000;
    static inline const QString kScope = QStringLiteral("mcp");
    // The paths whose tokens this server issues (the bridge and the owner's AI).
    static const QStringList &protectedPaths();

    OAuthService(Store &store, Settings &settings, NetworkPolicy &policy,
                 CredentialVerifier *idTokens, bool loopbackInstall, QObject *parent = nullptr);
    ~OAuthService() override;

    // http.publicBaseUrl without a trailing slash: the issuer, and the resources' origin.
    QString issuer() const;
    QString resourceOf(const QString &path) const { return issuer() + path; }
    QJsonObject resourceMetadata(const QString &path) const;
    QJsonObject serverMetadata() const;

    // RFC 7591: a public client; the answer the registration endpoint gives.
    QJsonObject registerClient(const QJsonObject &request);
    ClientDirectory &clients() { return *m_clients; }

    // The checked parameters of an authorization request.
    struct AuthorizeRequest
    {
        QString clientId;
        QString clientName;
        QString redirectUri;
        QString codeChallenge;
        QString state;
        QString resource;
        QString scope;
    };
    // The authorization request's parameters other than client and redirect URI (those
    // are the caller's to check first: a bad one is never redirected to). Throws
    // DomainError whose code maps to the OAuth error the redirect carries.
    AuthorizeRequest checkAuthorize(const QHash<QString, QString> &query,
                                    const OAuthClient &client) const;
    // The redirect URI with `params`, `state` and `iss` (RFC 9207) added.
    QString redirectWith(const AuthorizeRequest &request,
                         QList<QPair<QString, QString>> params) const;

    // A consent in progress (the page's form): its id and CSRF token, whether the owner
    // has signed in.
    struct Consent
    {
        QString id;
        QString csrf;
        AuthorizeRequest request;
        bool signedIn = false;
        qint64 expiresAt = 0;
    };
    const Consent &beginConsent(const AuthorizeRequest &request);
    // The consent `id` whose CSRF token is `csrf`, or throws 400 OAUTH_CONSENT_EXPIRED.
    Consent &consent(const QString &id, const QString &csrf);
    // The consent `id` while it lasts (no CSRF check: for the steps after one), or null.
    Consent *pendingConsent(const QString &id);
    // Whether `credential` can be checked now; otherwise `ready` is called once it can
    // (an ID token whose signing keys are being fetched).
    bool prepareSignIn(const QString &credential, const std::function<void()> &ready);
    // The active API keys the owner may let a client act as.
    QList<ApiKey> keysToChoose() const;
    // How the owner signs in here: "idToken" (auth.oidc.* set), "ownerKey" (loopback
    // install), or "" (neither: nobody can consent).
    QString signInMethod() const;
    // Checks the owner's credential; throws 401 OAUTH_SIGN_IN_FAILED or 403
    // OAUTH_SIGN_IN_UNAVAILABLE. Then the form's CSRF token is renewed.
    void signIn(Consent &consent, const QString &credential);
    // The owner's choice: the code's redirect (a grant acting as `keyId`), or the
    // access_denied redirect. The consent ends either way.
    QString approve(const QString &consentId, const QString &keyId);
    QString deny(const QString &consentId);

    // The token endpoint (authorization_code, refresh_token); the JSON answer.
    QJsonObject token(const FormBody &form);
    // RFC 7009: ends the token (and a refresh token's grant); unknown tokens are fine.
    void revoke(const FormBody &form);

    QList<Grant> grants(const QString &keyId = {}) const;
    // Throws 404 OAUTH_GRANT_NOT_FOUND.
    void revokeGrant(const QString &grantId);
    static QJsonObject toJson(const Grant &grant);

    bool recognizes(const QString &credential) const override;
    Principal verify(const QString &credential, const QString &path) override;
    QByteArray challenge(const QString &path) const override;

Q_SIGNALS:
    // A grant was made, used for the first time in a while, or revoked.
    void grantChanged(const QString &grantId);

private:
    QJsonObject exchangeCode(const FormBody &form);
    QJsonObject refresh(const FormBody &form);
    QJsonObject issueTokens(const Grant &grant);
    Grant activeGrant(const QString &grantId, const QString &clientId);
    void checkAudience(const FormBody &form, const Grant &grant) const;
    void prunePending();

    Store &m_store;
    Settings &m_settings;
    CredentialVerifier *m_idTokens;
    bool m_loopback;
    std::unique_ptr<OAuthRepository> m_repository;
    std::unique_ptr<ClientDirectory> m_clients;
    QHash<QString, Consent> m_pending;
};

} // namespace ph::oauth
