#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph::oauth {

class OAuthService;

// The authorization server's HTTP face (docs/api/mcp.md#oauth): the metadata documents,
// registration, the consent page, the token and revocation endpoints, and the owner's
// list of grants. Token, registration and revocation answers use OAuth's error shape
// ({error, error_description}); the consent page answers HTML.
class OAuthController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    OAuthController(OAuthService &service, QObject *parent = nullptr);

    QList<http::Route> routes() override;
    // The prefixes browser-based MCP clients call across origins (metadata, token).
    static QStringList crossOriginPrefixes();

private:
    void resourceMetadata(http::Exchange &ex);
    void siteResourceMetadata(http::Exchange &ex);
    void serverMetadata(http::Exchange &ex);
    void registerClient(http::Exchange &ex);
    void authorizePage(http::Exchange &ex);
    void authorizeForm(http::Exchange &ex);
    void token(http::Exchange &ex);
    void revoke(http::Exchange &ex);
    void listGrants(http::Exchange &ex);
    void revokeGrant(http::Exchange &ex);

    void signInStep(http::Exchange &ex, const QString &consentId, const QString &credential);
    void showKeys(http::Exchange &ex, const QString &consentId);
    static void html(http::Exchange &ex, int status, const QByteArray &body,
                     const QByteArray &cookie = {});
    static void redirect(http::Exchange &ex, const QString &location);

    OAuthService &m_service;
};

} // namespace ph::oauth
