#pragma once

#include "RuntimeRepository.h"

#include <QObject>

#include <memory>

namespace ph {
class DomainError;
class ObjectStore;
class Settings;
class Store;
namespace sites {
class AnalyticsRepository;
class SiteRepository;
struct SiteKey;
} // namespace sites
} // namespace ph

namespace ph::runtime {

// The browser runtime of embedded sites (docs/api/runtime.md): sessions opened with a
// site's public key, session and stream tokens, strict epoch/seq commands (run input,
// run control, tab events), projections, checkpoints, telemetry and the visitor's
// context. The controller and the console both call this; failures are DomainErrors
// whose details carry the runtime envelope's `data` (code, retryable, next_action,
// conflict …).
class RuntimeService : public QObject
{
    Q_OBJECT
public:
    RuntimeService(Store &store, Settings &settings, sites::SiteRepository &sites,
                   sites::AnalyticsRepository &analytics, QObject *parent = nullptr);
    ~RuntimeService() override;

    RuntimeRepository &repository() { return *m_repo; }

    struct Opened
    {
        Session session;
        QString sessionToken;
        qint64 sessionTokenExpiresAt = 0;
        QString streamToken;
        QJsonObject capabilities;
        QJsonObject policy;
        QJsonObject siteConfig;
        QJsonObject analytics; // the signed beacon the SDK's track calls use
        bool refreshed = false;
    };
    // POST /session/open: a refresh with a valid sessionToken, else a bootstrap with
    // siteId, host or url, and publicKey. `bearer` is the Authorization token, if any.
    Opened open(const QJsonObject &body, const QString &bearer, const QString &clientAddress);

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

    struct Answer
    {
        int status = 200;
        QJsonObject data;
    };
    // POST /command: RUN_INPUT, run control or TAB_EVENT under strict mode; a command
    // already answered (same clientEventId) gets the same answer again.
    Answer command(const Session &session, const QJsonObject &body);

    // POST /snapshot: upserts the session's compacted checkpoint.
    QJsonObject saveSnapshot(const Session &session, const QJsonObject &body);
    // POST /telemetry/ingest: keeps at most the configured events, each truncated.
    QJsonObject ingestTelemetry(const Session &session, const QJsonObject &body);
    // POST /context/external: the policy decision for an external URL (and, for
    // read_context, the page read through the cloud browser by the caller).
    QJsonObject externalDecision(const Session &session, const QJsonObject &body);

    // The signed analytics beacon (GET /v2/runtime/collect): verifies and records a goal,
    // event or conversion for the session's site.
    QString collect(const QHash<QString, QString> &query);

    // For the console: live sessions, and ending a session's active run.
    QList<Session> liveSessions(int limit = 200) const;
    void endActiveRun(const QString &sessionId, const QString &reason);

    // The adversarial score that blocks (runtime.externalBlockPercent / 100).
    double blockScore() const;

    // The server's adversarial reading of a URL: a score in [0, 1] and its reasons.
    struct Adversarial
    {
        double score = 0;
        QStringList reasons;
    };
    static Adversarial assessUrl(const QString &url, const QString &siteHost);
    // visitor.context: data-only values, secret-looking keys dropped, recent requests
    // cut to three, at most 2 KB of JSON.
    static QJsonObject sanitizeContext(const QJsonObject &context, QStringList *dropped = nullptr);

Q_SIGNALS:
    // New events of a session (its seq is now `seq`): streams send a projection.
    void sessionAdvanced(const QString &sessionId, qint64 seq);

private:
    Opened finishOpen(Session session, const sites::SiteKey &key, bool refreshed);
    void mintTokens(Opened &opened);
    void appendEvent(Session &session, const QString &type, const QString &runId,
                     const QJsonObject &data);
    void checkEpoch(const Session &session, const QJsonObject &body) const;
    void checkSeq(const Session &session, const QJsonObject &body) const;
    Answer runInput(Session &session, const QJsonObject &body);
    Answer runControl(Session &session, const QJsonObject &body);
    Answer tabEvent(Session &session, const QJsonObject &body);
    void settleRun(Session &session, Run &run, const QString &status, const QString &why);
    QJsonObject runInputData(const Session &session, const Run &run) const;
    qint64 now() const;

    Store &m_store;
    Settings &m_settings;
    sites::SiteRepository &m_sites;
    sites::AnalyticsRepository &m_analytics;
    std::unique_ptr<RuntimeRepository> m_repo;
    QList<std::pair<QString, qint64>> m_advanced; // sessions to announce after commit
};

} // namespace ph::runtime
