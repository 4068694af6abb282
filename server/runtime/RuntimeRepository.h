#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace ph {
class Store;
}

namespace ph::runtime {

// A visitor's session on a site (docs/api/runtime.md): opened with the site's public
// key on an allowed host. `epoch` moves at task boundaries, `seq` with every event.
struct Session
{
    QString id; // rts_…
    QString siteId;
    QString keyId;
    QString host;
    QString url;
    qint64 epoch = 1;
    qint64 seq = 0;
    QString activeRunId;
    QJsonObject context; // the sanitized visitor.context
    QString clientAddress;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    std::optional<qint64> endedAt;
};

// A run the session started. Runtime run states: queued, running, awaiting_user,
// cancel_requested, cancelled, completed, failed.
struct Run
{
    QString id; // rtr_…
    QString sessionId;
    QString status;
    QString mode; // act | planner
    QString requestedMode;
    QString message;
    QJsonObject routing;
    QString taskBoundaryId;
    QString continuationReason;
    QString a2wRunId; // an A2W run this session claimed, if any
    QJsonObject result;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    std::optional<qint64> endedAt;

    bool isActive() const
    {
        return status == QLatin1String("queued") || status == QLatin1String("running") ||
               status == QLatin1String("awaiting_user") ||
               status == QLatin1String("cancel_requested");
    }
};

struct Event
{
    qint64 seq = 0;
    QString type;
    QString runId;
    QJsonObject data;
    qint64 at = 0;
};

struct Tab
{
    QString logicalTabId;
    QString parentTabId;
    QString scope;  // in_scope | external
    QString status; // open | blocked | scraped | acted | closed
    QString url;
    QString reason;
    qint64 updatedAt = 0;
};

struct Snapshot
{
    qint64 version = 1;
    qint64 seq = 0;
    QJsonObject payload; // empty when offloaded
    QString objectId;    // the stored object of an offloaded payload
    qint64 bytes = 0;
    QString visitorId;
    qint64 updatedAt = 0;
    qint64 expiresAt = 0;
};

// The runtime's rows in the store. Callers hold the transaction (the runtime's parts,
// through RuntimeJournal::write).
class RuntimeRepository : public QObject
{
    Q_OBJECT
public:
    explicit RuntimeRepository(Store &store);

    void insertSession(const Session &session);
    std::optional<Session> findSession(const QString &id) const;
    void updateSession(const Session &session);
    QList<Session> liveSessions(int limit) const;

    enum class TokenKind { Session, Stream };
    void insertToken(const QString &hash, const QString &sessionId, TokenKind kind,
                     qint64 expiresAt);
    struct TokenRow
    {
        QString sessionId;
        qint64 expiresAt = 0;
    };
    std::optional<TokenRow> findToken(const QString &hash, TokenKind kind) const;
    void purgeTokens(qint64 before);

    void insertRun(const Run &run);
    void updateRun(const Run &run);
    std::optional<Run> findRun(const QString &id) const;
    QList<Run> runsOf(const QString &sessionId) const;

    // Appends the session's next event (session.seq already advanced by the caller).
    void insertEvent(const QString &sessionId, const Event &event);
    QList<Event> eventsAfter(const QString &sessionId, qint64 seqAfter, int limit) const;

    std::optional<QJsonObject> storedCommand(const QString &sessionId, const QString &clientEventId,
                                             int *status) const;
    void storeCommand(const QString &sessionId, const QString &clientEventId, int status,
                      const QJsonObject &body, qint64 at);

    void upsertTab(const QString &sessionId, const Tab &tab);
    QList<Tab> tabsOf(const QString &sessionId) const;

    // The session's one checkpoint: a new one replaces the row, and the stored object of
    // the one it replaces (if any, and not the new one's) is deleted with it, in the
    // caller's transaction, so writes never pile up objects.
    void upsertSnapshot(const QString &sessionId, const Snapshot &snapshot);
    std::optional<Snapshot> snapshotOf(const QString &sessionId, qint64 now) const;
    // Bytes a visitor's writes keep stored (an unexpired checkpoint and the telemetry
    // batches): of one session, and of all sessions of one site.
    qint64 storedBytesOfSession(const QString &sessionId, qint64 now) const;
    qint64 storedBytesOfSite(const QString &siteId, qint64 now) const;
    // Deletes telemetry batches made before `before` and expired checkpoints with their
    // objects; returns the rows deleted.
    int purgeTelemetry(qint64 before);
    int purgeExpiredSnapshots(qint64 now);

    // Records a context token's hash as exchanged; false when it was exchanged before.
    bool exchangeContextToken(const QString &hash, const QString &sessionId, qint64 at);

    // Tokens a site's server minted with its secret key: single use, short-lived.
    struct SiteToken
    {
        QString kind; // bootstrap | context
        QString siteId;
        QString keyId;
        QString host;
        QString sealedPayload;
        qint64 expiresAt = 0;
    };
    void insertSiteToken(const QString &hash, const SiteToken &token, qint64 at);
    // The unused, unexpired token of `kind` with this hash, marked used; nullopt otherwise.
    std::optional<SiteToken> takeSiteToken(const QString &hash, const QString &kind, qint64 now);

    void insertTelemetry(const QString &sessionId, const QJsonObject &batch, int dropped,
                         qint64 at);
    int telemetryCount(const QString &sessionId) const;
    // What a telemetry batch counts against the quotas: its events and page URL, as stored.
    static qint64 telemetryBytes(const QJsonObject &batch);

Q_SIGNALS:
    // A runtime session was opened or moved.
    void sessionChanged(const QString &sessionId);
    // A runtime run was created or moved.
    void runChanged(const QString &runId);

private:
    Store &m_store;
};

} // namespace ph::runtime
