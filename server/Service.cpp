#include "Service.h"

#include "a2w/A2wArea.h"
#include "browser/BrowserPool.h"
#include "cloud/CloudArea.h"
#include "core/ApiKeyRepository.h"
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/ObjectPurger.h"
#include "core/Settings.h"
#include "core/SettingsService.h"
#include "core/Store.h"
#include "devices/DeviceService.h"
#include "devices/DevicesArea.h"
#include "engine/RunManager.h"
#include "engine/Tool.h"
#include "engine/liveview/LiveViews.h"
#include "engine/planners/BuiltinPlanners.h"
#include "engine/tools/BuiltinTools.h"
#include "firecrawl/FirecrawlArea.h"
#include "http/Authenticator.h"
#include "http/HttpServer.h"
#include "http/IdTokenVerifier.h"
#include "http/OpenApi.h"
#include "mcp/McpServer.h"
#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"
#include "oauth/OAuthArea.h"
#include "oauth/OAuthController.h"
#include "oauth/OAuthService.h"
#include "runtime/RuntimeArea.h"
#include "runtime/RuntimeService.h"
#include "sessions/SessionService.h"
#include "sessions/SessionsArea.h"
#include "sites/SitesArea.h"
#include "system/ActivityStats.h"
#include "system/SystemController.h"
#include "webhooks/WebhookQueue.h"
#include "webhooks/WebhooksArea.h"

#include <QDir>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QTimer>
#include <QWebSocket>

Q_LOGGING_CATEGORY(lcService, "pilothouse.service")

namespace ph {

Service::Service(ServiceConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
{
    if (m_config.clock) {
        m_clock = m_config.clock;
    } else {
        m_ownClock = std::make_unique<SystemClock>();
        m_clock = m_ownClock.get();
    }
}

Service::~Service()
{
    // The shutdown step: what still runs stops before anything goes. Live views let go
    // of the pages they show before runs and pages go; the pool closes its pages while
    // the profiles are there. The members then go in reverse declaration order.
    // Crawls stop first, where they are: their frontier is stored, the next start resumes
    // them.
    if (m_firecrawl)
        m_firecrawl->shutdown();
    if (m_cloud)
        m_cloud->shutdown();
    // Browser sessions go while the HTTP server is there: their clients' WebSockets hold
    // sockets the server's listener made.
    if (m_http)
        m_http->setWebSocketHandler(nullptr);
    m_sessions.reset();
    if (m_cloud)
        m_cloud->setDeviceLink(nullptr);
    m_devices.reset();
    if (m_pool)
        m_pool->shutdown();
    // No delivery starts while the areas that announce events go.
    if (m_webhooks)
        m_webhooks->queue().stop();
}

Store &Service::store()
{
    return *m_store;
}
Settings &Service::settings()
{
    return *m_settings;
}
BrowserPool &Service::pool()
{
    return *m_pool;
}
http::HttpServer &Service::http()
{
    return *m_http;
}
NetworkPolicy &Service::policy()
{
    return *m_policy;
}
cloud::LibraryRepository &Service::library()
{
    return m_cloud->library();
}

ApiKeyService &Service::keyService()
{
    return *m_keyService;
}
SettingsService &Service::settingsService()
{
    return *m_settingsService;
}
cloud::ToolLibrary &Service::toolLibrary()
{
    return m_cloud->toolLibrary();
}
a2w::A2wService &Service::a2w()
{
    return m_a2w->service();
}

a2w::WebBotAuth &Service::webBotAuth()
{
    return m_a2w->webBotAuth();
}

runtime::RuntimeService &Service::runtime()
{
    return m_runtime->service();
}

oauth::OAuthService &Service::oauth()
{
    return m_oauth->service();
}

devices::DeviceService &Service::devices()
{
    return m_devices->service();
}

sessions::SessionService &Service::sessions()
{
    return m_sessions->service();
}

cloud::RunService &Service::runService()
{
    return m_cloud->runService();
}

sites::SitesArea &Service::sites()
{
    return *m_sites;
}
http::IdTokenVerifier &Service::idTokens()
{
    return *m_idTokens;
}

engine::RunManager &Service::runs()
{
    return m_cloud->runs();
}

engine::TrajectoryRepository &Service::trajectories()
{
    return m_cloud->trajectories();
}

RequestLog &Service::requestLog()
{
    return m_store->requests();
}

ActivityStats &Service::activityStats()
{
    if (!m_activityStats)
        m_activityStats = std::make_unique<ActivityStats>(*m_store);
    return *m_activityStats;
}

QString Service::databasePath() const
{
    return m_store->path();
}

engine::LiveViews &Service::liveViews()
{
    return m_cloud->liveViews();
}

webhooks::WebhookQueue &Service::webhooks()
{
    return m_webhooks->queue();
}

sites::AnalyticsNotifications &Service::analyticsNotifications()
{
    return m_sites->notifications();
}

quint16 Service::port() const
{
    return m_http ? m_http->port() : 0;
}

QString Service::apiAddress() const
{
    if (!m_http)
        return {};
    QHostAddress a = m_http->address();
    QString host = a.toString();
    if (a == QHostAddress::Any || a == QHostAddress::AnyIPv4)
        host = QStringLiteral("127.0.0.1");
    else if (a.protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("http://%1:%2").arg(host).arg(m_http->port());
}

namespace {
BrowserPool::Options poolOptions(const Settings &settings)
{
    BrowserPool::Options o;
    o.size = settings.intValue(SettingKeys::poolSize);
    o.queueLimit = settings.intValue(SettingKeys::poolQueueLimit);
    o.standby = settings.intValue(SettingKeys::poolStandby);
    o.visitorSharePercent = settings.intValue(SettingKeys::poolVisitorShare);
    o.siteSharePercent = settings.intValue(SettingKeys::poolSiteShare);
    o.engine = settings.stringValue(SettingKeys::browserEngine);
    o.chromiumPath = settings.stringValue(SettingKeys::browserChromiumPath);
    return o;
}
} // namespace

bool Service::start(QString *error)
{
    if (!openStore(error) || !openNetwork(error))
        return false;
    buildAreas();

    // Expired objects (large-response snapshots) are deleted on a timer.
    m_purger = std::make_unique<ObjectPurger>(
        m_store->objects(), m_settings->intValue(SettingKeys::storagePurgeIntervalMs));
    m_purger->addTask([runtime = &m_runtime->service()] { return runtime->purgeStale(); });
    applyLimits();
    connect(m_settings.get(), &Settings::changed, this, &Service::applySettings);

    // A path routed twice is a programming error: refuse to start rather than answer
    // one of them silently.
    if (!m_http->routeProblems().isEmpty()) {
        *error = m_http->routeProblems().join(QStringLiteral("; "));
        return false;
    }
    // What an abrupt end of the last process left executing is stored cancelled and
    // announced (workflow.failed), before anything new starts; the deliveries go out when
    // the queue starts below.
    m_cloud->recoverRuns();
    m_a2w->recover();
    m_cloud->recoverScrapes();
    m_sessions->service().start();

    if (!listen(error))
        return false;
    m_webhooks->queue().start();
    // Crawls and batch scrapes a process left scraping continue from their frontier.
    m_firecrawl->resume();
    m_running = true;
    return true;
}

bool Service::openStore(QString *error)
{
    if (!QDir().mkpath(m_config.dataDir)) {
        *error = QStringLiteral("cannot create the data directory %1").arg(m_config.dataDir);
        return false;
    }
    m_store = std::make_unique<Store>(
        QDir(m_config.dataDir).filePath(QStringLiteral("pilothouse.db")), *m_clock);
    if (!m_store->open(error))
        return false;

    m_settings = std::make_unique<Settings>(*m_store);
    // Private targets default to allowed on a loopback-only service (workstation use).
    m_settings->setRuntimeDefault(SettingKeys::allowPrivateTargets, m_config.bind.isLoopback());
    for (const QString &assignment : std::as_const(m_config.settingOverrides)) {
        const QString problem = m_settings->setOverride(assignment);
        if (!problem.isEmpty()) {
            *error = QStringLiteral("--set %1: %2").arg(assignment, problem);
            return false;
        }
    }
    m_keyService = std::make_unique<ApiKeyService>(*m_store);
    m_settingsService = std::make_unique<SettingsService>(*m_settings, *m_store);
    return ensureOwnerKey(error);
}

bool Service::openNetwork(QString *error)
{
    m_policy =
        std::make_unique<NetworkPolicy>(m_settings->boolValue(SettingKeys::allowPrivateTargets));
    // Every caller-controlled connection leaves through the egress proxy (the browser's
    // and the input fetches'); the service's own clients (the LLM, the identity
    // provider) reach their endpoints directly.
    if (!EgressProxy::routeChromium()) {
        *error = QStringLiteral("the egress proxy could not listen on loopback");
        return false;
    }
    m_policy->setEgress(EgressProxy::instance(), m_config.resolver);
    m_pool = std::make_unique<BrowserPool>(poolOptions(*m_settings), *m_policy);
    m_pool->setPageDefaults(m_settings->boolValue(SettingKeys::browserPolyfills),
                            m_settings->stringValue(SettingKeys::browserUserAgent).trimmed());
    m_network = std::make_unique<QNetworkAccessManager>();
    m_network->setProxy(QNetworkProxy::NoProxy); // the operator's LLM endpoint
    return true;
}

// One wiring object per area; what one area needs of another is a constructor argument.
void Service::buildAreas()
{
    // Owner credentials beyond the API key (ID tokens) and the sites area's Connect AI
    // keys, for the Workspace and SiteAgent routes.
    m_idTokens = std::make_unique<http::IdTokenVerifier>(*m_settings, *m_clock);
    m_auth = std::make_unique<http::ApiKeyAuthenticator>(*m_store);
    m_auth->addVerifier(m_idTokens.get());
    m_http = std::make_unique<http::HttpServer>(*m_auth, *m_clock);
    m_http->setMaxBodyBytes(m_settings->int64Value(SettingKeys::maxBodyBytes));

    m_webhooks = std::make_unique<webhooks::WebhooksArea>(*m_store, *m_settings, *m_clock,
                                                          *m_policy, *m_network);
    m_sites = std::make_unique<sites::SitesArea>(*m_store, *m_clock);
    m_sites->installReach(*m_policy);
    m_sites->installOn(*m_auth);
    m_sites->startNotifications(m_webhooks->queue());
    m_cloud = std::make_unique<cloud::CloudArea>(
        *m_store, *m_settings, *m_pool, *m_policy, *m_network, *m_auth, m_webhooks->queue(),
        engine::builtinTools(), std::make_unique<engine::BuiltinPlanners>(*m_settings, *m_network));
    m_system = std::make_unique<sys::SystemController>(*m_keyService, *m_settingsService, *m_pool);
    m_a2w = std::make_unique<a2w::A2wArea>(*m_store, *m_settings, *m_policy, *m_keyService, *m_auth,
                                           *m_sites, *m_cloud);
    m_runtime = std::make_unique<runtime::RuntimeArea>(*m_store, *m_settings, *m_pool, *m_policy,
                                                       *m_sites, *m_cloud, m_a2w->service());
    m_sessions = std::make_unique<sessions::SessionsArea>(*m_store, *m_settings, *m_pool, *m_policy,
                                                          m_config.dataDir);
    m_devices = std::make_unique<devices::DevicesArea>(*m_store, *m_clock);
    m_cloud->setDeviceLink(&m_devices->service());
    // Upgrades on the API's port: the extension's socket, else the sessions' CDP gateway.
    m_http->setWebSocketHandler([sessions = m_sessions.get(),
                                 devices = m_devices.get()](std::unique_ptr<QWebSocket> socket) {
        if (socket && devices::DevicesArea::isDevicePath(socket->requestUrl().path()))
            devices->acceptWebSocket(std::move(socket));
        else
            sessions->acceptWebSocket(std::move(socket));
    });
    // browserSession on /scrape, /agent, /execute and the bridge: the caller's own active
    // session (docs/api/sessions.md, "Work inside a session").
    m_cloud->setSessionLookup([this](const QString &keyId, const QString &sessionId) {
        return m_sessions ? m_sessions->service().browserOf(keyId, sessionId) : nullptr;
    });

    // OAuth sign-in for MCP clients: its access tokens count on the MCP endpoints only.
    m_oauth = std::make_unique<oauth::OAuthArea>(*m_store, *m_settings, *m_policy, m_idTokens.get(),
                                                 m_config.bind.isLoopback());
    m_oauth->installOn(*m_auth);

    m_firecrawl = std::make_unique<firecrawl::FirecrawlArea>(
        *m_store, *m_settings, *m_policy, *m_cloud, *m_network, m_webhooks->queue());
    m_firecrawl->setScriptGrant(m_sites->scriptGrant());

    addRoutes(m_cloud->controllers());
    addRoutes({m_system.get()});
    addRoutes(m_webhooks->controllers());
    addRoutes(m_sites->controllers());
    addRoutes(m_a2w->controllers());
    addRoutes(m_runtime->controllers());
    addRoutes(m_sessions->controllers());
    addRoutes(m_devices->controllers());

    addRoutes(m_firecrawl->controllers());
    addRoutes(m_oauth->controllers());
    for (const QString &prefix : runtime::RuntimeArea::crossOriginPrefixes())
        m_http->allowCrossOrigin(prefix);
    for (const QString &prefix : oauth::OAuthController::crossOriginPrefixes())
        m_http->allowCrossOrigin(prefix);
    addRoutes(m_config.extraControllers);
    // Last: the API description lists the routes the table holds when it is asked.
    m_openApi = std::make_unique<http::OpenApiController>(
        [server = m_http.get()] { return server->routes(); });
    m_http->addController(*m_openApi);
}

void Service::addRoutes(const QList<http::Controller *> &controllers)
{
    for (http::Controller *controller : controllers)
        m_http->addController(*controller);
}

bool Service::listen(QString *error)
{
    if (!m_http->listenOn(m_config.bind, m_config.port, error)) {
        *error = QStringLiteral("cannot listen on %1:%2: %3")
                     .arg(m_config.bind.toString())
                     .arg(m_config.port)
                     .arg(*error);
        return false;
    }
    m_settings->setRuntimeDefault(SettingKeys::publicBaseUrl, apiAddress());
    return true;
}

void Service::applySettings()
{
    m_policy->setAllowPrivateTargets(m_settings->boolValue(SettingKeys::allowPrivateTargets));
    m_http->setMaxBodyBytes(m_settings->int64Value(SettingKeys::maxBodyBytes));
    m_pool->setOptions(poolOptions(*m_settings));
    m_pool->setPageDefaults(m_settings->boolValue(SettingKeys::browserPolyfills),
                            m_settings->stringValue(SettingKeys::browserUserAgent).trimmed());
    applyLimits();
}

void Service::applyLimits()
{
    http::ConnectionLimits c;
    c.maxBodyBytes = m_settings->int64Value(SettingKeys::maxBodyBytes);
    c.maxConnections = m_settings->intValue(SettingKeys::maxConnections);
    c.maxConnectionsPerAddress = m_settings->intValue(SettingKeys::maxConnectionsPerAddress);
    c.headerTimeoutMs = m_settings->intValue(SettingKeys::headerTimeoutMs);
    c.bodyTimeoutMs = m_settings->intValue(SettingKeys::bodyTimeoutMs);
    c.bodyMinBytesPerSecond = m_settings->int64Value(SettingKeys::bodyMinBytesPerSecond);
    c.maxStreamsPerClient = m_settings->intValue(SettingKeys::maxStreamsPerClient);
    c.maxStreamsPerSite = m_settings->intValue(SettingKeys::maxStreamsPerSite);
    m_http->setConnectionLimits(c);
    // Validated when stored; a list that no longer reads trusts nobody.
    m_http->setTrustedProxies(
        TrustedProxies::parse(m_settings->stringValue(SettingKeys::trustedProxies))
            .value_or(TrustedProxies()));

    mcp::McpServer::Limits m;
    m.maxSessions = m_settings->intValue(SettingKeys::mcpMaxSessions);
    m.maxSessionsPerCredential = m_settings->intValue(SettingKeys::mcpMaxSessionsPerCredential);
    m.maxSessionBytes = m_settings->int64Value(SettingKeys::mcpMaxSessionBytes);
    m.idleTimeoutMs = m_settings->int64Value(SettingKeys::mcpSessionIdleMs);
    m_cloud->bridgeMcp().setLimits(m);
    m_sites->mcp().setLimits(m);
    m_a2w->siteMcp().setLimits(m);

    const int purgeMs = m_settings->intValue(SettingKeys::storagePurgeIntervalMs);
    if (m_purger && m_purger->interval() != purgeMs)
        m_purger->setInterval(purgeMs);
    if (m_purger)
        m_purger->setRetentionMs(m_settings->int64Value(SettingKeys::storageRetentionHours) * 3600 *
                                 1000);
}

bool Service::ensureOwnerKey(QString *error)
{
    auto &keys = m_store->apiKeys();
    if (keys.list().isEmpty()) {
        const QString fromEnv = qEnvironmentVariable("PILOTHOUSE_API_KEY").trimmed();
        if (!fromEnv.isEmpty()) {
            if (fromEnv.size() < ApiKeyRepository::kMinimumSecretLength) {
                *error = QStringLiteral("PILOTHOUSE_API_KEY must be at least %1 characters")
                             .arg(ApiKeyRepository::kMinimumSecretLength);
                return false;
            }
            keys.importSecret(QStringLiteral("owner (PILOTHOUSE_API_KEY)"), fromEnv);
            m_keyFromEnv = true;
        } else {
            m_mintedKey =
                keys.mint(QStringLiteral("owner"), QStringLiteral("owner"), std::nullopt).secret;
        }
    }
    if (m_config.printApiKey && m_mintedKey.isEmpty() && !m_keyFromEnv)
        m_mintedKey = mintOwnerKey(QStringLiteral("printed at start"));
    return true;
}

QString Service::mintOwnerKey(const QString &label)
{
    ApiKeyService::NewKey request;
    request.label = label;
    request.role = QStringLiteral("owner");
    return m_keyService->mint(request).secret;
}

void Service::shutdown()
{
    if (m_stopping)
        return;
    m_stopping = true;
    if (!m_running) {
        Q_EMIT stopped();
        return;
    }
    qCInfo(lcService) << "shutting down;" << m_http->inFlight() << "requests in flight";
    m_http->stopListening();
    auto finish = [this] {
        if (!m_running)
            return;
        m_running = false;
        m_cloud->runs().shutdown();
        m_http->failInFlight();
        // Let the last answers reach their clients before the process goes.
        m_http->drain(2000, [this] {
            // Every browser session stops and its profile is sealed before the store goes.
            m_sessions->service().shutdown(
                m_settings->intValue(SettingKeys::shutdownGraceMs), [this] {
                    qCInfo(lcService) << "answers sent; closing the browser pool and the store";
                    m_purger.reset();
                    m_cloud->liveViews().shutdown();
                    m_pool->shutdown();
                    m_store->close();
                    qCInfo(lcService) << "stopped";
                    Q_EMIT stopped();
                });
        });
    };
    if (m_http->inFlight() == 0) {
        QTimer::singleShot(0, this, finish);
        return;
    }
    connect(m_http.get(), &http::HttpServer::idle, this, finish);
    QTimer::singleShot(m_settings->intValue(SettingKeys::shutdownGraceMs), this, finish);
}

} // namespace ph
