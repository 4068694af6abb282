#pragma once

#include "core/RequestLog.h"
#include "core/Store.h"
#include "webhooks/PostClient.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <array>
#include <memory>
#include <optional>
#include <utility>

class QNetworkAccessManager;

class QHostAddress;

namespace ph {
class Clock;
class NetworkPolicy;
class Sql;
class Store;
} // namespace ph

namespace ph::webhooks {

// An outcome to announce: the event name and its JSON body.
struct Event
{
    QString name; // workflow.completed, workflow.failed, workflow.input_required,
                  // svc.execution.succeeded, svc.execution.failed, webhook.test
    QJsonObject payload;
};

struct AttemptRecord
{
    int attempt = 0;
    qint64 at = 0;
    int statusCode = 0;
    qint64 latencyMs = 0;
    QString response; // the first bytes of the reply
    QString error;
    // The request's header lines as sent ("Name: value\n" each; credentials a
    // subscription set, Authorization among them, read "[redacted]") and the reply's
    // header lines (the first HttpReplyParser::kKeptHead bytes). Empty for attempts
    // recorded before migration 0023 and for attempts that never left.
    QString requestHeaders;
    QString responseHeaders;
};

struct DeliveryRecord
{
    QString id;
    QString requestId;
    QString keyId;
    QString url;
    QString event;
    QString status; // pending, delivered, failed
    int attempts = 0;
    std::optional<qint64> nextAttemptAt;
    qint64 createdAt = 0;
    std::optional<qint64> deliveredAt;
    int lastStatus = 0;
    QString lastError;
    QList<AttemptRecord> attemptLog;
    QByteArray payload; // the JSON body every attempt sends (find() with attempts)

    QJsonObject toJson(bool withAttempts) const;
};

// Durable outbound callbacks. A delivery is written to the store before anything is
// sent; each attempt is marked (attempts + 1, next_attempt_at = the next step of the
// schedule) and committed before it goes out, and its outcome recorded when it returns,
// so a kill -9 at any moment loses nothing and, after a restart, resends only an attempt
// whose outcome was never recorded.
//
// Throughput: writes are batched and statements stay prepared. enqueue() writes the
// first attempts it can start at once already marked, in its own transaction; one pump
// marks all the attempts it starts in one transaction; the outcomes of attempts wait in
// memory for up to kFlushWindowMs (or until kFlushBatch of them) and are written in one
// transaction, then the queue pumps once if deliveries are waiting for room. An attempt
// counts as in flight until its outcome is committed, so no pump takes it again
// meanwhile. A kill -9 between an answer and that commit leaves the delivery pending at
// the next step of the schedule: at most one extra delivery (receivers dedupe by
// X-Svc-Delivery-Id), never a lost one.
//
// Transport: HTTP/1.1 spoken here over QTcpSocket / QSslSocket, with up to
// kConnectionsPerOrigin keep-alive connections per scheme, host and port and a queue
// for the rest. (QNetworkAccessManager in Qt 6.4 reads reply headers one byte per
// read() and relays every reply through its thread with a dozen queued signals: it
// took more CPU per callback than the whole queue, and allows 6 connections per host.)
// The 10 s of an attempt start when its connection starts or its request is written,
// so waiting for a free connection does not count; a reply whose status arrived counts
// as the answer even if its body is cut short.
//
// Schedule (the spec's): immediately, then after 5 s, 30 s, 2 min and 10 min; a 2xx
// ends it, anything else (another status, a refused connection, 10 s without an
// answer) schedules the next; after the fifth the delivery is failed.
//
// Signing, when the subscription has a secret: X-Svc-Signature is the lowercase hex
// HMAC-SHA256 of "<X-Svc-Timestamp>.<raw body>", X-Svc-Timestamp the epoch
// milliseconds when the request is written. X-Svc-Delivery-Id is the same on every
// attempt of a delivery. A secret (or auth credential) that cannot be unsealed fails
// the attempt with that reason: nothing goes out unsigned. A subscription of the
// Firecrawl-compatible API is signed as Firecrawl signs: X-Firecrawl-Signature:
// sha256=<lowercase hex HMAC-SHA256 of the raw body> (no timestamp in the MAC).
class WebhookQueue : public QObject
{
    Q_OBJECT
public:
    static const QList<qint64> &schedule(); // delays before attempts 1..5, in ms
    static constexpr int kTimeoutMs = 10000;
    // Attempts started and not yet recorded, all receivers together.
    static constexpr int kMaxInFlight = 64;
    // Keep-alive connections to one receiver (scheme, host, port). One receiver gets at
    // most this many requests per round trip: with the 6 of browsers and Qt, a loopback
    // receiver answering in ~2.5 ms capped a queue at ~2,400/s.
    static constexpr int kConnectionsPerOrigin = 16;
    static constexpr int kResponseSnippet = 512;
    // What an attempt's log keeps of a credential header's value.
    static constexpr QLatin1StringView kRedacted{"[redacted]"};
    // Outcomes are written together, at most this long after the first came in…
    static constexpr int kFlushWindowMs = 5;
    // … or at once when this many are waiting.
    static constexpr int kFlushBatch = 32;

    // `network` is not used for callbacks (see Transport above); the parameter stays
    // for the callers.
    WebhookQueue(Store &store, const Clock &clock, NetworkPolicy &policy,
                 QNetworkAccessManager &network, QObject *parent = nullptr);
    ~WebhookQueue() override;

    // Picks up the pending deliveries of earlier processes at their due times.
    void start();
    // Stops starting attempts and writes the outcomes already in. Attempts still out
    // are recorded if they end while the store is open, else sent again after a restart.
    void stop();

    // One delivery per subscription that selects the event (docs/api/webhooks.md).
    // Joins the caller's transaction when there is one (Store::transaction): the rows
    // commit with it, and no attempt starts before that commit; a rollback drops them
    // unsent. `sync` applies when it is its own transaction: Normal only for deliveries
    // that announce no outcome (webhook.test).
    QStringList enqueue(const QString &requestId, const QString &keyId,
                        const QList<WebhookSubscription> &subscriptions, const QList<Event> &events,
                        Store::Sync sync = Store::Sync::Full);
    // Whether a subscription receives an event: its `events`, or by default the
    // workflow.* events.
    static bool selects(const WebhookSubscription &subscription, const QString &event);

    // Sends every delivery that is due now (the timer calls it; tests with a manual
    // clock call it after advancing time).
    void pump();
    // One more attempt, now, for a delivery in any state. False if there is no such one.
    bool redeliver(const QString &id);
    int redeliverFailed(const QString &keyId);

    std::optional<DeliveryRecord> find(const QString &id, bool withAttempts) const;
    QList<DeliveryRecord> list(const QString &keyId, const QString &status, int limit,
                               const QString &before) const;
    // Attempts started whose outcome is not yet committed.
    int inFlight() const { return int(m_inFlight.size()); }
    // Deliveries of `event` for `keyId` still pending (POST /webhooks/test's per-key cap).
    int pendingCount(const QString &keyId, const QString &event) const;

    static QByteArray sign(const QByteArray &secret, qint64 timestampMs, const QByteArray &body);

Q_SIGNALS:
    void deliveryChanged(const QString &id);
    void idle(); // nothing in flight and nothing due

private:
    struct Pending
    {
        QString id;
        QString url;
        QString event;
        QByteArray payload;
        QString config; // the sealed subscription, as stored
        QString keyId;  // whose grant the connection acts with (NetworkPolicy)
        int attempt = 0;
        bool manual = false;
    };
    // What every attempt for one sealed subscription sends besides the X-Svc headers.
    struct Target
    {
        QList<std::pair<QByteArray, QByteArray>> headers; // header lines, ready to send
        QByteArray secret;                                // empty: not signed
        bool firecrawl = false; // X-Firecrawl-Signature instead of X-Svc-Signature
        QString error;          // set when a sealed value does not open: nothing is sent
    };
    struct Attempt
    {
        Pending p;
        qint64 startedAt = 0; // clock ms, logged as the attempt's time
        QByteArray target;    // request target (path and query)
        QByteArray host;      // Host header
        std::shared_ptr<const Target> how;
        bool posted = false;   // handed to the client
        bool answered = false; // outcome waiting in m_outcomes
        QByteArray sentHead;   // header lines as sent, credentials redacted
    };
    struct Outcome
    {
        Pending p;
        qint64 startedAt = 0;
        qint64 finishedAt = 0;
        int status = 0;
        QByteArray reply;
        QString error;
        QByteArray requestHead;
        QByteArray replyHead;
    };
    enum Statement {
        InsertDelivery,
        SelectDue,
        MarkAttempt,
        NextDue,
        InsertAttempt,
        RecordOutcome,
        StatementCount
    };

    Sql &statement(Statement which);
    void releaseStatements();
    void scheduleTimer(qint64 now);
    void wakeAt(qint64 when, qint64 now);
    // After the commit of enqueue()'s rows: announces them and starts what may start.
    void release(const QStringList &ids, const QList<Pending> &started, bool queued, qint64 now);
    void send(const Pending &p, qint64 startedAt);
    void sendTo(const Pending &p, qint64 startedAt, const QHostAddress &address);
    std::shared_ptr<const Target> target(const QString &config);
    void finish(const Pending &p, qint64 startedAt, int status, const QByteArray &reply,
                const QString &error, const QByteArray &replyHead = {});
    void flush();

    static QByteArray request(Attempt &a);

    Store &m_store;
    const Clock &m_clock;
    NetworkPolicy &m_policy;
    PostClient m_client;
    QTimer m_timer;   // the next due delivery
    QTimer m_flush;   // writes m_outcomes (kFlushWindowMs, kFlushBatch)
    QTimer m_release; // drops the prepared statements when idle for a while
    QHash<QString, Attempt> m_inFlight;
    QList<Outcome> m_outcomes;
    QSet<QString> m_manual; // the next attempt is a redelivery: its failure is final
    QSet<QString> m_again;  // redeliveries asked for while an attempt was out
    QHash<QString, std::shared_ptr<const Target>> m_targets; // by sealed config
    std::array<std::unique_ptr<Sql>, StatementCount> m_statements;
    bool m_pumpAfterCommit = false; // pump() was asked for inside a transaction
    int m_reserved = 0;             // first attempts of enqueue()s whose transaction is still open
    bool m_running = false;
    bool m_backlog = true; // due deliveries may be waiting for room in flight
};

} // namespace ph::webhooks
