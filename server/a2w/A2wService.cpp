#include "A2wService.h"

#include "EngineMirror.h"
#include "ParkedRuns.h"
#include "RunRecorder.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/ResponseBuilder.h"
#include "engine/RunManager.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>

namespace ph::a2w {

A2wService::A2wService(Store &store, Settings &settings, NetworkPolicy &policy,
                       sites::SiteRepository &sites, sites::AnalyticsRepository &analytics,
                       ApiKeyService &keys, cloud::RunService &runs, engine::RunManager &engine,
                       QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_repo(std::make_unique<A2wRepository>(store))
    , m_recorder(std::make_unique<RunRecorder>(store, *m_repo, analytics))
    , m_engineRuns(runCoreEngine(runs, engine))
    , m_capabilities(std::make_unique<SiteCapabilities>(store, sites))
    , m_delegations(std::make_unique<Delegations>(store, *m_repo, *m_recorder, *m_capabilities))
    , m_policy(std::make_unique<LaunchPolicy>(store, settings, sites, *m_repo, *m_delegations))
    , m_mirror(std::make_unique<EngineMirror>(store, settings, policy, sites, keys, *m_repo,
                                              *m_recorder, *m_delegations, *m_engineRuns))
    , m_parked(std::make_unique<ParkedRuns>(store, settings, *m_repo, *m_recorder, *m_mirror))
    , m_browser(std::make_unique<BrowserHandoff>(store, settings, *m_repo, sites, *m_recorder))
{
    connect(m_recorder.get(), &RunRecorder::eventAdded, this, &A2wService::eventAdded);
    connect(m_recorder.get(), &RunRecorder::runChanged, this, &A2wService::runChanged);
    connect(m_recorder.get(), &RunRecorder::delegationsChanged, this,
            &A2wService::delegationsChanged);
    connect(m_recorder.get(), &RunRecorder::deadlinesChanged, this, &A2wService::scheduleExpiry);
    m_expiry.setSingleShot(true);
    connect(&m_expiry, &QTimer::timeout, this, &A2wService::expireOverdue);
}

// The parts hold references to one another: they go in the reverse of their making.
A2wService::~A2wService() = default;

QString A2wService::hashToken(const QString &token)
{
    return a2w::hashToken(token);
}

QString A2wService::receiptFor(const QString &runId) const
{
    return m_browser->receiptFor(runId);
}

std::optional<Run> A2wService::findByReceipt(const QString &receipt) const
{
    return m_browser->findByReceipt(receipt);
}

void A2wService::recover()
{
    // Runs the engine could not keep across a restart end failed; runs waiting for
    // input (the engine keeps those) or for a browser go on waiting.
    for (Run run : m_repo->list({}, 100000)) {
        if (Status::isTerminal(run.status))
            continue;
        if (run.status == Status::pending || run.status == Status::running) {
            m_recorder->settle(run, Status::failed, engine::RunManager::orphanReason());
            continue;
        }
        m_mirror->track(run);
    }
    scheduleExpiry();
}

QString A2wService::accountFor(const QString &siteId, const QString &siteName)
{
    return m_mirror->accountFor(siteId, siteName);
}

QString A2wService::trustOf(const CreateRequest &request, const Caller &caller)
{
    return LaunchPolicy::trustOf(request, caller);
}

QString A2wService::idempotencyScope(const CreateRequest &request, const Caller &caller)
{
    return LaunchPolicy::idempotencyScope(request, caller);
}

A2wService::Created A2wService::create(const CreateRequest &request, const Caller &caller,
                                       const QString &preferExecution,
                                       const QString &idempotencyKey, const QByteArray &bodyDigest,
                                       const QString &contract)
{
    const QString keyHash = LaunchPolicy::idempotencyKey(contract, request, caller, idempotencyKey);
    const QString bodyHash = QString::fromLatin1(bodyDigest.toHex());
    if (!keyHash.isEmpty()) {
        if (const auto seen = m_policy->seen(keyHash, bodyHash)) {
            if (const auto run = m_repo->find(seen->runId))
                return {*run, seen->tokens.value(QStringLiteral("run")).toString(),
                        seen->tokens.value(QStringLiteral("workflow")).toString(),
                        seen->tokens.value(QStringLiteral("receipt")).toString(), true};
        }
    }
    LaunchPolicy::Launch how;
    how.contract = contract;
    Created created = launch(request, caller, preferExecution, how);
    if (!keyHash.isEmpty())
        m_policy->remember(keyHash, bodyHash, created.run.id,
                           {{QStringLiteral("run"), created.runToken},
                            {QStringLiteral("workflow"), created.workflowToken},
                            {QStringLiteral("receipt"), created.receipt}});
    return created;
}

A2wService::Created A2wService::handoff(const QString &parentId, const CreateRequest &request,
                                        const HandoffContext &context, const Caller &caller,
                                        const QString &preferExecution)
{
    const std::optional<Run> parent = m_repo->find(parentId);
    if (!parent)
        throw runNotFound();
    if (parent->status == Status::cancelled || parent->status == Status::expired)
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("RUN_ENDED"),
                          QStringLiteral("a %1 run hands nothing off").arg(parent->status), {},
                          {{QStringLiteral("status"), parent->status}});
    LaunchPolicy::Launch how;
    how.contract = parent->contract;
    how.parent = parent;
    how.context = context;
    return launch(request, caller, preferExecution, how);
}

A2wService::Created A2wService::launch(const CreateRequest &request, const Caller &caller,
                                       const QString &preferExecution,
                                       const LaunchPolicy::Launch &how)
{
    const qint64 now = m_store.clock().nowMs();
    const bool v1 = how.contract == QLatin1String("v1");
    const LaunchPolicy::Plan plan = m_policy->plan(request, caller, preferExecution, how);

    Run run;
    run.id = Ids::make(v1 ? QStringLiteral("task") : QStringLiteral("a2w"));
    run.workflowId = how.parent ? how.parent->workflowId : Ids::make(QStringLiteral("wf"));
    run.siteId = plan.siteId;
    run.url = request.url;
    run.host = request.host;
    run.kind = CreateRequest::kindName(request.kind);
    run.selector = request.selector.isEmpty() ? request.capabilityId : request.selector;
    run.engagementKind = plan.engagementKind;
    run.execution = plan.execution;
    run.request = request.stored();
    if (how.parent) {
        QJsonObject handoff{{QStringLiteral("parentRunId"), how.parent->id}};
        if (!how.context.contextSummary.isEmpty())
            handoff.insert(QStringLiteral("contextSummary"), how.context.contextSummary);
        if (!how.context.expectedOutput.isEmpty())
            handoff.insert(QStringLiteral("expectedOutput"), how.context.expectedOutput);
        run.request.insert(QStringLiteral("handoff"), handoff);
    }
    run.agent = plan.agent;
    run.trust = plan.trust;
    run.contract = how.contract;
    run.parentRunId = how.parent ? how.parent->id : QString();
    run.delegationId = plan.delegationId;
    run.hop = plan.hop;
    run.clientAddress = caller.address;
    run.createdAt = run.updatedAt = now;
    run.status =
        plan.execution == QLatin1String("browser") ? Status::waitingBrowser : Status::pending;
    if (run.status == Status::waitingBrowser) {
        run.expiresAt = now + m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
        // The visitor's browser that claims the run (the embed SDK) runs this task.
        run.pendingTask = plan.task;
    }

    Created created;
    created.runToken = Ids::make(v1 ? QStringLiteral("taskr") : QStringLiteral("a2wr"), 32);
    if (!how.parent)
        created.workflowToken = Ids::make(QStringLiteral("a2ww"), 32);
    created.receipt = receiptFor(run.id);
    m_store.transaction([&] {
        if (!how.parent)
            m_repo->insertWorkflow(run.workflowId, hashToken(created.workflowToken), run.id);
        m_repo->insertRun(run, hashToken(created.runToken), hashToken(created.receipt));
    });
    m_recorder->emitEvent(run, QStringLiteral("status"), {{QStringLiteral("status"), run.status}});
    if (how.parent)
        m_recorder->emitEvent(*how.parent, QStringLiteral("message"),
                              {{QStringLiteral("role"), QStringLiteral("system")},
                               {QStringLiteral("handoff"), run.id},
                               {QStringLiteral("host"), run.host}});
    Q_EMIT runChanged(run.id);

    if (plan.awaitVerification)
        m_parked->parkForVerification(run, plan.task);
    else if (plan.execution == QLatin1String("cloud"))
        m_mirror->start(run, plan.task);
    else
        scheduleExpiry();
    created.run = *m_repo->find(run.id);
    return created;
}

Run A2wService::authorize(const QString &id, const QString &token) const
{
    if (token.isEmpty() || !m_repo->tokenMatches(id, hashToken(token)))
        throw runNotFound();
    const auto run = m_repo->find(id);
    if (!run)
        throw runNotFound();
    return *run;
}

QList<Run> A2wService::workflowRuns(const QString &workflowId, const QString &token) const
{
    if (token.isEmpty() || !m_repo->workflowTokenMatches(workflowId, hashToken(token)))
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("WORKFLOW_NOT_FOUND"),
                          QStringLiteral("no such workflow, or the access token is not its own"));
    return m_repo->runsOfWorkflow(workflowId);
}

QList<Run> A2wService::runsOfWorkflow(const QString &workflowId) const
{
    return m_repo->runsOfWorkflow(workflowId);
}

std::optional<Run> A2wService::find(const QString &id) const
{
    return m_repo->find(id);
}

QList<Run> A2wService::list(const QString &siteId, int limit) const
{
    return m_repo->list(siteId, limit);
}

QList<Event> A2wService::events(const QString &runId, qint64 afterSeq) const
{
    return m_repo->events(runId, afterSeq);
}

QList<Event> A2wService::workflowEvents(const QString &workflowId, qint64 afterPosition) const
{
    return m_repo->workflowEvents(workflowId, afterPosition);
}

Run A2wService::answer(const QString &id, const ContinueRequest &request, const QString &trust)
{
    std::optional<Run> found = m_repo->find(id);
    if (!found)
        throw runNotFound();
    Run run = *found;
    if (!request.auth.isEmpty()) {
        // The same rule as on create: a delegated session needs the verified tier.
        CreateRequest asked;
        asked.auth = request.auth;
        m_policy->checkSensitive(asked, trust);
        // A delegated session given on continue: the run acts under it from now on; a
        // run waiting for one starts.
        run.delegationId = m_delegations
                               ->check(request.auth.value(QStringLiteral("token")).toString(),
                                       run.siteId, Delegations::scopeItemOf(run))
                               .id;
        m_repo->update(run);
        if (run.status == Status::inputRequired &&
            run.input.value(QStringLiteral("reason")).toString() ==
                QLatin1String("auth_required")) {
            const QString task = run.pendingTask;
            run.pendingTask.clear();
            run.input = {};
            run.expiresAt.reset();
            m_recorder->emitEvent(run, QStringLiteral("message"),
                                  {{QStringLiteral("role"), QStringLiteral("user")},
                                   {QStringLiteral("delegation"), run.delegationId}});
            if (run.execution == QLatin1String("cloud")) {
                m_mirror->start(run, task);
            } else {
                // A browser run waits for a browser again, with the same deadline as at
                // creation.
                run.pendingTask = task;
                run.expiresAt = m_store.clock().nowMs() +
                                m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
                m_recorder->setStatus(run, Status::waitingBrowser);
                scheduleExpiry();
            }
            return *m_repo->find(id);
        }
        if (request.input.isEmpty() && request.answers.isEmpty())
            return *m_repo->find(id);
    }
    if (run.status != Status::inputRequired ||
        run.input.value(QStringLiteral("reason")).toString() != kClarification)
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("NOT_WAITING_FOR_INPUT"),
            run.status == Status::inputRequired
                ? QStringLiteral("this run waits for %1: it resumes out of band, "
                                 "not by input")
                      .arg(run.input.value(QStringLiteral("reason")).toString())
                : QStringLiteral("the run is %1, not waiting for input").arg(run.status),
            {}, {{QStringLiteral("status"), run.status}});
    QStringList keys;
    for (const QJsonValue &q : run.input.value(QStringLiteral("questions")).toArray())
        keys << q.toObject().value(QStringLiteral("key")).toString();
    const QJsonObject answers = request.bind(keys);
    m_recorder->emitEvent(
        run, QStringLiteral("message"),
        {{QStringLiteral("role"), QStringLiteral("user")},
         {QStringLiteral("answered"), QJsonArray::fromStringList(answers.keys())}});
    m_mirror->resume(run, answers, request.input);
    return *m_repo->find(id);
}

Run A2wService::cancel(const QString &id, const QString &reason)
{
    return m_mirror->cancel(id, reason);
}

Run A2wService::provideAuthInput(const QString &id, const QString &value, const QString &kind)
{
    return m_parked->provideAuthInput(id, value, kind);
}

Run A2wService::confirm(const QString &id, const QString &signature, bool accept)
{
    return m_parked->confirm(id, signature, accept);
}

Run A2wService::confirmAsOperator(const QString &id, bool accept)
{
    return m_parked->confirmAsOperator(id, accept);
}

Run A2wService::confirmationFor(const QString &id, const QString &signature) const
{
    return m_parked->confirmationFor(id, signature);
}

Run A2wService::verificationFor(const QString &id, const QString &signature) const
{
    return m_parked->verificationFor(id, signature);
}

Run A2wService::approveDelegation(const QString &id, const QString &signature,
                                  const DelegationGrant &grant, const QString &approvedBy)
{
    Run run = m_parked->verificationFor(id, signature);
    const std::optional<QString> token = m_delegations->approve(run, grant, approvedBy);
    if (!token)
        return *m_repo->find(id);
    ContinueRequest go;
    go.auth = {{QStringLiteral("mode"), QStringLiteral("delegated_session")},
               {QStringLiteral("token"), *token}};
    m_recorder->emitEvent(run, QStringLiteral("message"),
                          {{QStringLiteral("role"), QStringLiteral("system")},
                           {QStringLiteral("approvedBy"), approvedBy}});
    // The session goes to the run's own caller, whose tier create checked already.
    return answer(id, go, run.trust);
}

QJsonObject A2wService::delegationOf(const Run &run, bool revealNewToken)
{
    return m_delegations->of(run, revealNewToken);
}

QList<Delegation> A2wService::delegations(int limit) const
{
    return m_delegations->list(limit);
}

void A2wService::revokeDelegation(const QString &id)
{
    m_delegations->revoke(id);
}

void A2wService::expireOverdue()
{
    m_parked->expireOverdue();
}

void A2wService::scheduleExpiry()
{
    const std::optional<qint64> next = m_repo->nextDeadline();
    if (!next) {
        m_expiry.stop();
        return;
    }
    const qint64 in = std::max<qint64>(0, *next - m_store.clock().nowMs());
    m_expiry.start(int(std::min<qint64>(in + 10, 3600000)));
}

QJsonObject A2wService::artifacts(const Run &run) const
{
    QJsonArray list;
    QString earliest;
    // Every file of the result (generated by the run, or its table as CSV and JSON),
    // signed afresh.
    for (const QJsonValue &v : run.result.value(QStringLiteral("artifacts")).toArray()) {
        const QString ref = v.toObject().value(QStringLiteral("ref")).toString();
        const std::optional<StoredObject> o =
            ref.isEmpty() ? std::nullopt : m_store.objects().find(ref);
        if (!o)
            continue;
        const QJsonObject signedRef = engine::ResponseBuilder::storageRef(
            m_store.objects(), m_settings, o->id, o->name, o->contentType, o->size);
        const QString expires = signedRef.value(QStringLiteral("expiresAt")).toString();
        if (earliest.isEmpty() || expires < earliest)
            earliest = expires;
        list.append(
            QJsonObject{{QStringLiteral("name"), o->name},
                        {QStringLiteral("contentType"), o->contentType},
                        {QStringLiteral("sizeBytes"), o->size},
                        {QStringLiteral("url"), signedRef.value(QStringLiteral("downloadUrl"))},
                        {QStringLiteral("expiresAt"), expires}});
    }
    if (earliest.isEmpty())
        earliest = Clock::isoUtc(m_store.clock().nowMs() +
                                 m_settings.int64Value(SettingKeys::storageUrlTtlSeconds) * 1000);
    return {{QStringLiteral("runId"), run.id},
            {QStringLiteral("expiresAt"), earliest},
            {QStringLiteral("artifacts"), list}};
}

A2wService::SiteTools A2wService::capabilities(const QString &url, const QString &host,
                                               const QString &siteId) const
{
    return m_capabilities->capabilities(url, host, siteId);
}

A2wService::SiteTools A2wService::capabilitiesOfSite(const QString &siteId) const
{
    return m_capabilities->capabilitiesOfSite(siteId);
}

CreateRequest A2wService::requestForTool(const SiteTools &site, const QString &tool,
                                         const QJsonObject &arguments) const
{
    return m_capabilities->requestForTool(site, tool, arguments);
}

A2wService::Claimed A2wService::offerBrowserRun(const QString &receipt, const QString &siteId) const
{
    return m_browser->offer(receipt, siteId);
}

A2wService::Claimed A2wService::claimBrowserRun(const QString &receipt, const QString &siteId)
{
    return m_browser->claim(receipt, siteId);
}

void A2wService::declineBrowserRun(const QString &receipt, const QString &siteId)
{
    m_browser->decline(receipt, siteId);
}

void A2wService::browserRunStep(const QString &runId, const QJsonObject &step)
{
    m_browser->step(runId, step);
}

void A2wService::finishBrowserRun(const QString &runId, bool ok, const QJsonObject &result,
                                  const QString &error)
{
    m_browser->finish(runId, ok, result, error);
}

void A2wService::shareBrowserResult(const QString &runId, bool share, const QJsonObject &result)
{
    m_browser->share(runId, share, result);
}

} // namespace ph::a2w
