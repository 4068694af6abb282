#include "Service.h"

#include "Demo.h"

#include "ActivityStats.h"
#include "AnalyticsNotifications.h"
#include "a2w/A2wController.h"
#include "a2w/A2wService.h"
#include "a2w/SiteMcpController.h"
#include "a2w/TaskController.h"
#include "a2w/WebBotAuth.h"
#include "browser/BrowserPool.h"
#include "cloud/AgentController.h"
#include "cloud/BridgeController.h"
#include "cloud/LibraryController.h"
#include "cloud/LibraryRepository.h"
#include "cloud/LiveViewController.h"
#include "cloud/RunService.h"
#include "cloud/ScrapeController.h"
#include "cloud/ToolLibrary.h"
#include "core/ApiKeyRepository.h"
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/ObjectPurger.h"
#include "core/Settings.h"
#include "core/SettingsService.h"
#include "core/Store.h"
#include "engine/LiveViews.h"
#include "engine/RunContext.h"
#include "engine/RunManager.h"
#include "engine/Tool.h"
#include "engine/TrajectoryRepository.h"
#include "http/Authenticator.h"
#include "http/HttpServer.h"
#include "http/IdTokenVerifier.h"
#include "http/OpenApi.h"
#include "mcp/McpServer.h"
#include "net/EgressProxy.h"
#include "net/NetworkPolicy.h"
#include "runtime/RuntimeController.h"
#include "runtime/RuntimeRunner.h"
#include "runtime/RuntimeService.h"
#include "sites/SiteRepository.h"
#include "sites/SitesArea.h"
#include "system/SystemController.h"
#include "webhooks/WebhookQueue.h"
#include "webhooks/WebhooksController.h"

#include <QDir>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QTimer>

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
    // Live views let go of the pages they show before runs and pages go.
    if (m_liveViews)
        m_liveViews->shutdown();
    if (m_runs)
        m_runs->shutdown();
    if (m_pool)
        m_pool->shutdown();
    m_http.reset();
    if (m_webhooks)
        m_webhooks->stop();
    m_bridge.reset();
    m_siteMcp.reset();
    m_taskController.reset();
    m_a2wController.reset();
    m_webBotAuth.reset();
    m_a2w.reset();
    m_demoSite.reset();
    m_libraryController.reset();
    m_agent.reset();
    m_liveViewController.reset();
    m_liveViews.reset();
    m_runService.reset();
    m_toolLibrary.reset();
    m_library.reset();
    m_scrape.reset();
    m_webhooksController.reset();
    m_webhooks.reset();
    m_runs.reset();
    m_scrape.reset();
    m_system.reset();
    m_sites.reset();
    m_idTokens.reset();
    m_pool.reset();
    m_purger.reset();
    m_settingsService.reset();
    m_keyService.reset();
    m_settings.reset();
    if (m_store)
        m_store->close();
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
    return *m_library;
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
    return *m_toolLibrary;
}
a2w::A2wService &Service::a2w()
{
    return *m_a2w;
}

a2w::WebBotAuth &Service::webBotAuth()
{
    return *m_webBotAuth;
}

runtime::RuntimeService &Service::runtime()
{
    return *m_runtime;
}

cloud::RunService &Service::runService()
{
    return *m_runService;
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
    return *m_runs;
}

engine::TrajectoryRepository &Service::trajectories()
{
    return *m_trajectories;
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
    return *m_liveViews;
}

webhooks::WebhookQueue &Service::webhooks()
{
    return *m_webhooks;
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

bool Service::start(QString *error)
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
    if (!ensureOwnerKey(error))
        return false;

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
    // Who may reach private targets while network.allowPrivateTargets is on: owner keys,
    // and user keys granted the privateTargets capability.
    m_policy->setPrivateGrantLookup([this](const QString &keyId) {
        const std::optional<ApiKey> key = m_store->apiKeys().find(keyId);
        if (!key || !key->isActive())
            return false;
        if (key->isOwner())
            return true;
        const std::optional<QJsonObject> caps = m_sites->sites().apiKeyCapabilities(keyId);
        return caps && caps->value(QStringLiteral("privateTargets")).toBool();
    });
    // Work a visitor started (anonymous and visiting agents' A2W runs, v1 tasks, runtime
    // runs, context/external) acts for the site's A2W account key: it reaches the site's
    // own hosts (its usable site keys' allowed domains) and the owner's allowlist only.
    m_policy->setVisitorReachLookup(
        [this](const QString &keyId) -> std::shared_ptr<const PrivateReach> {
            sites::SiteRepository &repo = m_sites->sites();
            const std::optional<QString> siteId = repo.siteOfVisitorAccount(keyId);
            if (!siteId)
                return nullptr;
            auto reach = std::make_shared<PrivateReach>();
            reach->allowlist = repo.privateHosts(*siteId);
            QList<QPair<QStringList, sites::DomainScope>> domains;
            const qint64 now = m_clock->nowMs();
            for (const sites::SiteKey &k : repo.listKeys(*siteId)) {
                if (k.isUsable(now))
                    domains.append({k.allowedDomains, k.domainScope()});
            }
            reach->siteHost = [domains](const QString &host) {
                const QString url =
                    QStringLiteral("http://%1/")
                        .arg(host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host);
                for (const auto &[entries, scope] : domains) {
                    if (sites::AllowedDomains::allows(entries, scope, url))
                        return true;
                }
                return false;
            };
            return reach;
        });
    BrowserPool::Options poolOptions;
    poolOptions.size = m_settings->intValue(SettingKeys::poolSize);
    poolOptions.queueLimit = m_settings->intValue(SettingKeys::poolQueueLimit);
    poolOptions.standby = m_settings->intValue(SettingKeys::poolStandby);
    poolOptions.visitorSharePercent = m_settings->intValue(SettingKeys::poolVisitorShare);
    poolOptions.siteSharePercent = m_settings->intValue(SettingKeys::poolSiteShare);
    poolOptions.engine = m_settings->stringValue(SettingKeys::browserEngine);
    poolOptions.chromiumPath = m_settings->stringValue(SettingKeys::browserChromiumPath);
    m_pool = std::make_unique<BrowserPool>(poolOptions, *m_policy);
    m_pool->setPageDefaults(m_settings->boolValue(SettingKeys::browserPolyfills),
                            m_settings->stringValue(SettingKeys::browserUserAgent).trimmed());

    m_auth = std::make_unique<http::ApiKeyAuthenticator>(*m_store);
    m_http = std::make_unique<http::HttpServer>(*m_auth, *m_clock);
    m_http->setMaxBodyBytes(m_settings->int64Value(SettingKeys::maxBodyBytes));
    m_network = std::make_unique<QNetworkAccessManager>();
    m_network->setProxy(QNetworkProxy::NoProxy); // the operator's LLM endpoint
    m_tools = engine::ToolRegistry::builtIn();
    m_trajectories = std::make_unique<engine::TrajectoryRepository>(*m_store);
    m_engine = std::make_unique<engine::EngineServices>(engine::EngineServices{
        *m_store, *m_settings, *m_pool, *m_policy, *m_network, *m_tools, *m_trajectories});
    m_runs = std::make_unique<engine::RunManager>(*m_engine);
    m_webhooks =
        std::make_unique<webhooks::WebhookQueue>(*m_store, *m_clock, *m_policy, *m_network);
    m_webhooksController = std::make_unique<webhooks::WebhooksController>(
        *m_store, *m_settings, *m_webhooks, *m_clock, *m_policy);
    m_scrape = std::make_unique<cloud::ScrapeController>(*m_store, *m_settings, *m_pool, *m_policy,
                                                         *m_webhooks);
    // The browser bridge's library (saved tools, recordings, triggers) and agent runs.
    m_library = std::make_unique<cloud::LibraryRepository>(*m_store);
    m_toolLibrary = std::make_unique<cloud::ToolLibrary>(*m_library, *m_runs, *m_trajectories);
    m_runService = std::make_unique<cloud::RunService>(*m_store, *m_settings, *m_pool, *m_runs,
                                                       *m_webhooks, *m_toolLibrary);
    m_liveViews = std::make_unique<engine::LiveViews>(*m_store, *m_settings, *m_pool, *m_runs,
                                                      *m_trajectories);
    m_liveViewController = std::make_unique<cloud::LiveViewController>(*m_liveViews);
    m_agent = std::make_unique<cloud::AgentController>(*m_store, *m_settings, *m_policy,
                                                       *m_runService, *m_liveViews);
    m_system = std::make_unique<sys::SystemController>(*m_keyService, *m_settingsService, *m_pool);
    m_http->addController(*m_scrape);
    m_http->addController(*m_agent);
    m_http->addController(*m_liveViewController);
    m_http->addController(*m_system);
    m_http->addController(*m_webhooksController);

    // Owner credentials beyond the API key (ID tokens) and the sites area's Connect AI
    // keys, for the Workspace and SiteAgent routes.
    m_idTokens = std::make_unique<http::IdTokenVerifier>(*m_settings, *m_clock);
    m_sites = std::make_unique<sites::SitesArea>(*m_store, *m_clock);
    m_auth->addVerifier(m_idTokens.get());
    m_auth->addVerifier(&m_sites->connectKeyVerifier());
    // The capabilities the owner set on a user API key (PATCH /api-keys/{id}) gate the
    // cloud routes; a key with none set keeps the defaults (cloud on).
    m_auth->setCapabilityLookup(
        [sites = m_sites.get()](const QString &keyId, const QString &capability) {
            const std::optional<QJsonObject> caps = sites->sites().apiKeyCapabilities(keyId);
            if (!caps || !caps->contains(capability))
                return std::optional<bool>();
            return std::optional<bool>(caps->value(capability).toBool());
        });
    for (http::Controller *controller : m_sites->controllers())
        m_http->addController(*controller);

    // The browser bridge (/mcp, trigger URLs) and its library: saved tools, recordings,
    // triggers.
    m_libraryController = std::make_unique<cloud::LibraryController>(*m_settings, *m_toolLibrary);
    m_bridge = std::make_unique<cloud::BridgeController>(*m_store, *m_settings, *m_policy, *m_auth,
                                                         *m_runService, *m_scrape, *m_toolLibrary,
                                                         *m_webhooks);
    m_http->addController(*m_libraryController);
    m_http->addController(*m_bridge);
    // A2W runs of visiting agents, on the same run core.
    m_a2w = std::make_unique<a2w::A2wService>(*m_store, *m_settings, *m_policy, m_sites->sites(),
                                              m_sites->analytics(), *m_keyService, *m_runService,
                                              *m_runs);
    // Web Bot Auth trust tiers; the v1 task contract and every site's MCP server on the
    // same runs.
    m_webBotAuth = std::make_unique<a2w::WebBotAuth>(*m_store, *m_policy, *m_settings);
    m_a2wController = std::make_unique<a2w::A2wController>(*m_a2w, *m_webBotAuth, *m_settings);
    m_a2wController->setAuthenticator(m_auth.get());
    m_taskController = std::make_unique<a2w::TaskController>(*m_a2w, *m_webBotAuth, *m_settings);
    m_siteMcp = std::make_unique<a2w::SiteMcpController>(*m_a2w, *m_webBotAuth, *m_settings,
                                                         m_store->clock());
    m_http->addController(*m_a2wController);
    m_http->addController(*m_taskController);
    m_http->addController(*m_siteMcp);
    // The browser runtime of embedded sites, called from the sites' own pages.
    m_runtime = std::make_unique<runtime::RuntimeService>(*m_store, *m_settings, m_sites->sites(),
                                                          m_sites->analytics());
    m_runtimeController = std::make_unique<runtime::RuntimeController>(*m_runtime, *m_settings);
    // A2W browser runs: offered to the visitor, run only once they accept, and their
    // result sent to the agent only as the visitor shares it.
    m_runtime->setA2wClaimer([a2w = m_a2w.get()](const QString &receipt, const QString &siteId,
                                                 runtime::RuntimeService::A2wClaim what) {
        using Claim = runtime::RuntimeService::A2wClaim;
        a2w::A2wService::Claimed c;
        if (what == Claim::Decline) {
            a2w->declineBrowserRun(receipt, siteId);
            return runtime::RuntimeService::A2wOffer();
        }
        c = what == Claim::Accept ? a2w->claimBrowserRun(receipt, siteId)
                                  : a2w->offerBrowserRun(receipt, siteId);
        return runtime::RuntimeService::A2wOffer{
            c.runId, c.task, c.siteName, c.host, c.url, c.agentName, c.trust, c.signatureAgent};
    });
    m_runtime->setA2wReviewer(
        [a2w = m_a2w.get()](const QString &a2wRunId, bool share, const QJsonObject &result) {
            a2w->shareBrowserResult(a2wRunId, share, result);
        });
    m_runtimeRunner = std::make_unique<runtime::RuntimeRunner>(
        *m_runtime, *m_runService, *m_runs, *m_a2w, m_sites->sites(), *m_policy, *m_settings);
    m_runtimeController->setExternalActor(
        [runner = m_runtimeRunner.get()](const QString &siteId, const QString &pageUrl,
                                         const QString &url, const QString &task, int timeoutMs,
                                         QObject *context, std::function<void(QJsonObject)> done) {
            runner->actExternally(siteId, pageUrl, url, task, timeoutMs, context, std::move(done));
        });
    m_runtimeController->setCloudBrowser(
        m_pool.get(), m_policy.get(),
        [a2w = m_a2w.get(), sites = &m_sites->sites()](const QString &siteId) {
            const std::optional<sites::Site> site = sites->findSite(siteId);
            return site ? a2w->accountFor(site->id, site->name) : QString();
        });
    m_http->addController(*m_runtimeController);
    m_http->allowCrossOrigin(QStringLiteral("/v2/runtime/"));
    // The owner's analytics notification webhooks, on the webhook queue, for the owner.
    m_analyticsNotifications = std::make_unique<AnalyticsNotifications>(
        *m_store, m_sites->sites(), m_sites->analytics(), *m_webhooks, [store = m_store.get()] {
            for (const ApiKey &k : store->apiKeys().list())
                if (k.isOwner() && k.isActive())
                    return k.id;
            return QString();
        });
    m_http->allowCrossOrigin(QStringLiteral("/embed.js"));
    if (m_config.demo) {
        m_demoSite = std::make_unique<DemoSite>();
        m_http->addController(*m_demoSite);
    }
    // Last: the API description lists the routes the table holds when it is asked.
    m_openApi = std::make_unique<http::OpenApiController>(
        [server = m_http.get()] { return server->routes(); });
    m_http->addController(*m_openApi);

    // Expired objects (large-response snapshots) are deleted on a timer.
    m_purger = std::make_unique<ObjectPurger>(
        m_store->objects(), m_settings->intValue(SettingKeys::storagePurgeIntervalMs));
    m_purger->addTask([runtime = m_runtime.get()] { return runtime->purgeStale(); });
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
    m_runs->recoverOrphans();
    m_a2w->recover();
    m_scrape->recoverUnfinished();

    if (!m_http->listenOn(m_config.bind, m_config.port, error)) {
        *error = QStringLiteral("cannot listen on %1:%2: %3")
                     .arg(m_config.bind.toString())
                     .arg(m_config.port)
                     .arg(*error);
        return false;
    }
    m_settings->setRuntimeDefault(SettingKeys::publicBaseUrl, apiAddress());
    m_webhooks->start();
    m_running = true;
    return true;
}

void Service::applySettings()
{
    m_policy->setAllowPrivateTargets(m_settings->boolValue(SettingKeys::allowPrivateTargets));
    m_http->setMaxBodyBytes(m_settings->int64Value(SettingKeys::maxBodyBytes));
    BrowserPool::Options o;
    o.size = m_settings->intValue(SettingKeys::poolSize);
    o.queueLimit = m_settings->intValue(SettingKeys::poolQueueLimit);
    o.standby = m_settings->intValue(SettingKeys::poolStandby);
    o.visitorSharePercent = m_settings->intValue(SettingKeys::poolVisitorShare);
    o.siteSharePercent = m_settings->intValue(SettingKeys::poolSiteShare);
    o.engine = m_settings->stringValue(SettingKeys::browserEngine);
    o.chromiumPath = m_settings->stringValue(SettingKeys::browserChromiumPath);
    m_pool->setOptions(o);
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
    m_bridge->mcp().setLimits(m);
    m_sites->mcp().setLimits(m);
    m_siteMcp->mcp().setLimits(m);

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
        m_runs->shutdown();
        m_http->failInFlight();
        // Let the last answers reach their clients before the process goes.
        m_http->drain(2000, [this] {
            qCInfo(lcService) << "answers sent; closing the browser pool and the store";
            m_purger.reset();
            m_liveViews->shutdown();
            m_pool->shutdown();
            m_store->close();
            qCInfo(lcService) << "stopped";
            Q_EMIT stopped();
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
