#include "A2wRepository.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/JsonText.h"
#include "core/SqlRow.h"
#include "core/Store.h"

#include <QJsonArray>

namespace ph::a2w {

namespace {

const QString kRunColumns = QStringLiteral(
    "id, workflow_id, site_id, url, host, kind, selector, engagement_kind, execution, status,"
    " request, agent, trajectory_id, input, result, error, client_address, created_at,"
    " updated_at, expires_at, auth_input, parent_run_id, hop, contract, trust, delegation_id,"
    " pending_task");

Run runFromRow(const Sql &q)
{
    SqlRow row(q);
    Run r;
    r.id = row.text();
    r.workflowId = row.text();
    r.siteId = row.text();
    r.url = row.text();
    r.host = row.text();
    r.kind = row.text();
    r.selector = row.text();
    r.engagementKind = row.text();
    r.execution = row.text();
    r.status = row.text();
    r.request = row.object();
    r.agent = row.object();
    r.trajectoryId = row.text();
    r.input = row.object();
    r.result = row.object();
    r.error = row.text();
    r.clientAddress = row.text();
    r.createdAt = row.integer();
    r.updatedAt = row.integer();
    r.expiresAt = row.optionalInt();
    r.authInput = row.object();
    r.parentRunId = row.text();
    r.hop = row.number();
    r.contract = row.text();
    r.trust = row.text();
    r.delegationId = row.text();
    r.pendingTask = row.text();
    return r;
}

QList<Run> runsOf(Sql &q)
{
    QList<Run> out;
    q.exec();
    while (q.next())
        out.append(runFromRow(q));
    return out;
}

QList<Event> eventsOf(Sql &q)
{
    q.exec();
    QList<Event> out;
    while (q.next()) {
        Event e;
        e.seq = q.value(0).toLongLong();
        e.type = q.value(1).toString();
        e.at = q.value(2).toLongLong();
        e.data = JsonText::object(q.value(3));
        e.position = q.value(4).toLongLong();
        e.runId = q.value(5).toString();
        out.append(e);
    }
    return out;
}

QVariant objectOrNull(const QJsonObject &o)
{
    return o.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(JsonText::from(o));
}

bool hashMatches(const QVariant &stored, const QString &presented)
{
    return stored.isValid() &&
           Ids::equalConstantTime(stored.toString().toLatin1(), presented.toLatin1());
}

} // namespace

bool Status::isTerminal(const QString &status)
{
    return status == completed || status == failed || status == cancelled || status == expired;
}

QJsonObject Event::toJson() const
{
    return {{QStringLiteral("id"), QString::number(seq)},
            {QStringLiteral("type"), type},
            {QStringLiteral("ts"), Clock::isoUtc(at)},
            {QStringLiteral("runId"), runId},
            {QStringLiteral("data"), data}};
}

A2wRepository::A2wRepository(Store &store)
    : m_store(store)
{}

std::optional<QString> A2wRepository::siteAccount(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT key_id FROM a2w_site_accounts WHERE site_id = :s"));
    q.bind(QStringLiteral(":s"), siteId).exec();
    if (!q.next())
        return std::nullopt;
    return q.value(0).toString();
}

void A2wRepository::setSiteAccount(const QString &siteId, const QString &keyId)
{
    Sql(m_store, QStringLiteral("INSERT INTO a2w_site_accounts (site_id, key_id, created_at)"
                                " VALUES (:s, :k, :t) ON CONFLICT(site_id) DO UPDATE SET"
                                " key_id = excluded.key_id"))
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":k"), keyId)
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
}

void A2wRepository::insertWorkflow(const QString &id, const QString &tokenHash,
                                   const QString &rootRunId)
{
    Sql(m_store, QStringLiteral("INSERT INTO a2w_workflows (id, token_hash, root_run_id,"
                                " created_at) VALUES (:id, :h, :r, :t)"))
        .bind(QStringLiteral(":id"), id)
        .bind(QStringLiteral(":h"), tokenHash)
        .bind(QStringLiteral(":r"), rootRunId)
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
}

bool A2wRepository::workflowTokenMatches(const QString &id, const QString &tokenHash) const
{
    Sql q(m_store, QStringLiteral("SELECT token_hash FROM a2w_workflows WHERE id = :id"));
    q.bind(QStringLiteral(":id"), id).exec();
    return q.next() && hashMatches(q.value(0), tokenHash);
}

QList<Run> A2wRepository::runsOfWorkflow(const QString &workflowId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM a2w_runs WHERE workflow_id = :w"
                                  " ORDER BY created_at, id")
                       .arg(kRunColumns));
    q.bind(QStringLiteral(":w"), workflowId);
    return runsOf(q);
}

void A2wRepository::insertRun(const Run &r, const QString &tokenHash, const QString &receiptHash)
{
    Sql(m_store,
        QStringLiteral(
            "INSERT INTO a2w_runs (%1, token_hash, receipt_hash) VALUES (:id, :w, :s,"
            " :url, :host, :kind, :sel, :ek, :ex, :st, :req, :agent, :traj, :input,"
            " :result, :error, :addr, :c, :u, :exp, :auth, :parent, :hop, :contract, :trust,"
            " :dlg, :pending, :th, :rh)")
            .arg(kRunColumns))
        .bind(QStringLiteral(":id"), r.id)
        .bind(QStringLiteral(":w"), r.workflowId)
        .bind(QStringLiteral(":s"), r.siteId)
        .bind(QStringLiteral(":url"), r.url)
        .bind(QStringLiteral(":host"), r.host)
        .bind(QStringLiteral(":kind"), r.kind)
        .bind(QStringLiteral(":sel"), r.selector)
        .bind(QStringLiteral(":ek"), JsonText::nullableText(r.engagementKind))
        .bind(QStringLiteral(":ex"), r.execution)
        .bind(QStringLiteral(":st"), r.status)
        .bind(QStringLiteral(":req"), JsonText::from(r.request))
        .bind(QStringLiteral(":agent"), JsonText::from(r.agent))
        .bind(QStringLiteral(":traj"), JsonText::nullableText(r.trajectoryId))
        .bind(QStringLiteral(":input"), objectOrNull(r.input))
        .bind(QStringLiteral(":result"), objectOrNull(r.result))
        .bind(QStringLiteral(":error"), JsonText::nullableText(r.error))
        .bind(QStringLiteral(":addr"), r.clientAddress)
        .bind(QStringLiteral(":c"), r.createdAt)
        .bind(QStringLiteral(":u"), r.updatedAt)
        .bind(QStringLiteral(":exp"), JsonText::nullableInt(r.expiresAt))
        .bind(QStringLiteral(":auth"), objectOrNull(r.authInput))
        .bind(QStringLiteral(":parent"), JsonText::nullableText(r.parentRunId))
        .bind(QStringLiteral(":hop"), r.hop)
        .bind(QStringLiteral(":contract"), r.contract)
        .bind(QStringLiteral(":trust"), r.trust)
        .bind(QStringLiteral(":dlg"), JsonText::nullableText(r.delegationId))
        .bind(QStringLiteral(":pending"), JsonText::nullableText(r.pendingTask))
        .bind(QStringLiteral(":th"), tokenHash)
        .bind(QStringLiteral(":rh"), receiptHash)
        .exec();
}

std::optional<Run> A2wRepository::find(const QString &id) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM a2w_runs WHERE id = :id").arg(kRunColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, runFromRow);
}

bool A2wRepository::tokenMatches(const QString &id, const QString &tokenHash) const
{
    Sql q(m_store, QStringLiteral("SELECT token_hash FROM a2w_runs WHERE id = :id"));
    q.bind(QStringLiteral(":id"), id).exec();
    return q.next() && hashMatches(q.value(0), tokenHash);
}

std::optional<Run> A2wRepository::findByReceipt(const QString &receiptHash) const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM a2w_runs WHERE receipt_hash = :h").arg(kRunColumns));
    q.bind(QStringLiteral(":h"), receiptHash).exec();
    return SqlRows::one(q, runFromRow);
}

void A2wRepository::update(const Run &r)
{
    Sql(m_store, QStringLiteral("UPDATE a2w_runs SET status = :st, trajectory_id = :traj,"
                                " input = :input, result = :result, error = :error,"
                                " updated_at = :u, expires_at = :exp, auth_input = :auth,"
                                " delegation_id = :dlg, pending_task = :pending WHERE id = :id"))
        .bind(QStringLiteral(":st"), r.status)
        .bind(QStringLiteral(":traj"), JsonText::nullableText(r.trajectoryId))
        .bind(QStringLiteral(":input"), objectOrNull(r.input))
        .bind(QStringLiteral(":result"), objectOrNull(r.result))
        .bind(QStringLiteral(":error"), JsonText::nullableText(r.error))
        .bind(QStringLiteral(":u"), r.updatedAt)
        .bind(QStringLiteral(":exp"), JsonText::nullableInt(r.expiresAt))
        .bind(QStringLiteral(":auth"), objectOrNull(r.authInput))
        .bind(QStringLiteral(":dlg"), JsonText::nullableText(r.delegationId))
        .bind(QStringLiteral(":pending"), JsonText::nullableText(r.pendingTask))
        .bind(QStringLiteral(":id"), r.id)
        .exec();
}

namespace {

const QString kDelegationColumns =
    QStringLiteral("id, prefix, site_id, scope, spend_cap_milli, spent_milli, approved_by, run_id,"
                   " created_at, expires_at, revoked_at");

Delegation delegationFromRow(const Sql &q)
{
    SqlRow row(q);
    Delegation d;
    d.id = row.text();
    d.prefix = row.text();
    d.siteId = row.text();
    for (const QJsonValue &v : row.array())
        d.scope << v.toString();
    d.spendCapMilli = row.integer();
    d.spentMilli = row.integer();
    d.approvedBy = row.text();
    d.runId = row.text();
    d.createdAt = row.integer();
    d.expiresAt = row.integer();
    d.revokedAt = row.optionalInt();
    return d;
}

} // namespace

void A2wRepository::insertDelegation(const Delegation &d, const QString &tokenHash)
{
    Sql(m_store, QStringLiteral("INSERT INTO a2w_delegations (%1, token_hash) VALUES (:id, :p,"
                                " :s, :scope, :cap, 0, :by, :run, :c, :e, NULL, :h)")
                     .arg(kDelegationColumns))
        .bind(QStringLiteral(":id"), d.id)
        .bind(QStringLiteral(":p"), d.prefix)
        .bind(QStringLiteral(":s"), d.siteId)
        .bind(QStringLiteral(":scope"), JsonText::from(QJsonArray::fromStringList(d.scope)))
        .bind(QStringLiteral(":cap"), d.spendCapMilli)
        .bind(QStringLiteral(":by"), d.approvedBy)
        .bind(QStringLiteral(":run"), JsonText::nullableText(d.runId))
        .bind(QStringLiteral(":c"), d.createdAt)
        .bind(QStringLiteral(":e"), d.expiresAt)
        .bind(QStringLiteral(":h"), tokenHash)
        .exec();
}

std::optional<Delegation> A2wRepository::delegationByToken(const QString &tokenHash) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM a2w_delegations WHERE token_hash = :h")
                       .arg(kDelegationColumns));
    q.bind(QStringLiteral(":h"), tokenHash).exec();
    return SqlRows::one(q, delegationFromRow);
}

std::optional<Delegation> A2wRepository::delegation(const QString &id) const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM a2w_delegations WHERE id = :id").arg(kDelegationColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    return SqlRows::one(q, delegationFromRow);
}

QList<Delegation> A2wRepository::delegations(int limit) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM a2w_delegations ORDER BY created_at DESC, id"
                                  " DESC LIMIT :n")
                       .arg(kDelegationColumns));
    q.bind(QStringLiteral(":n"), limit).exec();
    return SqlRows::all(q, delegationFromRow);
}

bool A2wRepository::revokeDelegation(const QString &id, qint64 nowMs)
{
    Sql q(m_store, QStringLiteral("UPDATE a2w_delegations SET revoked_at = :t WHERE id = :id AND"
                                  " revoked_at IS NULL"));
    q.bind(QStringLiteral(":t"), nowMs).bind(QStringLiteral(":id"), id).exec();
    return q.rowsAffected() == 1;
}

void A2wRepository::addSpent(const QString &id, qint64 milli)
{
    Sql(m_store, QStringLiteral("UPDATE a2w_delegations SET spent_milli = spent_milli + :m WHERE"
                                " id = :id"))
        .bind(QStringLiteral(":m"), milli)
        .bind(QStringLiteral(":id"), id)
        .exec();
}

void A2wRepository::setDelegationSealed(const QString &runId, const QString &sealed)
{
    Sql(m_store, QStringLiteral("UPDATE a2w_runs SET delegation_sealed = :v WHERE id = :id"))
        .bind(QStringLiteral(":v"), sealed)
        .bind(QStringLiteral(":id"), runId)
        .exec();
}

QString A2wRepository::takeDelegationSealed(const QString &runId)
{
    QString sealed;
    m_store.transaction([&] {
        Sql q(m_store, QStringLiteral("SELECT delegation_sealed FROM a2w_runs WHERE id = :id"));
        q.bind(QStringLiteral(":id"), runId).exec();
        if (q.next())
            sealed = q.value(0).toString();
        if (!sealed.isEmpty())
            Sql(m_store,
                QStringLiteral("UPDATE a2w_runs SET delegation_sealed = NULL WHERE id = :id"))
                .bind(QStringLiteral(":id"), runId)
                .exec();
    });
    return sealed;
}

void A2wRepository::setAuthSealed(const QString &id, const QString &sealed)
{
    Sql(m_store, QStringLiteral("UPDATE a2w_runs SET auth_sealed = :v WHERE id = :id"))
        .bind(QStringLiteral(":v"), sealed)
        .bind(QStringLiteral(":id"), id)
        .exec();
}

QString A2wRepository::takeAuthSealed(const QString &id)
{
    QString sealed;
    m_store.transaction([&] {
        Sql q(m_store, QStringLiteral("SELECT auth_sealed FROM a2w_runs WHERE id = :id"));
        q.bind(QStringLiteral(":id"), id).exec();
        if (q.next())
            sealed = q.value(0).toString();
        Sql(m_store, QStringLiteral("UPDATE a2w_runs SET auth_sealed = NULL WHERE id = :id"))
            .bind(QStringLiteral(":id"), id)
            .exec();
    });
    return sealed;
}

QList<Run> A2wRepository::list(const QString &siteId, int limit) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM a2w_runs WHERE (:any = 1 OR site_id = :s)"
                                  " ORDER BY created_at DESC, id DESC LIMIT :n")
                       .arg(kRunColumns));
    q.bind(QStringLiteral(":any"), siteId.isEmpty() ? 1 : 0)
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":n"), limit);
    return runsOf(q);
}

QList<Run> A2wRepository::overdue(qint64 nowMs) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM a2w_runs WHERE status IN ('input_required',"
                                  " 'waiting_browser') AND expires_at IS NOT NULL AND"
                                  " expires_at <= :now")
                       .arg(kRunColumns));
    q.bind(QStringLiteral(":now"), nowMs);
    return runsOf(q);
}

std::optional<qint64> A2wRepository::nextDeadline() const
{
    Sql q(m_store, QStringLiteral("SELECT MIN(expires_at) FROM a2w_runs WHERE status IN"
                                  " ('input_required', 'waiting_browser')"));
    q.exec();
    if (!q.next() || q.value(0).isNull())
        return std::nullopt;
    return q.value(0).toLongLong();
}

Event A2wRepository::appendEvent(const QString &runId, const QString &type, const QJsonObject &data)
{
    Event e;
    e.runId = runId;
    e.type = type;
    e.at = m_store.clock().nowMs();
    e.data = data;
    m_store.transaction(
        [&] {
            Sql q(m_store,
                  QStringLiteral("SELECT COALESCE(MAX(seq), 0) FROM a2w_events WHERE run_id = :r"));
            q.bind(QStringLiteral(":r"), runId).exec();
            e.seq = q.next() ? q.value(0).toLongLong() + 1 : 1;
            Sql insert(m_store,
                       QStringLiteral("INSERT INTO a2w_events (run_id, seq, type, at, data)"
                                      " VALUES (:r, :s, :t, :at, :d)"));
            insert.bind(QStringLiteral(":r"), runId)
                .bind(QStringLiteral(":s"), e.seq)
                .bind(QStringLiteral(":t"), type)
                .bind(QStringLiteral(":at"), e.at)
                .bind(QStringLiteral(":d"), JsonText::from(data))
                .exec();
            e.position = insert.lastInsertId().toLongLong();
        },
        Store::Sync::Normal);
    return e;
}

QList<Event> A2wRepository::events(const QString &runId, qint64 afterSeq) const
{
    Sql q(m_store, QStringLiteral("SELECT seq, type, at, data, rowid, run_id FROM a2w_events"
                                  " WHERE run_id = :r AND seq > :s ORDER BY seq"));
    q.bind(QStringLiteral(":r"), runId).bind(QStringLiteral(":s"), afterSeq);
    return eventsOf(q);
}

QList<Event> A2wRepository::workflowEvents(const QString &workflowId, qint64 afterPosition) const
{
    Sql q(m_store, QStringLiteral("SELECT seq, type, at, data, rowid, run_id FROM a2w_events"
                                  " WHERE run_id IN (SELECT id FROM a2w_runs WHERE"
                                  " workflow_id = :w) AND rowid > :p ORDER BY rowid"));
    q.bind(QStringLiteral(":w"), workflowId).bind(QStringLiteral(":p"), afterPosition);
    return eventsOf(q);
}

bool A2wRepository::rememberNonce(const QString &nonceHash, qint64 expiresAtMs)
{
    bool fresh = false;
    m_store.transaction([&] {
        Sql(m_store, QStringLiteral("DELETE FROM a2w_signature_nonces WHERE expires_at < :now"))
            .bind(QStringLiteral(":now"), m_store.clock().nowMs())
            .exec();
        Sql q(m_store, QStringLiteral("INSERT OR IGNORE INTO a2w_signature_nonces (nonce_hash,"
                                      " expires_at) VALUES (:h, :e)"));
        q.bind(QStringLiteral(":h"), nonceHash).bind(QStringLiteral(":e"), expiresAtMs).exec();
        fresh = q.rowsAffected() == 1;
    });
    return fresh;
}

std::optional<A2wRepository::Idempotent> A2wRepository::idempotent(const QString &keyHash) const
{
    Sql q(m_store, QStringLiteral("SELECT body_hash, run_id, tokens_sealed, created_at FROM"
                                  " a2w_idempotency WHERE key_hash = :k"));
    q.bind(QStringLiteral(":k"), keyHash).exec();
    if (!q.next())
        return std::nullopt;
    return Idempotent{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                      q.value(3).toLongLong()};
}

void A2wRepository::rememberIdempotent(const QString &keyHash, const Idempotent &entry)
{
    Sql(m_store, QStringLiteral("INSERT OR REPLACE INTO a2w_idempotency (key_hash, body_hash,"
                                " run_id, tokens_sealed, created_at) VALUES (:k, :b, :r, :t,"
                                " :c)"))
        .bind(QStringLiteral(":k"), keyHash)
        .bind(QStringLiteral(":b"), entry.bodyHash)
        .bind(QStringLiteral(":r"), entry.runId)
        .bind(QStringLiteral(":t"), entry.tokensSealed)
        .bind(QStringLiteral(":c"), entry.createdAt)
        .exec();
}

int A2wRepository::forgetIdempotentBefore(qint64 cutoffMs)
{
    Sql q(m_store, QStringLiteral("DELETE FROM a2w_idempotency WHERE created_at < :c"));
    q.bind(QStringLiteral(":c"), cutoffMs).exec();
    return q.rowsAffected();
}

} // namespace ph::a2w
