#include "AgentRun.h"

#include "AnswerText.h"

#include "InputLoader.h"
#include "Planner.h"
#include "ResponseBuilder.h"
#include "RunContext.h"
#include "Tool.h"
#include "TrajectoryRepository.h"

#include "browser/BrowserPool.h"
#include "core/Clock.h"
#include "core/CreditLedger.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMap>

Q_LOGGING_CATEGORY(lcRun, "pilothouse.engine")

namespace ph::engine {

namespace {

constexpr int kStoredOutputChars = 64 * 1024;

// Outputs are stored whole up to a size, then as a preview.
QJsonValue storable(const QJsonValue &v)
{
    const QByteArray json =
        v.isObject()  ? QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)
        : v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                      : QByteArray();
    if (json.size() <= kStoredOutputChars)
        return v;
    return QJsonObject{
        {QStringLiteral("preview"), QString::fromUtf8(json.left(kStoredOutputChars))},
        {QStringLiteral("truncated"), true}};
}

// Schema checks on the final JSON: required properties, types of scalars. They become
// warnings; the run still succeeds with what it found.
void schemaWarnings(const QJsonObject &schema, const QJsonValue &value, const QString &path,
                    QStringList &out)
{
    const QString type = schema.value(QStringLiteral("type")).toString();
    const QString here = path.isEmpty() ? QStringLiteral("$") : path;
    if (type == QLatin1String("array")) {
        if (!value.isArray()) {
            out << QStringLiteral("schema: %1 should be an array").arg(here);
            return;
        }
        const QJsonObject items = schema.value(QStringLiteral("items")).toObject();
        const QJsonArray a = value.toArray();
        if (a.isEmpty())
            out << QStringLiteral("schema: %1 is empty").arg(here);
        QHash<QString, int> missing;
        for (const auto &item : a) {
            if (items.value(QStringLiteral("type")).toString() == QLatin1String("object")) {
                for (const auto &r : items.value(QStringLiteral("required")).toArray()) {
                    const QJsonValue v = item.toObject().value(r.toString());
                    if (v.isUndefined() || v.isNull())
                        missing[r.toString()] += 1;
                }
            }
        }
        for (auto it = missing.begin(); it != missing.end(); ++it)
            out << QStringLiteral("schema: %1[].%2 is missing in %3 of %4 items")
                       .arg(here, it.key())
                       .arg(it.value())
                       .arg(a.size());
        return;
    }
    if (type == QLatin1String("object") || schema.contains(QStringLiteral("properties"))) {
        // A sheet workflow answers an object schema with one such object per row.
        if (value.isArray()) {
            QJsonObject asArray{{QStringLiteral("type"), QStringLiteral("array")},
                                {QStringLiteral("items"), schema}};
            schemaWarnings(asArray, value, path, out);
            return;
        }
        const QJsonObject o = value.toObject();
        for (const auto &r : schema.value(QStringLiteral("required")).toArray()) {
            const QJsonValue v = o.value(r.toString());
            if (v.isUndefined() || v.isNull())
                out << QStringLiteral("schema: %1 is missing")
                           .arg(path.isEmpty() ? r.toString()
                                               : path + QLatin1Char('.') + r.toString());
        }
        const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
        for (auto it = props.begin(); it != props.end(); ++it) {
            if (o.contains(it.key()) &&
                it.value().toObject().value(QStringLiteral("type")).toString() ==
                    QLatin1String("array"))
                schemaWarnings(it.value().toObject(), o.value(it.key()),
                               path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(), out);
        }
    }
}

// A document, deck or PDF the planner set out to write whose last attempt failed (a bad
// argument, a write error): the run did not do what was asked, whatever its answer says.
QString undelivered(const QList<StepRecord> &steps)
{
    QMap<QString, QString> failed; // tool -> why
    for (const StepRecord &s : steps) {
        const QString action = s.args.value(QStringLiteral("action")).toString();
        const bool writes =
            s.toolName == QLatin1String("pdf_generator") ||
            ((s.toolName == QLatin1String("docs_access") ||
              s.toolName == QLatin1String("slides_access")) &&
             (action == QLatin1String("create") || action == QLatin1String("append")));
        if (!writes)
            continue;
        if (s.status == QLatin1String("error"))
            failed.insert(s.toolName, s.summary);
        else if (s.status == QLatin1String("success"))
            failed.remove(s.toolName);
    }
    QStringList why;
    for (auto it = failed.cbegin(); it != failed.cend(); ++it)
        why << QStringLiteral("%1 failed: %2").arg(it.key(), it.value());
    return why.isEmpty() ? QString()
                         : QStringLiteral("the file the run was to write was not written (%1)")
                               .arg(why.join(QStringLiteral("; ")));
}

} // namespace

AgentRun::AgentRun(EngineServices &services, ExecuteRequest request, QString trajectoryId,
                   int phase, QString keyId, QString requestId, std::unique_ptr<Planner> planner,
                   QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_request(std::move(request))
    , m_trajectoryId(std::move(trajectoryId))
    , m_phase(phase)
    , m_keyId(std::move(keyId))
    , m_requestId(std::move(requestId))
    , m_planner(std::move(planner))
{
    m_ctx = std::make_unique<RunContext>(m_services, m_request, m_trajectoryId, m_phase, m_keyId,
                                         m_requestId);
    m_startedAt = m_services.store.clock().nowMs();
    m_subscriberRequests << m_requestId;
    for (const QString &tool : std::as_const(m_request.additionalTools)) {
        if (AdditionalTools::unavailable().contains(tool))
            m_ctx->warnings().append(
                QStringLiteral("%1 is not available in Pilothouse yet; the run went on without it")
                    .arg(tool));
    }
    m_timeLimit.setSingleShot(true);
    connect(&m_timeLimit, &QTimer::timeout, this, [this] { cancel(QStringLiteral("time_limit")); });
    m_releasePage.setSingleShot(true);
    connect(&m_releasePage, &QTimer::timeout, this, [this] {
        // A run that waited too long for its answers gives its page back; a later
        // continuation replays the steps into a fresh one.
        if (m_status == RunStatus::RequiresInput)
            m_ctx->releaseTab();
    });
}

AgentRun::~AgentRun()
{
    // The page goes back to the pool as m_ctx goes, and the pool announces it: this run
    // must not hear that half destroyed.
    disconnect(m_poolWatch);
}

void AgentRun::addSubscriberRequest(const QString &requestId)
{
    if (!m_subscriberRequests.contains(requestId))
        m_subscriberRequests << requestId;
}

QString AgentRun::plannerName() const
{
    return m_planner->name();
}

bool AgentRun::holdsPage() const
{
    return m_ctx->hasTab();
}

void AgentRun::start(const QList<StepRecord> &replay, const QJsonObject &state)
{
    if (!state.isEmpty())
        m_planner->restoreState(state);
    m_timeLimit.start(m_services.settings.intValue(SettingKeys::agentMaxRunMs));
    m_replay = replay;
    // Inputs first (images, files, data); a bad one ends the run with an error naming it.
    loadInputs([this] {
        if (!m_replay.isEmpty()) {
            replayNext();
            return;
        }
        loop();
    });
}

void AgentRun::loadInputs(std::function<void()> then)
{
    auto *loader = new InputLoader(*m_ctx, this);
    QPointer<AgentRun> self(this);
    loader->load([self, loader, then](const std::optional<InputError> &error) {
        loader->deleteLater();
        if (!self || self->m_status != RunStatus::Executing)
            return;
        if (error) {
            self->m_inputError = error;
            self->finalize(RunStatus::Error, error->message);
            return;
        }
        self->m_inputsLoaded = true;
        then();
    });
}

void AgentRun::restoreWaiting(const QList<StepRecord> &steps, const QJsonObject &state,
                              qint64 chargedMilli)
{
    m_chargedMilli = chargedMilli;
    const QJsonObject used = state.value(QStringLiteral("__usage")).toObject();
    m_used.pages = used.value(QStringLiteral("pages")).toInt();
    m_used.browserMs = qint64(used.value(QStringLiteral("browserMs")).toDouble());
    m_used.tokens = qint64(used.value(QStringLiteral("tokens")).toDouble());
    m_planner->restoreState(state);
    m_steps = steps;
    m_replay = steps;
    for (const StepRecord &s : steps) {
        if (!m_toolsUsed.contains(s.toolName))
            m_toolsUsed.append(s.toolName);
        m_outcome.observe(s.toolName, s.args, s.status == QLatin1String("success"),
                          s.output.toObject());
    }
    for (const auto &q : state.value(QStringLiteral("__questions")).toArray())
        m_questions.append(Question::fromJson(q.toObject()));
    // The requests that took part before are still owed the end.
    const QJsonObject callback = state.value(QStringLiteral("__callback")).toObject();
    QStringList subscribers;
    for (const auto &r : callback.value(QStringLiteral("subscribers")).toArray())
        subscribers << r.toString();
    for (const QString &r : std::as_const(m_subscriberRequests)) {
        if (!subscribers.contains(r))
            subscribers << r;
    }
    m_subscriberRequests = subscribers;
    const QString sealed = state.value(QStringLiteral("__answers")).toString();
    if (!sealed.isEmpty()) {
        bool ok = false;
        const QString json = m_services.store.secrets().unseal(sealed, &ok);
        if (ok)
            m_ctx->answers() = QJsonDocument::fromJson(json.toUtf8()).object();
    }
    m_status = RunStatus::RequiresInput;
    m_charged = true;
    m_sheetsLost = true; // inputs load again on resume; tool-made sheets are replayed
}

// Re-runs the browser steps of an earlier process, so the page is where the run left it.
void AgentRun::replayNext()
{
    while (!m_replay.isEmpty()) {
        const StepRecord step = m_replay.takeFirst();
        Tool *tool = m_services.tools.find(step.toolName);
        // A step the confirmation gate stopped did nothing: there is nothing to replay.
        if (!tool || step.status != QLatin1String("success") ||
            !(tool->usesTab() || (m_sheetsLost && tool->changesSheets())) ||
            step.output.toObject().value(QStringLiteral("confirmationRequired")).toBool())
            continue;
        QJsonObject args = step.args;
        // Typed secrets were masked in the store; the answers carry them again.
        if (args.value(QStringLiteral("secret")).toBool() &&
            args.contains(QStringLiteral("answerKey")))
            args.insert(QStringLiteral("text"),
                        m_ctx->answers().value(args.value(QStringLiteral("answerKey")).toString()));
        args.insert(QStringLiteral("observe"), false);
        QPointer<AgentRun> self(this);
        tool->run(*m_ctx, args, [self](ToolResult) {
            if (!self || isTerminal(self->m_status))
                return;
            self->replayNext();
        });
        return;
    }
    m_sheetsLost = false;
    loop();
}

void AgentRun::loop()
{
    if (m_loopQueued || m_status != RunStatus::Executing)
        return;
    m_loopQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_loopQueued = false;
            if (m_status != RunStatus::Executing || m_busy)
                return;
            if (m_steps.size() >= m_services.settings.intValue(SettingKeys::agentMaxSteps)) {
                finalize(RunStatus::Error,
                         QStringLiteral("the run reached its step limit (agent.maxSteps)"));
                return;
            }
            m_busy = true;
            const ToolResult *last = m_last ? &*m_last : nullptr;
            QPointer<AgentRun> self(this);
            m_planner->next(*m_ctx, last, [self](Decision d) {
                if (!self)
                    return;
                self->m_busy = false;
                if (self->m_status != RunStatus::Executing)
                    return;
                self->decided(d);
            });
        },
        Qt::QueuedConnection);
}

QJsonObject AgentRun::maskedArgs(const QJsonObject &args) const
{
    QJsonObject out = args;
    out.remove(QStringLiteral("observe"));
    const bool secret = out.value(QStringLiteral("secret")).toBool();
    // Secrets never reach the store: typed passwords, and any value that is a secret answer.
    QStringList secrets;
    for (auto it = m_ctx->answers().begin(); it != m_ctx->answers().end(); ++it) {
        if (m_ctx->answers().value(QStringLiteral("__secret_") + it.key()).toBool())
            secrets << it.value().toString();
    }
    for (auto it = out.begin(); it != out.end(); ++it) {
        if (!it.value().isString())
            continue;
        const QString v = it.value().toString();
        if ((secret && it.key() == QLatin1String("text")) || (!v.isEmpty() && secrets.contains(v)))
            it.value() = QStringLiteral("••••••");
    }
    return out;
}

void AgentRun::decided(const Decision &d)
{
    m_tokensPending += d.usage.tokens;
    m_ctx->usage().tokens += d.usage.tokens;
    switch (d.kind) {
    case Decision::Kind::Fail:
        finalize(RunStatus::Error, d.error);
        return;
    case Decision::Kind::Finish:
        m_text = d.text;
        m_json = d.json;
        m_jsonBlocks = d.jsonBlocks;
        if (!m_request.schema.isEmpty()) {
            // The schema describes each answer: several are checked one by one.
            for (qsizetype i = 0; i < m_jsonBlocks.size(); ++i)
                schemaWarnings(m_request.schema, m_jsonBlocks.at(i), QStringLiteral("$[%1]").arg(i),
                               m_ctx->warnings());
            if (m_json && m_jsonBlocks.isEmpty())
                schemaWarnings(m_request.schema, *m_json, {}, m_ctx->warnings());
        }
        if (const QString missing = undelivered(m_steps); !missing.isEmpty()) {
            finalize(RunStatus::Error, missing);
            return;
        }
        // Honest outcomes: an error page read back, or an action asked for and not taken,
        // is no success, whatever the planner concluded.
        if (const QString why = m_outcome.verdict(m_request.input); !why.isEmpty()) {
            finalize(RunStatus::Error, why);
            return;
        }
        finalize(RunStatus::Success);
        return;
    case Decision::Kind::Call:
        break;
    }
    Tool *tool = m_services.tools.find(d.tool);
    StepRecord step;
    step.seq = int(m_steps.size()) + 1;
    step.toolName = d.tool;
    step.args = maskedArgs(d.args);
    step.status = QStringLiteral("executing");
    step.startedAt = m_services.store.clock().nowMs();
    step.thought = d.thought;
    step.id = m_services.trajectories.addStep(m_trajectoryId, m_phase, step);
    m_steps.append(step);
    if (!m_toolsUsed.contains(d.tool))
        m_toolsUsed.append(d.tool);
    Q_EMIT changed();
    if (!tool) {
        toolDone(step, d,
                 ToolResult::failure(QStringLiteral("there is no tool named %1").arg(d.tool)),
                 false);
        return;
    }
    if (AdditionalTools::all().contains(d.tool) && !m_request.additionalTools.contains(d.tool)) {
        toolDone(step, d,
                 ToolResult::failure(QStringLiteral("%1 is not enabled for this request "
                                                    "(tools.enableAdditionalTools)")
                                         .arg(d.tool)),
                 false);
        return;
    }
    const bool usedTab = tool->usesTab();
    m_busy = true;
    QPointer<AgentRun> self(this);
    QElapsedTimer clock;
    clock.start();
    tool->run(*m_ctx, d.args, [self, step, d, usedTab, clock](ToolResult r) mutable {
        if (!self)
            return;
        self->m_busy = false;
        if (self->m_status != RunStatus::Executing)
            return; // cancelled meanwhile
        step.durationMs = clock.elapsed();
        self->toolDone(step, d, r, usedTab);
    });
}

void AgentRun::toolDone(StepRecord step, const Decision &d, const ToolResult &r, bool usedTab)
{
    m_outcome.observe(step.toolName, d.args, r.ok, r.output.toObject());
    step.status = r.ok ? QStringLiteral("success") : QStringLiteral("error");
    step.output =
        r.ok ? storable(r.output) : QJsonValue(QJsonObject{{QStringLiteral("error"), r.error}});
    step.summary = r.summary.isEmpty() ? r.error : r.summary;
    step.hasOutput = r.ok && !(r.output.isNull() || r.output.isUndefined());
    step.hasSheets = r.touchedSheets;
    step.hasGeneratedContent = r.generatedContent;
    Usage stepUsage = r.usage;
    stepUsage.tokens = std::exchange(m_tokensPending, 0);
    if (usedTab)
        stepUsage.browserMs = step.durationMs;
    // The step's share, for display; the run's usage was counted as the work happened.
    step.creditsMilli = Prices::costMilli(stepUsage);
    m_services.trajectories.finishStep(step);
    m_steps.last() = step;
    qCDebug(lcRun) << m_trajectoryId << step.seq << step.toolName << step.status << step.summary;
    Q_EMIT changed();
    if (r.ok && r.pause) {
        pause(r.questions);
        return;
    }
    m_last = r;
    loop();
}

void AgentRun::pause(const QList<Question> &questions)
{
    m_status = RunStatus::RequiresInput;
    m_questions = questions;
    m_ctx->pauseClock();
    m_last.reset();
    settle(false);
    m_timeLimit.stop();
    if (m_request.browser.isVisitor() && !m_request.remoteTab) {
        // Visitor work waiting for a person holds no page of the pool (docs/security.md,
        // "Fair shares of the browser pool"); its continuation replays into a fresh one.
        m_ctx->releaseTab();
        Q_EMIT changed();
        Q_EMIT settled();
        return;
    }
    // Keyed work keeps its page a while (agent.pausedLeaseMs) for a quick answer, and
    // gives it up at once when a waiting request could use it.
    m_releasePage.start(m_services.settings.intValue(SettingKeys::agentPausedLeaseMs));
    m_poolWatch =
        connect(&m_services.pool, &BrowserPool::statsChanged, this, &AgentRun::yieldPageIfWanted);
    Q_EMIT changed();
    Q_EMIT settled();
    yieldPageIfWanted();
}

void AgentRun::yieldPageIfWanted()
{
    if (m_status != RunStatus::RequiresInput || !m_ctx->hasTab()) {
        disconnect(m_poolWatch);
        return;
    }
    const BrowserPool::Stats s = m_services.pool.stats();
    if (s.servable == 0 || s.busy < s.size)
        return; // nobody waits whom the page would serve
    if (m_request.sessionPage)
        return; // a tab of the run's browser session: no page of the pool
    disconnect(m_poolWatch);
    m_releasePage.stop();
    m_ctx->releaseTab();
    Q_EMIT changed();
}

void AgentRun::resume(const ExecuteRequest &continuation, const QString &requestId)
{
    if (m_status != RunStatus::RequiresInput)
        return;
    m_requestId = requestId;
    addSubscriberRequest(requestId);
    // Answers by question key (history.answers), else as the `input` text writes them
    // (key: value, "my email is …"), else a bare `input` for the one open question.
    QJsonObject &answers = m_ctx->answers();
    const QJsonObject written = answersFromText(continuation.input, m_questions);
    for (const Question &q : std::as_const(m_questions)) {
        QString value;
        if (continuation.answers.contains(q.key))
            value = continuation.answers.value(q.key).toString();
        else if (written.contains(q.key))
            value = written.value(q.key).toString();
        else if (m_questions.size() == 1 && written.isEmpty() &&
                 !continuation.input.trimmed().isEmpty())
            value = continuation.input.trimmed();
        if (!value.isEmpty()) {
            answers.insert(q.key, value);
            if (q.secret)
                answers.insert(QStringLiteral("__secret_") + q.key, true);
        }
    }
    m_questions.clear();
    m_releasePage.stop();
    disconnect(m_poolWatch);
    m_status = RunStatus::Executing;
    m_ctx->resumeClock();
    m_timeLimit.start(m_services.settings.intValue(SettingKeys::agentMaxRunMs));
    m_planner->resumeWithAnswers(*m_ctx);
    persist(false);
    Q_EMIT changed();
    // The page was given back while waiting (or belongs to an earlier process): the
    // browser steps so far are replayed into a fresh one first.
    if (!m_ctx->hasTab() && m_replay.isEmpty())
        m_replay = m_steps;
    auto carryOn = [this] {
        if (!m_replay.isEmpty()) {
            replayNext();
            return;
        }
        loop();
    };
    // A run rebuilt from the store loads its inputs (sheets, files, images) again.
    if (!m_inputsLoaded) {
        loadInputs(carryOn);
        return;
    }
    carryOn();
}

void AgentRun::cancel(const QString &reason)
{
    if (isTerminal(m_status))
        return;
    m_expiryReason = reason;
    m_ctx->cancel();
    finalize(RunStatus::Cancelled,
             reason == QLatin1String("time_limit")
                 ? QStringLiteral("the run exceeded its time limit (agent.maxRunMs)")
             : reason == QLatin1String("client_disconnected")
                 ? QStringLiteral("the client disconnected")
                 : QStringLiteral("the run was cancelled"));
}

void AgentRun::finalize(RunStatus status, const QString &error)
{
    m_status = status;
    m_error = status == RunStatus::Success ? QString() : error;
    m_timeLimit.stop();
    m_releasePage.stop();
    disconnect(m_poolWatch);
    m_ctx->releaseTab();
    settle(true);
    Q_EMIT changed();
    Q_EMIT settled();
}

// Bills what the phase used since the last charge (pages, browser time, tokens).
void AgentRun::chargeSoFar()
{
    const Usage delta = m_ctx->takeUsage();
    if (Prices::costMilli(delta) == 0 && m_charged)
        return;
    m_charged = true;
    const Charge c =
        m_services.store.credits().charge(m_keyId, m_requestId, QStringLiteral("/agent"), delta);
    m_chargedMilli += c.usedMilli;
    m_used += delta;
    m_unrecordedMilli += c.usedMilli;
    m_creditsLeft = c.leftMilli;
}

// Bills what is left, stores the phase and queues the callbacks it owes, in one commit:
// a kill cannot leave a run stored as ended without its callbacks, or callbacks queued
// for a run the store still shows executing. Should the commit fail, the store keeps the
// phase executing, and the next start reports it cancelled (with its callbacks).
void AgentRun::settle(bool finished)
{
    try {
        m_services.store.transaction([&] {
            chargeSoFar();
            persist(finished);
        });
    } catch (const StoreError &e) {
        qCCritical(lcRun) << m_trajectoryId << "cannot store how the phase ended; the next start"
                          << "reports it cancelled:" << e.what();
    }
}

QJsonObject AgentRun::callbackState(const ExecuteRequest &request, const QString &requestId,
                                    const QStringList &subscribers, qint64 startedAt)
{
    QJsonObject o{{QStringLiteral("requestId"), requestId},
                  {QStringLiteral("subscribers"), QJsonArray::fromStringList(subscribers)},
                  {QStringLiteral("startedAt"), double(startedAt)}};
    if (!request.origin.isEmpty()) {
        o.insert(QStringLiteral("tool"), request.origin);
        o.insert(QStringLiteral("params"), request.originParams);
    }
    return o;
}

Settlement AgentRun::storedSettlement(const QString &trajectoryId, int phase, const QString &keyId,
                                      const QString &phaseRequestId, const QJsonObject &state,
                                      const QJsonObject &request, RunStatus status,
                                      const QJsonObject &response, const QString &error,
                                      qint64 creditsMilli)
{
    const QJsonObject callback = state.value(QStringLiteral("__callback")).toObject();
    Settlement s;
    s.trajectoryId = trajectoryId;
    s.phase = phase;
    s.keyId = keyId;
    s.requestId = callback.value(QStringLiteral("requestId")).toString(phaseRequestId);
    for (const auto &r : callback.value(QStringLiteral("subscribers")).toArray())
        s.subscriberRequests << r.toString();
    if (!s.subscriberRequests.contains(phaseRequestId))
        s.subscriberRequests.prepend(phaseRequestId);
    s.status = status;
    s.response = response;
    s.error = error;
    s.startedAt = qint64(callback.value(QStringLiteral("startedAt")).toDouble());
    s.creditsUsedMilli = creditsMilli;
    s.bridged = callback.contains(QStringLiteral("tool"));
    s.tool =
        s.bridged ? callback.value(QStringLiteral("tool")).toString() : QStringLiteral("agent");
    s.params = s.bridged ? callback.value(QStringLiteral("params")).toObject() : request;
    return s;
}

void AgentRun::persist(bool finished)
{
    QJsonObject state = m_planner->saveState();
    // Answers are kept for a continuation after a restart, sealed: they may be passwords.
    if (!m_ctx->answers().isEmpty())
        state.insert(QStringLiteral("__answers"),
                     m_services.store.secrets().seal(QString::fromUtf8(
                         QJsonDocument(m_ctx->answers()).toJson(QJsonDocument::Compact))));
    QJsonArray questions;
    for (const Question &q : std::as_const(m_questions))
        questions.append(q.toJson());
    state.insert(QStringLiteral("__questions"), questions);
    // What the phase used so far, so a run rebuilt after a restart shows all of it.
    state.insert(QStringLiteral("__usage"),
                 QJsonObject{{QStringLiteral("pages"), m_used.pages},
                             {QStringLiteral("browserMs"), double(m_used.browserMs)},
                             {QStringLiteral("tokens"), double(m_used.tokens)}});
    state.insert(QStringLiteral("__callback"),
                 callbackState(m_request, m_requestId, m_subscriberRequests, m_startedAt));
    const QJsonObject body = response();
    m_services.store.transaction([&] {
        m_services.trajectories.savePhase(m_trajectoryId, m_phase, toString(m_status), body, state,
                                          m_chargedMilli, m_error, finished);
        m_services.trajectories.update(m_trajectoryId, toString(m_status), m_phase, plannerName(),
                                       std::exchange(m_unrecordedMilli, 0), m_toolsUsed);
        if (m_settleHook && m_status != RunStatus::Executing) {
            Settlement s;
            s.trajectoryId = m_trajectoryId;
            s.phase = m_phase;
            s.keyId = m_keyId;
            s.requestId = m_requestId;
            s.subscriberRequests = m_subscriberRequests;
            s.status = m_status;
            s.response = body;
            s.error = m_error;
            s.startedAt = m_startedAt;
            s.creditsUsedMilli = m_chargedMilli;
            s.creditsLeftMilli = m_creditsLeft;
            s.bridged = !m_request.origin.isEmpty();
            s.tool = s.bridged ? m_request.origin : QStringLiteral("agent");
            s.params = s.bridged ? m_request.originParams : m_request.stored;
            m_settleHook(s);
        }
    });
}

RunSnapshot AgentRun::snapshot() const
{
    RunSnapshot s;
    s.status = m_status;
    s.trajectoryId = m_trajectoryId;
    s.phase = m_phase;
    s.requestId = m_requestId;
    s.text = m_text;
    s.json = m_json;
    s.jsonBlocks = m_jsonBlocks;
    s.steps = m_steps;
    s.questions = m_questions;
    s.warnings = m_ctx->warnings();
    s.error = m_error;
    s.toolsUsed = m_toolsUsed;
    s.files = m_ctx->files();
    s.creditsMilli = m_chargedMilli;
    s.usage = m_used;
    s.creditsLeftMilli = m_creditsLeft;
    s.expiryReason = m_expiryReason;
    s.planner = plannerName();
    if (const auto t = m_services.trajectories.find(m_trajectoryId))
        s.trajectoryCreditsMilli = t->creditsMilli + m_unrecordedMilli;
    return s;
}

QJsonObject AgentRun::response() const
{
    const RunSnapshot s = snapshot();
    const qint64 cap = m_request.inlineOutputMaxBytes.value_or(
        m_services.settings.int64Value(SettingKeys::agentInlineOutputMaxBytes));
    return ResponseBuilder::build(s, m_request.verbosity, cap, m_services.store.objects(),
                                  m_services.settings, m_keyId, &m_snapshot);
}

} // namespace ph::engine
