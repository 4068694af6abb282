#pragma once

#include "core/Principal.h"

#include <QString>

#include <functional>

namespace ph {
class ActivityStats;
class ApiKeyService;
class BrowserPool;
class Clock;
class RequestLog;
class Service;
class Settings;
class SettingsService;
namespace a2w {
class A2wService;
}
namespace cloud {
class LibraryRepository;
class RunService;
class ToolLibrary;
} // namespace cloud
namespace engine {
class RunManager;
class TrajectoryRepository;
} // namespace engine
namespace runtime {
class RuntimeService;
}
namespace oauth {
class OAuthService;
}
namespace devices {
class DeviceService;
}
namespace sessions {
class SessionService;
}
namespace sites {
class SitesArea;
}
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::ui {

// The domain services the console's docks work on, as references: a dock takes this
// (and keeps a copy), never the whole Service, and never the Store. Each service tells
// the docks about its changes through typed signals (ApiKeyService::keyChanged,
// TrajectoryRepository::trajectoryChanged, SiteRepository::siteChanged, ...), whoever
// made them: the console or the HTTP API. MainWindow builds one with of(Service&).
struct ConsoleServices
{
    ApiKeyService &keyService;
    Settings &settings;
    SettingsService &settingsService;
    BrowserPool &pool;
    const Clock &clock;
    RequestLog &requestLog;
    ActivityStats &activityStats;
    engine::RunManager &runs;
    engine::TrajectoryRepository &trajectories;
    cloud::LibraryRepository &library;
    cloud::ToolLibrary &toolLibrary;
    cloud::RunService &runService;
    webhooks::WebhookQueue &webhooks;
    a2w::A2wService &a2w;
    runtime::RuntimeService &runtime;
    sites::SitesArea &sites;
    // Browser sessions and their profiles (issue 30): the live views' session tiles and
    // the keys panel's profiles act as the owner through it (operator()).
    sessions::SessionService &sessions;
    // OAuth sign-in for MCP clients (issue 32): the keys panel's grants.
    oauth::OAuthService &oauth;
    // The caller's own browsers through the extension (issue 32): the Devices panel.
    devices::DeviceService &devices;
    // The API's base URL as it is now (the port is known once the service listens).
    std::function<QString()> apiAddress;
    // The data directory chosen at start (--data-dir).
    QString dataDir;
    // The database file; empty or ":memory:" when there is none to open a second time.
    QString databasePath;

    static ConsoleServices of(Service &service);

    // The console's operator as a caller of the domain services: the owner (the owner
    // sees and may end every key's sessions), named "console" in audit records' labels.
    Principal operatorPrincipal() const;
};

} // namespace ph::ui
