#include "RemoteSteps.h"

#include "RuntimeCommon.h"
#include "RuntimeJournal.h"
#include "RuntimeProjection.h"

#include "core/DomainError.h"
#include "core/Ids.h"

#include <QTimer>

namespace ph::runtime {

RemoteSteps::RemoteSteps(RuntimeJournal &journal, const RuntimeProjection &projection,
                         QObject *parent)
    : QObject(parent)
    , m_journal(journal)
    , m_projection(projection)
{}

RemoteSteps::~RemoteSteps() = default;

void RemoteSteps::request(const QString &sessionId, const QString &runId, QJsonObject step,
                          int timeoutMs, StepDone done)
{
    const QString stepId = QStringLiteral("step_%1_%2").arg(++m_stepCounter).arg(Ids::base62(6));
    try {
        m_journal.write([&] {
            std::optional<Session> session = m_journal.repo().findSession(sessionId);
            if (!session || session->activeRunId != runId)
                throw DomainError(DomainError::Kind::Conflict, QStringLiteral("stale_run"),
                                  QStringLiteral("the run is no longer the session's active run"));
            step.insert(QStringLiteral("stepId"), stepId);
            step.insert(QStringLiteral("runId"), runId);
            step.insert(QStringLiteral("timeoutMs"), timeoutMs);
            m_journal.appendEvent(*session, QStringLiteral("page.request"), runId, step);
            m_journal.repo().updateSession(*session);
        });
    } catch (const DomainError &e) {
        QTimer::singleShot(0, this, [done, message = e.message()] { done(false, {}, message); });
        return;
    }
    PendingStep pending{sessionId, runId, std::move(done), new QTimer(this)};
    pending.timer->setSingleShot(true);
    connect(pending.timer, &QTimer::timeout, this, [this, stepId, timeoutMs] {
        const auto it = m_steps.find(stepId);
        if (it == m_steps.end())
            return;
        PendingStep p = *it;
        m_steps.erase(it);
        p.timer->deleteLater();
        p.done(false, {},
               QStringLiteral("the visitor's page did not answer in %1 ms").arg(timeoutMs));
    });
    // The visitor's page may be loading the next document: the step waits a little
    // longer than the page operation itself.
    pending.timer->start(timeoutMs + 15000);
    m_steps.insert(stepId, pending);
    m_journal.flush();
}

CommandAnswer RemoteSteps::deliver(Session &session, const QJsonObject &body)
{
    const QString stepId = body.value(QStringLiteral("stepId")).toString();
    const auto it = m_steps.constFind(stepId);
    if (it == m_steps.cend() || it->sessionId != session.id)
        throw staleRun(QStringLiteral("no step %1 is waiting for this session").arg(stepId),
                       QStringLiteral("stepId"), session.activeRunId);
    if (!body.value(QStringLiteral("result")).isObject())
        throw invalid(QStringLiteral("result"), QStringLiteral("must be an object"));
    const QJsonObject result = body.value(QStringLiteral("result")).toObject();
    const QString reason =
        body.value(QStringLiteral("reason")).toString(QStringLiteral("loop_continue"));
    std::optional<Run> run = m_journal.repo().findRun(it->runId);
    if (run) {
        run->continuationReason = reason;
        run->updatedAt = m_journal.now();
        m_journal.repo().updateRun(*run);
    }
    if (const QString url = result.value(QStringLiteral("url")).toString(); !url.isEmpty())
        session.url = url;
    m_journal.appendEvent(session, QStringLiteral("page.result"), it->runId,
                          {{QStringLiteral("stepId"), stepId},
                           {QStringLiteral("ok"), result.value(QStringLiteral("ok")).toBool()},
                           {QStringLiteral("continuationReason"), reason}});
    m_journal.afterCommit([this, stepId, result] {
        const auto found = m_steps.find(stepId);
        if (found == m_steps.end())
            return;
        PendingStep p = *found;
        m_steps.erase(found);
        p.timer->stop();
        p.timer->deleteLater();
        p.done(true, result, QString());
    });
    return {200,
            {{QStringLiteral("action"), QStringLiteral("continue")},
             {QStringLiteral("runId"), it->runId},
             {QStringLiteral("stepId"), stepId},
             {QStringLiteral("currentSeq"), session.seq},
             {QStringLiteral("projection"), m_projection.of(session, session.seq, false)}}};
}

void RemoteSteps::fail(const QString &runId, const QString &why)
{
    QStringList ids;
    for (auto it = m_steps.cbegin(); it != m_steps.cend(); ++it)
        if (it->runId == runId)
            ids << it.key();
    for (const QString &id : std::as_const(ids)) {
        PendingStep p = m_steps.take(id);
        p.timer->stop();
        p.timer->deleteLater();
        p.done(false, {}, why);
    }
}

} // namespace ph::runtime
