#pragma once

#include "Authenticator.h"
#include "Jwt.h"

#include <QNetworkAccessManager>
#include <QObject>
#include <QTimer>
#include <QUrl>

#include <functional>

namespace ph {
class Clock;
class Settings;
} // namespace ph

namespace ph::http {

// Identity-provider ID tokens (OpenID Connect) for the owner-only calls. A token is
// accepted when its RS256/ES256 signature verifies against the configured issuer's
// JWKS, `iss` equals `auth.oidc.issuer`, `aud` contains `auth.oidc.audience`, and
// `exp`/`nbf` hold with a leeway of one minute. It is the owner's when
// `auth.oidc.owners` lists its `sub`, or its `email` with `email_verified` true (emails
// compared without case). An empty list makes no token the owner.
//
// Keys are fetched asynchronously and never on the request path's thread time: at
// start, when an auth.oidc setting changes, every hour, and when a token names a key
// id the set does not have (at most once per `auth.oidc.jwksMinRefreshMs`). A request
// whose token waits for such a fetch is held by the HTTP layer (prepare()) and
// resumed when the fetch ends, so the first token after a key rotation works.
class IdTokenVerifier : public QObject, public CredentialVerifier
{
    Q_OBJECT
public:
    static constexpr qint64 kLeewayMs = 60'000;
    static constexpr int kFetchTimeoutMs = 10'000;
    static constexpr int kRefreshIntervalMs = 3'600'000;

    IdTokenVerifier(Settings &settings, const Clock &clock, QObject *parent = nullptr);

    bool isConfigured() const;
    // Whether the claims of a verified token name one of `owners` (auth.oidc.owners).
    static bool isListedOwner(const QString &owners, const QJsonObject &claims);
    int keyCount() const { return m_keys.size(); }
    bool isFetching() const { return m_fetching; }
    QString lastError() const { return m_lastError; }

    bool recognizes(const QString &credential) const override;
    Principal verify(const QString &credential) override;
    bool prepare(const QString &credential, const std::function<void()> &ready) override;

    // Fetches the keys again now (discovery first when no JWKS URI is set).
    void refresh();

Q_SIGNALS:
    // A fetch ended, with or without new keys.
    void fetchFinished(bool ok);

private:
    void onSettingChanged(const QString &key);
    void get(const QUrl &url, const std::function<void(const QJsonObject &)> &next);
    void finish(bool ok, const QString &error);

    Settings &m_settings;
    const Clock &m_clock;
    QNetworkAccessManager m_nam;
    QTimer m_refreshTimer;
    JwkSet m_keys;
    bool m_fetching = false;
    int m_generation = 0; // a settings change makes replies of earlier fetches stale
    qint64 m_lastFetchMs = 0;
    bool m_fetchedOnce = false;
    QString m_lastError;
    QList<std::function<void()>> m_waiting;
};

} // namespace ph::http
