#pragma once

#include "A2wRepository.h"

#include <QStringList>

namespace ph {
class Store;
}

namespace ph::a2w {

class RunRecorder;
class SiteCapabilities;

// Delegated sessions (docs/api/a2w.md, "Delegated sessions"): a person's approval in
// advance of what an agent may do on a site, scoped and spend-capped, behind an rds_
// token that is stored hashed.
class Delegations
{
public:
    struct Grant
    {
        QStringList scope; // tool ids of the site's capabilities (shortcut_…), or "*"
        qint64 spendCapMilli = 0;
        qint64 ttlMs = 0;
    };

    Delegations(Store &store, A2wRepository &repo, RunRecorder &recorder,
                const SiteCapabilities &capabilities);

    // The delegation `token` names, checked for `siteId` and the scope item `what` (a
    // shortcut, playbook or capability id; empty: a free prompt, which needs "*").
    Delegation check(const QString &token, const QString &siteId, const QString &what) const;
    // What of a run a scope must cover: its shortcut or playbook, else its capability.
    static QString scopeItemOf(const Run &run);
    // Mints the session `grant` for `run` (approved by `approvedBy`): the token is sealed
    // for the run's caller to read once. Returns it, or nothing when the approved scope
    // does not cover the run (which is then cancelled).
    std::optional<QString> approve(Run &run, const Grant &grant, const QString &approvedBy);
    // The delegation a run acts under, for its resource: the token only on the first
    // read after it was minted.
    QJsonObject of(const Run &run, bool revealNewToken);
    QList<Delegation> list(int limit) const;
    // Revokes a delegated session; 404 / 409 when unknown or revoked.
    void revoke(const QString &id);
    // Whether `id` is a delegation in force now (its run does not stop to confirm).
    bool inForce(const QString &id) const;

private:
    void checkGrant(const Run &run, const Grant &grant) const;

    Store &m_store;
    A2wRepository &m_repo;
    RunRecorder &m_rec;
    const SiteCapabilities &m_capabilities;
};

} // namespace ph::a2w
