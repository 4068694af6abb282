#pragma once

#include "A2wRepository.h"
#include "A2wRequest.h"

#include <QHash>

namespace ph {
class Settings;
class Store;
namespace sites {
class SiteRepository;
}
} // namespace ph

namespace ph::a2w {

class Delegations;

// Who is calling (an anonymous visiting agent): its address for the rate limit, and
// the headers it may be attributed from when it sends no `agent` object.
struct Caller
{
    QString address;
    QString userAgent;
    QString signatureAgent;
    QString clientId; // X-Svc-Client-Id
    bool signedRequest = false;
    // Set once WebBotAuth verified the request's signature: the key directory's origin.
    QString verifiedAgent;
};

// A handoff's own fields (besides the child's create request).
struct HandoffContext
{
    QString contextSummary;
    QString expectedOutput;
    QJsonObject lastObservation;
};

// The launch policy of A2wService: whether, where and how a create request may run (an
// enabled site that allows the execution, the caller's trust tier, its rate, the
// sensitive fields, a handoff's hops, a delegated session), the task the engine is given
// and its engagement kind; and the Idempotency-Keys of creates.
class LaunchPolicy
{
public:
    // How a run is launched: its contract (a2w, v1) and, for a handoff, its parent.
    struct Launch
    {
        QString contract = QStringLiteral("a2w");
        std::optional<Run> parent;
        HandoffContext context;
    };
    // What the policy decided for a create.
    struct Plan
    {
        QString siteId;
        QString execution; // cloud, browser
        QJsonObject agent; // attributed, with its trust
        QString trust;
        int hop = 0;
        QString delegationId;           // the delegated session it runs under
        bool awaitVerification = false; // a person must approve one first
        QString task;
        QString engagementKind;
    };
    // A create seen before under the same key.
    struct Seen
    {
        QString runId;
        QJsonObject tokens; // run, workflow, receipt
    };

    LaunchPolicy(Store &store, Settings &settings, sites::SiteRepository &sites,
                 A2wRepository &repo, const Delegations &delegations);

    // Every check of a create, in order, ending with the caller's rate (which counts it).
    Plan plan(const CreateRequest &request, const Caller &caller, const QString &preferExecution,
              const Launch &how);

    static QString trustOf(const CreateRequest &request, const Caller &caller);
    static QString idempotencyScope(const CreateRequest &request, const Caller &caller);
    // 403 TRUST_TIER_TOO_LOW when a sensitive field (a delegated session, commerce,
    // payment) comes from a caller below the verified tier, if the settings say so.
    void checkSensitive(const CreateRequest &request, const QString &trust) const;

    // The stored key of an Idempotency-Key (empty without one): the caller's own.
    static QString idempotencyKey(const QString &contract, const CreateRequest &request,
                                  const Caller &caller, const QString &key);
    // The create stored under `keyHash` (409 IDEMPOTENCY_KEY_REUSED for another body).
    std::optional<Seen> seen(const QString &keyHash, const QString &bodyHash);
    void remember(const QString &keyHash, const QString &bodyHash, const QString &runId,
                  const QJsonObject &tokens);

private:
    struct Site
    {
        QString id;
        QString name;
        QJsonObject config; // effective
        QJsonObject stored; // as the owner stored it (sites::SiteConfig reads it typed)
    };
    Site enabledSite(const CreateRequest &request, const QString &execution) const;
    QString executionOf(const CreateRequest &request, const QString &preferExecution,
                        const Launch &how, Site *site) const;
    int hopOf(const CreateRequest &request, const Site &site, const Launch &how) const;
    QString taskFor(const CreateRequest &request, const Site &site, QString *engagementKind) const;
    void checkRate(const Caller &caller, const QString &trust);

    Store &m_store;
    Settings &m_settings;
    sites::SiteRepository &m_sites;
    A2wRepository &m_repo;
    const Delegations &m_delegations;
    QHash<QString, QList<qint64>> m_recent; // client address -> creation times (last minute)
};

} // namespace ph::a2w
