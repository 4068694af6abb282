#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ph {
class Store;
}

namespace ph::a2w {

// The run statuses of the spec, exactly.
namespace Status {
inline const QString pending = QStringLiteral("pending");
inline const QString waitingBrowser = QStringLiteral("waiting_browser");
inline const QString running = QStringLiteral("running");
inline const QString inputRequired = QStringLiteral("input_required");
inline const QString completed = QStringLiteral("completed");
inline const QString failed = QStringLiteral("failed");
inline const QString cancelled = QStringLiteral("cancelled");
inline const QString expired = QStringLiteral("expired");
bool isTerminal(const QString &status);
} // namespace Status

// The trust tier of a visiting agent (docs/api/a2w.md, "Trust tiers").
namespace Trust {
inline const QString anonymous = QStringLiteral("anonymous");
inline const QString identified = QStringLiteral("identified");
inline const QString verified = QStringLiteral("verified");
} // namespace Trust

struct Run
{
    QString id; // a2w_…
    QString workflowId;
    QString siteId;
    QString url;
    QString host;
    QString kind;     // prompt, shortcut, playbook
    QString selector; // the prompt or the shortcut/playbook id
    QString engagementKind;
    QString execution; // cloud, browser
    QString status;
    QJsonObject request; // as stored: no secrets
    QJsonObject agent;   // who the visiting agent is (given or attributed)
    QString trajectoryId;
    QJsonObject input;     // while input_required: {reason, message, questions, links, expiresAt}
    QJsonObject authInput; // a sign-in resume: {status, kind, prompt, emailMasked}
    QJsonObject result;    // once completed (or what a failed run got to)
    QString error;
    QString clientAddress;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    std::optional<qint64> expiresAt;             // input or browser claim deadline
    QString parentRunId;                         // a handoff's parent run, else empty
    int hop = 0;                                 // 0 for a workflow's first run, parent's + 1 after
    QString contract = QStringLiteral("a2w");    // a2w, or v1 (an earlier-contract task)
    QString trust = QStringLiteral("anonymous"); // anonymous, identified, verified
    QString delegationId;                        // the delegated session the run acts under, if any
    QString pendingTask; // kept while the run waits for a person to approve one
};

// A delegated session: a person's scoped, spend-capped approval for visiting agents.
struct Delegation
{
    QString id; // dlg_…
    QString prefix;
    QString siteId;
    QStringList scope; // shortcut, playbook or capability ids; "*": any task
    qint64 spendCapMilli = 0;
    qint64 spentMilli = 0;
    QString approvedBy;
    QString runId;
    qint64 createdAt = 0;
    qint64 expiresAt = 0;
    std::optional<qint64> revokedAt;
    bool allows(const QString &what) const
    {
        return scope.contains(QStringLiteral("*")) || scope.contains(what);
    }
};

struct Event
{
    QString runId;
    qint64 position = 0; // the store's order of every event: a workflow stream's id
    qint64 seq = 0;      // 1, 2, … per run: the SSE id
    QString type;
    qint64 at = 0;
    QJsonObject data;
    QJsonObject toJson() const;
};

// A2W runs, their workflows, events, idempotency keys and the sites' A2W accounts.
class A2wRepository
{
public:
    explicit A2wRepository(Store &store);

    std::optional<QString> siteAccount(const QString &siteId) const;
    void setSiteAccount(const QString &siteId, const QString &keyId);

    void insertWorkflow(const QString &id, const QString &tokenHash, const QString &rootRunId);
    bool workflowTokenMatches(const QString &id, const QString &tokenHash) const;
    QList<Run> runsOfWorkflow(const QString &workflowId) const;

    void insertRun(const Run &run, const QString &tokenHash, const QString &receiptHash);
    std::optional<Run> find(const QString &id) const;
    bool tokenMatches(const QString &id, const QString &tokenHash) const;
    std::optional<Run> findByReceipt(const QString &receiptHash) const;
    void update(const Run &run);
    // The sealed sign-in value a caller provided, kept until the run takes it once.
    void setAuthSealed(const QString &id, const QString &sealed);
    QString takeAuthSealed(const QString &id);
    // Newest first; empty siteId: every site.
    QList<Run> list(const QString &siteId, int limit) const;
    // Runs waiting (for input or a browser) whose deadline has passed.
    QList<Run> overdue(qint64 nowMs) const;
    std::optional<qint64> nextDeadline() const;

    Event appendEvent(const QString &runId, const QString &type, const QJsonObject &data);
    QList<Event> events(const QString &runId, qint64 afterSeq) const;
    // Every event of a workflow's runs after `afterPosition`, in the order stored.
    QList<Event> workflowEvents(const QString &workflowId, qint64 afterPosition) const;

    void insertDelegation(const Delegation &d, const QString &tokenHash);
    std::optional<Delegation> delegationByToken(const QString &tokenHash) const;
    std::optional<Delegation> delegation(const QString &id) const;
    QList<Delegation> delegations(int limit) const;
    bool revokeDelegation(const QString &id, qint64 nowMs);
    void addSpent(const QString &id, qint64 milli);
    // The run's new token, sealed, until its caller reads it once (then NULL).
    void setDelegationSealed(const QString &runId, const QString &sealed);
    QString takeDelegationSealed(const QString &runId);

    // Web Bot Auth: remembers a nonce until `expiresAtMs`; false if it was seen already.
    bool rememberNonce(const QString &nonceHash, qint64 expiresAtMs);

    struct Idempotent
    {
        QString bodyHash;
        QString runId;
        QString tokensSealed;
        qint64 createdAt = 0;
    };
    std::optional<Idempotent> idempotent(const QString &keyHash) const;
    void rememberIdempotent(const QString &keyHash, const Idempotent &entry);
    int forgetIdempotentBefore(qint64 cutoffMs);

private:
    Store &m_store;
};

} // namespace ph::a2w
