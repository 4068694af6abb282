#pragma once

#include "core/ApiKeyRepository.h"
#include "http/Route.h"

#include <QJsonObject>
#include <QObject>

namespace ph {
class BrowserPool;
class Settings;
class Store;
} // namespace ph

namespace ph::sys {

// Service-level endpoints (docs/api/system.md):
//   GET    /health                 public liveness: version, pool load
//   GET    /settings               owner: every setting with its value
//   PATCH  /settings               owner: change settings ({key: value, ...})
//   GET    /keys                   owner: API keys (never their secrets) with usage
//   POST   /keys                   owner: mint a key {label, balance?, role?}; secret shown once
//   PATCH  /keys/{id}              owner: {balance} (null: unlimited)
//   DELETE /keys/{id}              owner: revoke
//   GET    /usage                  any key: its own balance and totals
class SystemController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    SystemController(Store &store, Settings &settings, BrowserPool &pool,
                     QObject *parent = nullptr);
    QList<http::Route> routes() override;

    // The operations of PATCH /settings and /keys without the exchange, shared with the
    // console. Each checks its body the way the route does and throws the same typed
    // DomainError.
    // PATCH /settings: {key: value, ...}; an unknown key stores nothing (400
    // UNKNOWN_SETTING), a bad value 400 INVALID_FIELD naming the key.
    static void patchSettings(Settings &settings, const QJsonObject &body);
    // POST /keys: {label, role?, balance?}; the result's secret is shown once.
    static ApiKeyRepository::Minted mintKey(Store &store, const QJsonObject &body);
    // PATCH /keys/{id}: {balance} in credits, null for unlimited. `actor` goes into the
    // ledger's reason ("set by <actor>").
    static ApiKey setKeyBalance(Store &store, const QString &id, const QJsonObject &body,
                                const QString &actor);
    // DELETE /keys/{id}; `actorKeyId` is the caller's key (it cannot revoke itself; empty
    // for the console).
    static ApiKey revokeKey(Store &store, const QString &id, const QString &actorKeyId);

private:
    void health(http::Exchange &ex);
    void getSettings(http::Exchange &ex);
    void patchSettingsRoute(http::Exchange &ex);
    void listKeys(http::Exchange &ex);
    void postKey(http::Exchange &ex);
    void updateKey(http::Exchange &ex);
    void deleteKey(http::Exchange &ex);
    void usage(http::Exchange &ex);

    Store &m_store;
    Settings &m_settings;
    BrowserPool &m_pool;
};

} // namespace ph::sys
