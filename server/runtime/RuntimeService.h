#pragma once

#include "RuntimeRepository.h"
#include "RuntimeTypes.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <memory>

namespace ph {
class Settings;
class Store;
namespace sites {
class AnalyticsRepository;
class SiteRepository;
} // namespace sites
} // namespace ph

namespace ph::runtime {

class CommandProtocol;
class RemoteSteps;
class RuntimeJournal;
class RuntimeProjection;
class RuntimeSessions;
class RuntimeTelemetry;

// The browser runtime of embedded sites (docs/api/runtime.md): sessions opened with a
// site's public key, session and stream tokens, strict epoch/seq commands (run input,
// run control, tab events), projections, checkpoints, telemetry and the visitor's
// context. The controller and the console both call this; failures are DomainErrors
// whose details carry the runtime envelope's `data` (code, retryable, next_action,
// conflict …).
//
// A facade over its parts (each under server/runtime/): RuntimeSessions (open, tokens,
// context, open rates), CommandProtocol (the strict command envelope and the run's life),
// NavigationDecision (a pure function: where a link may go), RemoteSteps (steps run in the
// visitor's page), RuntimeTelemetry (checkpoints, telemetry, quotas, the beacon) and
// RuntimeProjection (the JSON views), sharing one RuntimeJournal (transactions, events,
// what is owed after a commit).
class RuntimeService : public QObject
{
    Q_OBJECT
public:
    // The values its calls hand back (defined in RuntimeTypes.h).
    using Opened = OpenedSession;
    using SiteToken = MintedSiteToken;
    using Answer = CommandAnswer;
    using Adversarial = AdversarialReading;
    using A2wOffer = runtime::A2wOffer;
    using A2wClaim = runtime::A2wClaim;
    using A2wClaimer = runtime::A2wClaimer;
    using A2wReviewer = runtime::A2wReviewer;
    using StepDone = runtime::StepDone;

    RuntimeService(Store &store, Settings &settings, sites::SiteRepository &sites,
                   sites::AnalyticsRepository &analytics, QObject *parent = nullptr);
    ~RuntimeService() override;

    RuntimeRepository &repository();

    // POST /session/open: a refresh with a valid sessionToken, else a bootstrap with
    // siteId, host or url, and publicKey. `bearer` is the Authorization token, if any.
    Opened open(const QJsonObject &body, const QString &bearer, const QString &clientAddress);

    // POST /site-tokens: a site's server (Authorization: Bearer sk_site_…) mints a
    // single-use token for its page: `bootstrap` (opens a session instead of the public
    // key, optionally for one `host`) or `context` (carries `context` for
    // visitor.contextToken). 401 SITE_SECRET_INVALID for a wrong or revoked secret.
    SiteToken mintSiteToken(const QString &secret, const QJsonObject &body);

    // The session a runtime call's token opens: SESSION_TOKEN_EXPIRED (401, retryable,
    // next action: bootstrap), SESSION_TOKEN_INVALID (401), or a body sessionId that is
    // not the token's (SESSION_TOKEN_INVALID).
    Session authenticate(const QString &sessionToken, const QString &sessionId) const;
    Session authenticateStream(const QString &streamTicket) const;

    // SessionProjectionResponse: events after `seqAfter` (at most 200), tabs, the active
    // run, and the checkpoint when `withSnapshot` (bootstrap or resync).
    QJsonObject projection(const Session &session, qint64 seqAfter, bool withSnapshot) const;
    QJsonObject projection(const QString &sessionId, qint64 seqAfter) const;

    // POST /session/context: the sanitized context (visitor null clears it).
    QJsonObject updateContext(const Session &session, const QJsonObject &body);

    // POST /command: RUN_INPUT, run control or TAB_EVENT under strict mode; a command
    // already answered (same clientEventId) gets the same answer again.
    Answer command(const Session &session, const QJsonObject &body);

    // POST /snapshot: replaces the session's compacted checkpoint (one per session; the
    // replaced one's stored object goes in the same transaction). 413 SNAPSHOT_TOO_LARGE
    // over runtime.maxSnapshotBytes; 413 SESSION_/SITE_STORAGE_QUOTA_EXCEEDED when the
    // session or its site would keep more than runtime.maxStoredBytesPerSession /
    // PerSite stored: nothing stored changes then.
    QJsonObject saveSnapshot(const Session &session, const QJsonObject &body);
    // POST /telemetry/ingest: keeps at most the configured events, each truncated; a
    // batch over the storage quotas is refused like a checkpoint.
    QJsonObject ingestTelemetry(const Session &session, const QJsonObject &body);
    // For the storage purger: deletes telemetry older than runtime.telemetryRetentionHours
    // and expired checkpoints; returns the rows deleted.
    int purgeStale();
    // POST /context/external: the policy decision for an external URL (and, for
    // read_context, the page read through the cloud browser by the caller).
    QJsonObject externalDecision(const Session &session, const QJsonObject &body);

    // The signed analytics beacon (GET /v2/runtime/collect): verifies and records a goal,
    // event or conversion for the session's site.
    QString collect(const QHash<QString, QString> &query);

    // A tab's new status (scraped, acted …), as an event of its session.
    void markTab(const QString &sessionId, const QString &logicalTabId, const QString &status);

    // For the console: live sessions, and ending a session's active run.
    QList<Session> liveSessions(int limit = 200) const;
    void endActiveRun(const QString &sessionId, const QString &reason);

    // The adversarial score that blocks (runtime.externalBlockPercent / 100).
    double blockScore() const;

    // The server's adversarial reading of a URL: a score in [0, 1] and its reasons.
    static Adversarial assessUrl(const QString &url, const QString &siteHost);
    // visitor.context: data-only values, secret-looking keys dropped, recent requests
    // cut to three, at most 2 KB of JSON.
    static QJsonObject sanitizeContext(const QJsonObject &context, QStringList *dropped = nullptr);

    // Runs on the visitor's page (RuntimeRunner drives them with the engine). A step
    // is one page operation the SDK performs (call, act, navigate, wait, snapshot): it
    // goes out as a `page.request` event and comes back as RUN_CONTROL `continue` with
    // its `stepId` and `result`. `done` is called once: with the result, or with an
    // error when the page does not answer in `timeoutMs` or the run stops.
    void requestStep(const QString &sessionId, const QString &runId, QJsonObject step,
                     int timeoutMs, StepDone done);
    // What the engine's run came to: `running` (with a step's summary), `awaiting_user`
    // (questions), `completed` (text, json) or `failed` (error).
    void runProgress(const QString &runId, const QString &status, const QJsonObject &data);
    std::optional<Session> session(const QString &id) const;
    // An A2W browser run a session's page holds the receipt of (docs/api/runtime.md, "A2W
    // runs in the visitor's browser"): what the visitor is asked about. The claimer
    // reads the offer, claims the run (the visitor accepted) or declines it, and throws
    // the A2W area's DomainError; the reviewer sends a finished run's result to the A2W
    // caller (`share`) or withholds it. Service wires both to A2wService.
    void setA2wClaimer(A2wClaimer claimer);
    void setA2wReviewer(A2wReviewer reviewer);
    // The token an acceptance or a refusal must carry: it binds the offer the visitor was
    // shown to this session and this run.
    QString consentToken(const QString &sessionId, const QString &a2wRunId) const;

Q_SIGNALS:
    // New events of a session (its seq is now `seq`): streams send a projection.
    void sessionAdvanced(const QString &sessionId, qint64 seq);
    // A run was accepted (start it), answered by the visitor (resume it with `message`),
    // or stopped by the visitor or an operator (cancel it).
    void runStarted(const QString &sessionId, const QString &runId);
    void runAnswered(const QString &sessionId, const QString &runId, const QString &message);
    void runStopped(const QString &runId);
    // A visitor's session or run record was stored (opened, advanced, settled): the
    // console's visitors list follows these.
    void sessionChanged(const QString &sessionId);
    void visitorRunChanged(const QString &runId);

private:
    // Declared in the order they are built; destroyed in reverse.
    std::unique_ptr<RuntimeJournal> m_journal;
    std::unique_ptr<RuntimeProjection> m_projection;
    std::unique_ptr<RemoteSteps> m_steps;
    std::unique_ptr<RuntimeSessions> m_sessions;
    std::unique_ptr<RuntimeTelemetry> m_telemetry;
    std::unique_ptr<CommandProtocol> m_commands;
};

} // namespace ph::runtime
