#pragma once

#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace ph {
class ActivityStats;
class AnalyticsNotifications;

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
class HttpServer;
class IdTokenVerifier;
class OpenApiController;
} // namespace http
namespace sites {
class SitesArea;
}
namespace runtime {
class RuntimeController;
class RuntimeRunner;
class RuntimeService;
} // namespace runtime
namespace a2w {
class A2wController;
class A2wService;
class SiteMcpController;
class TaskController;
class WebBotAuth;
} // namespace a2w
namespace cloud {
class AgentController;
class BridgeController;
class LibraryController;
class LiveViewController;
class LibraryRepository;
class RunService;
class ScrapeController;
class ToolLibrary;
} // namespace cloud
namespace engine {
class LiveViews;
class RunManager;
class ToolRegistry;
class TrajectoryRepository;
struct EngineServices;
} // namespace engine
namespace webhooks {
class WebhookQueue;
class WebhooksController;
} // namespace webhooks
namespace sys {
class SystemController;
}
class DemoSite;

struct ServiceConfig
{
    QString dataDir;
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = 8710;
    QStringList settingOverrides; // "key=value" from --set
    bool printApiKey = false;     // mint a fresh owner key at start and print it
    const Clock *clock = nullptr; // null: the system clock
    bool demo = false;            // serve the demo shop under /demo/ (docs/demo.md)
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
    AnalyticsNotifications &analyticsNotifications() { return *m_analyticsNotifications; }
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
    bool ensureOwnerKey(QString *error);
    void applySettings();
    // The limits that live outside Settings' readers: connections, MCP sessions, purge.
    void applyLimits();

    ServiceConfig m_config;
    std::unique_ptr<Clock> m_ownClock;
    const Clock *m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<ApiKeyService> m_keyService;
    std::unique_ptr<SettingsService> m_settingsService;
    std::unique_ptr<ObjectPurger> m_purger;
    std::unique_ptr<NetworkPolicy> m_policy;
    std::unique_ptr<BrowserPool> m_pool;
    std::unique_ptr<http::ApiKeyAuthenticator> m_auth;
    std::unique_ptr<http::HttpServer> m_http;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<engine::ToolRegistry> m_tools;
    std::unique_ptr<engine::TrajectoryRepository> m_trajectories;
    std::unique_ptr<engine::EngineServices> m_engine;
    std::unique_ptr<engine::RunManager> m_runs;
    std::unique_ptr<webhooks::WebhookQueue> m_webhooks;
    std::unique_ptr<webhooks::WebhooksController> m_webhooksController;
    std::unique_ptr<cloud::ScrapeController> m_scrape;
    std::unique_ptr<cloud::LibraryRepository> m_library;
    std::unique_ptr<cloud::ToolLibrary> m_toolLibrary;
    std::unique_ptr<cloud::RunService> m_runService;
    std::unique_ptr<engine::LiveViews> m_liveViews;
    std::unique_ptr<cloud::LiveViewController> m_liveViewController;
    std::unique_ptr<cloud::AgentController> m_agent;
    std::unique_ptr<cloud::LibraryController> m_libraryController;
    std::unique_ptr<cloud::BridgeController> m_bridge;
    std::unique_ptr<DemoSite> m_demoSite;
    std::unique_ptr<sys::SystemController> m_system;
    std::unique_ptr<http::IdTokenVerifier> m_idTokens;
    std::unique_ptr<a2w::A2wService> m_a2w;
    std::unique_ptr<a2w::WebBotAuth> m_webBotAuth;
    std::unique_ptr<a2w::A2wController> m_a2wController;
    std::unique_ptr<a2w::TaskController> m_taskController;
    std::unique_ptr<a2w::SiteMcpController> m_siteMcp;
    std::unique_ptr<runtime::RuntimeService> m_runtime;
    std::unique_ptr<runtime::RuntimeController> m_runtimeController;
    std::unique_ptr<runtime::RuntimeRunner> m_runtimeRunner;
    std::unique_ptr<AnalyticsNotifications> m_analyticsNotifications;
    std::unique_ptr<http::OpenApiController> m_openApi;
    std::unique_ptr<sites::SitesArea> m_sites;
    std::unique_ptr<ActivityStats> m_activityStats; // made on first use
    QString m_mintedKey;
    bool m_keyFromEnv = false;
    bool m_running = false;
    bool m_stopping = false;
};

} // namespace ph
