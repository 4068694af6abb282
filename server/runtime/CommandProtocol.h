#pragma once

#include "RuntimeTypes.h"

#include <QJsonObject>
#include <QString>

namespace ph::runtime {

class RemoteSteps;
class RuntimeJournal;
class RuntimeProjection;

// The strict command protocol (docs/api/runtime.md, "Commands"): a command envelope with a
// clientEventId (answered once, the same answer on a retry), expectedEpoch always and
// expectedSeq while a run is active; RUN_INPUT (one active run per session, A2W offers the
// visitor accepts), RUN_CONTROL and TAB_EVENT; and the run's life as the engine reports it.
class CommandProtocol
{
public:
    CommandProtocol(RuntimeJournal &journal, const RuntimeProjection &projection,
                    RemoteSteps &steps);

    void setA2wClaimer(A2wClaimer claimer) { m_claimer = std::move(claimer); }
    void setA2wReviewer(A2wReviewer reviewer) { m_reviewer = std::move(reviewer); }

    // POST /command.
    CommandAnswer command(const Session &session, const QJsonObject &body);
    // POST /context/external: the policy decision for an external URL.
    QJsonObject externalDecision(const Session &session, const QJsonObject &body);
    // What the engine's run came to: running, awaiting_user, completed or failed.
    void runProgress(const QString &runId, const QString &status, const QJsonObject &data);
    // A tab's new status, as an event of its session.
    void markTab(const QString &sessionId, const QString &logicalTabId, const QString &status);
    // An operator ends the session's active run.
    void endActiveRun(const QString &sessionId, const QString &reason);
    // The token an A2W acceptance or refusal must carry (binds offer, session and run).
    QString consentToken(const QString &sessionId, const QString &a2wRunId) const;
    // The adversarial score that blocks (runtime.externalBlockPercent / 100).
    double blockScore() const;

    // The command type a body without `type` is (RUN_CONTROL with an action, TAB_EVENT with
    // a URL, else RUN_INPUT); 400 for a type that is none of the three.
    static QString typeOf(const QJsonObject &body);
    // 409 stale_epoch / stale_seq unless the body expects the session's epoch / seq.
    static void checkEpoch(const Session &session, const QJsonObject &body);
    static void checkSeq(const Session &session, const QJsonObject &body);
    // "auto" routing of a message: planner or act, with its score and reason.
    static QJsonObject route(const QString &message, QString *mode);

private:
    CommandAnswer runInput(Session &session, const QJsonObject &body);
    // RUN_INPUT with an a2wReceipt: the offer, the visitor's acceptance or refusal.
    CommandAnswer a2wConsent(Session &session, const QJsonObject &body, QString *a2wRunId,
                             QString *task);
    CommandAnswer reviewResult(Session &session, const QJsonObject &body, const QString &action);
    CommandAnswer runControl(Session &session, const QJsonObject &body);
    CommandAnswer tabEvent(Session &session, const QJsonObject &body);
    // Ends (or moves) a run; an end the visitor or an operator caused stops the engine's
    // run too (`stopEngine`), one the engine reported does not.
    void settleRun(Session &session, Run &run, const QString &status, const QString &why,
                   bool stopEngine = true);
    QJsonObject runInputData(const Session &session, const Run &run) const;

    RuntimeJournal &m_journal;
    const RuntimeProjection &m_projection;
    RemoteSteps &m_steps;
    A2wClaimer m_claimer;
    A2wReviewer m_reviewer;
};

} // namespace ph::runtime
