#include "SettingLabels.h"

#include <QCoreApplication>
#include <QHash>

namespace ph::ui {

namespace {
// Marked for lupdate here, translated when shown (the language may change at run time).
const QHash<QString, const char *> &labels()
{
    static const QHash<QString, const char *> table = {
        {QStringLiteral("http.maxBodyBytes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Largest request body")},
        {QStringLiteral("http.publicBaseUrl"),
         QT_TRANSLATE_NOOP("SettingLabels", "Public address")},
        {QStringLiteral("network.allowPrivateTargets"),
         QT_TRANSLATE_NOOP("SettingLabels", "Allow private and loopback targets")},
        {QStringLiteral("pool.size"), QT_TRANSLATE_NOOP("SettingLabels", "Browser pages at once")},
        {QStringLiteral("pool.queueLimit"),
         QT_TRANSLATE_NOOP("SettingLabels", "Waiting page requests")},
        {QStringLiteral("pool.standby"),
         QT_TRANSLATE_NOOP("SettingLabels", "Pages prepared ahead")},
        {QStringLiteral("pool.navigationTimeoutMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Navigation time limit")},
        {QStringLiteral("scrape.maxUrls"),
         QT_TRANSLATE_NOOP("SettingLabels", "URLs per scrape request")},
        {QStringLiteral("scrape.maxTreeNodes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Accessibility tree nodes")},
        {QStringLiteral("shutdown.graceMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Shutdown grace time")},
        {QStringLiteral("agent.syncWindowMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Wait for a run before answering")},
        {QStringLiteral("agent.maxRunMs"), QT_TRANSLATE_NOOP("SettingLabels", "Run time limit")},
        {QStringLiteral("agent.maxSteps"), QT_TRANSLATE_NOOP("SettingLabels", "Steps per run")},
        {QStringLiteral("agent.maxConcurrentRunsPerKey"),
         QT_TRANSLATE_NOOP("SettingLabels", "Runs at once per key")},
        {QStringLiteral("agent.maxPages"),
         QT_TRANSLATE_NOOP("SettingLabels", "Pages followed when paginating")},
        {QStringLiteral("agent.maxWorkflowRows"),
         QT_TRANSLATE_NOOP("SettingLabels", "Sheet rows per workflow")},
        {QStringLiteral("agent.pausedLeaseMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Page kept while waiting for input")},
        {QStringLiteral("agent.inlineOutputMaxBytes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Largest inline answer")},
        {QStringLiteral("agent.liveViewTokenSeconds"),
         QT_TRANSLATE_NOOP("SettingLabels", "Live view link lifetime")},
        {QStringLiteral("bridge.syncWindowMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Bridge wait before answering")},
        {QStringLiteral("storage.urlTtlSeconds"),
         QT_TRANSLATE_NOOP("SettingLabels", "Download link lifetime")},
        {QStringLiteral("a2w.maxWaitSeconds"),
         QT_TRANSLATE_NOOP("SettingLabels", "Longest held answer")},
        {QStringLiteral("a2w.inputExpirySeconds"),
         QT_TRANSLATE_NOOP("SettingLabels", "Wait for input before expiry")},
        {QStringLiteral("a2w.idempotencyHours"),
         QT_TRANSLATE_NOOP("SettingLabels", "Idempotency key lifetime")},
        {QStringLiteral("a2w.runsPerMinutePerAddress"),
         QT_TRANSLATE_NOOP("SettingLabels", "Runs per address (anonymous)")},
        {QStringLiteral("a2w.runsPerMinuteIdentified"),
         QT_TRANSLATE_NOOP("SettingLabels", "Runs per address (identified)")},
        {QStringLiteral("a2w.runsPerMinuteVerified"),
         QT_TRANSLATE_NOOP("SettingLabels", "Runs per verified agent")},
        {QStringLiteral("a2w.sensitiveNeedsVerified"),
         QT_TRANSLATE_NOOP("SettingLabels", "Sensitive fields need a verified agent")},
        {QStringLiteral("a2w.signatureMaxAgeSeconds"),
         QT_TRANSLATE_NOOP("SettingLabels", "Longest signature window")},
        {QStringLiteral("a2w.eventChunkBytes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Event chunk size")},
        {QStringLiteral("runtime.sessionTokenSeconds"),
         QT_TRANSLATE_NOOP("SettingLabels", "Session token lifetime")},
        {QStringLiteral("runtime.snapshotInlineBytes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Largest inline checkpoint")},
        {QStringLiteral("runtime.telemetryMaxEvents"),
         QT_TRANSLATE_NOOP("SettingLabels", "Telemetry events per batch")},
        {QStringLiteral("runtime.telemetryMaxEventBytes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Largest telemetry event")},
        {QStringLiteral("runtime.externalBlockPercent"),
         QT_TRANSLATE_NOOP("SettingLabels", "Block at adversarial score")},
        {QStringLiteral("runtime.streamPingMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Stream ping interval")},
        {QStringLiteral("runtime.executeRuns"),
         QT_TRANSLATE_NOOP("SettingLabels", "Execute visitors' runs")},
        {QStringLiteral("llm.baseUrl"), QT_TRANSLATE_NOOP("SettingLabels", "LLM API address")},
        {QStringLiteral("llm.model"), QT_TRANSLATE_NOOP("SettingLabels", "Model")},
        {QStringLiteral("llm.apiKey"), QT_TRANSLATE_NOOP("SettingLabels", "LLM API key")},
        {QStringLiteral("llm.timeoutMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Model call time limit")},
        {QStringLiteral("llm.maxSteps"), QT_TRANSLATE_NOOP("SettingLabels", "Model turns per run")},
        {QStringLiteral("auth.oidc.issuer"), QT_TRANSLATE_NOOP("SettingLabels", "Issuer")},
        {QStringLiteral("auth.oidc.audience"),
         QT_TRANSLATE_NOOP("SettingLabels", "Audience (client id)")},
        {QStringLiteral("auth.oidc.jwksUri"),
         QT_TRANSLATE_NOOP("SettingLabels", "Signing keys address")},
        {QStringLiteral("auth.oidc.owners"), QT_TRANSLATE_NOOP("SettingLabels", "Owners")},
        {QStringLiteral("auth.oidc.jwksMinRefreshMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Least time between key fetches")},
        {QStringLiteral("http.maxConnections"),
         QT_TRANSLATE_NOOP("SettingLabels", "Open connections")},
        {QStringLiteral("http.maxConnectionsPerAddress"),
         QT_TRANSLATE_NOOP("SettingLabels", "Open connections per address")},
        {QStringLiteral("http.headerTimeoutMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Header time limit")},
        {QStringLiteral("http.bodyTimeoutMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Body time limit")},
        {QStringLiteral("http.bodyMinBytesPerSecond"),
         QT_TRANSLATE_NOOP("SettingLabels", "Body speed that earns more time")},
        {QStringLiteral("scrape.maxConcurrentRequestsPerKey"),
         QT_TRANSLATE_NOOP("SettingLabels", "Scrapes at once per key")},
        {QStringLiteral("agent.maxUrls"),
         QT_TRANSLATE_NOOP("SettingLabels", "URLs per run request")},
        {QStringLiteral("agent.maxFileUrls"),
         QT_TRANSLATE_NOOP("SettingLabels", "Files per run request")},
        {QStringLiteral("agent.maxImageUrls"),
         QT_TRANSLATE_NOOP("SettingLabels", "Images per run request")},
        {QStringLiteral("agent.maxDataInputs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Data inputs per run request")},
        {QStringLiteral("agent.maxInputBytes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Largest inputs per request")},
        {QStringLiteral("mcp.maxSessions"), QT_TRANSLATE_NOOP("SettingLabels", "MCP sessions")},
        {QStringLiteral("mcp.maxSessionsPerCredential"),
         QT_TRANSLATE_NOOP("SettingLabels", "MCP sessions per credential")},
        {QStringLiteral("mcp.maxSessionBytes"),
         QT_TRANSLATE_NOOP("SettingLabels", "Largest MCP session state")},
        {QStringLiteral("mcp.sessionIdleMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "MCP session idle limit")},
        {QStringLiteral("storage.purgeIntervalMs"),
         QT_TRANSLATE_NOOP("SettingLabels", "Expired files purge interval")},
        {QStringLiteral("webhooks.maxTestCount"),
         QT_TRANSLATE_NOOP("SettingLabels", "Deliveries per webhook test")},
        {QStringLiteral("webhooks.maxPendingTestsPerKey"),
         QT_TRANSLATE_NOOP("SettingLabels", "Pending test deliveries per key")},
    };
    return table;
}
} // namespace

QString settingLabel(const QString &key)
{
    const char *source = labels().value(key);
    return source ? QCoreApplication::translate("SettingLabels", source) : key;
}

bool hasSettingLabel(const QString &key)
{
    return labels().contains(key);
}

} // namespace ph::ui
