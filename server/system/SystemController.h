#pragma once

#include "http/Route.h"

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

private:
    void health(http::Exchange &ex);
    void getSettings(http::Exchange &ex);
    void patchSettings(http::Exchange &ex);
    void listKeys(http::Exchange &ex);
    void mintKey(http::Exchange &ex);
    void updateKey(http::Exchange &ex);
    void revokeKey(http::Exchange &ex);
    void usage(http::Exchange &ex);

    Store &m_store;
    Settings &m_settings;
    BrowserPool &m_pool;
};

} // namespace ph::sys
