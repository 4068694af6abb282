#include "RunRecorder.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/Store.h"
#include "sites/AnalyticsRepository.h"

#include <QJsonArray>

namespace ph::a2w {

DomainError runNotFound()
{
    return {DomainError::Kind::NotFound, QStringLiteral("RUN_NOT_FOUND"),
            QStringLiteral("no such run, or the access token is not its own")};
}

QString hashToken(const QString &token)
{
    return Ids::sha256Hex(token.toUtf8());
}

RunRecorder::RunRecorder(Store &store, A2wRepository &repo, sites::AnalyticsRepository &analytics,
                         QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_repo(repo)
    , m_analytics(analytics)
{}

void RunRecorder::emitEvent(const Run &run, const QString &type, const QJsonObject &data)
{
    const Event e = m_repo.appendEvent(run.id, type, data);
    Q_EMIT eventAdded(run.id, e);
}

void RunRecorder::setStatus(Run &run, const QString &status)
{
    run.status = status;
    run.updatedAt = m_store.clock().nowMs();
    m_repo.update(run);
    emitEvent(run, QStringLiteral("status"), {{QStringLiteral("status"), status}});
    Q_EMIT runChanged(run.id);
}

void RunRecorder::park(Run &run, const QJsonObject &input)
{
    run.input = input;
    run.status = Status::inputRequired;
    run.updatedAt = m_store.clock().nowMs();
    m_repo.update(run);
    QJsonObject inputEvent = run.input;
    if (!run.authInput.isEmpty())
        inputEvent.insert(QStringLiteral("authInput"), run.authInput);
    emitEvent(run, QStringLiteral("input"), inputEvent);
    emitEvent(run, QStringLiteral("status"), {{QStringLiteral("status"), run.status}});
    Q_EMIT runChanged(run.id);
    Q_EMIT deadlinesChanged();
}

void RunRecorder::settle(Run &run, const QString &status, const QString &error)
{
    run.status = status;
    run.error = error;
    run.input = {};
    run.expiresAt.reset();
    run.updatedAt = m_store.clock().nowMs();
    m_repo.update(run);
    const QJsonObject observation = run.result.value(QStringLiteral("observation")).toObject();
    if (!observation.isEmpty())
        emitEvent(run, QStringLiteral("observation"), observation);
    if (!run.result.isEmpty())
        emitEvent(run, QStringLiteral("result"), run.result);
    QJsonObject data{{QStringLiteral("status"), status}};
    if (!error.isEmpty())
        data.insert(QStringLiteral("error"), error);
    if (status == Status::failed)
        emitEvent(run, QStringLiteral("error"), {{QStringLiteral("message"), error}});
    emitEvent(run, QStringLiteral("status"), data);
    emitEvent(run, QStringLiteral("done"), data);
    Q_EMIT settled(run.id, run.trajectoryId);
    if (!run.delegationId.isEmpty() && !run.trajectoryId.isEmpty()) {
        // What the run cost counts against its delegated session's cap.
        Sql q(m_store, QStringLiteral("SELECT credits_milli FROM trajectories WHERE id = :t"));
        q.bind(QStringLiteral(":t"), run.trajectoryId).exec();
        if (q.next() && q.value(0).toLongLong() > 0) {
            m_repo.addSpent(run.delegationId, q.value(0).toLongLong());
            Q_EMIT delegationsChanged();
        }
    }
    Q_EMIT runChanged(run.id);
    recordInteraction(run);
}

void RunRecorder::recordInteraction(const Run &run)
{
    // The owner's analytics see every A2W run (a site deleted meanwhile: nothing to add).
    try {
        QJsonArray trajectory;
        for (const Event &e : m_repo.events(run.id, 0))
            if (e.type == QLatin1String("step"))
                trajectory.append(e.data);
        m_analytics.record(
            run.siteId, sites::AnalyticsRepository::Collection::Interaction,
            {{QStringLiteral("kind"), QStringLiteral("a2w_run")},
             {QStringLiteral("runId"), run.id},
             {QStringLiteral("status"), run.status},
             {QStringLiteral("execution"), run.execution},
             {QStringLiteral("engagementKind"), run.engagementKind},
             {QStringLiteral("selector"), run.kind},
             {QStringLiteral("agent"), run.agent.value(QStringLiteral("displayName")).toString()},
             {QStringLiteral("converted"), run.status == Status::completed},
             {QStringLiteral("trajectory"), trajectory}});
    } catch (const DomainError &) {
    }
}

} // namespace ph::a2w
