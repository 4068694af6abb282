#include "Settings.h"

#include "Clock.h"
#include "SecretBox.h"
#include "Store.h"
#include "TrustedProxies.h"
#include "core/HttpUrl.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

#include <cmath>

namespace ph {

const QList<Settings::Definition> &Settings::definitions()
{
    using T = QJsonValue::Type;
    using Unit = Definition::Unit;
    using Applies = Definition::Applies;
    static const QList<Definition> defs = {
        {SettingKeys::maxBodyBytes, T::Double, 10 * 1024 * 1024, 1024, 1024.0 * 1024 * 1024,
         QStringLiteral("Largest accepted request body in bytes; larger bodies get 413."), false,
         Unit::Bytes, Applies::Immediately},
        {SettingKeys::publicBaseUrl, T::String, QString(), 0, 0,
         QStringLiteral("The address clients reach Pilothouse at, for absolute links in responses "
                        "(signed download URLs). Defaults to the listening address."),
         false, Unit::Url, Applies::Immediately},
        {SettingKeys::publicOrigins, T::String, QString(), 0, 0,
         QStringLiteral("Pilothouse's own public origins, comma-separated (such as "
                        "https://automation.example.com): a Web Bot Auth signature counts "
                        "only for one of their hosts (@authority). Empty: the origin of "
                        "http.publicBaseUrl, and on loopback both 127.0.0.1 and localhost "
                        "with the listening port."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::allowPrivateTargets, T::Bool, QJsonValue(), 0, 0,
         QStringLiteral("The master switch for loopback, private and link-local targets "
                        "(browsing, input fetches, callbacks): while on, owner keys and user "
                        "keys granted privateTargets may reach them. Defaults to on when bound "
                        "to loopback, else off."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::poolSize, T::Double, 4, 1, 64,
         QStringLiteral("Browser pages that work at once."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::poolQueueLimit, T::Double, 64, 0, 100000,
         QStringLiteral("Page requests that may wait for a free page; beyond it, 429."), false,
         Unit::None, Applies::Immediately},
        {SettingKeys::poolStandby, T::Double, 1, 0, 64,
         QStringLiteral("Fresh isolated pages prepared ahead of need."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::poolVisitorShare, T::Double, 50, 0, 100,
         QStringLiteral("Share of pool.size (and of pool.queueLimit) that work of anonymous "
                        "callers, visiting agents and site visitors may hold together, rounded "
                        "down, at least one page; beyond it their requests wait while keyed "
                        "work is served."),
         false, Unit::Percent, Applies::Immediately},
        {SettingKeys::poolSiteShare, T::Double, 25, 0, 100,
         QStringLiteral("Share of pool.size (and of pool.queueLimit) that such work on one site "
                        "may hold, rounded down, at least one page."),
         false, Unit::Percent, Applies::Immediately},
        {SettingKeys::browserEngine,
         T::String,
         QStringLiteral("qtwebengine"),
         0,
         0,
         QStringLiteral("The engine pages run on unless a request asks for the other: "
                        "qtwebengine (in this process) or chromium (Debian's current Chromium "
                        "over the DevTools protocol; docs/engines.md)."),
         false,
         Unit::None,
         Applies::Immediately,
         {QStringLiteral("qtwebengine"), QStringLiteral("chromium")}},
        {SettingKeys::browserChromiumPath, T::String, QString(), 0, 0,
         QStringLiteral("The chromium engine's executable; empty: Debian's "
                        "chromium-headless-shell, else chromium on PATH.")},
        {SettingKeys::browserPolyfills, T::Bool, true, 0, 0,
         QStringLiteral("Whether pooled pages get the bundled JavaScript polyfills (core-js) "
                        "when a request does not say (browser.polyfills in the request).")},
        {SettingKeys::browserUserAgent, T::String, QString(), 0, 0,
         QStringLiteral("The user agent pooled pages send and show; empty: the engine's own, "
                        "naming its real Chrome version and Pilothouse.")},
        {SettingKeys::navigationTimeoutMs, T::Double, 30000, 100, 600000,
         QStringLiteral("Default time limit of one navigation in milliseconds."), false,
         Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::scrapeMaxUrls, T::Double, 100, 1, 10000,
         QStringLiteral("Most URLs one /scrape request may carry."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::scrapeMaxTreeNodes, T::Double, 2000, 10, 200000,
         QStringLiteral("Default node cap of an accessibility tree."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::searchSearxngUrl, T::String, QString(), 0, 0,
         QStringLiteral("Base URL of a SearXNG instance whose JSON API answers the "
                        "Firecrawl-compatible /firecrawl/v2/search (format json enabled in its "
                        "settings.yml); empty: search answers that it is not configured."),
         false, Unit::Url, Applies::Immediately},
        {SettingKeys::firecrawlRespectRobots, T::Bool, true, 0, 0,
         QStringLiteral("The Firecrawl-compatible map (and crawl) leave out the URLs a site's "
                        "robots.txt disallows for every user agent; off: robots.txt is read for "
                        "its Sitemap lines only."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::firecrawlCacheEntries, T::Double, 256, 0, 100000,
         QStringLiteral("Recent Firecrawl-compatible scrapes kept in memory per API key for "
                        "requests with maxAge; 0: no cache."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::firecrawlStatusPageBytes, T::Double, 10485760, 1, 104857600,
         QStringLiteral("Most bytes of documents one crawl or batch scrape status answer holds "
                        "(Firecrawl's 10 MiB); the rest is behind its next URL."),
         false, Unit::Bytes, Applies::Immediately},
        {SettingKeys::shutdownGraceMs, T::Double, 5000, 0, 120000,
         QStringLiteral("How long shutdown waits for in-flight requests before failing them."),
         false, Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::agentSyncWindowMs, T::Double, 30000, 0, 3600000,
         QStringLiteral("How long /agent waits for a run before answering \"executing\"."), false,
         Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::agentMaxRunMs, T::Double, 300000, 1000, 86400000,
         QStringLiteral("Time limit of one agent phase; beyond it the run ends cancelled."), false,
         Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::agentMaxSteps, T::Double, 100, 1, 10000,
         QStringLiteral("Most tool steps in one agent phase."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::agentMaxRunsPerKey, T::Double, 4, 1, 1000,
         QStringLiteral("Agent runs one API key may have executing (or waiting for input "
                        "with a page held) at once; beyond, 429."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::agentMaxPages, T::Double, 20, 1, 1000,
         QStringLiteral("Most pages the rule planner follows when paginating."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::agentMaxWorkflowRows, T::Double, 500, 1, 100000,
         QStringLiteral("Most sheet rows one sheets_workflow call visits."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::agentPausedLeaseMs, T::Double, 120000, 0, 86400000,
         QStringLiteral("Longest a run waiting for input keeps its browser page (it gives it "
                        "back at once when another request waits for one); the held page counts "
                        "against agent.maxConcurrentRunsPerKey."),
         false, Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::agentInlineOutputMaxBytes, T::Double, 1048576, 1024, 1073741824,
         QStringLiteral("Default cap of an inline agent response; larger ones are stored."), false,
         Unit::Bytes, Applies::Immediately},
        {SettingKeys::agentLiveViewTokenSeconds, T::Double, 1800, 30, 86400,
         QStringLiteral("Lifetime of a live view link (options.liveView) in seconds; GET "
                        "/agent/{id} gives a fresh one while the run lives."),
         false, Unit::Seconds, Applies::ForNewSessions},
        {SettingKeys::bridgeSyncWindowMs, T::Double, 25000, 0, 3600000,
         QStringLiteral("How long the browser bridge (/mcp, trigger URLs) waits for a run "
                        "before answering 202 with its trajectoryId."),
         false, Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::storageUrlTtlSeconds, T::Double, 900, 10, 604800,
         QStringLiteral("Lifetime of signed download URLs in seconds."), false, Unit::Seconds,
         Applies::ForNewSessions},
        {SettingKeys::a2wMaxWaitSeconds, T::Double, 30, 0, 120,
         QStringLiteral("Longest an A2W call holds its answer for `Prefer: wait` or `wait=` "
                        "(seconds)."),
         false, Unit::Seconds, Applies::Immediately},
        {SettingKeys::a2wInputExpirySeconds, T::Double, 900, 1, 86400,
         QStringLiteral("How long an A2W run waits for input (or for a browser to claim it) "
                        "before it expires."),
         false, Unit::Seconds, Applies::Immediately},
        {SettingKeys::a2wIdempotencyHours, T::Double, 24, 1, 720,
         QStringLiteral("How long an A2W Idempotency-Key keeps answering with its run."), false,
         Unit::Hours, Applies::Immediately},
        {SettingKeys::a2wRunsPerMinutePerAddress, T::Double, 30, 1, 100000,
         QStringLiteral("A2W runs an anonymous client address may create a minute; beyond, "
                        "429 with Retry-After."),
         false, Unit::PerMinute, Applies::Immediately},
        {SettingKeys::a2wRunsPerMinuteIdentified, T::Double, 60, 1, 100000,
         QStringLiteral("A2W runs a minute for an identified caller (an agent object or a "
                        "client id), counted per address."),
         false, Unit::PerMinute, Applies::Immediately},
        {SettingKeys::a2wRunsPerMinuteVerified, T::Double, 300, 1, 100000,
         QStringLiteral("A2W runs a minute for a caller with a verified Web Bot Auth signature, "
                        "counted per key directory."),
         false, Unit::PerMinute, Applies::Immediately},
        {SettingKeys::a2wSensitiveNeedsVerified, T::Bool, true, 0, 0,
         QStringLiteral("Delegated sessions and the commerce and payment fields need a verified "
                        "Web Bot Auth signature; off: any trust tier may use them."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::a2wSignatureMaxAgeSeconds, T::Double, 3600, 10, 86400,
         QStringLiteral("The longest Web Bot Auth signature window (expires - created) accepted."),
         false, Unit::Seconds, Applies::Immediately},
        {SettingKeys::a2wEventChunkBytes, T::Double, 16384, 256, 1048576,
         QStringLiteral("v1 task events whose data is larger are sent in chunks of this size."),
         false, Unit::Bytes, Applies::Immediately},
        {SettingKeys::runtimeSessionTokenSeconds, T::Double, 600, 30, 86400,
         QStringLiteral("Lifetime of a runtime session token (sess_) and stream ticket."), false,
         Unit::Seconds, Applies::ForNewSessions},
        {SettingKeys::runtimeSnapshotInlineBytes, T::Double, 65536, 1024, 16777216,
         QStringLiteral("Runtime checkpoints larger than this are offloaded to storage."), false,
         Unit::Bytes, Applies::Immediately},
        {SettingKeys::runtimeTelemetryMaxEvents, T::Double, 100, 1, 10000,
         QStringLiteral("Most telemetry events kept from one ingest batch."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::runtimeTelemetryMaxEventBytes, T::Double, 2048, 64, 65536,
         QStringLiteral("Telemetry events larger than this (as JSON) are truncated."), false,
         Unit::Bytes, Applies::Immediately},
        {SettingKeys::runtimeExternalBlockPercent, T::Double, 70, 1, 100,
         QStringLiteral("A tab event or external context call whose adversarial score (0-100 "
                        "%) reaches this is blocked."),
         false, Unit::Percent, Applies::Immediately},
        {SettingKeys::runtimeStreamPingMs, T::Double, 15000, 100, 600000,
         QStringLiteral("Interval of ping events on runtime streams."), false, Unit::Milliseconds,
         Applies::ForNewSessions},
        {SettingKeys::runtimeExecuteRuns, T::Bool, true, 0, 0,
         QStringLiteral("The engine executes the runs visitors start, on their page; off: runs "
                        "are accepted and streamed but wait for an executor of the site's own."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::runtimeMaxSnapshotBytes, T::Double, 1048576, 1024, 67108864,
         QStringLiteral("Largest runtime checkpoint one snapshot write may store; a larger one "
                        "is refused (413)."),
         false, Unit::Bytes, Applies::Immediately},
        {SettingKeys::runtimeMaxStoredBytesPerSession, T::Double, 4194304, 1024, 1073741824,
         QStringLiteral("Bytes one runtime session may keep stored (its checkpoint and its "
                        "telemetry); a write beyond it is refused (413)."),
         false, Unit::Bytes, Applies::Immediately},
        {SettingKeys::runtimeMaxStoredBytesPerSite, T::Double, 268435456, 1024, 68719476736.0,
         QStringLiteral("Bytes all runtime sessions of one site may keep stored (checkpoints and "
                        "telemetry); a write beyond it is refused (413)."),
         false, Unit::Bytes, Applies::Immediately},
        {SettingKeys::runtimeTelemetryRetentionHours, T::Double, 720, 1, 87600,
         QStringLiteral("Hours runtime telemetry is kept; older batches go at the next storage "
                        "purge."),
         false, Unit::Hours, Applies::Immediately},
        {SettingKeys::runtimeSessionOpensPerMinutePerClient, T::Double, 60, 1, 100000,
         QStringLiteral("Runtime session/open calls a minute from one client; beyond it, 429."),
         false, Unit::PerMinute, Applies::Immediately},
        {SettingKeys::runtimeSessionOpensPerMinutePerSite, T::Double, 1200, 1, 1000000,
         QStringLiteral("Runtime sessions opened a minute on one site, by all its visitors; "
                        "beyond it, 429."),
         false, Unit::PerMinute, Applies::Immediately},
        {SettingKeys::llmBaseUrl, T::String, QString(), 0, 0,
         QStringLiteral("Base URL of an OpenAI-compatible API (…/v1); empty: no LLM planner."),
         false, Unit::Url, Applies::Immediately},
        {SettingKeys::llmModel, T::String, QString(), 0, 0,
         QStringLiteral("Model name for the LLM planner."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::llmApiKey, T::String, QString(), 0, 0,
         QStringLiteral("API key sent to the LLM endpoint (stored encrypted, never shown)."), true,
         Unit::None, Applies::Immediately},
        {SettingKeys::llmTimeoutMs, T::Double, 120000, 1000, 3600000,
         QStringLiteral("Time limit of one chat-completions call."), false, Unit::Milliseconds,
         Applies::Immediately},
        {SettingKeys::llmMaxSteps, T::Double, 30, 1, 1000,
         QStringLiteral("Most model turns in one agent phase."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::oidcIssuer, T::String, QString(), 0, 0,
         QStringLiteral("OpenID issuer whose ID tokens authenticate the site owner (the `iss` "
                        "claim, e.g. https://accounts.example.com). Empty: ID tokens are refused."),
         false, Unit::Url, Applies::Immediately},
        {SettingKeys::oidcAudience, T::String, QString(), 0, 0,
         QStringLiteral("The `aud` an ID token must carry (the client id the issuer gave you)."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::oidcJwksUri, T::String, QString(), 0, 0,
         QStringLiteral("Where the issuer's signing keys are. Empty: discovered from "
                        "<issuer>/.well-known/openid-configuration."),
         false, Unit::Url, Applies::Immediately},
        {SettingKeys::oidcOwners, T::String, QString(), 0, 0,
         QStringLiteral("Comma-separated `sub` or `email` values accepted as the owner (an "
                        "email only with `email_verified` true). Empty: no ID token is the "
                        "owner."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::oidcJwksMinRefreshMs, T::Double, 60000, 0, 86400000,
         QStringLiteral("Least time between two key fetches caused by tokens with an unknown "
                        "key id."),
         false, Unit::Milliseconds, Applies::Immediately},
        // Limits (docs/security.md#limits).
        {SettingKeys::maxConnections, T::Double, 1024, 1, 100000,
         QStringLiteral("Open HTTP connections at once; a connection beyond is answered 503 "
                        "and closed."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::maxConnectionsPerAddress, T::Double, 64, 1, 100000,
         QStringLiteral("Open HTTP connections from one client address; a connection beyond "
                        "is answered 429 and closed. Connections from http.trustedProxies "
                        "count for the client each request is from, while it is answered."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::trustedProxies, T::String, QString(), 0, 0,
         QStringLiteral("Reverse proxies whose Forwarded and X-Forwarded-For headers are "
                        "believed: IP addresses and CIDR ranges separated by commas (e.g. "
                        "127.0.0.1, ::1). Empty: none; every client is its TCP peer."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::maxStreamsPerClient, T::Double, 16, 1, 100000,
         QStringLiteral("Event streams and long-polls one client may hold open at once "
                        "(the owner's key is not counted); beyond, 429."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::maxStreamsPerSite, T::Double, 256, 1, 100000,
         QStringLiteral("Event streams and long-polls the callers of one site (A2W runs, v1 "
                        "tasks, the runtime) may hold open at once; beyond, 429."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::headerTimeoutMs, T::Double, 10000, 50, 600000,
         QStringLiteral("Time a connection may wait idle for its next request, and a "
                        "request's headers may take from their first byte; beyond, 408 (or a "
                        "quiet close when nothing came)."),
         false, Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::bodyTimeoutMs, T::Double, 30000, 50, 3600000,
         QStringLiteral("Time a request body may take, plus one second per "
                        "http.bodyMinBytesPerSecond bytes received; beyond, 408."),
         false, Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::bodyMinBytesPerSecond, T::Double, 1024, 0, 1073741824,
         QStringLiteral("Bytes of body that earn one more second of http.bodyTimeoutMs "
                        "(0: the body timeout is fixed)."),
         false, Unit::BytesPerSecond, Applies::Immediately},
        {SettingKeys::scrapeMaxRequestsPerKey, T::Double, 16, 1, 1000,
         QStringLiteral("/scrape requests (and bridge scrapes) one API key may have in flight "
                        "at once; beyond, 429."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::agentMaxUrls, T::Double, 20, 1, 10000,
         QStringLiteral("Most urls one /agent request may carry; beyond, 400 TOO_MANY_ITEMS."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::agentMaxFileUrls, T::Double, 10, 0, 1000,
         QStringLiteral("Most file_urls one /agent request may carry; beyond, 400."), false,
         Unit::None, Applies::Immediately},
        {SettingKeys::agentMaxImageUrls, T::Double, 10, 0, 1000,
         QStringLiteral("Most image_urls one /agent request may carry; beyond, 400."), false,
         Unit::None, Applies::Immediately},
        {SettingKeys::agentMaxDataInputs, T::Double, 20, 0, 1000,
         QStringLiteral("Most dataInputs one /agent request may carry; beyond, 400."), false,
         Unit::None, Applies::Immediately},
        {SettingKeys::agentMaxInputBytes, T::Double, 536870912, 1024, 17179869184.0,
         QStringLiteral("Most bytes all inputs of one request (file_urls, image_urls, "
                        "dataInputs) may come to once decoded and decompressed; beyond, 400 "
                        "INPUT_TOO_LARGE naming the input that crossed it."),
         false, Unit::Bytes, Applies::Immediately},
        {SettingKeys::sessionsPerKey, T::Double, 3, 1, 1000,
         QStringLiteral("Browser sessions (POST /sessions) one API key may have running at "
                        "once; beyond it, 429 with Retry-After."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::sessionsMax, T::Double, 6, 1, 1000,
         QStringLiteral("Browser sessions running at once on this service, each a Chromium "
                        "process of its own; beyond it, 429 with Retry-After."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::mcpMaxSessions, T::Double, 1000, 1, 100000,
         QStringLiteral("MCP sessions one MCP endpoint keeps; a new one evicts the least "
                        "recently used."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::mcpMaxSessionsPerCredential, T::Double, 32, 1, 100000,
         QStringLiteral("MCP sessions one credential may keep on an endpoint; a new one evicts "
                        "its least recently used."),
         false, Unit::None, Applies::Immediately},
        {SettingKeys::mcpMaxSessionBytes, T::Double, 16384, 256, 1048576,
         QStringLiteral("Largest state one MCP session may keep (the client's clientInfo); an "
                        "initialize over it is refused."),
         false, Unit::Bytes, Applies::Immediately},
        {SettingKeys::mcpSessionIdleMs, T::Double, 3600000, 1000, 604800000,
         QStringLiteral("An MCP session unused this long ends; its client gets 404 and "
                        "initializes again."),
         false, Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::storagePurgeIntervalMs, T::Double, 600000, 10, 86400000,
         QStringLiteral("How often expired stored objects (large-response snapshots) are "
                        "deleted."),
         false, Unit::Milliseconds, Applies::Immediately},
        {SettingKeys::storageRetentionHours, T::Double, 720, 0, 87600,
         QStringLiteral("How long stored files without a lifetime of their own (generated "
                        "files, uploads, generated websites) are kept after they were made; "
                        "0 keeps them."),
         false, Unit::Hours, Applies::Immediately},
        {SettingKeys::webhooksMaxTestCount, T::Double, 10000, 1, 100000,
         QStringLiteral("Most deliveries one POST /webhooks/test may ask for."), false, Unit::None,
         Applies::Immediately},
        {SettingKeys::webhooksMaxPendingTestsPerKey, T::Double, 20000, 1, 10000000,
         QStringLiteral("Test deliveries one API key may have pending; a test beyond, 429."), false,
         Unit::None, Applies::Immediately},
    };
    return defs;
}

const Settings::Definition *Settings::definition(const QString &key)
{
    for (const auto &d : definitions()) {
        if (d.key == key)
            return &d;
    }
    return nullptr;
}

Settings::Settings(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    Sql q(m_store, QStringLiteral("SELECT key, value FROM settings"));
    q.exec();
    while (q.next()) {
        const Definition *d = definition(q.value(0).toString());
        const auto doc = QJsonDocument::fromJson("[" + q.value(1).toString().toUtf8() + "]");
        if (!doc.isArray() || !d)
            continue;
        QJsonValue v = doc.array().at(0);
        if (d->secret && v.isString()) {
            bool ok = false;
            v = m_store.secrets().unseal(v.toString(), &ok);
            if (!ok)
                continue; // sealed with a lost key: treat as unset
        }
        m_stored.insert(d->key, v);
    }
}

QJsonValue Settings::value(const QString &key) const
{
    if (auto it = m_overrides.constFind(key); it != m_overrides.cend())
        return *it;
    if (auto it = m_stored.constFind(key); it != m_stored.cend())
        return *it;
    if (auto it = m_runtimeDefaults.constFind(key); it != m_runtimeDefaults.cend())
        return *it;
    const Definition *d = definition(key);
    return d ? d->defaultValue : QJsonValue();
}

int Settings::intValue(const QString &key) const
{
    return int(value(key).toDouble());
}

qint64 Settings::int64Value(const QString &key) const
{
    return qint64(value(key).toDouble());
}

bool Settings::boolValue(const QString &key) const
{
    return value(key).toBool();
}

QString Settings::stringValue(const QString &key) const
{
    return value(key).toString();
}

QStringList Settings::parseOrigins(const QString &text, QString *problem)
{
    QStringList out;
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (const QString &entry : text.split(separators, Qt::SkipEmptyParts)) {
        const QUrl url(entry, QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        const QString path = url.path();
        if (!url.isValid() || url.host().isEmpty() ||
            (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
            !url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment() ||
            (!path.isEmpty() && path != QLatin1String("/"))) {
            if (problem && problem->isEmpty())
                *problem = QStringLiteral("must be a comma-separated list of origins such as "
                                          "https://automation.example.com (scheme, host and "
                                          "port only): '%1' is not one")
                               .arg(entry.left(200));
            continue;
        }
        const int port = url.port(-1);
        const int standard = scheme == QLatin1String("https") ? 443 : 80;
        QString host = url.host(QUrl::FullyEncoded).toLower();
        if (host.contains(u':'))
            host = u'[' + host + u']';
        QString origin = scheme + QStringLiteral("://") + host;
        if (port >= 0 && port != standard)
            origin += u':' + QString::number(port);
        if (!out.contains(origin))
            out << origin;
    }
    return out;
}

QString Settings::validate(const QString &key, const QJsonValue &value) const
{
    const Definition *d = definition(key);
    if (!d)
        return QStringLiteral("unknown setting %1").arg(key);
    if (value.type() != d->type) {
        const char *expected = d->type == QJsonValue::Bool     ? "a boolean"
                               : d->type == QJsonValue::Double ? "a number"
                                                               : "a string";
        return QStringLiteral("%1 must be %2").arg(key, QLatin1String(expected));
    }
    if (!d->choices.isEmpty() && !d->choices.contains(value.toString()))
        return QStringLiteral("%1 must be one of: %2")
            .arg(key, d->choices.join(QStringLiteral(", ")));
    if (d->type == QJsonValue::Double) {
        const double v = value.toDouble();
        if (v != std::floor(v))
            return QStringLiteral("%1 must be a whole number").arg(key);
        if (d->maximum > 0 && (v < d->minimum || v > d->maximum))
            return QStringLiteral("%1 must be between %2 and %3")
                .arg(key)
                .arg(qint64(d->minimum))
                .arg(qint64(d->maximum));
    }
    // A header value: printable, one line, and of a sane length.
    if (key == SettingKeys::browserUserAgent) {
        const QString ua = value.toString();
        if (ua.size() > 512)
            return QStringLiteral("%1 must be at most 512 characters").arg(key);
        for (const QChar c : ua) {
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                return QStringLiteral("%1 must not hold control characters").arg(key);
        }
    }
    if (key == SettingKeys::publicOrigins) {
        QString problem;
        parseOrigins(value.toString(), &problem);
        if (!problem.isEmpty())
            return QStringLiteral("%1 %2").arg(key, problem);
    }
    if (key == SettingKeys::trustedProxies) {
        QString problem;
        if (!TrustedProxies::parse(value.toString(), &problem))
            return QStringLiteral("%1 must list IP addresses or CIDR ranges: %2").arg(key, problem);
    }
    if (d->unit == Definition::Unit::Url && !value.toString().trimmed().isEmpty()) {
        if (!HttpUrl::parse(value.toString().trimmed()))
            return QStringLiteral("%1 must be an absolute http or https URL (or empty)").arg(key);
    }
    return {};
}

QString Settings::set(const QString &key, const QJsonValue &value)
{
    if (QString error = validate(key, value); !error.isEmpty())
        return error;
    const Definition *d = definition(key);
    const QJsonValue atRest =
        d->secret ? QJsonValue(m_store.secrets().seal(value.toString())) : value;
    const QByteArray encoded = QJsonDocument(QJsonArray{atRest}).toJson(QJsonDocument::Compact);
    Sql(m_store, QStringLiteral("INSERT INTO settings (key, value, updated_at) VALUES (:k, :v, :t)"
                                " ON CONFLICT(key) DO UPDATE SET value = excluded.value,"
                                " updated_at = excluded.updated_at"))
        .bind(QStringLiteral(":k"), key)
        .bind(QStringLiteral(":v"), QString::fromUtf8(encoded.mid(1, encoded.size() - 2)))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
    m_stored.insert(key, value);
    Q_EMIT changed(key);
    return {};
}

QString Settings::setOverride(const QString &assignment)
{
    const qsizetype eq = assignment.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return QStringLiteral("expected KEY=VALUE, got '%1'").arg(assignment);
    const QString key = assignment.left(eq).trimmed();
    const QString raw = assignment.mid(eq + 1).trimmed();
    const Definition *d = definition(key);
    if (!d)
        return QStringLiteral("unknown setting %1").arg(key);
    QJsonValue v;
    if (d->type == QJsonValue::Bool) {
        if (raw == QLatin1String("true") || raw == QLatin1String("on") || raw == QLatin1String("1"))
            v = true;
        else if (raw == QLatin1String("false") || raw == QLatin1String("off") ||
                 raw == QLatin1String("0"))
            v = false;
    } else if (d->type == QJsonValue::Double) {
        bool ok = false;
        const double n = raw.toDouble(&ok);
        if (ok)
            v = n;
    } else {
        v = raw;
    }
    if (QString error = validate(key, v); !error.isEmpty())
        return error;
    m_overrides.insert(key, v);
    Q_EMIT changed(key);
    return {};
}

void Settings::setRuntimeDefault(const QString &key, const QJsonValue &value)
{
    m_runtimeDefaults.insert(key, value);
}

QJsonValue Settings::masked(const Definition &d, const QJsonValue &value)
{
    if (!d.secret)
        return value;
    return QJsonObject{{QStringLiteral("set"), !value.toString().isEmpty()}};
}

QJsonObject Settings::snapshot() const
{
    QJsonObject out;
    for (const auto &d : definitions())
        out.insert(d.key, masked(d, value(d.key)));
    return out;
}

} // namespace ph
