#pragma once

#include "core/RequestLog.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace ph {
class Clock;
class NetworkPolicy;
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

    QJsonObject toJson(bool withAttempts) const;
};

// Durable outbound callbacks. A delivery is written to the store before anything is
// sent; each attempt is marked before it goes out and its outcome recorded when it
// returns, so a kill -9 at any moment loses nothing and, after a restart, resends only
// an attempt that was never acknowledged.
//
// Schedule (the spec's): immediately, then after 5 s, 30 s, 2 min and 10 min; a 2xx
// ends it, anything else (another status, a refused connection, 10 s without an
// answer) schedules the next; after the fifth the delivery is failed.
//
// Signing, when the subscription has a secret: X-Svc-Signature is the lowercase hex
// HMAC-SHA256 of "<X-Svc-Timestamp>.<raw body>", X-Svc-Timestamp the attempt's epoch
// milliseconds. X-Svc-Delivery-Id is the same on every attempt of a delivery.
class WebhookQueue : public QObject
{
    Q_OBJECT
public:
    static const QList<qint64> &schedule(); // delays before attempts 1..5, in ms
    static constexpr int kTimeoutMs = 10000;
    static constexpr int kMaxInFlight = 32;
    static constexpr int kResponseSnippet = 512;

    WebhookQueue(Store &store, const Clock &clock, NetworkPolicy &policy,
                 QNetworkAccessManager &network, QObject *parent = nullptr);
    ~WebhookQueue() override;

    // Picks up the pending deliveries of earlier processes at their due times.
    void start();
    void stop();

    // One delivery per subscription that selects the event (docs/api/webhooks.md).
    QStringList enqueue(const QString &requestId, const QString &keyId,
                        const QList<WebhookSubscription> &subscriptions,
                        const QList<Event> &events);
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
    int inFlight() const { return int(m_inFlight.size()); }

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
        QJsonObject config;
        int attempt = 0;
        bool manual = false;
    };
    void scheduleTimer();
    void send(const Pending &p);
    void finish(const Pending &p, qint64 startedAt, int status, const QByteArray &reply,
                const QString &error);

    Store &m_store;
    const Clock &m_clock;
    NetworkPolicy &m_policy;
    QNetworkAccessManager &m_network;
    QTimer m_timer;
    QSet<QString> m_inFlight;
    QSet<QString> m_manual;
    bool m_running = false;
};

} // namespace ph::webhooks
