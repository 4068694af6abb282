#include "AgentController.h"

#include "AgentRequest.h"

#include "browser/BrowserPool.h"
#include "core/ApiKeyRepository.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/DomainError.h"
#include "core/HeaderText.h"
#include "core/ObjectStore.h"
#include "core/RequestLog.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/ResponseBuilder.h"
#include "engine/RunManager.h"
#include "http/Authenticator.h"
#include "http/Exchange.h"
#include "http/LongPoll.h"
#include "net/NetworkPolicy.h"
#include "webhooks/WebhookEvents.h"
#include "webhooks/WebhookQueue.h"

#include <QPointer>
#include <QSet>
#include <QTimer>

namespace ph::cloud {

using engine::AgentRun;
using engine::RunStatus;
using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

constexpr int kMaxWaitSeconds = 300;

int statusFor(RunStatus s)
{
    return s == RunStatus::Executing ? 202 : 200;
}

} // namespace

AgentController::AgentController(Store &store, Settings &settings, NetworkPolicy &policy,
                                 BrowserPool &pool, engine::RunManager &runs,
                                 webhooks::WebhookQueue &webhooks, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_pool(pool)
    , m_runs(runs)
    , m_webhooks(webhooks)
{
    // Every end of a phase (and every pause for input) is announced inside the
    // transaction that stores it.
    m_runs.setSettleHook([this](const engine::Settlement &s) { announce(s); });
}

void AgentController::announce(const engine::Settlement &s)
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

QList<Route> AgentController::routes()
{
    using C = AgentController;
    return {
        Route::to("POST", QStringLiteral("/agent"), AuthPolicy::ApiKey, this, &C::run)
            .requiring(QStringLiteral("cloudAgent")),
        Route::to("POST", QStringLiteral("/execute"), AuthPolicy::ApiKey, this, &C::run)
            .requiring(QStringLiteral("cloudAgent")),
        Route::to("GET", QStringLiteral("/agent/{trajectoryId}"), AuthPolicy::ApiKey, this,
                  &C::get),
        Route::to("DELETE", QStringLiteral("/agent/{trajectoryId}"), AuthPolicy::ApiKey, this,
                  &C::cancel),
        Route::to("POST", QStringLiteral("/storage"), AuthPolicy::ApiKey, this, &C::upload),
        Route::to("GET", QStringLiteral("/storage/{id}"), AuthPolicy::Public, this, &C::download),
    };
}

AgentRun *AgentController::submit(const engine::ExecuteRequest &request, const QString &keyId,
                                  const QString &requestId, const QString &endpoint)
{
    if (!m_store.credits().canSpend(keyId))
        throw DomainError::creditsExhausted();
    // Per-key fairness: runs executing, and waiting ones that hold a page, count.
    const int limit = m_settings.intValue(SettingKeys::agentMaxRunsPerKey);
    if (!request.historyContinue && m_runs.active(keyId) >= limit)
        throw DomainError::keyBusy(QStringLiteral("agent runs"), m_runs.active(keyId), limit,
                                   SettingKeys::agentMaxRunsPerKey, m_pool.retryAfterSeconds());
    if (!request.historyContinue && !m_pool.hasRoomFor(1))
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

std::optional<DomainError> AgentController::inputError(const AgentRun &run)
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

void AgentController::awaitRun(AgentRun *run, int windowMs, QObject *context,
                               std::function<void()> then)
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
    connect(run, &AgentRun::settled, context, finish, Qt::SingleShotConnection);
    QTimer::singleShot(windowMs, context, finish);
}

void AgentController::run(Exchange &exchange)
{
    const engine::ExecuteRequest request =
        readExecuteRequest(exchange.request().jsonObject(),
                           m_policy.grantFor(exchange.request().principal.keyId), m_settings);
    AgentRun *run = submit(request, exchange.request().principal.keyId, exchange.request().id,
                           exchange.request().path);
    QPointer<AgentRun> guard(run);

    // The synchronous window: the answer waits for the run to settle, up to the window
    // (agent.syncWindowMs, or Prefer: wait=N); then the run goes on and the answer
    // says "executing" (202).
    int windowMs = m_settings.intValue(SettingKeys::agentSyncWindowMs);
    if (const auto wait = exchange.request().preferWait(kMaxWaitSeconds))
        windowMs = *wait * 1000;
    // A client that leaves while it waits cancels the run (billed for what it used).
    connect(&exchange, &Exchange::clientDisconnected, run, [guard] {
        if (guard && guard->status() == RunStatus::Executing)
            guard->cancel(QStringLiteral("client_disconnected"));
    });
    auto *poll = http::LongPoll::hold(
        exchange, windowMs, [guard] { return !guard || guard->status() != RunStatus::Executing; },
        [guard](Exchange &ex) {
            if (!guard) {
                ex.fail(DomainError::internal(QStringLiteral("the run is gone")));
                return;
            }
            if (const auto bad = inputError(*guard)) {
                ex.fail(*bad);
                return;
            }
            ex.respondJson(statusFor(guard->status()), guard->response());
        });
    connect(run, &AgentRun::changed, poll, &http::LongPoll::wake);
}

void AgentController::get(Exchange &exchange)
{
    const QString id = exchange.request().param(QStringLiteral("trajectoryId"));
    const QString keyId = exchange.request().principal.keyId;
    engine::EngineError error;
    if (!m_runs.latest(id, keyId, &error))
        throw *error;
    // Prefer: wait=N holds the answer until the run settles (long-poll).
    const int waitMs = exchange.request().preferWait(kMaxWaitSeconds).value_or(0) * 1000;
    QPointer<AgentRun> run = m_runs.live(id);
    auto *poll = http::LongPoll::hold(
        exchange, waitMs, [run] { return !run || run->status() != RunStatus::Executing; },
        [this, id, keyId](Exchange &ex) {
            engine::EngineError e;
            const auto latest = m_runs.latest(id, keyId, &e);
            if (!latest) {
                ex.fail(*e);
                return;
            }
            ex.respondJson(latest->value(QStringLiteral("status")).toString() ==
                                   QLatin1String("executing")
                               ? 202
                               : 200,
                           *latest);
        });
    if (run)
        connect(run, &AgentRun::changed, poll, &http::LongPoll::wake);
}

void AgentController::cancel(Exchange &exchange)
{
    const QString id = exchange.request().param(QStringLiteral("trajectoryId"));
    const QString keyId = exchange.request().principal.keyId;
    engine::EngineError error;
    if (!m_runs.cancel(id, keyId, QStringLiteral("cancelled"), &error))
        throw *error;
    const auto latest = m_runs.latest(id, keyId, &error);
    exchange.respondJson(200, latest.value_or(QJsonObject()));
}

void AgentController::upload(Exchange &exchange)
{
    const QByteArray body = exchange.request().body;
    if (body.isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("EMPTY_UPLOAD"),
                          QStringLiteral("the upload has no content"), QStringLiteral("body"));
    // The name and the type come back in the download's headers: no control character
    // (CR, LF, …) may get in.
    QString name = exchange.request().queryValue(QStringLiteral("name"));
    QString nameField = QStringLiteral("name");
    if (name.isEmpty()) {
        name = QString::fromUtf8(exchange.request().header("x-filename"));
        nameField = QStringLiteral("X-Filename");
    }
    if (const QString problem = HeaderText::valueProblem(name); !problem.isEmpty())
        throw DomainError::invalidField(nameField, problem);
    if (name.isEmpty())
        name = QStringLiteral("upload");
    QByteArray type = exchange.request().header("content-type");
    if (const QString problem = HeaderText::valueProblem(QString::fromLatin1(type));
        !problem.isEmpty())
        throw DomainError::invalidField(QStringLiteral("Content-Type"), problem);
    if (type.isEmpty() || type.startsWith("application/x-www-form-urlencoded"))
        type = "application/octet-stream";
    const StoredObject o =
        m_store.objects().put(exchange.request().principal.keyId, QStringLiteral("upload"), name,
                              QString::fromLatin1(type), body);
    exchange.respondJson(201,
                         {{QStringLiteral("storageRef"),
                           engine::ResponseBuilder::storageRef(m_store.objects(), m_settings, o.id,
                                                               o.name, o.contentType, o.size)}});
}

void AgentController::download(Exchange &exchange)
{
    const QString id = exchange.request().param(QStringLiteral("id"));
    const auto object = m_store.objects().find(id);
    bool allowed = false;
    const QString sig = exchange.request().queryValue(QStringLiteral("sig"));
    if (!sig.isEmpty()) {
        const qint64 expires =
            exchange.request().queryValue(QStringLiteral("expires")).toLongLong();
        if (!m_store.objects().verify(id, expires, sig))
            throw DomainError(
                DomainError::Kind::Forbidden, QStringLiteral("LINK_INVALID"),
                QStringLiteral("the download link is invalid or has expired; ask for a new one"));
        allowed = true;
    } else if (object) {
        // Without a signature, the key that owns the object may fetch it.
        const QString key = http::ApiKeyAuthenticator::presentedKey(exchange.request());
        const auto found = m_store.apiKeys().findBySecret(key);
        allowed = found && found->isActive() && (found->id == object->keyId || found->isOwner());
        if (!allowed)
            throw DomainError::unauthorized(
                QStringLiteral("MISSING_API_KEY"),
                QStringLiteral("a signed link or the owning API key is required"));
    }
    if (!object || !allowed)
        throw DomainError::notFound(QStringLiteral("no stored object %1").arg(id));
    // Names and types are checked when stored; objects stored before that are cleaned
    // here rather than refused.
    QString filename = object->name;
    for (QChar &c : filename) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\') ||
            !HeaderText::isSafeValue(QStringView(&c, 1)))
            c = QLatin1Char('_');
    }
    QByteArray contentType = object->contentType.toUtf8();
    if (!HeaderText::isSafeValue(contentType))
        contentType = "application/octet-stream";
    exchange.respond(200, m_store.objects().data(id), contentType,
                     {qMakePair(QByteArray("Content-Disposition"),
                                QByteArray("attachment; filename=\"") + filename.toUtf8() + '"'),
                      qMakePair(QByteArray("Cache-Control"), QByteArray("private, max-age=60"))});
}

} // namespace ph::cloud
