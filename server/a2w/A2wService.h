#pragma once

#include "A2wRepository.h"
#include "A2wRequest.h"
#include "BrowserHandoff.h"
#include "Delegations.h"
#include "LaunchPolicy.h"
#include "SiteCapabilities.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <memory>

namespace ph {
class ApiKeyService;
class DomainError;
class NetworkPolicy;
class Settings;
class Store;
namespace cloud {
class RunService;
}
namespace engine {
class RunManager;
struct ExecuteRequest;
} // namespace engine
namespace sites {
class AnalyticsRepository;
class SiteRepository;
} // namespace sites
} // namespace ph

namespace ph::a2w {

class EngineMirror;
class EngineRuns;
class ParkedRuns;
class RunRecorder;

// A2W runs (docs/api/a2w.md) on the one run core: a run is an agent trajectory of the
// site's A2W account, started through cloud::RunService like /agent, and watched here
// to keep the A2W view of it (status, input, result, events). The controller and the
// console's A2W runs panel both call this. Failures are DomainErrors.
//
// A lifecycle facade over its parts (each its own class here): LaunchPolicy (may this
// create run, and how), EngineMirror (the engine run, started and followed typed),
// ParkedRuns (runs behind signed links, deadlines), Delegations (delegated sessions),
// SiteCapabilities (the capability / MCP catalogue) and BrowserHandoff (runs the
// visitor's browser runs); RunRecorder is how each of them changes a run.
class A2wService : public QObject
{
    Q_OBJECT
public:
    A2wService(Store &store, Settings &settings, NetworkPolicy &policy,
               sites::SiteRepository &sites, sites::AnalyticsRepository &analytics,
               ApiKeyService &keys, cloud::RunService &runs, engine::RunManager &engine,
               QObject *parent = nullptr);
    ~A2wService() override;

    // Once at start, after the engine recovered its runs: runs it could not keep end
    // failed; runs waiting for input or a browser go on waiting.
    void recover();

    struct Created
    {
        Run run;
        QString runToken;
        QString workflowToken;
        QString receipt;
        bool replayed = false; // the same Idempotency-Key and body as before
    };
    // Creates (and for cloud execution starts) a run. `preferExecution` comes from the
    // Prefer header; `idempotencyKey` and `bodyDigest` from the call.
    // `contract` is a2w or v1 (docs/api/v1-tasks.md): the same run, another resource.
    Created create(const CreateRequest &request, const Caller &caller,
                   const QString &preferExecution, const QString &idempotencyKey,
                   const QByteArray &bodyDigest, const QString &contract = QStringLiteral("a2w"));
    // A child run of `parentId` on an enabled site that accepts delegated handoffs, in
    // the parent's workflow, within maxHops (the smallest of the caller's and both
    // sites'). The child inherits the parent's agent when the request names none.
    Created handoff(const QString &parentId, const CreateRequest &request,
                    const HandoffContext &context, const Caller &caller,
                    const QString &preferExecution);
    // The caller's trust tier: verified (a signature held), identified (an agent object
    // or a client id), else anonymous.
    static QString trustOf(const CreateRequest &request, const Caller &caller);
    // Whose Idempotency-Keys a create uses: a verified caller's key directory, else its
    // tier, client address and client id. Another caller's same key is another key.
    static QString idempotencyScope(const CreateRequest &request, const Caller &caller);

    // The capabilities of the enabled site `url`, `host` or `siteId` names (docs/api/
    // a2w.md, "Capabilities"): the site, its effective configuration and its tools.
    using SiteTools = ph::a2w::SiteTools;
    SiteTools capabilities(const QString &url, const QString &host, const QString &siteId) const;
    // Tools of a site by id (the MCP server's tools/list); 404 when not discoverable.
    SiteTools capabilitiesOfSite(const QString &siteId) const;
    // The create request a tools/call of `tool` with `arguments` stands for.
    CreateRequest requestForTool(const SiteTools &site, const QString &tool,
                                 const QJsonObject &arguments) const;

    // The run `id` if `token` is its access token; 404 RUN_NOT_FOUND otherwise (a wrong
    // token never tells whether the run exists).
    Run authorize(const QString &id, const QString &token) const;
    // The same check for a workflow and its workflow token.
    QList<Run> workflowRuns(const QString &workflowId, const QString &token) const;
    // The runs of a workflow, parent first (no token check: for streams already
    // authorized, and the console).
    QList<Run> runsOfWorkflow(const QString &workflowId) const;
    std::optional<Run> find(const QString &id) const;
    QList<Run> list(const QString &siteId = {}, int limit = 200) const;
    QList<Event> events(const QString &runId, qint64 afterSeq) const;
    QList<Event> workflowEvents(const QString &workflowId, qint64 afterPosition) const;

    // Answers the run's questions and resumes it. 409 NOT_WAITING_FOR_INPUT unless it is
    // input_required for an ordinary question. A delegated session given with it
    // (`request.auth`) needs the verified tier, as on create: `trust` is the continuing
    // caller's (403 TRUST_TIER_TOO_LOW otherwise).
    Run answer(const QString &id, const ContinueRequest &request,
               const QString &trust = Trust::anonymous);
    // A sign-in link or one-time code for a run waiting with sign_in_link_required: sealed
    // at once, authInput moves awaiting → provided, and the run takes it once, later on
    // this thread (→ consumed). 409 NOT_AWAITING_SIGN_IN otherwise; 400 for a kind that
    // is not the one awaited.
    Run provideAuthInput(const QString &id, const QString &value, const QString &kind);
    // The out-of-band confirmation of a run waiting with action_confirmation_required:
    // `signature` is the one in input.links.confirm (404 otherwise, as for no run);
    // `accept` resumes the run, else it is cancelled.
    Run confirm(const QString &id, const QString &signature, bool accept);
    // The operator's confirmation from the console (no link needed); 409
    // NOT_WAITING_FOR_CONFIRMATION unless the run waits for one.
    Run confirmAsOperator(const QString &id, bool accept);
    // What the confirmation page shows; throws like confirm() for a bad signature.
    Run confirmationFor(const QString &id, const QString &signature) const;
    // Cancels a run not yet terminal. 409 RUN_ENDED otherwise.
    Run cancel(const QString &id,
               const QString &reason = QStringLiteral("cancelled by the caller"));
    // The run's generated files with fresh signed URLs (about storage.urlTtlSeconds).
    QJsonObject artifacts(const Run &run) const;

    // Delegated sessions (docs/api/a2w.md, "Delegated sessions").
    using DelegationGrant = Delegations::Grant;
    // The run waiting for auth_required whose input.links.verify carries `signature`;
    // 404 VERIFICATION_NOT_FOUND otherwise.
    Run verificationFor(const QString &id, const QString &signature) const;
    // A person who owns or runs the site (`approvedBy`) approves a scope: mints the rds_
    // token (stored hashed; the run's caller reads it once, in `delegation.token`) and
    // the run goes on under it.
    Run approveDelegation(const QString &id, const QString &signature, const DelegationGrant &grant,
                          const QString &approvedBy);
    // The delegation a run acts under, for its resource: the token only on the first
    // read after it was minted.
    QJsonObject delegationOf(const Run &run, bool revealNewToken);
    QList<Delegation> delegations(int limit = 500) const;
    // Revokes a delegated session (the console); 404 / 409 when unknown or revoked.
    void revokeDelegation(const QString &id);

    // Where runs expire: checked on a timer and callable (tests, the console).
    void expireOverdue();

    static QString hashToken(const QString &token);
    // The run's browser-handoff receipt (derived from its id with a key of the store's
    // secret box, so it is never stored in clear), and the run a receipt names.
    QString receiptFor(const QString &runId) const;
    std::optional<Run> findByReceipt(const QString &receipt) const;

    // The site's A2W account: the API key (never shown) its visiting agents' runs, and
    // its visitors' runtime runs, are charged to; minted on first use. 403
    // A2W_ACCOUNT_REVOKED when the owner revoked it.
    QString accountFor(const QString &siteId, const QString &siteName);

    // A browser run offered to, and claimed through its `open` receipt by, the embed SDK
    // on a page of the run's site (docs/api/runtime.md, "A2W runs in the visitor's
    // browser"). Nothing runs before the visitor accepts: offerBrowserRun only reads what
    // the visitor is shown; claimBrowserRun (their acceptance) moves waiting_browser ->
    // running; declineBrowserRun ends the run cancelled ("declined by the visitor"). Each
    // throws 404 RUN_NOT_FOUND for an unknown receipt, 403 SITE_MISMATCH for a page of
    // another site, 409 NOT_WAITING_FOR_BROWSER otherwise.
    using Claimed = ph::a2w::Claimed;
    Claimed offerBrowserRun(const QString &receipt, const QString &siteId) const;
    Claimed claimBrowserRun(const QString &receipt, const QString &siteId);
    void declineBrowserRun(const QString &receipt, const QString &siteId);
    // What the visitor's browser did with a claimed run: a step (its tool and status
    // only: summaries may quote the visitor's page), then its end. A run that finished
    // waits (input_required, reason visitor_review_required) for the visitor to share its
    // result or withhold it (shareBrowserResult); a failed one ends failed, with nothing
    // from the page. 409 RUN_ENDED / NOT_WAITING_FOR_REVIEW when the run does not wait.
    void browserRunStep(const QString &runId, const QJsonObject &step);
    void finishBrowserRun(const QString &runId, bool ok, const QJsonObject &result,
                          const QString &error);
    void shareBrowserResult(const QString &runId, bool share, const QJsonObject &result);

Q_SIGNALS:
    // Every event, after it is stored; runChanged after the run's row changed.
    void eventAdded(const QString &runId, const ph::a2w::Event &event);
    void runChanged(const QString &runId);
    void delegationsChanged();

private:
    Created launch(const CreateRequest &request, const Caller &caller,
                   const QString &preferExecution, const LaunchPolicy::Launch &how);
    void scheduleExpiry();

    Store &m_store;
    Settings &m_settings;
    std::unique_ptr<A2wRepository> m_repo;
    std::unique_ptr<RunRecorder> m_recorder;
    std::unique_ptr<EngineRuns> m_engineRuns;
    std::unique_ptr<SiteCapabilities> m_capabilities;
    std::unique_ptr<Delegations> m_delegations;
    std::unique_ptr<LaunchPolicy> m_policy;
    std::unique_ptr<EngineMirror> m_mirror;
    std::unique_ptr<ParkedRuns> m_parked;
    std::unique_ptr<BrowserHandoff> m_browser;
    QTimer m_expiry;
};

} // namespace ph::a2w
