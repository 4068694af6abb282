#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

class QUrl;

namespace ph::oauth {

// An OAuth client as the authorization server knows it: registered (RFC 7591, id
// `phc_…`) or named by the URL of its client ID metadata document (the MCP
// authorization spec's preferred way).
struct OAuthClient
{
    QString id;
    QString name;
    QStringList redirectUris;
    bool fromDocument = false;

    bool allowsRedirect(const QString &uri) const { return redirectUris.contains(uri); }
};

// Reading and checking client metadata. Every refusal is a DomainError 400 naming the
// field: OAUTH_INVALID_CLIENT_METADATA, or OAUTH_INVALID_REDIRECT_URI for a redirect URI.
namespace ClientMetadata {

constexpr int kMaxRedirectUris = 16;
constexpr int kMaxNameLength = 200;
constexpr qsizetype kMaxDocumentBytes = 16 * 1024;

// A registration request's client (its id left empty: the server assigns it). Only
// public clients: token_endpoint_auth_method must be absent or "none", grant types a
// subset of authorization_code and refresh_token, response types of "code".
OAuthClient fromRegistration(const QJsonObject &request);
// A client ID metadata document fetched from `clientId`: JSON whose client_id equals the
// URL it came from, with the registration's rules for the rest.
OAuthClient fromDocument(const QByteArray &body, const QString &clientId);
// Empty when `clientId` may name a metadata document: https with a host and a path other
// than "/", no fragment, no credentials; http only for a loopback literal
// (127.0.0.1, [::1]) when `allowHttpLoopback`. Else the reason, completing "client_id …".
QString documentUrlProblem(const QUrl &clientId, bool allowHttpLoopback);
// Whether a client_id names a metadata document rather than a registered client.
bool isDocumentUrl(const QString &clientId);
// Empty when `uri` may be a redirect URI: absolute, no fragment; https, http to a
// loopback host (RFC 8252 §7.3), or a private-use scheme with a dot (com.example.app:).
QString redirectUriProblem(const QString &uri);

} // namespace ClientMetadata
} // namespace ph::oauth
