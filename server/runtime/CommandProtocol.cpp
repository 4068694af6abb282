#include "CommandProtocol.h"

#include "NavigationDecision.h"
#include "RemoteSteps.h"
#include "RuntimeCommon.h"
#include "RuntimeJournal.h"
#include "RuntimeProjection.h"

#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/JsonFields.h"
#include "core/SecretBox.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "sites/SiteConfigSchema.h"
#include "sites/SiteRepository.h"

#include <QJsonArray>
#include <QMessageAuthenticationCode>
#include <QUrl>

#include <algorithm>

namespace ph::runtime {

namespace {
constexpr int kMaxMessageChars = 8000;

QStringList stringsOf(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}
} // namespace

CommandProtocol::CommandProtocol(RuntimeJournal &journal, const RuntimeProjection &projection,
                                 RemoteSteps &steps)
    : m_journal(journal)
    , m_projection(projection)
    , m_steps(steps)
{}

double CommandProtocol::blockScore() const
{
    return m_journal.settings().intValue(SettingKeys::runtimeExternalBlockPercent) / 100.0;
}

// "auto" routing: a task of several steps, or one that reads data, goes to the planner;
// a single action acts at once.
QJsonObject CommandProtocol::route(const QString &message, QString *mode)
{
    const QString m = message.toLower();
    double score = 0;
    QStringList reasons;
    static const QStringList steps = {QStringLiteral(" then "),   QStringLiteral(", and "),
                                      QStringLiteral(";"),        QStringLiteral(" after that"),
                                      QStringLiteral(" danach "), QStringLiteral(" dann ")};
    static const QStringList reads = {
        QStringLiteral("list "),    QStringLiteral("extract"),  QStringLiteral("collect"),
        QStringLiteral("compare"),  QStringLiteral("find all"), QStringLiteral("every "),
        QStringLiteral("all the "), QStringLiteral("summar"),   QStringLiteral("how many"),
        QStringLiteral("which "),   QStringLiteral("alle "),    QStringLiteral("vergleich")};
    if (std::any_of(steps.begin(), steps.end(), [&](const QString &s) { return m.contains(s); })) {
        score += 0.5;
        reasons << QStringLiteral("several steps");
    }
    if (std::any_of(reads.begin(), reads.end(), [&](const QString &s) { return m.contains(s); })) {
        score += 0.5;
        reasons << QStringLiteral("reads data from the page");
    }
    if (message.size() > 160) {
        score += 0.2;
        reasons << QStringLiteral("a long task");
    }
    score = qMin(1.0, score);
    *mode = score >= 0.5 ? QStringLiteral("planner") : QStringLiteral("act");
    return {{QStringLiteral("score"), score},
            {QStringLiteral("reason"), reasons.isEmpty() ? QStringLiteral("a single action")
                                                         : reasons.join(QStringLiteral(", "))}};
}

void CommandProtocol::checkEpoch(const Session &session, const QJsonObject &body)
{
    const std::optional<qint64> expected = intField(body, QStringLiteral("expectedEpoch"));
    if (expected && *expected == session.epoch)
        return;
    QJsonObject details{{QStringLiteral("currentEpoch"), session.epoch},
                        {QStringLiteral("decisionReason"), QStringLiteral("stale_epoch_retryable")},
                        {QStringLiteral("retryable"), true},
                        {QStringLiteral("conflict"),
                         QJsonObject{{QStringLiteral("type"), QStringLiteral("stale_epoch")},
                                     {QStringLiteral("currentEpoch"), session.epoch},
                                     {QStringLiteral("retryable"), true}}}};
    details.insert(QStringLiteral("expectedEpoch"),
                   expected ? QJsonValue(*expected) : QJsonValue(QJsonValue::Null));
    throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_epoch"),
                      expected
                          ? QStringLiteral("expectedEpoch %1 is stale: the session is at epoch %2")
                                .arg(*expected)
                                .arg(session.epoch)
                          : QStringLiteral("expectedEpoch is required (strict mode)"),
                      QStringLiteral("expectedEpoch"), details);
}

void CommandProtocol::checkSeq(const Session &session, const QJsonObject &body)
{
    const std::optional<qint64> expected = intField(body, QStringLiteral("expectedSeq"));
    if (expected && *expected == session.seq)
        return;
    QJsonObject details{
        {QStringLiteral("currentSeq"), session.seq},
        {QStringLiteral("currentEpoch"), session.epoch},
        {QStringLiteral("decisionReason"), QStringLiteral("stale_seq_retryable")},
        {QStringLiteral("clientEventId"), body.value(QStringLiteral("clientEventId"))},
        {QStringLiteral("retryable"), true},
        {QStringLiteral("conflict"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("stale_seq")},
                     {QStringLiteral("currentSeq"), session.seq},
                     {QStringLiteral("currentEpoch"), session.epoch},
                     {QStringLiteral("retryable"), true}}}};
    details.insert(QStringLiteral("expectedSeq"),
                   expected ? QJsonValue(*expected) : QJsonValue(QJsonValue::Null));
    throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_seq"),
                      expected ? QStringLiteral("expectedSeq %1 is stale: the session is at seq %2")
                                     .arg(*expected)
                                     .arg(session.seq)
                               : QStringLiteral("expectedSeq is required while a run is active "
                                                "(strict mode)"),
                      QStringLiteral("expectedSeq"), details);
}

QString CommandProtocol::typeOf(const QJsonObject &body)
{
    QString type = body.value(QStringLiteral("type")).toString();
    if (type.isEmpty()) {
        if (body.contains(QStringLiteral("action")))
            type = QStringLiteral("RUN_CONTROL");
        else if (body.contains(QStringLiteral("targetUrl")) || body.contains(QStringLiteral("url")))
            type = QStringLiteral("TAB_EVENT");
        else
            type = QStringLiteral("RUN_INPUT");
    }
    static const QStringList types = {QStringLiteral("RUN_INPUT"), QStringLiteral("RUN_CONTROL"),
                                      QStringLiteral("TAB_EVENT")};
    if (!types.contains(type))
        throw invalid(QStringLiteral("type"),
                      QStringLiteral("must be one of %1").arg(types.join(QStringLiteral(", "))));
    return type;
}

CommandAnswer CommandProtocol::command(const Session &s, const QJsonObject &body)
{
    const QString clientEventId = JsonFields(body).requiredString(QStringLiteral("clientEventId"));
    if (clientEventId.size() > 128)
        throw invalid(QStringLiteral("clientEventId"),
                      QStringLiteral("is longer than 128 characters"));
    // A retry of an answered command: the same answer, nothing changes again.
    int status = 0;
    if (const auto stored = m_journal.repo().storedCommand(s.id, clientEventId, &status))
        return {status, *stored};

    const QString type = typeOf(body);

    CommandAnswer answer;
    m_journal.write([&] {
        // Strict mode, before any state change, against the state inside the transaction.
        Session session = m_journal.repo().findSession(s.id).value_or(s);
        checkEpoch(session, body);
        if (type == QLatin1String("RUN_INPUT"))
            answer = runInput(session, body);
        else if (type == QLatin1String("RUN_CONTROL"))
            answer = runControl(session, body);
        else
            answer = tabEvent(session, body);
        m_journal.repo().updateSession(session);
        m_journal.repo().storeCommand(session.id, clientEventId, answer.status, answer.data,
                                      m_journal.now());
    });
    m_journal.flush();
    return answer;
}

QJsonObject CommandProtocol::runInputData(const Session &session, const Run &run) const
{
    QJsonObject d{{QStringLiteral("runId"), run.id},
                  {QStringLiteral("acceptedMode"), run.mode},
                  {QStringLiteral("state"), run.status},
                  {QStringLiteral("epoch"), session.epoch},
                  {QStringLiteral("seq"), session.seq}};
    if (!run.requestedMode.isEmpty())
        d.insert(QStringLiteral("requestedMode"), run.requestedMode);
    if (!run.routing.isEmpty())
        d.insert(QStringLiteral("routing"), run.routing);
    if (!run.taskBoundaryId.isEmpty())
        d.insert(QStringLiteral("taskBoundaryId"), run.taskBoundaryId);
    if (!run.a2wRunId.isEmpty())
        d.insert(QStringLiteral("a2wRunId"), run.a2wRunId);
    return d;
}

void CommandProtocol::settleRun(Session &session, Run &run, const QString &status,
                                const QString &why, bool stopEngine)
{
    run.status = status;
    run.updatedAt = m_journal.now();
    if (!run.isActive())
        run.endedAt = run.updatedAt;
    m_journal.repo().updateRun(run);
    if (session.activeRunId == run.id && !run.isActive())
        session.activeRunId.clear();
    QJsonObject data{{QStringLiteral("runId"), run.id}, {QStringLiteral("status"), status}};
    if (!why.isEmpty())
        data.insert(QStringLiteral("reason"), why);
    m_journal.appendEvent(session, QStringLiteral("run.transition"), run.id, data);
    if (!run.isActive()) {
        const QString id = run.id;
        m_journal.afterCommit([this, id, why, stopEngine] {
            m_steps.fail(id, why.isEmpty() ? QStringLiteral("the run was stopped") : why);
            if (stopEngine)
                m_journal.runStoppedNow(id);
        });
    }
}

QString CommandProtocol::consentToken(const QString &sessionId, const QString &a2wRunId) const
{
    const QByteArray mac = QMessageAuthenticationCode::hash(
        (sessionId + u'\n' + a2wRunId).toUtf8(),
        m_journal.store().secrets().derive("runtime-a2w-consent"), QCryptographicHash::Sha256);
    return QStringLiteral("cst_") +
           QString::fromLatin1(mac.left(24).toBase64(QByteArray::Base64UrlEncoding |
                                                     QByteArray::OmitTrailingEquals));
}

CommandAnswer CommandProtocol::a2wConsent(Session &session, const QJsonObject &body,
                                          QString *a2wRunId, QString *task)
{
    if (!m_claimer)
        throw invalid(QStringLiteral("a2wReceipt"),
                      QStringLiteral("A2W runs cannot be claimed here"));
    const JsonFields f(body);
    const QString receipt = f.optionalString(QStringLiteral("a2wReceipt")).value_or(QString());
    const QString decision = f.optionalEnum(QStringLiteral("a2wConsent"),
                                            {QStringLiteral("accept"), QStringLiteral("decline")})
                                 .value_or(QString());
    const A2wOffer offer = m_claimer(receipt, session.siteId, A2wClaim::Offer);
    std::optional<Run> active = session.activeRunId.isEmpty()
                                    ? std::nullopt
                                    : m_journal.repo().findRun(session.activeRunId);
    const bool busy = active && active->isActive();
    if (decision.isEmpty()) {
        // Nothing runs on the visitor's page before they accept: this is the offer to
        // show them (which agent, for what, on which site, and what it replaces).
        QJsonObject agent{{QStringLiteral("name"), offer.agentName},
                          {QStringLiteral("trust"), offer.trust}};
        if (!offer.signatureAgent.isEmpty())
            agent.insert(QStringLiteral("signatureAgent"), offer.signatureAgent);
        QJsonObject o{{QStringLiteral("a2wRunId"), offer.runId},
                      {QStringLiteral("agent"), agent},
                      {QStringLiteral("task"), offer.task},
                      {QStringLiteral("site"), QJsonObject{{QStringLiteral("name"), offer.siteName},
                                                           {QStringLiteral("host"), offer.host}}},
                      {QStringLiteral("url"), offer.url},
                      {QStringLiteral("resultSharing"), QStringLiteral("visitor_review")},
                      {QStringLiteral("consentToken"), consentToken(session.id, offer.runId)}};
        if (busy)
            o.insert(QStringLiteral("activeRun"),
                     QJsonObject{{QStringLiteral("runId"), active->id},
                                 {QStringLiteral("status"), active->status},
                                 {QStringLiteral("message"), active->message.left(300)}});
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("A2W_CONSENT_REQUIRED"),
                          QStringLiteral("an agent's run acts in the visitor's session only "
                                         "once they accept it: show them the offer, then send "
                                         "a2wConsent (accept or decline) with its consentToken"),
                          QStringLiteral("a2wConsent"),
                          {{QStringLiteral("offer"), o}, {QStringLiteral("retryable"), false}});
    }
    const QString token = f.optionalString(QStringLiteral("a2wConsentToken")).value_or(QString());
    const QByteArray want = consentToken(session.id, offer.runId).toUtf8();
    if (!Ids::equalConstantTime(token.toUtf8(), want))
        throw forbidden(QStringLiteral("A2W_CONSENT_INVALID"),
                        QStringLiteral("a2wConsentToken is not the token of this session's "
                                       "offer of this run"),
                        QStringLiteral("a2wConsentToken"));
    if (decision == QLatin1String("decline")) {
        m_claimer(receipt, session.siteId, A2wClaim::Decline);
        return {200,
                {{QStringLiteral("a2wRunId"), offer.runId},
                 {QStringLiteral("a2wConsent"), QStringLiteral("declined")},
                 {QStringLiteral("epoch"), session.epoch},
                 {QStringLiteral("seq"), session.seq}}};
    }
    // Accepted. A run the visitor has going is replaced only when they accepted that
    // too (the offer said so, and the acceptance carries forceNewRun).
    if (busy) {
        checkSeq(session, body);
        if (!f.optionalBool(QStringLiteral("forceNewRun")).value_or(false))
            throw activeRunConflict(session, runInputData(session, *active), active->id);
    }
    m_claimer(receipt, session.siteId, A2wClaim::Accept);
    if (busy)
        settleRun(session, *active, QStringLiteral("cancelled"),
                  QStringLiteral("replaced by an A2W run the visitor accepted"));
    *a2wRunId = offer.runId;
    *task = offer.task;
    return {};
}

CommandAnswer CommandProtocol::runInput(Session &session, const QJsonObject &body)
{
    const JsonFields f(body);
    // An A2W browser run opened on this page (its `open` receipt): once the visitor
    // accepts it, the run's task is the message, and the A2W caller follows the run.
    const QString receipt = f.optionalString(QStringLiteral("a2wReceipt")).value_or(QString());
    QString a2wRunId;
    QString claimedTask;
    if (!receipt.isEmpty()) {
        CommandAnswer declined = a2wConsent(session, body, &a2wRunId, &claimedTask);
        if (a2wRunId.isEmpty())
            return declined;
    }
    const QString message =
        receipt.isEmpty() ? f.requiredString(QStringLiteral("message")).trimmed() : claimedTask;
    if (message.isEmpty())
        throw invalid(QStringLiteral("message"), QStringLiteral("must not be empty"));
    if (message.size() > kMaxMessageChars)
        throw invalid(QStringLiteral("message"),
                      QStringLiteral("is longer than %1 characters").arg(kMaxMessageChars));
    const bool continueRun = f.optionalBool(QStringLiteral("continueRun")).value_or(false);
    const bool forceNewRun = f.optionalBool(QStringLiteral("forceNewRun")).value_or(false);
    const QString requested =
        f.optionalEnum(QStringLiteral("requestedMode"),
                       {QStringLiteral("act"), QStringLiteral("planner"), QStringLiteral("auto")})
            .value_or(QStringLiteral("auto"));
    const QString boundary = f.optionalString(QStringLiteral("taskBoundaryId")).value_or(QString());

    std::optional<Run> active = session.activeRunId.isEmpty()
                                    ? std::nullopt
                                    : m_journal.repo().findRun(session.activeRunId);
    if (active && active->isActive() && receipt.isEmpty()) {
        checkSeq(session, body);
        if (continueRun && active->status == QLatin1String("awaiting_user")) {
            // The visitor answers the run's question: it continues.
            active->status = QStringLiteral("running");
            active->continuationReason = QStringLiteral("awaiting_user");
            active->updatedAt = m_journal.now();
            m_journal.repo().updateRun(*active);
            m_journal.appendEvent(
                session, QStringLiteral("run.transition"), active->id,
                {{QStringLiteral("runId"), active->id},
                 {QStringLiteral("status"), active->status},
                 {QStringLiteral("continuationReason"), QStringLiteral("awaiting_user")},
                 {QStringLiteral("message"), message}});
            m_journal.runAnswered(session.id, active->id, message);
            return {200, runInputData(session, *active)};
        }
        if (!forceNewRun)
            throw activeRunConflict(session, runInputData(session, *active), active->id);
        // forceNewRun: the active run is cancelled and a fresh one starts.
        settleRun(session, *active, QStringLiteral("cancelled"),
                  QStringLiteral("replaced by a new run"));
    }

    Run run;
    run.id = Ids::make(QStringLiteral("rtr"));
    run.sessionId = session.id;
    run.requestedMode = requested;
    if (requested == QLatin1String("auto")) {
        run.routing = route(message, &run.mode);
    } else {
        run.mode = requested;
        run.routing = {{QStringLiteral("score"), requested == QLatin1String("planner") ? 1.0 : 0.0},
                       {QStringLiteral("reason"), QStringLiteral("requested")}};
    }
    run.message = message;
    run.a2wRunId = a2wRunId;
    run.taskBoundaryId = boundary;
    run.status = QStringLiteral("running");
    run.createdAt = run.updatedAt = m_journal.now();
    m_journal.repo().insertRun(run);
    session.activeRunId = run.id;
    m_journal.appendEvent(session, QStringLiteral("run.started"), run.id,
                          {{QStringLiteral("runId"), run.id},
                           {QStringLiteral("status"), run.status},
                           {QStringLiteral("mode"), run.mode},
                           {QStringLiteral("message"), message}});
    m_journal.runStarted(session.id, run.id);
    return {200, runInputData(session, run)};
}

CommandAnswer CommandProtocol::runControl(Session &session, const QJsonObject &body)
{
    const JsonFields f(body);
    const QString action =
        f.optionalEnum(QStringLiteral("action"),
                       {QStringLiteral("cancel"), QStringLiteral("end_task"),
                        QStringLiteral("new_task"), QStringLiteral("continue"),
                        QStringLiteral("share_result"), QStringLiteral("withhold_result")})
            .value_or(QString());
    if (action.isEmpty())
        throw DomainError::missingField(QStringLiteral("action"));
    if (action == QLatin1String("share_result") || action == QLatin1String("withhold_result"))
        return reviewResult(session, body, action);
    const QString reason = f.optionalString(QStringLiteral("reason")).value_or(QString());
    QString runId = f.optionalString(QStringLiteral("runId")).value_or(session.activeRunId);
    std::optional<Run> run = runId.isEmpty() ? std::nullopt : m_journal.repo().findRun(runId);
    if (run && run->sessionId != session.id)
        run.reset();
    if (!session.activeRunId.isEmpty())
        checkSeq(session, body);
    if ((action == QLatin1String("cancel") || action == QLatin1String("end_task") ||
         action == QLatin1String("continue")) &&
        (!run || !run->isActive()))
        throw staleRun(runId.isEmpty() ? QStringLiteral("the session has no active run")
                                       : QStringLiteral("run %1 is not active").arg(runId),
                       QStringLiteral("runId"), session.activeRunId);
    if (action == QLatin1String("cancel")) {
        settleRun(session, *run, QStringLiteral("cancelled"), reason);
    } else if (action == QLatin1String("end_task")) {
        // The visitor ends the task: the run ends as done by them, and a new task begins.
        settleRun(session, *run, QStringLiteral("completed"),
                  reason.isEmpty() ? QStringLiteral("ended by the visitor") : reason);
        ++session.epoch;
        m_journal.appendEvent(session, QStringLiteral("task.boundary"), QString(),
                              {{QStringLiteral("epoch"), session.epoch}});
    } else if (action == QLatin1String("new_task")) {
        if (run && run->isActive())
            settleRun(session, *run, QStringLiteral("cancelled"), QStringLiteral("new task"));
        ++session.epoch;
        m_journal.appendEvent(session, QStringLiteral("task.boundary"), QString(),
                              {{QStringLiteral("epoch"), session.epoch}});
    } else { // continue: carried across a page load, or the loop goes on
        static const QStringList reasons = {QStringLiteral("loop_continue"),
                                            QStringLiteral("same_tab_navigation_handoff"),
                                            QStringLiteral("awaiting_user")};
        const QString why = reason.isEmpty() ? QStringLiteral("loop_continue") : reason;
        if (body.contains(QStringLiteral("stepId")))
            return m_steps.deliver(session, body);
        if (!reasons.contains(why))
            throw invalid(
                QStringLiteral("reason"),
                QStringLiteral("must be one of %1").arg(reasons.join(QStringLiteral(", "))));
        run->status = QStringLiteral("running");
        run->continuationReason = why;
        run->updatedAt = m_journal.now();
        m_journal.repo().updateRun(*run);
        m_journal.appendEvent(session, QStringLiteral("run.transition"), run->id,
                              {{QStringLiteral("runId"), run->id},
                               {QStringLiteral("status"), run->status},
                               {QStringLiteral("continuationReason"), why}});
    }
    QJsonObject data{{QStringLiteral("action"), action},
                     {QStringLiteral("currentSeq"), session.seq},
                     {QStringLiteral("projection"), m_projection.of(session, session.seq, false)}};
    if (run)
        data.insert(QStringLiteral("runId"), run->id);
    return {200, data};
}

CommandAnswer CommandProtocol::reviewResult(Session &session, const QJsonObject &body,
                                            const QString &action)
{
    const JsonFields f(body);
    const QString runId = f.optionalString(QStringLiteral("runId")).value_or(QString());
    if (runId.isEmpty())
        throw DomainError::missingField(QStringLiteral("runId"));
    std::optional<Run> run = m_journal.repo().findRun(runId);
    if (!run || run->sessionId != session.id || run->a2wRunId.isEmpty())
        throw staleRun(QStringLiteral("run %1 is no A2W run of this session").arg(runId),
                       QStringLiteral("runId"), session.activeRunId);
    const QString review = run->result.value(QStringLiteral("a2wReview")).toString();
    if (review != QLatin1String("pending"))
        throw DomainError(
            DomainError::Kind::Conflict, QStringLiteral("NOT_WAITING_FOR_REVIEW"),
            review.isEmpty()
                ? QStringLiteral("run %1 has no result waiting for the visitor").arg(runId)
                : QStringLiteral("the visitor decided already (%1)").arg(review),
            QStringLiteral("runId"), {{QStringLiteral("retryable"), false}});
    if (!m_reviewer)
        throw invalid(QStringLiteral("action"),
                      QStringLiteral("A2W results cannot be shared here"));
    const bool share = action == QLatin1String("share_result");
    // Exactly what the visitor was shown in the a2w.review event.
    QJsonObject shown{{QStringLiteral("text"), run->result.value(QStringLiteral("text"))}};
    if (run->result.contains(QStringLiteral("json")))
        shown.insert(QStringLiteral("json"), run->result.value(QStringLiteral("json")));
    m_reviewer(run->a2wRunId, share, share ? shown : QJsonObject());
    const QString decided = share ? QStringLiteral("shared") : QStringLiteral("withheld");
    run->result.insert(QStringLiteral("a2wReview"), decided);
    run->updatedAt = m_journal.now();
    m_journal.repo().updateRun(*run);
    m_journal.appendEvent(session, QStringLiteral("a2w.reviewed"), runId,
                          {{QStringLiteral("runId"), runId},
                           {QStringLiteral("a2wRunId"), run->a2wRunId},
                           {QStringLiteral("a2wReview"), decided}});
    return {200,
            {{QStringLiteral("action"), action},
             {QStringLiteral("runId"), runId},
             {QStringLiteral("a2wRunId"), run->a2wRunId},
             {QStringLiteral("a2wReview"), decided},
             {QStringLiteral("currentSeq"), session.seq}}};
}

CommandAnswer CommandProtocol::tabEvent(Session &session, const QJsonObject &body)
{
    const JsonFields f(body);
    QString target = f.optionalString(QStringLiteral("targetUrl")).value_or(QString());
    const QString targetField =
        target.isEmpty() ? QStringLiteral("url") : QStringLiteral("targetUrl");
    if (target.isEmpty())
        target = f.optionalString(QStringLiteral("url")).value_or(QString());
    if (target.isEmpty())
        throw DomainError::missingField(QStringLiteral("targetUrl"));
    const QUrl targetUrl(target);
    if (!targetUrl.isValid() || targetUrl.scheme().isEmpty())
        throw invalid(targetField, QStringLiteral("must be an absolute URL"));
    const QString runId = f.optionalString(QStringLiteral("runId")).value_or(QString());
    const QString clientEventId = body.value(QStringLiteral("clientEventId")).toString();
    const QString tabId =
        f.optionalString(QStringLiteral("logicalTabId")).value_or(QStringLiteral("main"));
    const QString currentUrl = f.optionalString(QStringLiteral("currentUrl")).value_or(session.url);
    const std::optional<double> clientScore =
        f.optionalNumber(QStringLiteral("adversarialScore"), 0, 1);

    QJsonObject d{{QStringLiteral("sessionId"), session.id},
                  {QStringLiteral("sessionEpoch"), session.epoch},
                  {QStringLiteral("clientEventId"), clientEventId}};
    // A tab event of a run that is not the active one: stale, non-fatal.
    if (!runId.isEmpty() && runId != session.activeRunId) {
        d.insert(QStringLiteral("decision"), QStringLiteral("stale_run"));
        d.insert(QStringLiteral("decisionReason"), QStringLiteral("stale_run"));
        d.insert(QStringLiteral("decisionHint"), QStringLiteral("sync_projection_and_ignore"));
        d.insert(QStringLiteral("staleRun"), true);
        d.insert(QStringLiteral("staleRunReason"), session.activeRunId.isEmpty()
                                                       ? QStringLiteral("no_active_run")
                                                       : QStringLiteral("not_the_active_run"));
        d.insert(QStringLiteral("runId"), runId);
        d.insert(QStringLiteral("currentRunId"), session.activeRunId);
        d.insert(QStringLiteral("currentActiveRunId"), session.activeRunId);
        d.insert(QStringLiteral("currentSeq"), session.seq);
        return {200, d};
    }
    if (!session.activeRunId.isEmpty())
        checkSeq(session, body);

    NavigationInput in;
    in.targetUrl = target;
    in.currentUrl = currentUrl;
    in.sessionHost = session.host;
    in.logicalTabId = tabId;
    in.nextSeq = session.seq + 1;
    const std::optional<sites::SiteKey> key = m_journal.sites().findKey(session.keyId);
    if (key) {
        in.hasKey = true;
        in.allowedDomains = key->allowedDomains;
        in.domainScope = key->domainScope();
    }
    const QJsonObject policy = policyOf(key);
    in.externalDenyDomains = stringsOf(policy.value(QStringLiteral("externalDenyDomains")));
    in.externalAllowDomains = stringsOf(policy.value(QStringLiteral("externalAllowDomains")));
    in.clientScore = clientScore;
    in.blockScore = blockScore();
    const NavigationDecision nav = decideNavigation(in);
    Tab tab = nav.tab;
    tab.updatedAt = m_journal.now();
    m_journal.repo().upsertTab(session.id, tab);
    if (nav.decision == QLatin1String("allow_same_tab"))
        session.url = tab.url;

    d.insert(QStringLiteral("decision"), nav.decision);
    d.insert(QStringLiteral("decisionReason"), nav.reason);
    d.insert(QStringLiteral("decisionHint"), nav.hint);
    if (!nav.notice.isEmpty())
        d.insert(QStringLiteral("notice"), nav.notice);
    d.insert(QStringLiteral("staleRun"), false);
    d.insert(QStringLiteral("currentActiveRunId"), session.activeRunId);
    if (!runId.isEmpty())
        d.insert(QStringLiteral("runId"), runId);
    d.insert(QStringLiteral("currentHost"), nav.currentHost);
    d.insert(QStringLiteral("targetHost"), nav.targetHost);
    d.insert(QStringLiteral("isCrossHost"), nav.targetHost != nav.currentHost);
    d.insert(QStringLiteral("crossDomain"),
             nav.navigationClass == QLatin1String("cross_registrable_external"));
    d.insert(QStringLiteral("navigationClass"), nav.navigationClass);
    d.insert(QStringLiteral("adversarial"),
             QJsonObject{
                 {QStringLiteral("score"), nav.adversarial.score},
                 {QStringLiteral("reasons"), QJsonArray::fromStringList(nav.adversarial.reasons)}});
    d.insert(QStringLiteral("logicalTabId"), tab.logicalTabId);
    m_journal.appendEvent(session, QStringLiteral("tab.decision"), session.activeRunId,
                          {{QStringLiteral("logicalTabId"), tab.logicalTabId},
                           {QStringLiteral("decision"), nav.decision},
                           {QStringLiteral("navigationClass"), nav.navigationClass},
                           {QStringLiteral("url"), tab.url}});
    d.insert(QStringLiteral("currentSeq"), session.seq);
    return {200, d};
}

// --- steps on the visitor's page ------------------------------------------------------

void CommandProtocol::runProgress(const QString &runId, const QString &status,
                                  const QJsonObject &data)
{
    m_journal.write([&] {
        std::optional<Run> run = m_journal.repo().findRun(runId);
        if (!run || !run->isActive())
            return;
        std::optional<Session> session = m_journal.repo().findSession(run->sessionId);
        if (!session)
            return;
        if (status == QLatin1String("running")) {
            if (run->status != QLatin1String("running")) {
                run->status = QStringLiteral("running");
                run->updatedAt = m_journal.now();
                m_journal.repo().updateRun(*run);
                m_journal.appendEvent(
                    *session, QStringLiteral("run.transition"), runId,
                    {{QStringLiteral("runId"), runId}, {QStringLiteral("status"), run->status}});
            }
            if (data.contains(QStringLiteral("step")))
                m_journal.appendEvent(*session, QStringLiteral("run.step"), runId,
                                      data.value(QStringLiteral("step")).toObject());
        } else if (status == QLatin1String("awaiting_user")) {
            run->status = QStringLiteral("awaiting_user");
            run->updatedAt = m_journal.now();
            m_journal.repo().updateRun(*run);
            m_journal.appendEvent(
                *session, QStringLiteral("run.transition"), runId,
                {{QStringLiteral("runId"), runId},
                 {QStringLiteral("status"), run->status},
                 {QStringLiteral("questions"), data.value(QStringLiteral("questions"))}});
            m_journal.appendEvent(*session, QStringLiteral("run.message"), runId,
                                  {{QStringLiteral("role"), QStringLiteral("assistant")},
                                   {QStringLiteral("text"), data.value(QStringLiteral("text"))}});
        } else {
            // completed or failed: the run's answer, then its end.
            run->result = data;
            m_journal.appendEvent(
                *session, QStringLiteral("run.message"), runId,
                {{QStringLiteral("role"), QStringLiteral("assistant")},
                 {QStringLiteral("text"),
                  status == QLatin1String("completed")
                      ? data.value(QStringLiteral("text"))
                      : QJsonValue(QStringLiteral("I could not finish that: %1")
                                       .arg(data.value(QStringLiteral("error")).toString()))},
                 {QStringLiteral("status"), status}});
            // A claimed A2W run's result stays the visitor's: they are shown it and asked
            // whether to share it with the agent (RUN_CONTROL share_result/withhold_result).
            const bool review = status == QLatin1String("completed") && !run->a2wRunId.isEmpty();
            if (review)
                run->result.insert(QStringLiteral("a2wReview"), QStringLiteral("pending"));
            settleRun(*session, *run,
                      status == QLatin1String("completed") ? QStringLiteral("completed")
                                                           : QStringLiteral("failed"),
                      data.value(QStringLiteral("error")).toString(), false);
            if (review) {
                QJsonObject shown{{QStringLiteral("runId"), runId},
                                  {QStringLiteral("a2wRunId"), run->a2wRunId},
                                  {QStringLiteral("text"), data.value(QStringLiteral("text"))}};
                if (data.contains(QStringLiteral("json")))
                    shown.insert(QStringLiteral("json"), data.value(QStringLiteral("json")));
                m_journal.appendEvent(*session, QStringLiteral("a2w.review"), runId, shown);
            }
        }
        m_journal.repo().updateSession(*session);
    });
    m_journal.flush();
}

// --- checkpoints, telemetry, external context ----------------------------------------

QJsonObject CommandProtocol::externalDecision(const Session &s, const QJsonObject &body)
{
    const JsonFields f(body);
    const QString runId = f.requiredString(QStringLiteral("runId"));
    const QString url = f.requiredString(QStringLiteral("url"));
    const QString intent = f.optionalEnum(QStringLiteral("intent"),
                                          {QStringLiteral("open_only"),
                                           QStringLiteral("read_context"), QStringLiteral("act")})
                               .value_or(QString());
    if (intent.isEmpty())
        throw DomainError::missingField(QStringLiteral("intent"));
    QJsonObject out;
    m_journal.write([&] {
        Session session = m_journal.repo().findSession(s.id).value_or(s);
        checkEpoch(session, body);
        checkSeq(session, body);
        if (runId != session.activeRunId)
            throw staleRun(QStringLiteral("run %1 is not the session's active run").arg(runId),
                           QStringLiteral("runId"), session.activeRunId);
        const QUrl u(url);
        if (!u.isValid() ||
            (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")) ||
            u.host().isEmpty())
            throw invalid(QStringLiteral("url"), QStringLiteral("must be an http(s) URL"));
        const std::optional<sites::SiteKey> key = m_journal.sites().findKey(session.keyId);
        const QJsonObject caps =
            key ? capabilitiesOf(*key) : sites::SiteConfigSchema::capabilityDefaults();
        const QJsonObject policy = policyOf(key);
        // Capability checks on every call.
        if (intent != QLatin1String("open_only") &&
            !caps.value(QStringLiteral("externalWebContextScrape")).toBool())
            throw forbidden(QStringLiteral("CAPABILITY_DISABLED"),
                            QStringLiteral("the site key's externalWebContextScrape capability is "
                                           "off: only open_only is allowed"),
                            QStringLiteral("intent"));
        if (intent == QLatin1String("act") &&
            !policy.value(QStringLiteral("cloudSandboxEnabled")).toBool())
            throw forbidden(QStringLiteral("CAPABILITY_DISABLED"),
                            QStringLiteral("acting on external pages needs the site policy's "
                                           "cloudSandboxEnabled"),
                            QStringLiteral("intent"));
        // act carries the visitor's task (message, or userInput).
        if (intent == QLatin1String("act") &&
            body.value(QStringLiteral("message"))
                .toString(body.value(QStringLiteral("userInput")).toString())
                .trimmed()
                .isEmpty())
            throw DomainError::missingField(QStringLiteral("message"));
        const ExternalDecision ext = decideExternal(
            url, session.host, stringsOf(policy.value(QStringLiteral("externalDenyDomains"))),
            blockScore());
        const QString &decision = ext.decision;
        const QString &reason = ext.reason;
        const AdversarialReading &adv = ext.adversarial;
        Tab tab;
        tab.logicalTabId = f.optionalString(QStringLiteral("logicalTabId"))
                               .value_or(QStringLiteral("ext_%1").arg(session.seq + 1));
        tab.scope = QStringLiteral("external");
        tab.url = u.toString(QUrl::RemoveUserInfo);
        tab.status =
            decision == QLatin1String("block") ? QStringLiteral("blocked") : QStringLiteral("open");
        tab.reason = reason;
        tab.updatedAt = m_journal.now();
        m_journal.repo().upsertTab(session.id, tab);
        m_journal.appendEvent(session, QStringLiteral("external.decision"), runId,
                              {{QStringLiteral("intent"), intent},
                               {QStringLiteral("decision"), decision},
                               {QStringLiteral("url"), tab.url}});
        m_journal.repo().updateSession(session);
        out = {{QStringLiteral("decision"), decision},
               {QStringLiteral("intent"), intent},
               {QStringLiteral("url"), tab.url},
               {QStringLiteral("logicalTabId"), tab.logicalTabId},
               {QStringLiteral("currentSeq"), session.seq},
               {QStringLiteral("adversarial"),
                QJsonObject{{QStringLiteral("score"), adv.score},
                            {QStringLiteral("reasons"), QJsonArray::fromStringList(adv.reasons)}}}};
        if (!reason.isEmpty())
            out.insert(QStringLiteral("decisionReason"), reason);
    });
    m_journal.flush();
    return out;
}

// --- analytics beacon ----------------------------------------------------------------

void CommandProtocol::markTab(const QString &sessionId, const QString &logicalTabId,
                              const QString &status)
{
    m_journal.write([&] {
        std::optional<Session> session = m_journal.repo().findSession(sessionId);
        if (!session)
            return;
        for (Tab t : m_journal.repo().tabsOf(sessionId)) {
            if (t.logicalTabId != logicalTabId)
                continue;
            t.status = status;
            t.updatedAt = m_journal.now();
            m_journal.repo().upsertTab(sessionId, t);
            m_journal.appendEvent(*session, QStringLiteral("tab.status"), session->activeRunId,
                                  {{QStringLiteral("logicalTabId"), logicalTabId},
                                   {QStringLiteral("status"), status}});
            m_journal.repo().updateSession(*session);
        }
    });
    m_journal.flush();
}

// --- console -------------------------------------------------------------------------

void CommandProtocol::endActiveRun(const QString &sessionId, const QString &reason)
{
    m_journal.write([&] {
        std::optional<Session> session = m_journal.repo().findSession(sessionId);
        if (!session)
            throw DomainError::notFound(QStringLiteral("no such runtime session"));
        std::optional<Run> run = session->activeRunId.isEmpty()
                                     ? std::nullopt
                                     : m_journal.repo().findRun(session->activeRunId);
        if (!run || !run->isActive())
            throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_run"),
                              QStringLiteral("the session has no active run"));
        settleRun(*session, *run, QStringLiteral("cancelled"), reason);
        m_journal.repo().updateSession(*session);
    });
    m_journal.flush();
}

} // namespace ph::runtime
