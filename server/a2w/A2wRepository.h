#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

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
    std::optional<qint64> expiresAt; // input or browser claim deadline
};

struct Event
{
    qint64 seq = 0; // 1, 2, … per run: the SSE id
    QString type;
    qint64 at = 0;
    QJsonObject data;
    QJsonObject toJson(const QString &runId) const;
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
