#include "RunService.h"

#include "SessionWork.h"

#include "ToolLibrary.h"

#include "browser/BrowserPool.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/Ids.h"
#include "core/RequestLog.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/RunManager.h"
#include "webhooks/WebhookEvents.h"
#include "webhooks/WebhookQueue.h"

#include <QSet>
#include <QTimer>

#include <memory>

namespace ph::cloud {

using engine::AgentRun;
using engine::RunStatus;

RunService::RunService(Store &store, Settings &settings, BrowserPool &pool,
                       engine::RunManager &runs, webhooks::WebhookQueue &webhooks,
                       ToolLibrary &library)
    : m_store(store)
    , m_settings(settings)
    , m_pool(pool)
    , m_runs(runs)
    , m_webhooks(webhooks)
    , m_library(library)
{
    // Every end of a phase (and every pause for input) is announced inside the
    // transaction that stores it.
    m_runs.setSettleHook([this](const engine::Settlement &s) { announce(s); });
}

void RunService::announce(const engine::Settlement &s)
{
    // The request that drove the phase is done, in the same commit.
    m_store.requests().finish(
        s.requestId, engine::toString(s.status),
        {{QStringLiteral("trajectoryId"), s.trajectoryId}, {QStringLiteral("phase"), s.phase}});
    QList<WebhookSubscription> subscriptions;
    QSet<QString> seen;
    for (const QString &requestId : s.subscriberRequests) {
        for (const WebhookSubscription &sub : m_store.requests().subscriptions(requestId)) {
            const QString key = sub.url + QLatin1Char('\n') + sub.events.join(QLatin1Char(','));
            if (!seen.contains(key)) {
                seen.insert(key);
                subscriptions.append(sub);
            }
        }
    }
    if (subscriptions.isEmpty())
        return;
    const QJsonObject &response = s.response;
    webhooks::Outcome o;
    o.requestId = s.requestId;
    // Runs the bridge started name their tool and params (docs/api/bridge.md).
    o.endpoint = s.bridged ? QStringLiteral("/mcp") : QStringLiteral("/agent");
    o.tool = s.tool;
    o.status = engine::toString(s.status);
    o.success = s.status == RunStatus::Success;
    o.inputRequired = s.status == RunStatus::RequiresInput;
    o.startedAt = s.startedAt;
    o.finishedAt = m_store.clock().nowMs();
    o.creditsUsedMilli = s.creditsUsedMilli;
    o.creditsLeftMilli = s.creditsLeftMilli;
    o.output = response;
    const QJsonValue json =
        response.value(QStringLiteral("result")).toObject().value(QStringLiteral("json"));
    o.extractedData = json.isArray()
                          ? json.toArray()
                          : (json.isUndefined() || json.isNull() ? QJsonArray() : QJsonArray{json});
    o.errorMessage = response.value(QStringLiteral("error")).toString(s.error);
    o.errorCode = s.status == RunStatus::Cancelled ? QStringLiteral("CANCELLED")
                                                   : QStringLiteral("RUN_FAILED");
    o.errorDetails = {{QStringLiteral("status"), o.status},
                      {QStringLiteral("trajectoryId"), s.trajectoryId}};
    o.params = s.params;
    o.trajectoryId = s.trajectoryId;
    o.phase = s.phase;
    m_webhooks.enqueue(o.requestId, s.keyId, subscriptions,
                       webhooks::eventsFor(o, m_store.clock()));
}

AgentRun *RunService::start(const engine::ExecuteRequest &request, const QString &keyId,
                            const QString &requestId, const QString &endpoint)
{
    if (!request.browserSession.isEmpty() && !request.sessionPage) {
        // A run inside the caller's own active browser session (404 for another key's or
        // an unknown one, 409 when it is not active): its pages are the session's tabs.
        engine::ExecuteRequest inSession = request;
        inSession.sessionPage =
            sessionPageOpener(findSessionBrowser(m_sessions, keyId, request.browserSession));
        return start(inSession, keyId, requestId, endpoint);
    }
    if (!m_store.credits().canSpend(keyId))
        throw DomainError::creditsExhausted();
    // Per-key fairness: runs executing, and waiting ones that hold a page, count.
    const int limit = m_settings.intValue(SettingKeys::agentMaxRunsPerKey);
    if (!request.historyContinue && m_runs.active(keyId) >= limit)
        throw DomainError::keyBusy(QStringLiteral("agent runs"), m_runs.active(keyId), limit,
                                   SettingKeys::agentMaxRunsPerKey, m_pool.retryAfterSeconds());
    m_pool.requireEngine(request.browser);
    // A run on a visitor's own page (the runtime's remote tab) or in a browser session
    // takes no page of the pool.
    if (!request.historyContinue && !request.remoteTab && !request.sessionPage &&
        !m_pool.hasRoomFor(1, request.browser))
        throw DomainError::busy(QStringLiteral("the browser pool is busy; retry later"),
                                m_pool.retryAfterSeconds());

    // The request, its subscriptions and the run's first rows in one commit: a run the
    // store has always knows whom it owes its callbacks.
    engine::EngineError error;
    AgentRun *run = nullptr;
    m_store.transaction([&] {
        m_store.requests().begin(requestId, keyId, endpoint);
        m_store.requests().addSubscriptions(requestId, request.webhooks);
        run = m_runs.submit(request, keyId, requestId, &error);
        if (!run)
            m_store.requests().finish(requestId, QStringLiteral("refused"),
                                      {{QStringLiteral("code"), error->code()}});
    });
    if (!run)
        throw *error;
    run->addSubscriberRequest(requestId);
    return run;
}

AgentRun *RunService::runSavedTool(const QString &keyId, const QString &name,
                                   const QJsonObject &params, const QString &endpoint)
{
    engine::ExecuteRequest request = m_library.savedToolRequest(keyId, name, params);
    request.stored.insert(QStringLiteral("source"), endpoint);
    return start(request, keyId, Ids::make(QStringLiteral("req")), endpoint);
}

AgentRun *RunService::live(const QString &trajectoryId) const
{
    return m_runs.live(trajectoryId);
}

QJsonObject RunService::latest(const QString &trajectoryId, const QString &keyId) const
{
    engine::EngineError error;
    const auto response = m_runs.latest(trajectoryId, keyId, &error);
    if (!response)
        throw *error;
    return *response;
}

QJsonObject RunService::cancel(const QString &trajectoryId, const QString &keyId)
{
    engine::EngineError error;
    if (!m_runs.cancel(trajectoryId, keyId, QStringLiteral("cancelled"), &error))
        throw *error;
    return m_runs.latest(trajectoryId, keyId, &error).value_or(QJsonObject());
}

std::optional<DomainError> RunService::inputError(const AgentRun &run)
{
    // An input that could not be used is the request's fault: a typed 400 naming it
    // (the trajectory keeps the error for GET /agent/{id}).
    const auto &bad = run.inputError();
    if (!bad)
        return std::nullopt;
    QJsonObject details = bad->details;
    details.insert(QStringLiteral("trajectoryId"), run.trajectoryId());
    details.insert(QStringLiteral("phase"), run.phase());
    return DomainError(DomainError::Kind::Invalid, bad->code, bad->message, bad->field, details);
}

void RunService::awaitRun(AgentRun *run, int windowMs, QObject *context, std::function<void()> then)
{
    auto done = std::make_shared<bool>(false);
    auto finish = [done, then] {
        if (*done)
            return;
        *done = true;
        then();
    };
    if (!run || run->status() != RunStatus::Executing) {
        finish();
        return;
    }
    QObject::connect(run, &AgentRun::settled, context, finish, Qt::SingleShotConnection);
    QTimer::singleShot(windowMs, context, finish);
}

} // namespace ph::cloud
