#include "RuntimeRepository.h"

#include "core/JsonText.h"
#include "core/SqlRow.h"
#include "core/Store.h"

namespace ph::runtime {

namespace {

using JsonText::nullableInt;
using JsonText::nullableText;

const QString kSessionColumns =
    QStringLiteral("id, site_id, key_id, host, url, epoch, seq, active_run_id, context,"
                   " client_address, created_at, updated_at, ended_at");

const QString kRunColumns = QStringLiteral(
    "id, session_id, status, mode, requested_mode, message, routing, task_boundary_id,"
    " continuation_reason, a2w_run_id, result, created_at, updated_at, ended_at");

QVariant objectOrNull(const QJsonObject &o)
{
    return o.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(JsonText::from(o));
}

Session sessionFromRow(const Sql &q)
{
    SqlRow row(q);
    Session s;
    s.id = row.text();
    s.siteId = row.text();
    s.keyId = row.text();
    s.host = row.text();
    s.url = row.text();
    s.epoch = row.integer();
    s.seq = row.integer();
    s.activeRunId = row.text();
    s.context = row.object();
    s.clientAddress = row.text();
    s.createdAt = row.integer();
    s.updatedAt = row.integer();
    s.endedAt = row.optionalInt();
    return s;
}

Run runFromRow(const Sql &q)
{
    SqlRow row(q);
    Run r;
    r.id = row.text();
    r.sessionId = row.text();
    r.status = row.text();
    r.mode = row.text();
    r.requestedMode = row.text();
    r.message = row.text();
    r.routing = row.object();
    r.taskBoundaryId = row.text();
    r.continuationReason = row.text();
    r.a2wRunId = row.text();
    r.result = row.object();
    r.createdAt = row.integer();
    r.updatedAt = row.integer();
    r.endedAt = row.optionalInt();
    return r;
}

QString kindName(RuntimeRepository::TokenKind kind)
{
    return kind == RuntimeRepository::TokenKind::Session ? QStringLiteral("session")
                                                         : QStringLiteral("stream");
}

void bindSession(Sql &q, const Session &s)
{
    q.bind(QStringLiteral(":id"), s.id)
        .bind(QStringLiteral(":site"), s.siteId)
        .bind(QStringLiteral(":key"), s.keyId)
        .bind(QStringLiteral(":host"), s.host)
        .bind(QStringLiteral(":url"), nullableText(s.url))
        .bind(QStringLiteral(":epoch"), s.epoch)
        .bind(QStringLiteral(":seq"), s.seq)
        .bind(QStringLiteral(":active"), nullableText(s.activeRunId))
        .bind(QStringLiteral(":context"), objectOrNull(s.context))
        .bind(QStringLiteral(":address"), nullableText(s.clientAddress))
        .bind(QStringLiteral(":created"), s.createdAt)
        .bind(QStringLiteral(":updated"), s.updatedAt)
        .bind(QStringLiteral(":ended"), nullableInt(s.endedAt));
}

void bindRun(Sql &q, const Run &r)
{
    q.bind(QStringLiteral(":id"), r.id)
        .bind(QStringLiteral(":session"), r.sessionId)
        .bind(QStringLiteral(":status"), r.status)
        .bind(QStringLiteral(":mode"), r.mode)
        .bind(QStringLiteral(":requested"), nullableText(r.requestedMode))
        .bind(QStringLiteral(":message"), JsonText::text(r.message))
        .bind(QStringLiteral(":routing"), objectOrNull(r.routing))
        .bind(QStringLiteral(":boundary"), nullableText(r.taskBoundaryId))
        .bind(QStringLiteral(":continuation"), nullableText(r.continuationReason))
        .bind(QStringLiteral(":a2w"), nullableText(r.a2wRunId))
        .bind(QStringLiteral(":result"), objectOrNull(r.result))
        .bind(QStringLiteral(":created"), r.createdAt)
        .bind(QStringLiteral(":updated"), r.updatedAt)
        .bind(QStringLiteral(":ended"), nullableInt(r.endedAt));
}

} // namespace

RuntimeRepository::RuntimeRepository(Store &store)
    : m_store(store)
{}

void RuntimeRepository::insertSession(const Session &session)
{
    Sql q(m_store, QStringLiteral("INSERT INTO runtime_sessions (%1) VALUES (:id, :site, :key,"
                                  " :host, :url, :epoch, :seq, :active, :context, :address,"
                                  " :created, :updated, :ended)")
                       .arg(kSessionColumns));
    bindSession(q, session);
    q.exec();
    m_store.notifyChanged(QStringLiteral("runtime_sessions"), session.id);
    Q_EMIT sessionChanged(session.id);
}

std::optional<Session> RuntimeRepository::findSession(const QString &id) const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM runtime_sessions WHERE id = :id").arg(kSessionColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, sessionFromRow);
}

void RuntimeRepository::updateSession(const Session &session)
{
    Sql q(m_store, QStringLiteral("UPDATE runtime_sessions SET site_id = :site, key_id = :key,"
                                  " host = :host, url = :url, epoch = :epoch, seq = :seq,"
                                  " active_run_id = :active, context = :context,"
                                  " client_address = :address, created_at = :created,"
                                  " updated_at = :updated, ended_at = :ended WHERE id = :id"));
    bindSession(q, session);
    q.exec();
    m_store.notifyChanged(QStringLiteral("runtime_sessions"), session.id);
    Q_EMIT sessionChanged(session.id);
}

QList<Session> RuntimeRepository::liveSessions(int limit) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM runtime_sessions WHERE ended_at IS NULL"
                                  " ORDER BY updated_at DESC LIMIT :limit")
                       .arg(kSessionColumns));
    q.bind(QStringLiteral(":limit"), limit).exec();
    return SqlRows::all(q, sessionFromRow);
}

void RuntimeRepository::insertToken(const QString &hash, const QString &sessionId, TokenKind kind,
                                    qint64 expiresAt)
{
    Sql(m_store, QStringLiteral("INSERT INTO runtime_tokens (token_hash, session_id, kind,"
                                " expires_at) VALUES (:h, :s, :k, :e)"))
        .bind(QStringLiteral(":h"), hash)
        .bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":k"), kindName(kind))
        .bind(QStringLiteral(":e"), expiresAt)
        .exec();
}

std::optional<RuntimeRepository::TokenRow> RuntimeRepository::findToken(const QString &hash,
                                                                        TokenKind kind) const
{
    Sql q(m_store, QStringLiteral("SELECT session_id, expires_at FROM runtime_tokens"
                                  " WHERE token_hash = :h AND kind = :k"));
    q.bind(QStringLiteral(":h"), hash).bind(QStringLiteral(":k"), kindName(kind)).exec();
    if (!q.next())
        return std::nullopt;
    return TokenRow{q.value(0).toString(), q.value(1).toLongLong()};
}

void RuntimeRepository::purgeTokens(qint64 before)
{
    Sql(m_store, QStringLiteral("DELETE FROM runtime_tokens WHERE expires_at < :t"))
        .bind(QStringLiteral(":t"), before)
        .exec();
}

void RuntimeRepository::insertRun(const Run &run)
{
    Sql q(m_store, QStringLiteral("INSERT INTO runtime_runs (%1) VALUES (:id, :session, :status,"
                                  " :mode, :requested, :message, :routing, :boundary,"
                                  " :continuation, :a2w, :result, :created, :updated, :ended)")
                       .arg(kRunColumns));
    bindRun(q, run);
    q.exec();
    m_store.notifyChanged(QStringLiteral("runtime_runs"), run.id);
    Q_EMIT runChanged(run.id);
}

void RuntimeRepository::updateRun(const Run &run)
{
    Sql q(m_store, QStringLiteral("UPDATE runtime_runs SET session_id = :session, status = :status,"
                                  " mode = :mode, requested_mode = :requested, message = :message,"
                                  " routing = :routing, task_boundary_id = :boundary,"
                                  " continuation_reason = :continuation, a2w_run_id = :a2w,"
                                  " result = :result, created_at = :created,"
                                  " updated_at = :updated, ended_at = :ended WHERE id = :id"));
    bindRun(q, run);
    q.exec();
    m_store.notifyChanged(QStringLiteral("runtime_runs"), run.id);
    Q_EMIT runChanged(run.id);
}

std::optional<Run> RuntimeRepository::findRun(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM runtime_runs WHERE id = :id").arg(kRunColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, runFromRow);
}

QList<Run> RuntimeRepository::runsOf(const QString &sessionId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM runtime_runs WHERE session_id = :s"
                                  " ORDER BY created_at, rowid")
                       .arg(kRunColumns));
    q.bind(QStringLiteral(":s"), sessionId).exec();
    return SqlRows::all(q, runFromRow);
}

void RuntimeRepository::insertEvent(const QString &sessionId, const Event &event)
{
    Sql(m_store, QStringLiteral("INSERT INTO runtime_events (session_id, seq, type, run_id, data,"
                                " at) VALUES (:s, :seq, :type, :run, :data, :at)"))
        .bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":seq"), event.seq)
        .bind(QStringLiteral(":type"), event.type)
        .bind(QStringLiteral(":run"), nullableText(event.runId))
        .bind(QStringLiteral(":data"), objectOrNull(event.data))
        .bind(QStringLiteral(":at"), event.at)
        .exec();
}

QList<Event> RuntimeRepository::eventsAfter(const QString &sessionId, qint64 seqAfter,
                                            int limit) const
{
    Sql q(m_store, QStringLiteral("SELECT seq, type, run_id, data, at FROM runtime_events"
                                  " WHERE session_id = :s AND seq > :after ORDER BY seq"
                                  " LIMIT :limit"));
    q.bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":after"), seqAfter)
        .bind(QStringLiteral(":limit"), limit)
        .exec();
    QList<Event> out;
    while (q.next()) {
        Event e;
        e.seq = q.value(0).toLongLong();
        e.type = q.value(1).toString();
        e.runId = q.value(2).toString();
        e.data = JsonText::object(q.value(3));
        e.at = q.value(4).toLongLong();
        out.append(e);
    }
    return out;
}

std::optional<QJsonObject> RuntimeRepository::storedCommand(const QString &sessionId,
                                                            const QString &clientEventId,
                                                            int *status) const
{
    Sql q(m_store, QStringLiteral("SELECT status, body FROM runtime_commands"
                                  " WHERE session_id = :s AND client_event_id = :c"));
    q.bind(QStringLiteral(":s"), sessionId).bind(QStringLiteral(":c"), clientEventId).exec();
    if (!q.next())
        return std::nullopt;
    *status = q.value(0).toInt();
    return JsonText::object(q.value(1));
}

void RuntimeRepository::storeCommand(const QString &sessionId, const QString &clientEventId,
                                     int status, const QJsonObject &body, qint64 at)
{
    Sql(m_store, QStringLiteral("INSERT INTO runtime_commands (session_id, client_event_id,"
                                " status, body, created_at) VALUES (:s, :c, :st, :b, :at)"))
        .bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":c"), clientEventId)
        .bind(QStringLiteral(":st"), status)
        .bind(QStringLiteral(":b"), JsonText::from(body))
        .bind(QStringLiteral(":at"), at)
        .exec();
}

void RuntimeRepository::upsertTab(const QString &sessionId, const Tab &tab)
{
    Sql(m_store,
        QStringLiteral("INSERT INTO runtime_tabs (session_id, logical_tab_id, parent_tab_id, scope,"
                       " status, url, reason, updated_at) VALUES (:s, :t, :p, :scope, :status,"
                       " :url, :reason, :at) ON CONFLICT(session_id, logical_tab_id) DO UPDATE"
                       " SET parent_tab_id = excluded.parent_tab_id, scope = excluded.scope,"
                       " status = excluded.status, url = excluded.url, reason = excluded.reason,"
                       " updated_at = excluded.updated_at"))
        .bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":t"), tab.logicalTabId)
        .bind(QStringLiteral(":p"), nullableText(tab.parentTabId))
        .bind(QStringLiteral(":scope"), tab.scope)
        .bind(QStringLiteral(":status"), tab.status)
        .bind(QStringLiteral(":url"), nullableText(tab.url))
        .bind(QStringLiteral(":reason"), nullableText(tab.reason))
        .bind(QStringLiteral(":at"), tab.updatedAt)
        .exec();
}

QList<Tab> RuntimeRepository::tabsOf(const QString &sessionId) const
{
    Sql q(m_store, QStringLiteral("SELECT logical_tab_id, parent_tab_id, scope, status, url,"
                                  " reason, updated_at FROM runtime_tabs WHERE session_id = :s"
                                  " ORDER BY rowid"));
    q.bind(QStringLiteral(":s"), sessionId).exec();
    QList<Tab> out;
    while (q.next()) {
        Tab t;
        t.logicalTabId = q.value(0).toString();
        t.parentTabId = q.value(1).toString();
        t.scope = q.value(2).toString();
        t.status = q.value(3).toString();
        t.url = q.value(4).toString();
        t.reason = q.value(5).toString();
        t.updatedAt = q.value(6).toLongLong();
        out.append(t);
    }
    return out;
}

void RuntimeRepository::upsertSnapshot(const QString &sessionId, const Snapshot &s)
{
    Sql previous(m_store, QStringLiteral("SELECT object_id FROM runtime_snapshots"
                                         " WHERE session_id = :s AND object_id IS NOT NULL"));
    previous.bind(QStringLiteral(":s"), sessionId).exec();
    const QString replaced = previous.next() ? previous.value(0).toString() : QString();
    Sql(m_store,
        QStringLiteral("INSERT INTO runtime_snapshots (session_id, version, seq, payload,"
                       " object_id, bytes, visitor_id, updated_at, expires_at) VALUES (:s, :v,"
                       " :seq, :p, :o, :b, :visitor, :u, :e) ON CONFLICT(session_id) DO UPDATE"
                       " SET version = excluded.version, seq = excluded.seq, payload ="
                       " excluded.payload, object_id = excluded.object_id, bytes = excluded.bytes,"
                       " visitor_id = excluded.visitor_id, updated_at = excluded.updated_at,"
                       " expires_at = excluded.expires_at"))
        .bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":v"), s.version)
        .bind(QStringLiteral(":seq"), s.seq)
        .bind(QStringLiteral(":p"), objectOrNull(s.payload))
        .bind(QStringLiteral(":o"), nullableText(s.objectId))
        .bind(QStringLiteral(":b"), s.bytes)
        .bind(QStringLiteral(":visitor"), nullableText(s.visitorId))
        .bind(QStringLiteral(":u"), s.updatedAt)
        .bind(QStringLiteral(":e"), s.expiresAt)
        .exec();
    if (!replaced.isEmpty() && replaced != s.objectId) {
        Sql(m_store, QStringLiteral("DELETE FROM stored_objects WHERE id = :id"))
            .bind(QStringLiteral(":id"), replaced)
            .exec();
        m_store.notifyChanged(QStringLiteral("stored_objects"), replaced);
    }
}

qint64 RuntimeRepository::storedBytesOfSession(const QString &sessionId, qint64 now) const
{
    Sql q(m_store, QStringLiteral("SELECT COALESCE((SELECT bytes FROM runtime_snapshots WHERE"
                                  " session_id = :s AND expires_at > :now), 0) + COALESCE((SELECT"
                                  " SUM(bytes) FROM runtime_telemetry WHERE session_id = :s), 0)"));
    q.bind(QStringLiteral(":s"), sessionId).bind(QStringLiteral(":now"), now).exec();
    return q.next() ? q.value(0).toLongLong() : 0;
}

qint64 RuntimeRepository::storedBytesOfSite(const QString &siteId, qint64 now) const
{
    Sql q(m_store,
          QStringLiteral("SELECT COALESCE((SELECT SUM(p.bytes) FROM runtime_snapshots p JOIN"
                         " runtime_sessions s ON s.id = p.session_id WHERE s.site_id = :site AND"
                         " p.expires_at > :now), 0) + COALESCE((SELECT SUM(t.bytes) FROM"
                         " runtime_telemetry t JOIN runtime_sessions s ON s.id = t.session_id"
                         " WHERE s.site_id = :site), 0)"));
    q.bind(QStringLiteral(":site"), siteId).bind(QStringLiteral(":now"), now).exec();
    return q.next() ? q.value(0).toLongLong() : 0;
}

int RuntimeRepository::purgeTelemetry(qint64 before)
{
    Sql q(m_store, QStringLiteral("DELETE FROM runtime_telemetry WHERE created_at < :t"));
    q.bind(QStringLiteral(":t"), before).exec();
    return q.rowsAffected();
}

int RuntimeRepository::purgeExpiredSnapshots(qint64 now)
{
    Sql(m_store, QStringLiteral("DELETE FROM stored_objects WHERE id IN (SELECT object_id FROM"
                                " runtime_snapshots WHERE expires_at <= :now AND object_id IS NOT"
                                " NULL)"))
        .bind(QStringLiteral(":now"), now)
        .exec();
    Sql q(m_store, QStringLiteral("DELETE FROM runtime_snapshots WHERE expires_at <= :now"));
    q.bind(QStringLiteral(":now"), now).exec();
    return q.rowsAffected();
}

std::optional<Snapshot> RuntimeRepository::snapshotOf(const QString &sessionId, qint64 now) const
{
    Sql q(m_store, QStringLiteral("SELECT version, seq, payload, object_id, bytes, visitor_id,"
                                  " updated_at, expires_at FROM runtime_snapshots"
                                  " WHERE session_id = :s AND expires_at > :now"));
    q.bind(QStringLiteral(":s"), sessionId).bind(QStringLiteral(":now"), now).exec();
    if (!q.next())
        return std::nullopt;
    Snapshot s;
    s.version = q.value(0).toLongLong();
    s.seq = q.value(1).toLongLong();
    s.payload = JsonText::object(q.value(2));
    s.objectId = q.value(3).toString();
    s.bytes = q.value(4).toLongLong();
    s.visitorId = q.value(5).toString();
    s.updatedAt = q.value(6).toLongLong();
    s.expiresAt = q.value(7).toLongLong();
    return s;
}

void RuntimeRepository::insertSiteToken(const QString &hash, const SiteToken &t, qint64 at)
{
    Sql(m_store,
        QStringLiteral("INSERT INTO runtime_site_tokens (token_hash, kind, site_id, key_id,"
                       " host, sealed_payload, created_at, expires_at) VALUES (:h, :k, :s,"
                       " :key, :host, :p, :at, :e)"))
        .bind(QStringLiteral(":h"), hash)
        .bind(QStringLiteral(":k"), t.kind)
        .bind(QStringLiteral(":s"), t.siteId)
        .bind(QStringLiteral(":key"), t.keyId)
        .bind(QStringLiteral(":host"), nullableText(t.host))
        .bind(QStringLiteral(":p"), nullableText(t.sealedPayload))
        .bind(QStringLiteral(":at"), at)
        .bind(QStringLiteral(":e"), t.expiresAt)
        .exec();
}

std::optional<RuntimeRepository::SiteToken>
RuntimeRepository::takeSiteToken(const QString &hash, const QString &kind, qint64 now)
{
    Sql q(m_store, QStringLiteral("SELECT site_id, key_id, host, sealed_payload, expires_at FROM"
                                  " runtime_site_tokens WHERE token_hash = :h AND kind = :k AND"
                                  " used_at IS NULL AND expires_at > :now"));
    q.bind(QStringLiteral(":h"), hash)
        .bind(QStringLiteral(":k"), kind)
        .bind(QStringLiteral(":now"), now)
        .exec();
    if (!q.next())
        return std::nullopt;
    SiteToken t;
    t.kind = kind;
    t.siteId = q.value(0).toString();
    t.keyId = q.value(1).toString();
    t.host = q.value(2).toString();
    t.sealedPayload = q.value(3).toString();
    t.expiresAt = q.value(4).toLongLong();
    Sql(m_store,
        QStringLiteral("UPDATE runtime_site_tokens SET used_at = :now WHERE token_hash = :h"))
        .bind(QStringLiteral(":now"), now)
        .bind(QStringLiteral(":h"), hash)
        .exec();
    return t;
}

bool RuntimeRepository::exchangeContextToken(const QString &hash, const QString &sessionId,
                                             qint64 at)
{
    Sql q(m_store, QStringLiteral("INSERT OR IGNORE INTO runtime_context_tokens (token_hash,"
                                  " session_id, exchanged_at) VALUES (:h, :s, :at)"));
    q.bind(QStringLiteral(":h"), hash)
        .bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":at"), at)
        .exec();
    return q.rowsAffected() == 1;
}

void RuntimeRepository::insertTelemetry(const QString &sessionId, const QJsonObject &batch,
                                        int dropped, qint64 at)
{
    const QString events = JsonText::from(batch.value(QStringLiteral("events")).toArray());
    const QString pageUrl = batch.value(QStringLiteral("pageUrl")).toString();
    Sql(m_store, QStringLiteral("INSERT INTO runtime_telemetry (session_id, run_id, flush_reason,"
                                " page_url, sdk_version, events, dropped, created_at, bytes)"
                                " VALUES (:s, :run, :flush, :page, :sdk, :events, :dropped, :at,"
                                " :bytes)"))
        .bind(QStringLiteral(":s"), sessionId)
        .bind(QStringLiteral(":run"), nullableText(batch.value(QStringLiteral("runId")).toString()))
        .bind(QStringLiteral(":flush"),
              nullableText(batch.value(QStringLiteral("flushReason")).toString()))
        .bind(QStringLiteral(":page"), nullableText(pageUrl))
        .bind(QStringLiteral(":sdk"),
              nullableText(batch.value(QStringLiteral("sdkVersion")).toString()))
        .bind(QStringLiteral(":events"), events)
        .bind(QStringLiteral(":dropped"), dropped)
        .bind(QStringLiteral(":at"), at)
        .bind(QStringLiteral(":bytes"), qint64(events.toUtf8().size() + pageUrl.toUtf8().size()))
        .exec();
}

qint64 RuntimeRepository::telemetryBytes(const QJsonObject &batch)
{
    return JsonText::from(batch.value(QStringLiteral("events")).toArray()).toUtf8().size() +
           batch.value(QStringLiteral("pageUrl")).toString().toUtf8().size();
}

int RuntimeRepository::telemetryCount(const QString &sessionId) const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM runtime_telemetry WHERE session_id = :s"));
    q.bind(QStringLiteral(":s"), sessionId).exec();
    return q.next() ? q.value(0).toInt() : 0;
}

} // namespace ph::runtime
