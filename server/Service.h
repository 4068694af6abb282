#pragma once

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace ph {
class ActivityStats;
class ApiKeyService;
class BrowserPool;
class Clock;
class HostResolver;
class NetworkPolicy;
class ObjectPurger;
class RequestLog;
class Settings;
class SettingsService;
class Store;
namespace http {
class ApiKeyAuthenticator;
class Controller;
class HttpServer;
class IdTokenVerifier;
class OpenApiController;
} // namespace http
namespace sites {
class AnalyticsNotifications;
class SitesArea;
} // namespace sites
namespace runtime {
class RuntimeArea;
class RuntimeService;
} // namespace runtime
namespace oauth {
class OAuthArea;
class OAuthService;
} // namespace oauth
namespace sessions {
class SessionsArea;
class SessionService;
} // namespace sessions
namespace a2w {
class A2wArea;
class A2wService;
class WebBotAuth;
} // namespace a2w
namespace devices {
class DevicesArea;
class DeviceService;
} // namespace devices
namespace cloud {
class CloudArea;
class LibraryRepository;
class RunService;
class ToolLibrary;
} // namespace cloud
namespace engine {
class LiveViews;
class RunManager;
class TrajectoryRepository;
} // namespace engine
namespace webhooks {
class WebhookQueue;
class WebhooksArea;
} // namespace webhooks
namespace sys {
class SystemController;
}
namespace firecrawl {
class FirecrawlArea;
}

struct ServiceConfig
{
    QString dataDir;
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = 8710;
    QStringList settingOverrides; // "key=value" from --set
    bool printApiKey = false;     // mint a fresh owner key at start and print it
    const Clock *clock = nullptr; // null: the system clock
    // Routes of the caller's own (app/'s demo shop under /demo/, docs/demo.md), served
    // beside the API's. Owned by the caller; they outlive the Service.
    QList<http::Controller *> extraControllers;
    // How host names resolve for the network policy; null: the system resolver. Tests
    // install their own names here (never through settings or the API).
    std::shared_ptr<const HostResolver> resolver;
};

// The whole service as one object graph: store, settings, browser pool, HTTP server,
// the domain services and the area controllers over them. app/ builds one (with or
// without the console, which calls the same domain services); tests build their own on
// port 0 with a temporary data dir.
class Service : public QObject
{
    Q_OBJECT
public:
    explicit Service(ServiceConfig config, QObject *parent = nullptr);
    ~Service() override;

    // Opens (and migrates) the store, creates the owner key on first start, listens.
    bool start(QString *error);
    // Stops listening, lets in-flight requests finish for shutdown.graceMs, fails the
    // rest, closes the pool and the store, then emits stopped().
    void shutdown();
    bool isRunning() const { return m_running; }

    // The API key minted at this start (first start or --print-api-key), else empty.
    QString mintedApiKey() const { return m_mintedKey; }
    // True when the owner key came from PILOTHOUSE_API_KEY at this start.
    bool ownerKeyFromEnvironment() const { return m_keyFromEnv; }
    QString apiAddress() const;
    quint16 port() const;
    QString dataDir() const { return m_config.dataDir; }

    Store &store();
    Settings &settings();
    BrowserPool &pool();
    http::HttpServer &http();
    NetworkPolicy &policy();
    engine::RunManager &runs();
    engine::TrajectoryRepository &trajectories();
    // Live views of agent runs (options.liveView); app/ registers how frames are taken.
    engine::LiveViews &liveViews();
    webhooks::WebhookQueue &webhooks();
    const Clock &clock() const { return *m_clock; }
    sites::SitesArea &sites();
    cloud::LibraryRepository &library();
    http::IdTokenVerifier &idTokens();

    // The domain services the controllers and the console share (docs/decisions.md,
    // "Domain services").
    ApiKeyService &keyService();
    SettingsService &settingsService();
    cloud::ToolLibrary &toolLibrary();
    // Starts runs as POST /agent does: credits, pool admission, the request log.
    cloud::RunService &runService();
    // A2W runs of visiting agents (the console's A2W runs panel).
    a2w::A2wService &a2w();
    // Web Bot Auth of visiting agents (tests reach its test-only switches here).
    a2w::WebBotAuth &webBotAuth();
    runtime::RuntimeService &runtime();
    // Browser sessions (POST /sessions) and their profiles; the console's live views.
    sessions::SessionService &sessions();
    // OAuth sign-in for MCP clients: the grants (API keys panel, /oauth/grants).
    oauth::OAuthService &oauth();
    // The caller's own browsers through the extension (the console's Devices panel).
    devices::DeviceService &devices();
    sites::AnalyticsNotifications &analyticsNotifications();
    // What the console reads besides the services: the request log (its activity
    // list), the activity counts (its charts) and the database file (read off-thread).
    RequestLog &requestLog();
    ActivityStats &activityStats();
    QString databasePath() const;

    // Mints an owner key on demand (console "new key" button).
    QString mintOwnerKey(const QString &label);

Q_SIGNALS:
    void stopped();

private:
    // start()'s steps, in order.
    bool openStore(QString *error);
    bool ensureOwnerKey(QString *error);
    bool openNetwork(QString *error);
    void buildAreas();
    void addRoutes(const QList<http::Controller *> &controllers);
    bool listen(QString *error);
    void applySettings();
    // The limits that live outside Settings' readers: connections, MCP sessions, purge.
    void applyLimits();

    // Declared in construction order: members are destroyed in reverse, each before what
    // it uses (the HTTP server first, the store last). ~Service() only stops the work
    // that still runs (live views, runs, the pool) before that.
    ServiceConfig m_config;
    std::unique_ptr<Clock> m_ownClock;
    const Clock *m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<ApiKeyService> m_keyService;
    std::unique_ptr<SettingsService> m_settingsService;
    std::unique_ptr<NetworkPolicy> m_policy;
    std::unique_ptr<BrowserPool> m_pool;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<http::IdTokenVerifier> m_idTokens;
    std::unique_ptr<http::ApiKeyAuthenticator> m_auth;
    std::unique_ptr<webhooks::WebhooksArea> m_webhooks;
    std::unique_ptr<sites::SitesArea> m_sites;
    std::unique_ptr<cloud::CloudArea> m_cloud;
    std::unique_ptr<devices::DevicesArea> m_devices;
    std::unique_ptr<sys::SystemController> m_system;
    std::unique_ptr<a2w::A2wArea> m_a2w;
    std::unique_ptr<runtime::RuntimeArea> m_runtime;
    std::unique_ptr<sessions::SessionsArea> m_sessions;
    std::unique_ptr<oauth::OAuthArea> m_oauth;

    std::unique_ptr<firecrawl::FirecrawlArea> m_firecrawl;
    std::unique_ptr<http::OpenApiController> m_openApi;
    std::unique_ptr<ObjectPurger> m_purger;
    std::unique_ptr<http::HttpServer> m_http;
    std::unique_ptr<ActivityStats> m_activityStats; // made on first use
    QString m_mintedKey;
    bool m_keyFromEnv = false;
    bool m_running = false;
    bool m_stopping = false;
};

} // namespace ph
