#include "TrajectoryRepository.h"

#include "core/Clock.h"
#include "core/JsonText.h"
#include "core/SqlRow.h"
#include "core/Store.h"

#include <QJsonDocument>

namespace ph::engine {

namespace {
TrajectoryRow trajectoryFrom(const Sql &q)
{
    SqlRow row(q);
    TrajectoryRow t;
    t.id = row.text();
    t.keyId = row.text();
    t.status = row.text();
    t.phase = row.number();
    t.task = row.text();
    t.planner = row.text();
    t.createdAt = row.integer();
    t.updatedAt = row.integer();
    t.creditsMilli = row.integer();
    for (const auto &v : row.array())
        t.toolsUsed << v.toString();
    return t;
}

const QString kTrajectoryColumns = QStringLiteral(
    "id, key_id, status, phase, task, planner, created_at, updated_at, credits_milli, tools_used");
} // namespace

TrajectoryRepository::TrajectoryRepository(Store &store)
    : m_store(store)
{}

void TrajectoryRepository::create(const QString &id, const QString &keyId, const QString &task,
                                  const QString &planner)
{
    const qint64 now = m_store.clock().nowMs();
    Sql(m_store,
        QStringLiteral("INSERT INTO trajectories (id, key_id, created_at, updated_at,"
                       " status, phase, task, planner) VALUES (:id, :k, :c, :c, 'executing',"
                       " 1, :t, :p)"))
        .bind(QStringLiteral(":id"), id)
        .bind(QStringLiteral(":k"),
              keyId.isEmpty() ? JsonText::nullableText(QString()) : QVariant(keyId))
        .bind(QStringLiteral(":c"), now)
        .bind(QStringLiteral(":t"), task)
        .bind(QStringLiteral(":p"), planner)
        .exec();
    m_store.notifyChanged(QStringLiteral("trajectories"), id);
    Q_EMIT trajectoryChanged(id);
}

std::optional<TrajectoryRow> TrajectoryRepository::find(const QString &id) const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM trajectories WHERE id = :id").arg(kTrajectoryColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, trajectoryFrom);
}

void TrajectoryRepository::update(const QString &id, const QString &status, int phase,
                                  const QString &planner, qint64 addCreditsMilli,
                                  const QStringList &toolsUsed)
{
    Sql(m_store,
        QStringLiteral("UPDATE trajectories SET status = :s, phase = :p, planner = :pl,"
                       " updated_at = :u, credits_milli = credits_milli + :c, tools_used = :t"
                       " WHERE id = :id"))
        .bind(QStringLiteral(":s"), status)
        .bind(QStringLiteral(":p"), phase)
        .bind(QStringLiteral(":pl"), planner)
        .bind(QStringLiteral(":u"), m_store.clock().nowMs())
        .bind(QStringLiteral(":c"), addCreditsMilli)
        .bind(QStringLiteral(":t"), JsonText::from(QJsonArray::fromStringList(toolsUsed)))
        .bind(QStringLiteral(":id"), id)
        .exec();
    m_store.notifyChanged(QStringLiteral("trajectories"), id);
    Q_EMIT trajectoryChanged(id);
}

void TrajectoryRepository::beginPhase(const QString &trajectoryId, int phase,
                                      const QString &requestId, const QJsonObject &request,
                                      const QJsonObject &state)
{
    Sql(m_store,
        QStringLiteral("INSERT INTO phases (trajectory_id, phase, request_id, status, request,"
                       " state, started_at) VALUES (:t, :p, :r, 'executing', :req, :st, :s)"))
        .bind(QStringLiteral(":t"), trajectoryId)
        .bind(QStringLiteral(":p"), phase)
        .bind(QStringLiteral(":r"), requestId)
        .bind(QStringLiteral(":req"), JsonText::from(request))
        .bind(QStringLiteral(":st"),
              state.isEmpty() ? JsonText::nullableText(QString()) : QVariant(JsonText::from(state)))
        .bind(QStringLiteral(":s"), m_store.clock().nowMs())
        .exec();
}

void TrajectoryRepository::savePhase(const QString &trajectoryId, int phase, const QString &status,
                                     const QJsonObject &response, const QJsonObject &state,
                                     qint64 creditsMilli, const QString &error, bool finished)
{
    Sql(m_store, QStringLiteral("UPDATE phases SET status = :s, response = :r, state = :st,"
                                " credits_milli = :c, error = :e, finished_at = :f WHERE"
                                " trajectory_id = :t AND phase = :p"))
        .bind(QStringLiteral(":s"), status)
        .bind(QStringLiteral(":r"), JsonText::from(response))
        .bind(QStringLiteral(":st"), JsonText::from(state))
        .bind(QStringLiteral(":c"), creditsMilli)
        .bind(QStringLiteral(":e"),
              error.isEmpty() ? JsonText::nullableText(QString()) : QVariant(error))
        .bind(QStringLiteral(":f"), finished ? QVariant(m_store.clock().nowMs())
                                             : QVariant(QMetaType::fromType<qint64>()))
        .bind(QStringLiteral(":t"), trajectoryId)
        .bind(QStringLiteral(":p"), phase)
        .exec();
    m_store.notifyChanged(QStringLiteral("phases"), trajectoryId);
    Q_EMIT trajectoryChanged(trajectoryId);
}

std::optional<PhaseRow> TrajectoryRepository::phase(const QString &trajectoryId, int phase) const
{
    Sql q(m_store, QStringLiteral("SELECT request_id, status, request, response, state, started_at,"
                                  " finished_at, credits_milli, error FROM phases WHERE"
                                  " trajectory_id = :t AND phase = :p"));
    q.bind(QStringLiteral(":t"), trajectoryId).bind(QStringLiteral(":p"), phase).exec();
    if (!q.next())
        return std::nullopt;
    PhaseRow r;
    r.trajectoryId = trajectoryId;
    r.phase = phase;
    r.requestId = q.value(0).toString();
    r.status = q.value(1).toString();
    r.request = JsonText::object(q.value(2).toString());
    r.response = JsonText::object(q.value(3).toString());
    r.state = JsonText::object(q.value(4).toString());
    r.startedAt = q.value(5).toLongLong();
    if (!q.value(6).isNull())
        r.finishedAt = q.value(6).toLongLong();
    r.creditsMilli = q.value(7).toLongLong();
    r.error = q.value(8).toString();
    return r;
}

int TrajectoryRepository::lastPhase(const QString &trajectoryId) const
{
    Sql q(m_store,
          QStringLiteral("SELECT COALESCE(MAX(phase), 0) FROM phases WHERE trajectory_id = :t"));
    q.bind(QStringLiteral(":t"), trajectoryId).exec();
    return q.next() ? q.value(0).toInt() : 0;
}

qint64 TrajectoryRepository::addStep(const QString &trajectoryId, int phase, const StepRecord &s)
{
    Sql q(m_store,
          QStringLiteral("INSERT INTO steps (trajectory_id, phase, seq, tool_name, args, status,"
                         " started_at, thought) VALUES (:t, :p, :seq, :tool, :args, :s, :at,"
                         " :th)"));
    q.bind(QStringLiteral(":t"), trajectoryId)
        .bind(QStringLiteral(":p"), phase)
        .bind(QStringLiteral(":seq"), s.seq)
        .bind(QStringLiteral(":tool"), s.toolName)
        .bind(QStringLiteral(":args"), JsonText::from(s.args))
        .bind(QStringLiteral(":s"), s.status)
        .bind(QStringLiteral(":at"), s.startedAt)
        .bind(QStringLiteral(":th"),
              s.thought.isEmpty() ? JsonText::nullableText(QString()) : QVariant(s.thought))
        .exec();
    const qint64 id = q.lastInsertId().toLongLong();
    m_store.notifyChanged(QStringLiteral("steps"), trajectoryId);
    Q_EMIT stepsChanged(trajectoryId);
    return id;
}

void TrajectoryRepository::finishStep(const StepRecord &s)
{
    Sql(m_store,
        QStringLiteral("UPDATE steps SET status = :s, duration_ms = :d, credits_milli = :c,"
                       " output = :o, has_output = :ho, has_sheets = :hs,"
                       " has_generated_content = :hg WHERE id = :id"))
        .bind(QStringLiteral(":s"), s.status)
        .bind(QStringLiteral(":d"), s.durationMs)
        .bind(QStringLiteral(":c"), s.creditsMilli)
        .bind(QStringLiteral(":o"),
              JsonText::from(QJsonObject{{QStringLiteral("output"), s.output},
                                         {QStringLiteral("summary"), s.summary}}))
        .bind(QStringLiteral(":ho"), s.hasOutput ? 1 : 0)
        .bind(QStringLiteral(":hs"), s.hasSheets ? 1 : 0)
        .bind(QStringLiteral(":hg"), s.hasGeneratedContent ? 1 : 0)
        .bind(QStringLiteral(":id"), s.id)
        .exec();
}

QList<StepRecord> TrajectoryRepository::steps(const QString &trajectoryId, int phase) const
{
    Sql q(m_store,
          QStringLiteral("SELECT id, seq, tool_name, args, status, started_at, duration_ms,"
                         " credits_milli, thought, output, has_output, has_sheets,"
                         " has_generated_content FROM steps WHERE trajectory_id = :t AND"
                         " phase = :p ORDER BY seq"));
    q.bind(QStringLiteral(":t"), trajectoryId).bind(QStringLiteral(":p"), phase).exec();
    QList<StepRecord> out;
    while (q.next()) {
        StepRecord s;
        s.id = q.value(0).toLongLong();
        s.seq = q.value(1).toInt();
        s.toolName = q.value(2).toString();
        s.args = JsonText::object(q.value(3).toString());
        s.status = q.value(4).toString();
        s.startedAt = q.value(5).toLongLong();
        s.durationMs = q.value(6).toLongLong();
        s.creditsMilli = q.value(7).toLongLong();
        s.thought = q.value(8).toString();
        const QJsonObject o = JsonText::object(q.value(9).toString());
        s.output = o.value(QStringLiteral("output"));
        s.summary = o.value(QStringLiteral("summary")).toString();
        s.hasOutput = q.value(10).toBool();
        s.hasSheets = q.value(11).toBool();
        s.hasGeneratedContent = q.value(12).toBool();
        out.append(s);
    }
    return out;
}

QList<TrajectoryRow> TrajectoryRepository::list(const QString &keyId, const QString &status,
                                                int limit, int offset, const QString &search) const
{
    QString sql = QStringLiteral("SELECT %1 FROM trajectories WHERE 1 = 1").arg(kTrajectoryColumns);
    if (!keyId.isEmpty())
        sql += QStringLiteral(" AND key_id = :k");
    if (!status.isEmpty())
        sql += QStringLiteral(" AND status = :s");
    // Three characters or more: the trigram index (a quoted FTS5 phrase of trigrams is a
    // case-insensitive substring match on task or id); shorter, a scan with LIKE.
    const bool indexed = search.size() >= 3;
    if (indexed)
        sql += QStringLiteral(" AND rowid IN (SELECT rowid FROM trajectories_search WHERE"
                              " trajectories_search MATCH :m)");
    else if (!search.isEmpty())
        sql += QStringLiteral(" AND (task LIKE :q ESCAPE '\\' OR id LIKE :q ESCAPE '\\')");
    sql += QStringLiteral(" ORDER BY updated_at DESC LIMIT :l OFFSET :o");
    Sql q(m_store, sql);
    if (indexed) {
        QString phrase = search;
        q.bind(QStringLiteral(":m"), QLatin1Char('"') +
                                         phrase.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
                                         QLatin1Char('"'));
    } else if (!search.isEmpty()) {
        QString pattern = search;
        pattern.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
        q.bind(QStringLiteral(":q"), QLatin1Char('%') + pattern + QLatin1Char('%'));
    }
    if (!keyId.isEmpty())
        q.bind(QStringLiteral(":k"), keyId);
    if (!status.isEmpty())
        q.bind(QStringLiteral(":s"), status);
    q.bind(QStringLiteral(":l"), limit).bind(QStringLiteral(":o"), offset).exec();
    return SqlRows::all(q, trajectoryFrom);
}

QList<PhaseRow> TrajectoryRepository::executingPhases() const
{
    QList<std::pair<QString, int>> keys;
    {
        Sql q(m_store, QStringLiteral("SELECT trajectory_id, phase FROM phases WHERE status ="
                                      " 'executing' ORDER BY started_at"));
        q.exec();
        while (q.next())
            keys.append({q.value(0).toString(), q.value(1).toInt()});
    }
    QList<PhaseRow> out;
    for (const auto &[trajectoryId, number] : std::as_const(keys)) {
        if (const auto row = phase(trajectoryId, number))
            out.append(*row);
    }
    return out;
}

int TrajectoryRepository::cancelOrphans()
{
    Sql q(m_store, QStringLiteral("UPDATE trajectories SET status = 'cancelled' WHERE status ="
                                  " 'executing' AND NOT EXISTS (SELECT 1 FROM phases WHERE"
                                  " phases.trajectory_id = trajectories.id AND phases.status ="
                                  " 'executing')"));
    q.exec();
    return q.rowsAffected();
}

} // namespace ph::engine
