#include "Delegations.h"

#include "RunRecorder.h"
#include "SiteCapabilities.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/SecretBox.h"
#include "core/Store.h"

#include <QJsonArray>

namespace ph::a2w {

Delegations::Delegations(Store &store, A2wRepository &repo, RunRecorder &recorder,
                         const SiteCapabilities &capabilities)
    : m_store(store)
    , m_repo(repo)
    , m_rec(recorder)
    , m_capabilities(capabilities)
{}

QString Delegations::scopeItemOf(const Run &run)
{
    if (run.kind == QLatin1String("shortcut") || run.kind == QLatin1String("playbook"))
        return run.selector;
    return run.request.value(QStringLiteral("capabilityId")).toString();
}

Delegation Delegations::check(const QString &token, const QString &siteId,
                              const QString &what) const
{
    const QString field = QStringLiteral("auth.token");
    const std::optional<Delegation> d = m_repo.delegationByToken(hashToken(token));
    if (!d)
        throw DomainError(DomainError::Kind::Unauthenticated, QStringLiteral("DELEGATION_INVALID"),
                          QStringLiteral("no delegated session has this token"), field);
    if (d->revokedAt)
        throw DomainError(DomainError::Kind::Unauthenticated, QStringLiteral("DELEGATION_REVOKED"),
                          QStringLiteral("the delegated session was revoked"), field);
    if (d->expiresAt <= m_store.clock().nowMs())
        throw DomainError(
            DomainError::Kind::Unauthenticated, QStringLiteral("DELEGATION_EXPIRED"),
            QStringLiteral("the delegated session expired at %1").arg(Clock::isoUtc(d->expiresAt)),
            field);
    if (d->siteId != siteId)
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("DELEGATION_OUT_OF_SCOPE"),
                          QStringLiteral("the delegated session is for another site"),
                          QStringLiteral("url"));
    if (!d->allows(what))
        throw DomainError(DomainError::Kind::Forbidden, QStringLiteral("DELEGATION_OUT_OF_SCOPE"),
                          what.isEmpty()
                              ? QStringLiteral("the delegated session allows only %1, not a "
                                               "free prompt")
                                    .arg(d->scope.join(QStringLiteral(", ")))
                              : QStringLiteral("the delegated session does not cover %1 (it "
                                               "allows %2)")
                                    .arg(what, d->scope.join(QStringLiteral(", "))),
                          field, {{QStringLiteral("scope"), QJsonArray::fromStringList(d->scope)}});
    if (d->spentMilli >= d->spendCapMilli)
        throw DomainError(DomainError::Kind::PaymentRequired,
                          QStringLiteral("DELEGATION_CAP_REACHED"),
                          QStringLiteral("the delegated session has spent its cap of %1 credits")
                              .arg(double(d->spendCapMilli) / 1000.0),
                          field,
                          {{QStringLiteral("spendCap"), double(d->spendCapMilli) / 1000.0},
                           {QStringLiteral("spent"), double(d->spentMilli) / 1000.0}});
    return *d;
}

QJsonObject Delegations::of(const Run &run, bool revealNewToken)
{
    if (run.delegationId.isEmpty())
        return {};
    const std::optional<Delegation> d = m_repo.delegation(run.delegationId);
    if (!d)
        return {};
    QJsonObject o{{QStringLiteral("mode"), QStringLiteral("delegated_session")},
                  {QStringLiteral("id"), d->id},
                  {QStringLiteral("scope"), QJsonArray::fromStringList(d->scope)},
                  {QStringLiteral("spendCap"), double(d->spendCapMilli) / 1000.0},
                  {QStringLiteral("spent"), double(d->spentMilli) / 1000.0},
                  {QStringLiteral("expiresAt"), Clock::isoUtc(d->expiresAt)},
                  {QStringLiteral("revoked"), d->revokedAt.has_value()}};
    if (revealNewToken && d->runId == run.id) {
        bool ok = false;
        const QString token = m_store.secrets().unseal(m_repo.takeDelegationSealed(run.id), &ok);
        if (ok && !token.isEmpty())
            o.insert(QStringLiteral("token"), token);
    }
    return o;
}

QList<Delegation> Delegations::list(int limit) const
{
    return m_repo.delegations(limit);
}

void Delegations::revoke(const QString &id)
{
    const std::optional<Delegation> d = m_repo.delegation(id);
    if (!d)
        throw DomainError(DomainError::Kind::NotFound, QStringLiteral("DELEGATION_NOT_FOUND"),
                          QStringLiteral("no delegated session has this id"));
    if (!m_repo.revokeDelegation(id, m_store.clock().nowMs()))
        throw DomainError(DomainError::Kind::Conflict, QStringLiteral("DELEGATION_REVOKED"),
                          QStringLiteral("the delegated session is revoked already"));
    Q_EMIT m_rec.delegationsChanged();
}

bool Delegations::inForce(const QString &id) const
{
    const std::optional<Delegation> d = m_repo.delegation(id);
    return d && !d->revokedAt && d->expiresAt > m_store.clock().nowMs();
}

void Delegations::checkGrant(const Run &run, const Grant &grant) const
{
    if (grant.scope.isEmpty())
        throw DomainError::invalidField(QStringLiteral("scope"),
                                        QStringLiteral("choose at least one thing the agent may "
                                                       "do"));
    const QStringList known = m_capabilities.scopeItems(run.siteId);
    for (const QString &item : grant.scope)
        if (item.isEmpty() || !known.contains(item))
            throw DomainError::invalidField(QStringLiteral("scope"),
                                            QStringLiteral("%1 is none of the site's shortcuts, "
                                                           "playbooks or capabilities")
                                                .arg(item));
    if (grant.spendCapMilli <= 0 || grant.spendCapMilli > 1'000'000'000)
        throw DomainError::invalidField(QStringLiteral("spendCap"),
                                        QStringLiteral("must be more than 0 and at most 1,000,000 "
                                                       "credits"));
    if (grant.ttlMs < 60'000 || grant.ttlMs > 30LL * 86'400'000)
        throw DomainError::invalidField(QStringLiteral("expiresIn"),
                                        QStringLiteral("must be a minute to 30 days"));
}

std::optional<QString> Delegations::approve(Run &run, const Grant &grant, const QString &approvedBy)
{
    checkGrant(run, grant);
    const qint64 now = m_store.clock().nowMs();
    const QString token = Ids::make(QStringLiteral("rds"), 32);
    Delegation d;
    d.id = Ids::make(QStringLiteral("dlg"));
    d.prefix = token.left(12);
    d.siteId = run.siteId;
    d.scope = grant.scope;
    d.spendCapMilli = grant.spendCapMilli;
    d.approvedBy = approvedBy;
    d.runId = run.id;
    d.createdAt = now;
    d.expiresAt = now + grant.ttlMs;
    m_store.transaction([&] {
        m_repo.insertDelegation(d, hashToken(token));
        m_repo.setDelegationSealed(run.id, m_store.secrets().seal(token));
    });
    Q_EMIT m_rec.delegationsChanged();
    // The run itself must be in the scope the person approved.
    if (!d.allows(scopeItemOf(run))) {
        m_rec.settle(run, Status::cancelled,
                     QStringLiteral("the approved scope does not cover this run's task"));
        return std::nullopt;
    }
    return token;
}

} // namespace ph::a2w
