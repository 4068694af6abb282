#pragma once

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QString>
#include <QStringList>

namespace ph {

class Store;

// Typed settings. A value comes from, in order: a command-line override
// (`--set key=value`, not stored), the store (`settings` table), a runtime default the
// service computes at start (e.g. private targets depend on the bind address), the
// built-in default. docs/configuration.md lists every key.
class Settings : public QObject
{
    Q_OBJECT
public:
    struct Definition
    {
        // What a number counts, so a reader can show it with its unit (and type it in a
        // larger one: MB for Bytes, s for Milliseconds); Url: a string that is empty or an
        // absolute http or https URL (validate() refuses anything else).
        enum class Unit {
            None,
            Bytes,
            BytesPerSecond,
            Milliseconds,
            Seconds,
            Hours,
            Percent,
            PerMinute,
            Url
        };
        // When a stored value takes effect: at once for everything; ForNewSessions: what
        // was handed out before (tokens, links, open streams) keeps the old value;
        // AfterRestart: only at the next start.
        enum class Applies { Immediately, ForNewSessions, AfterRestart };

        QString key;
        QJsonValue::Type type;
        QJsonValue defaultValue;
        double minimum = 0;
        double maximum = 0; // 0: no bound checks (strings, booleans)
        QString help;
        bool secret = false; // sealed at rest with the SecretBox, never shown by reads
        Unit unit = Unit::None;
        Applies applies = Applies::Immediately;
        // A string that must be one of these (empty: any); the console offers them.
        QStringList choices = {};
    };
    static const QList<Definition> &definitions();
    static const Definition *definition(const QString &key);
    // A list of origins (http.publicOrigins): comma- or space-separated absolute http or
    // https URLs with a host and nothing after it but "/". Each comes back as
    // "scheme://host[:port]" (lowercase, the port only when not the scheme's default);
    // `problem`, when given, completes "<key> …" for the first entry that is not an origin.
    static QStringList parseOrigins(const QString &text, QString *problem = nullptr);

    explicit Settings(Store &store, QObject *parent = nullptr);

    QJsonValue value(const QString &key) const;
    int intValue(const QString &key) const;
    qint64 int64Value(const QString &key) const;
    bool boolValue(const QString &key) const;
    QString stringValue(const QString &key) const;

    // Why `value` cannot be stored under `key` (a sentence starting with the key), or
    // empty when it can.
    QString validate(const QString &key, const QJsonValue &value) const;
    // Validates and stores a value. Returns an empty string on success, else a
    // sentence naming what is wrong; nothing is stored then.
    QString set(const QString &key, const QJsonValue &value);
    // Parses `key=value` from the command line (numbers, true/false, strings).
    QString setOverride(const QString &assignment);
    void setRuntimeDefault(const QString &key, const QJsonValue &value);

    // Every setting's value; secrets appear only as whether they are set.
    QJsonObject snapshot() const;
    static QJsonValue masked(const Definition &d, const QJsonValue &value);

Q_SIGNALS:
    void changed(const QString &key);

private:
    Store &m_store;
    QHash<QString, QJsonValue> m_stored;
    QHash<QString, QJsonValue> m_overrides;
    QHash<QString, QJsonValue> m_runtimeDefaults;
};

namespace SettingKeys {
inline const QString maxBodyBytes = QStringLiteral("http.maxBodyBytes");
inline const QString allowPrivateTargets = QStringLiteral("network.allowPrivateTargets");
inline const QString poolSize = QStringLiteral("pool.size");
inline const QString poolQueueLimit = QStringLiteral("pool.queueLimit");
inline const QString poolStandby = QStringLiteral("pool.standby");
inline const QString poolVisitorShare = QStringLiteral("pool.visitorShare");
inline const QString poolSiteShare = QStringLiteral("pool.siteShare");
inline const QString browserPolyfills = QStringLiteral("browser.polyfills");
inline const QString browserUserAgent = QStringLiteral("browser.userAgent");
inline const QString navigationTimeoutMs = QStringLiteral("pool.navigationTimeoutMs");
inline const QString browserEngine = QStringLiteral("browser.engine");
inline const QString browserChromiumPath = QStringLiteral("browser.chromiumPath");
inline const QString scrapeMaxUrls = QStringLiteral("scrape.maxUrls");
inline const QString scrapeMaxTreeNodes = QStringLiteral("scrape.maxTreeNodes");
inline const QString searchSearxngUrl = QStringLiteral("search.searxngUrl");
inline const QString firecrawlRespectRobots = QStringLiteral("firecrawl.respectRobots");
inline const QString firecrawlCacheEntries = QStringLiteral("firecrawl.cacheEntries");
inline const QString firecrawlStatusPageBytes = QStringLiteral("firecrawl.statusPageBytes");
inline const QString shutdownGraceMs = QStringLiteral("shutdown.graceMs");
inline const QString publicBaseUrl = QStringLiteral("http.publicBaseUrl");
inline const QString publicOrigins = QStringLiteral("http.publicOrigins");
inline const QString agentSyncWindowMs = QStringLiteral("agent.syncWindowMs");
inline const QString agentMaxRunMs = QStringLiteral("agent.maxRunMs");
inline const QString agentMaxSteps = QStringLiteral("agent.maxSteps");
inline const QString agentMaxRunsPerKey = QStringLiteral("agent.maxConcurrentRunsPerKey");
inline const QString agentMaxPages = QStringLiteral("agent.maxPages");
inline const QString agentMaxWorkflowRows = QStringLiteral("agent.maxWorkflowRows");
inline const QString agentPausedLeaseMs = QStringLiteral("agent.pausedLeaseMs");
inline const QString agentInlineOutputMaxBytes = QStringLiteral("agent.inlineOutputMaxBytes");
inline const QString agentLiveViewTokenSeconds = QStringLiteral("agent.liveViewTokenSeconds");
inline const QString bridgeSyncWindowMs = QStringLiteral("bridge.syncWindowMs");
inline const QString storageUrlTtlSeconds = QStringLiteral("storage.urlTtlSeconds");
// A2W runs of visiting agents (docs/api/a2w.md).
inline const QString a2wMaxWaitSeconds = QStringLiteral("a2w.maxWaitSeconds");
inline const QString a2wInputExpirySeconds = QStringLiteral("a2w.inputExpirySeconds");
inline const QString a2wIdempotencyHours = QStringLiteral("a2w.idempotencyHours");
inline const QString a2wRunsPerMinutePerAddress = QStringLiteral("a2w.runsPerMinutePerAddress");
inline const QString a2wRunsPerMinuteIdentified = QStringLiteral("a2w.runsPerMinuteIdentified");
inline const QString a2wRunsPerMinuteVerified = QStringLiteral("a2w.runsPerMinuteVerified");
inline const QString a2wSensitiveNeedsVerified = QStringLiteral("a2w.sensitiveNeedsVerified");
inline const QString a2wSignatureMaxAgeSeconds = QStringLiteral("a2w.signatureMaxAgeSeconds");
inline const QString a2wEventChunkBytes = QStringLiteral("a2w.eventChunkBytes");
// The browser runtime of embedded sites (docs/api/runtime.md).
inline const QString runtimeSessionTokenSeconds = QStringLiteral("runtime.sessionTokenSeconds");
inline const QString runtimeSnapshotInlineBytes = QStringLiteral("runtime.snapshotInlineBytes");
inline const QString runtimeTelemetryMaxEvents = QStringLiteral("runtime.telemetryMaxEvents");
inline const QString runtimeTelemetryMaxEventBytes =
    QStringLiteral("runtime.telemetryMaxEventBytes");
inline const QString runtimeExternalBlockPercent = QStringLiteral("runtime.externalBlockPercent");
inline const QString runtimeStreamPingMs = QStringLiteral("runtime.streamPingMs");
inline const QString runtimeExecuteRuns = QStringLiteral("runtime.executeRuns");
// What visitors may store (docs/security.md, "Quotas for what visitors store").
inline const QString runtimeMaxSnapshotBytes = QStringLiteral("runtime.maxSnapshotBytes");
inline const QString runtimeMaxStoredBytesPerSession =
    QStringLiteral("runtime.maxStoredBytesPerSession");
inline const QString runtimeMaxStoredBytesPerSite = QStringLiteral("runtime.maxStoredBytesPerSite");
inline const QString runtimeTelemetryRetentionHours =
    QStringLiteral("runtime.telemetryRetentionHours");
inline const QString runtimeSessionOpensPerMinutePerClient =
    QStringLiteral("runtime.sessionOpensPerMinutePerClient");
inline const QString runtimeSessionOpensPerMinutePerSite =
    QStringLiteral("runtime.sessionOpensPerMinutePerSite");
inline const QString llmBaseUrl = QStringLiteral("llm.baseUrl");
inline const QString llmModel = QStringLiteral("llm.model");
inline const QString llmApiKey = QStringLiteral("llm.apiKey");
inline const QString llmTimeoutMs = QStringLiteral("llm.timeoutMs");
inline const QString llmMaxSteps = QStringLiteral("llm.maxSteps");
inline const QString oidcIssuer = QStringLiteral("auth.oidc.issuer");
inline const QString oidcAudience = QStringLiteral("auth.oidc.audience");
inline const QString oidcJwksUri = QStringLiteral("auth.oidc.jwksUri");
inline const QString oidcOwners = QStringLiteral("auth.oidc.owners");
inline const QString oidcJwksMinRefreshMs = QStringLiteral("auth.oidc.jwksMinRefreshMs");
// Limits (docs/security.md#limits).
inline const QString maxConnections = QStringLiteral("http.maxConnections");
inline const QString maxConnectionsPerAddress = QStringLiteral("http.maxConnectionsPerAddress");
// Client identity behind a reverse proxy (docs/security.md).
inline const QString trustedProxies = QStringLiteral("http.trustedProxies");
inline const QString maxStreamsPerClient = QStringLiteral("http.maxStreamsPerClient");
inline const QString maxStreamsPerSite = QStringLiteral("http.maxStreamsPerSite");
inline const QString headerTimeoutMs = QStringLiteral("http.headerTimeoutMs");
inline const QString bodyTimeoutMs = QStringLiteral("http.bodyTimeoutMs");
inline const QString bodyMinBytesPerSecond = QStringLiteral("http.bodyMinBytesPerSecond");
inline const QString scrapeMaxRequestsPerKey = QStringLiteral("scrape.maxConcurrentRequestsPerKey");
inline const QString agentMaxUrls = QStringLiteral("agent.maxUrls");
inline const QString agentMaxFileUrls = QStringLiteral("agent.maxFileUrls");
inline const QString agentMaxImageUrls = QStringLiteral("agent.maxImageUrls");
inline const QString agentMaxDataInputs = QStringLiteral("agent.maxDataInputs");
inline const QString agentMaxInputBytes = QStringLiteral("agent.maxInputBytes");
inline const QString mcpMaxSessions = QStringLiteral("mcp.maxSessions");
inline const QString mcpMaxSessionsPerCredential = QStringLiteral("mcp.maxSessionsPerCredential");
inline const QString mcpMaxSessionBytes = QStringLiteral("mcp.maxSessionBytes");
inline const QString mcpSessionIdleMs = QStringLiteral("mcp.sessionIdleMs");
inline const QString storagePurgeIntervalMs = QStringLiteral("storage.purgeIntervalMs");
inline const QString storageRetentionHours = QStringLiteral("storage.retentionHours");
inline const QString sessionsPerKey = QStringLiteral("sessions.perKey");
inline const QString sessionsMax = QStringLiteral("sessions.max");
inline const QString webhooksMaxTestCount = QStringLiteral("webhooks.maxTestCount");
inline const QString webhooksMaxPendingTestsPerKey =
    QStringLiteral("webhooks.maxPendingTestsPerKey");
} // namespace SettingKeys

} // namespace ph
