#include "TaskController.h"

#include "A2wController.h"
#include "A2wService.h"
#include "TaskEvents.h"
#include "WebBotAuth.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/JsonFields.h"
#include "core/Settings.h"
#include "http/EventStream.h"
#include "http/Exchange.h"
#include "http/LongPoll.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>

namespace ph::a2w {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {

DomainError taskNotFound()
{
    return {DomainError::Kind::NotFound, QStringLiteral("TASK_NOT_FOUND"),
            QStringLiteral("no such task, or the access token is not its own")};
}

QString taskUrl(const QString &base, const QString &id, const QString &token)
{
    QString url = base + QStringLiteral("/v1/tasks/") + id;
    if (!token.isEmpty())
        url += QStringLiteral("?access=") + token;
    return url;
}

} // namespace

TaskController::TaskController(A2wService &service, WebBotAuth &trust, Settings &settings,
                               QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_trust(trust)
    , m_settings(settings)
{}

QList<Route> TaskController::routes()
{
    using C = TaskController;
    return {
        Route::to("POST", QStringLiteral("/v1/tasks"), AuthPolicy::Anonymous, this, &C::create),
        Route::to("GET", QStringLiteral("/v1/tasks/{id}"), AuthPolicy::AccessToken, this, &C::read),
        Route::to("POST", QStringLiteral("/v1/tasks/{id}"), AuthPolicy::AccessToken, this,
                  &C::answer),
        Route::to("DELETE", QStringLiteral("/v1/tasks/{id}"), AuthPolicy::AccessToken, this,
                  &C::cancel),
        Route::to("POST", QStringLiteral("/v1/tasks/{id}/handoffs"), AuthPolicy::AccessToken, this,
                  &C::handoff),
        Route::to("GET", QStringLiteral("/v1/workflows/{id}"), AuthPolicy::AccessToken, this,
                  &C::workflow),
    };
}

QString TaskController::base() const
{
    QString b = m_settings.stringValue(SettingKeys::publicBaseUrl);
    while (b.endsWith(u'/'))
        b.chop(1);
    return b;
}

Run TaskController::authorize(const http::Request &r) const
{
    try {
        const Run run =
            m_service.authorize(r.param(QStringLiteral("id")), A2wController::tokenOf(r));
        if (run.contract != QLatin1String("v1"))
            throw taskNotFound();
        return run;
    } catch (const DomainError &e) {
        if (e.code() == QLatin1String("RUN_NOT_FOUND"))
            throw taskNotFound();
        throw;
    }
}

QJsonObject TaskController::resource(const Run &run, const QString &token, const QString &base,
                                     const QString &receipt)
{
    const QString self = taskUrl(base, run.id, token);
    const QString plain = taskUrl(base, run.id, {});
    QJsonObject o{{QStringLiteral("id"), run.id},
                  {QStringLiteral("task"), self},
                  {QStringLiteral("status"), run.status},
                  {QStringLiteral("url"), run.url},
                  {QStringLiteral("execution"), run.execution},
                  {QStringLiteral("workflowId"), run.workflowId},
                  {QStringLiteral("createdAt"), Clock::isoUtc(run.createdAt)},
                  {QStringLiteral("updatedAt"), Clock::isoUtc(run.updatedAt)}};
    QJsonObject agent = run.agent;
    agent.insert(QStringLiteral("trust"), run.trust);
    o.insert(QStringLiteral("agent"), agent);
    // Explicit cloud tasks have no browser handoff.
    if (run.request.value(QStringLiteral("execution"))
            .toObject()
            .value(QStringLiteral("preference"))
            .toString() != QLatin1String("cloud"))
        o.insert(QStringLiteral("open"), base + QStringLiteral("/v2/a2w/open/") + receipt);
    if (!run.parentRunId.isEmpty()) {
        o.insert(QStringLiteral("parentTaskId"), run.parentRunId);
        o.insert(QStringLiteral("hop"), run.hop);
    }
    if (!run.input.isEmpty())
        o.insert(QStringLiteral("input"),
                 QJsonObject{
                     {QStringLiteral("questions"), run.input.value(QStringLiteral("questions"))},
                     {QStringLiteral("message"), run.input.value(QStringLiteral("message"))},
                     {QStringLiteral("reason"), run.input.value(QStringLiteral("reason"))},
                     {QStringLiteral("expiresAt"), run.input.value(QStringLiteral("expiresAt"))}});
    if (!run.result.isEmpty())
        o.insert(QStringLiteral("result"), run.result);
    if (!run.error.isEmpty())
        o.insert(QStringLiteral("error"), run.error);
    const QJsonObject auth{{QStringLiteral("Authorization"), QStringLiteral("Bearer ") + token}};
    auto link = [](const QString &href, const QString &method, const QJsonObject &headers) {
        return QJsonObject{{QStringLiteral("href"), href},
                           {QStringLiteral("method"), method},
                           {QStringLiteral("headers"), headers}};
    };
    QJsonObject streamHeaders = auth;
    streamHeaders.insert(QStringLiteral("Accept"), QStringLiteral("text/event-stream"));
    QJsonObject ndjsonHeaders = auth;
    ndjsonHeaders.insert(QStringLiteral("Accept"), QStringLiteral("application/x-ndjson"));
    o.insert(
        QStringLiteral("links"),
        QJsonObject{{QStringLiteral("self"), link(self, QStringLiteral("GET"), {})},
                    {QStringLiteral("stream"), link(plain, QStringLiteral("GET"), streamHeaders)},
                    {QStringLiteral("ndjson"), link(plain, QStringLiteral("GET"), ndjsonHeaders)},
                    {QStringLiteral("continue"), link(plain, QStringLiteral("POST"), auth)},
                    {QStringLiteral("cancel"), link(plain, QStringLiteral("DELETE"), auth)},
                    {QStringLiteral("handoffs"),
                     link(plain + QStringLiteral("/handoffs"), QStringLiteral("POST"), auth)}});
    return o;
}

QJsonObject TaskController::createResponse(const Run &run, const QString &token,
                                           const QString &workflowToken,
                                           const QString &receipt) const
{
    const QString b = base();
    QString workflow = b + QStringLiteral("/v1/workflows/") + run.workflowId;
    if (!workflowToken.isEmpty())
        workflow += QStringLiteral("?access=") + workflowToken;
    // The creation is acknowledged as pending: GET gives the live status.
    QJsonObject o{{QStringLiteral("id"), run.id},
                  {QStringLiteral("task"), taskUrl(b, run.id, token)},
                  {QStringLiteral("workflow"), workflow},
                  {QStringLiteral("status"), QStringLiteral("pending")}};
    const bool cloud = run.request.value(QStringLiteral("execution"))
                           .toObject()
                           .value(QStringLiteral("preference"))
                           .toString() == QLatin1String("cloud");
    if (!cloud) {
        o.insert(QStringLiteral("open"), b + QStringLiteral("/v2/a2w/open/") + receipt);
        const QString browserLink = run.url + QStringLiteral("#pilothouse-a2w=") + receipt;
        if (browserLink.size() <= 1024)
            o.insert(QStringLiteral("browserLink"), browserLink);
    }
    return o;
}

void TaskController::create(Exchange &ex)
{
    const http::Request &r = ex.request();
    CreateRequest request = CreateRequest::fromV1Json(r.jsonObject());
    QString prefer = A2wController::preferredExecution(r);
    // Prefer: execution=… counts as the body's mode when the body names none.
    if (!prefer.isEmpty() && request.executionPreference().isEmpty())
        request.execution.insert(QStringLiteral("preference"), prefer);
    A2wController::withCaller(ex, m_trust, [this, &ex, request](const Caller &caller) {
        const http::Request &req = ex.request();
        const A2wService::Created created = m_service.create(
            request, caller, {}, QString::fromUtf8(req.header("idempotency-key")),
            QCryptographicHash::hash(req.body, QCryptographicHash::Sha256), QStringLiteral("v1"));
        ex.respondJson(
            created.replayed ? 200 : 201,
            createResponse(created.run, created.runToken, created.workflowToken, created.receipt));
    });
}

void TaskController::read(Exchange &ex)
{
    const http::Request &r = ex.request();
    const Run run = authorize(r);
    const QString token = A2wController::tokenOf(r);
    ex.setSite(run.siteId); // a stream or long-poll counts against http.maxStreamsPerSite
    http::EventStream::Framing framing;
    if (http::EventStream::framingFromAccept(r.header("accept"), &framing)) {
        stream(ex, run, token, int(framing));
        return;
    }
    const int cap = m_settings.intValue(SettingKeys::a2wMaxWaitSeconds);
    const int waitMs = r.preferWait(cap).value_or(0) * 1000;
    const QString b = base();
    const QString receipt = m_service.receiptFor(run.id);
    A2wService *service = &m_service;
    const QString id = run.id;
    auto answer = [service, id, token, b, receipt](Exchange &e) {
        e.respondJson(200, resource(service->find(id).value_or(Run()), token, b, receipt));
    };
    if (waitMs <= 0 || Status::isTerminal(run.status)) {
        answer(ex);
        return;
    }
    const QString initial = run.status;
    auto *poll = http::LongPoll::hold(
        ex, waitMs,
        [service, id, initial] {
            const auto now = service->find(id);
            return !now || now->status != initial;
        },
        answer);
    if (poll)
        connect(&m_service, &A2wService::runChanged, poll, [poll, id](const QString &changed) {
            if (changed == id)
                poll->wake();
        });
}

void TaskController::stream(Exchange &ex, const Run &run, const QString &token, int framing)
{
    const auto f = http::EventStream::Framing(framing);
    // SSE keeps its comment heartbeat; NDJSON lines are only the nine event types.
    auto *events =
        new http::EventStream(ex, f, f == http::EventStream::Framing::Sse ? 15000 : 0, &ex);
    QString lastId = QString::fromUtf8(ex.request().header("last-event-id"));
    if (ex.request().query.hasQueryItem(QStringLiteral("lastEventId")))
        lastId = ex.request().queryValue(QStringLiteral("lastEventId"));
    const qint64 after = TaskEvents::resumeAfter(lastId);
    const int chunk = m_settings.intValue(SettingKeys::a2wEventChunkBytes);
    const QString artifacts =
        base() + QStringLiteral("/v2/a2w/runs/%1/artifacts?access=%2").arg(run.id, token);
    A2wService *service = &m_service;
    const QString runId = run.id;
    events->sendEnvelope(TaskEvents::ready(run, after, QDateTime::currentMSecsSinceEpoch()));
    auto send = [service, events, runId, chunk, artifacts](const Event &e) {
        const Run now = service->find(runId).value_or(Run());
        for (const QJsonObject &env : TaskEvents::envelopes(e, now, chunk, artifacts))
            events->sendEnvelope(env);
        if (e.type == QLatin1String("done"))
            events->close();
    };
    bool ended = false;
    for (const Event &e : m_service.events(runId, after)) {
        send(e);
        ended |= e.type == QLatin1String("done");
    }
    if (ended)
        return;
    connect(&m_service, &A2wService::eventAdded, events,
            [runId, send](const QString &changed, const Event &e) {
                if (changed == runId)
                    send(e);
            });
}

void TaskController::answer(Exchange &ex)
{
    const http::Request &r = ex.request();
    const Run run = authorize(r);
    const JsonFields body(r.jsonObject());
    body.rejectUnknown({QStringLiteral("input")});
    const QString input = body.requiredString(QStringLiteral("input"));
    if (input.trimmed().isEmpty())
        throw DomainError::invalidField(QStringLiteral("input"),
                                        QStringLiteral("must not be empty"));
    ContinueRequest request;
    request.input = input;
    const Run now = m_service.answer(run.id, request);
    ex.respondJson(200,
                   resource(now, A2wController::tokenOf(r), base(), m_service.receiptFor(now.id)));
}

void TaskController::cancel(Exchange &ex)
{
    const http::Request &r = ex.request();
    const Run run = authorize(r);
    const Run now = m_service.cancel(run.id);
    ex.respondJson(200,
                   resource(now, A2wController::tokenOf(r), base(), m_service.receiptFor(now.id)));
}

void TaskController::handoff(Exchange &ex)
{
    const http::Request &r = ex.request();
    const Run parent = authorize(r);
    HandoffRequest request = HandoffRequest::fromV1Json(r.jsonObject());
    const QString prefer = A2wController::preferredExecution(r);
    if (!prefer.isEmpty() && request.child.executionPreference().isEmpty())
        request.child.execution.insert(QStringLiteral("preference"), prefer);
    A2wController::withCaller(ex, m_trust, [this, &ex, parent, request](const Caller &caller) {
        const A2wService::Created created = m_service.handoff(
            parent.id, request.child,
            {request.contextSummary, request.expectedOutput, request.lastObservation}, caller, {});
        ex.respondJson(201, createResponse(created.run, created.runToken, {}, created.receipt));
    });
}

void TaskController::workflow(Exchange &ex)
{
    const http::Request &r = ex.request();
    const QString id = r.param(QStringLiteral("id"));
    const QList<Run> runs = m_service.workflowRuns(id, A2wController::tokenOf(r));
    QJsonObject o = A2wController::workflowSnapshot(id, runs);
    // The v1 names: tasks, parentTaskId.
    QJsonArray tasks;
    for (const QJsonValue &v : o.take(QStringLiteral("runs")).toArray()) {
        QJsonObject t = v.toObject();
        t.insert(QStringLiteral("taskId"), t.take(QStringLiteral("runId")));
        if (t.contains(QStringLiteral("parentRunId")))
            t.insert(QStringLiteral("parentTaskId"), t.take(QStringLiteral("parentRunId")));
        tasks.append(t);
    }
    o.insert(QStringLiteral("rootTaskId"), o.take(QStringLiteral("rootRunId")));
    o.insert(QStringLiteral("tasks"), tasks);
    ex.respondJson(200, o);
}

} // namespace ph::a2w
