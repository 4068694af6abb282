#include "EngineMirror.h"

#include "A2wArtifacts.h"
#include "A2wRequest.h"
#include "Delegations.h"
#include "ParkedRuns.h"
#include "RunRecorder.h"

#include "cloud/AgentRequest.h"
#include "cloud/RunService.h"
#include "core/ApiKeyService.h"
#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/ObjectStore.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "engine/AgentRun.h"
#include "engine/ResponseBuilder.h"
#include "engine/RunManager.h"
#include "net/NetworkPolicy.h"
#include "sites/SiteConfig.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

namespace ph::a2w {

namespace {

const QString kEndpoint = QStringLiteral("/v2/a2w/runs");
constexpr qint64 kTableFileTtlMs = 7LL * 24 * 3600 * 1000;

// The files the caller asked for: the names `artifacts` lists, or every kind when only
// accept.modes has artifacts; none otherwise.
QStringList wantedFiles(const Run &run)
{
    QStringList names;
    for (const QJsonValue &v : run.request.value(QStringLiteral("artifacts")).toArray())
        names << v.toString();
    if (!names.isEmpty())
        return names;
    for (const QJsonValue &m : run.request.value(QStringLiteral("accept"))
                                   .toObject()
                                   .value(QStringLiteral("modes"))
                                   .toArray())
        if (m.toString() == QLatin1String("artifacts"))
            return CreateRequest::artifactNames();
    return {};
}

bool wantsFiles(const Run &run)
{
    return !wantedFiles(run).isEmpty();
}

// The run core: RunService starts runs as /agent does, RunManager tells their state.
class RunCoreEngine : public EngineRuns
{
public:
    RunCoreEngine(cloud::RunService &runs, engine::RunManager &engine)
        : m_runs(runs)
        , m_engine(engine)
    {
        connect(&m_engine, &engine::RunManager::runChanged, this, &EngineRuns::changed);
        connect(&m_engine, &engine::RunManager::runSettled, this, &EngineRuns::changed);
    }
    QString start(const engine::ExecuteRequest &request, const QString &keyId) override
    {
        return m_runs.start(request, keyId, Ids::make(QStringLiteral("req")), kEndpoint)
            ->trajectoryId();
    }
    std::optional<engine::RunSnapshot> snapshot(const QString &trajectoryId,
                                                const QString &keyId) const override
    {
        engine::EngineError error;
        return m_engine.snapshot(trajectoryId, keyId, &error);
    }
    void cancel(const QString &trajectoryId, const QString &keyId, const QString &reason) override
    {
        engine::EngineError error;
        m_engine.cancel(trajectoryId, keyId, reason, &error);
    }

private:
    cloud::RunService &m_runs;
    engine::RunManager &m_engine;
};

} // namespace

std::unique_ptr<EngineRuns> runCoreEngine(cloud::RunService &runs, engine::RunManager &engine)
{
    return std::make_unique<RunCoreEngine>(runs, engine);
}

EngineMirror::EngineMirror(Store &store, Settings &settings, NetworkPolicy &policy,
                           sites::SiteRepository &sites, ApiKeyService &keys, A2wRepository &repo,
                           RunRecorder &recorder, const Delegations &delegations,
                           EngineRuns &engine, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
    , m_policy(policy)
    , m_sites(sites)
    , m_keys(keys)
    , m_repo(repo)
    , m_rec(recorder)
    , m_delegations(delegations)
    , m_engine(engine)
{
    connect(&m_engine, &EngineRuns::changed, this, &EngineMirror::onEngineChanged);
    connect(&m_rec, &RunRecorder::settled, this,
            [this](const QString &runId, const QString &trajectoryId) {
                m_byTrajectory.remove(trajectoryId);
                m_stepsSeen.remove(runId);
                m_toolsSeen.remove(runId);
            });
}

EngineMirror::~EngineMirror() = default;

QString EngineMirror::keyOf(const Run &run) const
{
    return m_repo.siteAccount(run.siteId).value_or(QString());
}

QString EngineMirror::accountFor(const QString &siteId, const QString &siteName)
{
    if (const auto keyId = m_repo.siteAccount(siteId)) {
        const ApiKey key = m_keys.find(*keyId).key;
        if (!key.isActive())
            throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("A2W_ACCOUNT_REVOKED"),
                              QStringLiteral("the site's A2W account key is revoked: the owner "
                                             "has stopped visiting agents' runs"));
        return *keyId;
    }
    // The site's A2W account: a key whose secret is never shown (nobody can call with
    // it); its balance caps what visiting agents spend on the site. It never carries
    // privateTargets: what visitors' work reaches is the site's own hosts and its
    // private-host allowlist (NetworkPolicy::grantFor gives this key a visitor grant).
    ApiKeyService::NewKey account;
    account.label = QStringLiteral("A2W visitors · %1").arg(siteName);
    account.balance = ApiKeyService::Balance::unlimited();
    const auto minted = m_keys.mint(account);
    m_sites.setApiKeyCapabilities(minted.key.id, {{QStringLiteral("cloudAgent"), true}});
    m_repo.setSiteAccount(siteId, minted.key.id);
    return minted.key.id;
}

engine::ExecuteRequest EngineMirror::engineRequest(const Run &run, const QString &keyId,
                                                   const QString &input, bool continuation,
                                                   const QJsonObject &answers) const
{
    // Built typed, with the checks POST /agent's parser applies to the same fields (the
    // URL against what the key may reach); `stored` is what that parser would store.
    engine::ExecuteRequest request;
    QJsonObject stored;
    if (continuation) {
        request.trajectoryId = run.trajectoryId;
        request.historyContinue = true;
        request.answers = answers;
        stored.insert(QStringLiteral("trajectoryId"), run.trajectoryId);
        QJsonObject history{{QStringLiteral("continue"), true}};
        if (!answers.isEmpty())
            history.insert(QStringLiteral("answers"), cloud::maskedAnswers(answers));
        stored.insert(QStringLiteral("history"), history);
    }
    // A continuation may answer alone; anything else needs a task.
    if (!continuation || answers.isEmpty()) {
        if (input.trimmed().isEmpty())
            throw DomainError::invalidField(QStringLiteral("input"),
                                            QStringLiteral("must not be empty"));
        request.input = input;
        stored.insert(QStringLiteral("input"), input);
    }
    request.urls = cloud::checkedUrls({run.url}, QStringLiteral("urls"),
                                      cloud::pinnedGrant(m_policy.grantFor(keyId), run.url),
                                      &m_settings, SettingKeys::agentMaxUrls);
    stored.insert(QStringLiteral("urls"), QJsonArray{run.url});
    request.verbosity = QStringLiteral("steps");
    stored.insert(QStringLiteral("response"),
                  QJsonObject{{QStringLiteral("verbosity"), request.verbosity}});
    // A caller that asks for artifacts gets the extracted table as a spreadsheet, the
    // answer as a document, a picture of the page (and, when it settles, the table as
    // CSV and JSON).
    if (wantsFiles(run)) {
        // Only the generators of the files named: a spreadsheet, a document, a picture.
        const QStringList wanted = wantedFiles(run);
        request.additionalTools.clear();
        if (wanted.contains(QStringLiteral("spreadsheet")))
            request.additionalTools << QStringLiteral("generate_sheets");
        if (wanted.contains(QStringLiteral("document")))
            request.additionalTools << QStringLiteral("generate_docs");
        if (wanted.contains(QStringLiteral("screenshot")))
            request.additionalTools << QStringLiteral("screenshot");
        stored.insert(QStringLiteral("tools"),
                      QJsonObject{{QStringLiteral("enableAdditionalTools"),
                                   QJsonArray::fromStringList(request.additionalTools)}});
    }
    request.stored = stored;
    // A visiting agent's work: its pages come from the visitors' share of the pool.
    request.browser.forVisitorsOf(run.siteId);
    const sites::SiteConfig::AiAccess ai =
        sites::SiteConfig(m_sites.config(run.siteId).config).aiAccess();
    const QJsonObject asked = run.request.value(QStringLiteral("policy")).toObject();
    // Confirmation: the site's aiAccess.confirmation, which a caller may tighten
    // (policy.confirmation: required) but never loosen. Continuations carry it too, so a
    // run rebuilt from the store after a restart keeps its gate.
    request.confirmSubmits =
        ai.confirmationRequired() ||
        asked.value(QStringLiteral("confirmation")).toString() == QLatin1String("required");
    // A delegated session is a person's approval in advance (scoped and spend-capped):
    // the run does not stop to ask again.
    if (!run.delegationId.isEmpty() && m_delegations.inForce(run.delegationId))
        request.confirmSubmits = false;
    // crossHost: the site's aiAccess.crossHost, which a caller may narrow (same_host)
    // but never widen; same_host keeps the run on the origin (scheme, host and port) it
    // started on, on every page it lands on.
    if (!ai.crossHostAllowed() ||
        asked.value(QStringLiteral("crossHost")).toString() == QLatin1String("same_host"))
        request.sameOrigin = NetworkPolicy::originOf(QUrl(run.url));
    return request;
}

void EngineMirror::start(Run &run, const QString &task)
{
    QString trajectoryId;
    try {
        const std::optional<sites::Site> site = m_sites.findSite(run.siteId);
        const QString keyId = accountFor(run.siteId, site ? site->name : run.host);
        trajectoryId = m_engine.start(engineRequest(run, keyId, task), keyId);
    } catch (const DomainError &e) {
        // Refused by the run core (credits, limits, a target it may not reach): the run
        // is kept as failed for the operator, and the caller gets the error.
        m_rec.settle(run, Status::failed, e.message());
        throw;
    }
    run.trajectoryId = trajectoryId;
    run.updatedAt = m_store.clock().nowMs();
    m_repo.update(run);
    m_byTrajectory.insert(run.trajectoryId, run.id);
    onEngineChanged(run.trajectoryId);
}

void EngineMirror::resume(Run &run, const QJsonObject &answers, const QString &input)
{
    const QString keyId = keyOf(run);
    const engine::ExecuteRequest continuation = engineRequest(run, keyId, input, true, answers);
    run.input = {};
    run.expiresAt.reset();
    m_rec.setStatus(run, Status::running);
    m_byTrajectory.insert(run.trajectoryId, run.id);
    m_engine.start(continuation, keyId);
    onEngineChanged(run.trajectoryId);
}

void EngineMirror::track(const Run &run)
{
    if (!run.trajectoryId.isEmpty())
        m_byTrajectory.insert(run.trajectoryId, run.id);
}

Run EngineMirror::cancel(const QString &id, const QString &reason)
{
    std::optional<Run> found = m_repo.find(id);
    if (!found)
        throw runNotFound();
    Run run = *found;
    if (Status::isTerminal(run.status))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("RUN_ENDED"),
                          QStringLiteral("the run has ended (%1)").arg(run.status), {},
                          {{QStringLiteral("status"), run.status}});
    stop(run, Status::cancelled, reason);
    return run;
}

void EngineMirror::stop(Run &run, const QString &status, const QString &reason)
{
    // Marked first, so the engine's own cancel event finds the run ended.
    m_rec.settle(run, status, reason);
    if (!run.trajectoryId.isEmpty())
        m_engine.cancel(run.trajectoryId, keyOf(run), reason);
}

void EngineMirror::onEngineChanged(const QString &trajectoryId)
{
    const QString runId = m_byTrajectory.value(trajectoryId);
    if (runId.isEmpty())
        return;
    std::optional<Run> run = m_repo.find(runId);
    if (!run || Status::isTerminal(run->status))
        return;
    if (const auto state = m_engine.snapshot(trajectoryId, keyOf(*run)))
        sync(*run, *state);
}

void EngineMirror::syncSteps(const Run &run, const engine::RunSnapshot &engine)
{
    // A tool call as it starts (once per step), then the step once it has ended, in order.
    int &announced = m_toolsSeen[run.id];
    while (announced < engine.steps.size()) {
        const engine::StepRecord &s = engine.steps.at(announced);
        m_rec.emitEvent(run, QStringLiteral("tool"),
                        {{QStringLiteral("seq"), s.seq},
                         {QStringLiteral("tool"), s.toolName},
                         {QStringLiteral("status"), QStringLiteral("started")}});
        ++announced;
    }
    int &seen = m_stepsSeen[run.id];
    while (seen < engine.steps.size()) {
        const engine::StepRecord &s = engine.steps.at(seen);
        if (s.status == QLatin1String("executing"))
            break;
        m_rec.emitEvent(run, QStringLiteral("step"),
                        {{QStringLiteral("seq"), s.seq},
                         {QStringLiteral("tool"), s.toolName},
                         {QStringLiteral("status"), s.status},
                         {QStringLiteral("summary"), s.summary}});
        ++seen;
    }
}

void EngineMirror::sync(Run &run, const engine::RunSnapshot &engine)
{
    syncSteps(run, engine);
    switch (engine.status) {
    case engine::RunStatus::Executing:
        if (run.status != Status::running) {
            run.input = {};
            run.expiresAt.reset();
            m_rec.setStatus(run, Status::running);
        }
        return;
    case engine::RunStatus::RequiresInput:
        if (run.status != Status::inputRequired)
            parkForInput(run, engine);
        return;
    case engine::RunStatus::Success:
    case engine::RunStatus::Error:
    case engine::RunStatus::Cancelled:
        finish(run, engine);
        return;
    }
}

void EngineMirror::parkForInput(Run &run, const engine::RunSnapshot &engine)
{
    QJsonArray questions;
    QStringList lines;
    QString authKind;
    QString authPrompt;
    bool onlySignIn = !engine.questions.isEmpty();
    bool confirmation = false;
    QString gateReason;
    for (const engine::Question &q : engine.questions) {
        questions.append(q.toJson());
        lines << q.question;
        if (q.key == QLatin1String("magic_link") || q.key == QLatin1String("code")) {
            authKind = q.key == QLatin1String("code") ? QStringLiteral("otp") : q.key;
            authPrompt = q.question;
        } else {
            onlySignIn = false;
        }
        confirmation |= q.key == QLatin1String("confirm_action");
        // What the page asks of a person (BrowserTools' gate): its reason, through the
        // confirm link (the person acts, then presses Done).
        if (q.key.startsWith(QLatin1String("gate_")))
            gateReason = q.key.mid(5);
    }
    confirmation |= !gateReason.isEmpty();
    const qint64 expires =
        m_store.clock().nowMs() + m_settings.int64Value(SettingKeys::a2wInputExpirySeconds) * 1000;
    run.expiresAt = expires;
    // A one-time code or an emailed link resumes through auth-input, never in clear
    // through an ordinary answer.
    const bool signIn = onlySignIn && !authKind.isEmpty();
    QJsonObject links;
    if (confirmation)
        links.insert(QStringLiteral("confirm"),
                     ParkedRuns::link(m_store, m_settings, QStringLiteral("confirm"), "a2w-confirm",
                                      run.id, expires));
    if (signIn && !confirmation) {
        static const QRegularExpression masked(QStringLiteral("\\S+•••@\\S+[A-Za-z]"));
        run.authInput = {{QStringLiteral("status"), QStringLiteral("awaiting")},
                         {QStringLiteral("kind"), authKind},
                         {QStringLiteral("prompt"), authPrompt}};
        const QString email = masked.match(authPrompt).captured(0);
        if (!email.isEmpty())
            run.authInput.insert(QStringLiteral("emailMasked"), email);
    }
    const QString reason = !gateReason.isEmpty() ? gateReason
                           : confirmation        ? QStringLiteral("action_confirmation_required")
                           : signIn              ? QStringLiteral("sign_in_link_required")
                                                 : kClarification;
    m_rec.park(run, {{QStringLiteral("reason"), reason},
                     {QStringLiteral("message"), lines.join(QLatin1Char('\n'))},
                     {QStringLiteral("questions"), questions},
                     {QStringLiteral("links"), links},
                     {QStringLiteral("expiresAt"), Clock::isoUtc(expires)}});
}

void EngineMirror::finish(Run &run, const engine::RunSnapshot &engine)
{
    // error or cancelled: what the run got to is kept as its result.
    run.result = shapeResult(run, engine);
    if (engine.status != engine::RunStatus::Success) {
        const QString status = engine::toString(engine.status);
        m_rec.settle(
            run, engine.status == engine::RunStatus::Cancelled ? Status::cancelled : Status::failed,
            engine.error.isEmpty() ? status : engine.error);
        return;
    }
    if (wantsFiles(run))
        addTableFiles(run, engine);
    if (!engine.text.isEmpty())
        m_rec.emitEvent(run, QStringLiteral("message"),
                        {{QStringLiteral("role"), QStringLiteral("assistant")},
                         {QStringLiteral("text"), engine.text}});
    m_rec.settle(run, Status::completed, {});
}

void EngineMirror::addTableFiles(Run &run, const engine::RunSnapshot &engine)
{
    const QJsonArray rows =
        TableFiles::rowsOf(engine.json.value_or(QJsonValue(QJsonValue::Undefined)), engine.text);
    const auto keyId = m_repo.siteAccount(run.siteId);
    if (rows.isEmpty() || !keyId)
        return;
    QJsonArray artifacts = run.result.value(QStringLiteral("artifacts")).toArray();
    const QList<std::pair<QString, QByteArray>> files{
        {QStringLiteral("text/csv"), TableFiles::csv(rows)},
        {QStringLiteral("application/json"), TableFiles::json(rows)}};
    const QStringList wanted = wantedFiles(run);
    for (const auto &[type, data] : files) {
        const QString name = type == QLatin1String("text/csv") ? QStringLiteral("table.csv")
                                                               : QStringLiteral("table.json");
        if (!wanted.contains(name))
            continue;
        const StoredObject o =
            m_store.objects().put(*keyId, QStringLiteral("a2w"), name, type, data, kTableFileTtlMs);
        artifacts.append(QJsonObject{{QStringLiteral("ref"), o.id},
                                     {QStringLiteral("name"), o.name},
                                     {QStringLiteral("contentType"), o.contentType},
                                     {QStringLiteral("sizeBytes"), o.size}});
    }
    run.result.insert(QStringLiteral("artifacts"), artifacts);
}

QJsonObject EngineMirror::shapeResult(const Run &run, const engine::RunSnapshot &engine) const
{
    const QString &text = engine.text;
    QStringList modes;
    const QJsonObject accept = run.request.value(QStringLiteral("accept")).toObject();
    for (const QJsonValue &m : accept.value(QStringLiteral("modes")).toArray())
        modes << m.toString();
    if (modes.isEmpty())
        modes = {QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("observation"),
                 QStringLiteral("artifacts")};
    const QString summary = text.isEmpty() ? engine.error : text.left(280);

    QJsonObject result{{QStringLiteral("summary"), summary},
                       {QStringLiteral("primary"),
                        accept.value(QStringLiteral("primary")).toString(modes.first())}};
    if (modes.contains(QStringLiteral("text")) && !text.isEmpty())
        result.insert(QStringLiteral("text"), text);
    if (modes.contains(QStringLiteral("markdown")) && !text.isEmpty())
        result.insert(QStringLiteral("markdown"), text);
    if (modes.contains(QStringLiteral("json")) && engine.json)
        result.insert(QStringLiteral("json"), *engine.json);
    if (modes.contains(QStringLiteral("observation"))) {
        // The page the run ended on, as the run's start (the /agent answer this was read
        // from never carried the steps' output, so no step's page was ever taken).
        QJsonObject observation{{QStringLiteral("url"), run.url},
                                {QStringLiteral("host"), QUrl(run.url).host()},
                                {QStringLiteral("summary"), summary}};
        result.insert(QStringLiteral("observation"), observation);
    }
    if (modes.contains(QStringLiteral("artifacts"))) {
        QJsonArray refs;
        for (const engine::GeneratedFile &f : engine.files)
            refs.append(QJsonObject{{QStringLiteral("ref"), f.objectId},
                                    {QStringLiteral("name"), f.name},
                                    {QStringLiteral("contentType"), f.contentType},
                                    {QStringLiteral("sizeBytes"), double(f.sizeBytes)}});
        if (!refs.isEmpty())
            result.insert(QStringLiteral("artifacts"), refs);
    }
    // The answer's blocks: its text, then each JSON answer (one, or one per record).
    QJsonArray blocks;
    if (!text.isEmpty())
        blocks.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                  {QStringLiteral("text"), text}});
    const QList<QJsonValue> json = !engine.jsonBlocks.isEmpty() ? engine.jsonBlocks
                                   : engine.json                ? QList<QJsonValue>{*engine.json}
                                                                : QList<QJsonValue>{};
    for (const QJsonValue &block : json)
        blocks.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("json")},
                                  {QStringLiteral("data"), block}});
    result.insert(QStringLiteral("blocks"), blocks);
    QJsonArray messages{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("text"), run.selector},
                                    {QStringLiteral("ts"), Clock::isoUtc(run.createdAt)}}};
    if (!text.isEmpty())
        messages.append(
            QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                        {QStringLiteral("text"), text},
                        {QStringLiteral("ts"), Clock::isoUtc(m_store.clock().nowMs())}});
    result.insert(QStringLiteral("transcript"),
                  QJsonObject{{QStringLiteral("messages"), messages}});
    return result;
}

} // namespace ph::a2w
