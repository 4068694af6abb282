#include "ExtractController.h"

#include "FirecrawlController.h"
#include "FirecrawlErrors.h"

#include "cloud/AgentRequest.h"
#include "cloud/RunService.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/EngineTypes.h"
#include "http/Exchange.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QPointer>

namespace ph::firecrawl {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

constexpr qint64 kJobLifetimeMs = 24LL * 3600 * 1000; // Firecrawl's expiresAt: a day
constexpr int kSettleSlackMs = 10000;

// What an agent run's answer (ApiExecuteResponse) says, in Firecrawl's words.
struct RunEnd
{
    QString status; // processing, completed, failed, cancelled
    QJsonValue data;
    QString error;
    double credits = 0;
};

RunEnd readRunEnd(const QJsonObject &response)
{
    RunEnd end;
    const QString status = response.value(QStringLiteral("status")).toString();
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    end.credits = response.value(QStringLiteral("usage"))
                      .toObject()
                      .value(QStringLiteral("creditsUsed"))
                      .toDouble();
    if (status == QLatin1String("executing")) {
        end.status = QStringLiteral("processing");
    } else if (status == QLatin1String("success")) {
        end.status = QStringLiteral("completed");
        // An agent's result is {json, text}: the schema-shaped data is Firecrawl's data.
        end.data = result.contains(QStringLiteral("json")) ? result.value(QStringLiteral("json"))
                                                           : QJsonValue(result);
    } else {
        end.status = status == QLatin1String("cancelled") ? QStringLiteral("cancelled")
                                                          : QStringLiteral("failed");
        end.error = response.value(QStringLiteral("error")).toString();
        if (status == QLatin1String("requires_input"))
            end.error = QStringLiteral("the run waits for input it cannot get here (answer it "
                                       "with POST /agent, trajectoryId %1)")
                            .arg(response.value(QStringLiteral("trajectoryId")).toString());
        if (end.error.isEmpty())
            end.error = QStringLiteral("the run ended %1").arg(status);
    }
    return end;
}

QString isoIn(const Store &, qint64 fromMs)
{
    return Clock::isoUtc(fromMs + kJobLifetimeMs);
}

} // namespace

ExtractController::ExtractController(Store &store, Settings &settings, NetworkPolicy &policy,
                                     cloud::RunService &runs, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_runs(runs)
{}

ExtractController::~ExtractController() = default;

QList<Route> ExtractController::routes()
{
    using C = ExtractController;
    const QString base = QString::fromLatin1(FirecrawlController::kBase);
    QList<Route> table;
    for (const char *v : {"/v1", "/v2"}) {
        const QString p = base + QLatin1String(v);
        table << Route::to("POST", p + QStringLiteral("/extract"), AuthPolicy::ApiKey, this,
                           &C::startExtract)
              << Route::to("GET", p + QStringLiteral("/extract/{id}"), AuthPolicy::ApiKey, this,
                           &C::extractStatus);
    }
    table << Route::to("POST", base + QStringLiteral("/v2/agent"), AuthPolicy::ApiKey, this,
                       &C::startAgent)
          << Route::to("GET", base + QStringLiteral("/v2/agent/{id}"), AuthPolicy::ApiKey, this,
                       &C::agentStatus)
          << Route::to("DELETE", base + QStringLiteral("/v2/agent/{id}"), AuthPolicy::ApiKey, this,
                       &C::cancelAgent);
    // Agent runs: the capability of POST /agent.
    for (Route &route : table) {
        route.capability = QStringLiteral("cloudAgent");
        route.envelope = &errorEnvelope;
    }
    return table;
}

void ExtractController::expire()
{
    const qint64 now = m_store.clock().nowMs();
    for (auto it = m_jobs.begin(); it != m_jobs.end();) {
        if (it->done && now - it->createdAtMs > kJobLifetimeMs)
            it = m_jobs.erase(it);
        else
            ++it;
    }
}

void ExtractController::startExtract(Exchange &ex)
{
    expire();
    Job job;
    job.request = readExtractRequest(ex.request().jsonObject());
    job.keyId = ex.request().principal.keyId;
    job.endpoint = ex.request().path;
    job.createdAtMs = m_store.clock().nowMs();
    // Every page passes the caller's network policy before anything runs.
    const EgressGrant grant = m_policy.grantFor(job.keyId);
    for (qsizetype i = 0; i < job.request.urls.size(); ++i)
        NetworkPolicy::requireReachable(job.request.urls.at(i), QStringLiteral("urls[%1]").arg(i),
                                        grant);
    const QString id = Ids::make(QStringLiteral("fcx"), 24);
    m_jobs.insert(id, job);
    try {
        runNext(id, true);
    } catch (...) {
        m_jobs.remove(id);
        throw;
    }
    ex.respondJson(200, {{QStringLiteral("success"), true},
                         {QStringLiteral("id"), id},
                         {QStringLiteral("urlTrace"), QJsonArray()}});
}

void ExtractController::runNext(const QString &jobId, bool first)
{
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end())
        return;
    Job &job = *it;
    if (job.next >= job.request.urls.size()) {
        job.done = true;
        return;
    }
    const QUrl url = job.request.urls.at(job.next++);
    engine::AgentRun *run = nullptr;
    try {
        const engine::ExecuteRequest request = cloud::readExecuteRequest(
            job.request.agentRequest(url), m_policy.grantFor(job.keyId), m_settings);
        run = m_runs.start(request, job.keyId, Ids::make(QStringLiteral("req"), 20), job.endpoint);
    } catch (const DomainError &e) {
        if (first)
            throw;
        job.errors << QStringLiteral("%1: %2").arg(url.toString(), e.message());
        QMetaObject::invokeMethod(
            this, [this, jobId] { runNext(jobId, false); }, Qt::QueuedConnection);
        return;
    }
    QPointer<engine::AgentRun> guard(run);
    const QString trajectoryId = run->trajectoryId();
    const QString keyId = job.keyId;
    const int windowMs = m_settings.intValue(SettingKeys::agentMaxRunMs) + kSettleSlackMs;
    cloud::RunService::awaitRun(
        run, windowMs, this, [this, guard, jobId, url, trajectoryId, keyId] {
            QJsonObject response;
            if (guard)
                response = guard->response();
            else {
                try {
                    response = m_runs.latest(trajectoryId, keyId);
                } catch (const DomainError &e) {
                    response = {{QStringLiteral("status"), QStringLiteral("error")},
                                {QStringLiteral("error"), e.message()}};
                }
            }
            if (guard && guard->status() == engine::RunStatus::Executing)
                guard->cancel(QStringLiteral("timeout"));
            settled(jobId, url.toString(), response);
        });
}

void ExtractController::settled(const QString &jobId, const QString &url,
                                const QJsonObject &response)
{
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end())
        return;
    const RunEnd end = readRunEnd(response);
    it->credits += end.credits;
    if (end.status == QLatin1String("completed")) {
        ++it->succeeded;
        it->data = mergeExtracted(it->data, end.data);
    } else {
        it->errors << QStringLiteral("%1: %2").arg(
            url,
            end.error.isEmpty() ? QStringLiteral("the run did not finish in time") : end.error);
    }
    runNext(jobId, false);
}

void ExtractController::extractStatus(Exchange &ex)
{
    expire();
    const QString id = ex.request().param(QStringLiteral("id"));
    const auto it = m_jobs.constFind(id);
    if (it == m_jobs.constEnd() || it->keyId != ex.request().principal.keyId)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("EXTRACT_JOB_NOT_FOUND"),
                          QStringLiteral("Extract job not found: no extract job %1 for this key "
                                         "(extract jobs are kept in memory for 24 hours and "
                                         "do not survive a restart of Pilothouse)")
                              .arg(id));
    const Job &job = *it;
    const QString status = !job.done           ? QStringLiteral("processing")
                           : job.succeeded > 0 ? QStringLiteral("completed")
                                               : QStringLiteral("failed");
    QJsonObject body{{QStringLiteral("success"), status != QLatin1String("failed")},
                     {QStringLiteral("status"), status},
                     {QStringLiteral("data"), job.data.isUndefined() ? QJsonValue() : job.data},
                     {QStringLiteral("expiresAt"), isoIn(m_store, job.createdAtMs)},
                     {QStringLiteral("creditsUsed"), job.credits}};
    if (job.done && !job.errors.isEmpty()) {
        const QString joined = job.errors.join(QStringLiteral("; "));
        body.insert(status == QLatin1String("failed") ? QStringLiteral("error")
                                                      : QStringLiteral("warning"),
                    joined);
    }
    ex.respondJson(200, body);
}

void ExtractController::startAgent(Exchange &ex)
{
    const AgentJobRequest request = readAgentJobRequest(ex.request().jsonObject());
    const QString keyId = ex.request().principal.keyId;
    const EgressGrant grant = m_policy.grantFor(keyId);
    for (qsizetype i = 0; i < request.urls.size(); ++i)
        NetworkPolicy::requireReachable(request.urls.at(i), QStringLiteral("urls[%1]").arg(i),
                                        grant);
    const engine::ExecuteRequest run =
        cloud::readExecuteRequest(request.agentRequest(), grant, m_settings);
    engine::AgentRun *agent = m_runs.start(run, keyId, ex.request().id, ex.request().path);
    ex.respondJson(
        200, {{QStringLiteral("success"), true}, {QStringLiteral("id"), agent->trajectoryId()}});
}

void ExtractController::agentStatus(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const QJsonObject response = m_runs.latest(id, ex.request().principal.keyId);
    const RunEnd end = readRunEnd(response);
    QJsonObject body{{QStringLiteral("success"), end.status != QLatin1String("failed")},
                     {QStringLiteral("status"), end.status},
                     {QStringLiteral("data"), end.data.isUndefined() ? QJsonValue() : end.data},
                     {QStringLiteral("creditsUsed"), end.credits},
                     // A trajectory is kept: it does not expire a day after it began.
                     {QStringLiteral("expiresAt"), isoIn(m_store, m_store.clock().nowMs())}};
    if (!end.error.isEmpty())
        body.insert(QStringLiteral("error"), end.error);
    ex.respondJson(200, body);
}

void ExtractController::cancelAgent(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    m_runs.cancel(id, ex.request().principal.keyId);
    ex.respondJson(200, {{QStringLiteral("success"), true}});
}

} // namespace ph::firecrawl
