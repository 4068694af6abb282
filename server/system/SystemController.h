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

class ApiKeyService;
class SettingsService;

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
    // The keys and settings routes parse and answer; `keys` and `settingsService` do the
    // work (the console calls the same services).
    SystemController(Store &store, Settings &settings, BrowserPool &pool, ApiKeyService &keys,
                     SettingsService &settingsService, QObject *parent = nullptr);
    QList<http::Route> routes() override;

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
    ApiKeyService &m_keys;
    SettingsService &m_settingsService;
};

} // namespace ph::sys
