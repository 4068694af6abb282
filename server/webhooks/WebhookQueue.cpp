#include "WebhookQueue.h"

#include "browser/NetworkPolicy.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/SecretBox.h"
#include "core/Store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMessageAuthenticationCode>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QUrl>

Q_LOGGING_CATEGORY(lcHooks, "pilothouse.webhooks")

namespace ph::webhooks {

namespace {

const QStringList kDefaultEvents = {
    QStringLiteral("workflow.completed"), QStringLiteral("workflow.failed"),
    QStringLiteral("workflow.input_required"), QStringLiteral("webhook.test")};

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QVariant nullInt()
{
    return QVariant(QMetaType::fromType<qint64>());
}

DeliveryRecord fromRow(const Sql &q)
{
    DeliveryRecord d;
    d.id = q.value(0).toString();
    d.requestId = q.value(1).toString();
    d.keyId = q.value(2).toString();
    d.url = q.value(3).toString();
    d.event = q.value(4).toString();
    d.status = q.value(5).toString();
    d.attempts = q.value(6).toInt();
    if (!q.value(7).isNull())
        d.nextAttemptAt = q.value(7).toLongLong();
    d.createdAt = q.value(8).toLongLong();
    if (!q.value(9).isNull())
        d.deliveredAt = q.value(9).toLongLong();
    d.lastStatus = q.value(10).toInt();
    d.lastError = q.value(11).toString();
    return d;
}

const QString kColumns = QStringLiteral("id, request_id, key_id, url, event, status, attempts, "
                                        "next_attempt_at, created_at, delivered_at,"
                                        " last_status, last_error");

} // namespace

QJsonObject DeliveryRecord::toJson(bool withAttempts) const
{
    QJsonObject o{
        {QStringLiteral("id"), id},
        {QStringLiteral("requestId"), requestId},
        {QStringLiteral("url"), url},
        {QStringLiteral("event"), event},
        {QStringLiteral("status"), status},
        {QStringLiteral("attempts"), attempts},
        {QStringLiteral("createdAt"), Clock::isoUtc(createdAt)},
        {QStringLiteral("nextAttemptAt"),
         nextAttemptAt ? QJsonValue(Clock::isoUtc(*nextAttemptAt)) : QJsonValue()},
        {QStringLiteral("deliveredAt"),
         deliveredAt ? QJsonValue(Clock::isoUtc(*deliveredAt)) : QJsonValue()},
        {QStringLiteral("lastStatus"), lastStatus > 0 ? QJsonValue(lastStatus) : QJsonValue()},
        {QStringLiteral("lastError"), lastError.isEmpty() ? QJsonValue() : QJsonValue(lastError)}};
    if (withAttempts) {
        QJsonArray log;
        for (const AttemptRecord &a : attemptLog)
            log.append(QJsonObject{
                {QStringLiteral("attempt"), a.attempt},
                {QStringLiteral("at"), Clock::isoUtc(a.at)},
                {QStringLiteral("statusCode"),
                 a.statusCode > 0 ? QJsonValue(a.statusCode) : QJsonValue()},
                {QStringLiteral("latencyMs"), a.latencyMs},
                {QStringLiteral("response"), a.response},
                {QStringLiteral("error"), a.error.isEmpty() ? QJsonValue() : QJsonValue(a.error)}});
        o.insert(QStringLiteral("attemptLog"), log);
    }
    return o;
}

const QList<qint64> &WebhookQueue::schedule()
{
    static const QList<qint64> delays = {0, 5000, 30000, 120000, 600000};
    return delays;
}

WebhookQueue::WebhookQueue(Store &store, const Clock &clock, NetworkPolicy &policy,
                           QNetworkAccessManager &network, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_clock(clock)
    , m_policy(policy)
    , m_network(network)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &WebhookQueue::pump);
}

WebhookQueue::~WebhookQueue() = default;

void WebhookQueue::start()
{
    m_running = true;
    // Attempts cut off by an earlier process's end were never acknowledged: they are
    // due again now (their next_attempt_at was set before they went out).
    pump();
}

void WebhookQueue::stop()
{
    m_running = false;
    m_timer.stop();
}

QByteArray WebhookQueue::sign(const QByteArray &secret, qint64 timestampMs, const QByteArray &body)
{
    return QMessageAuthenticationCode::hash(QByteArray::number(timestampMs) + '.' + body, secret,
                                            QCryptographicHash::Sha256)
        .toHex();
}

bool WebhookQueue::selects(const WebhookSubscription &s, const QString &event)
{
    return s.events.isEmpty() ? kDefaultEvents.contains(event) : s.events.contains(event);
}

QStringList WebhookQueue::enqueue(const QString &requestId, const QString &keyId,
                                  const QList<WebhookSubscription> &subscriptions,
                                  const QList<Event> &events)
{
    QStringList ids;
    const qint64 now = m_clock.nowMs();
    m_store.transaction([&] {
        for (const WebhookSubscription &s : subscriptions) {
            for (const Event &e : events) {
                if (!selects(s, e.name))
                    continue;
                const QString id = Ids::make(QStringLiteral("dlv"), 20);
                QJsonObject payload = e.payload;
                // webhookMetadata of a bridge request comes back in originalRequest.
                if (!s.metadata.isEmpty() && payload.contains(QStringLiteral("originalRequest"))) {
                    QJsonObject original =
                        payload.value(QStringLiteral("originalRequest")).toObject();
                    original.insert(QStringLiteral("webhookMetadata"), s.metadata);
                    payload.insert(QStringLiteral("originalRequest"), original);
                }
                Sql(m_store,
                    QStringLiteral(
                        "INSERT INTO webhook_deliveries (id, request_id, key_id, url, event,"
                        " payload, config, status, attempts, next_attempt_at, created_at)"
                        " VALUES (:id, :r, :k, :u, :e, :p, :c, 'pending', 0, :n, :n)"))
                    .bind(QStringLiteral(":id"), id)
                    .bind(QStringLiteral(":r"), requestId)
                    .bind(QStringLiteral(":k"), keyId)
                    .bind(QStringLiteral(":u"), s.url)
                    .bind(QStringLiteral(":e"), e.name)
                    .bind(QStringLiteral(":p"),
                          QJsonDocument(payload).toJson(QJsonDocument::Compact))
                    .bind(QStringLiteral(":c"), compact(s.toSealedJson(m_store.secrets())))
                    .bind(QStringLiteral(":n"), now)
                    .exec();
                ids << id;
            }
        }
    });
    for (const QString &id : std::as_const(ids))
        Q_EMIT deliveryChanged(id);
    if (!ids.isEmpty() && m_running)
        pump();
    return ids;
}

void WebhookQueue::scheduleTimer()
{
    if (!m_running)
        return;
    Sql q(m_store,
          QStringLiteral("SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE status ="
                         " 'pending' AND next_attempt_at IS NOT NULL"));
    q.exec();
    if (!q.next() || q.value(0).isNull()) {
        m_timer.stop();
        if (m_inFlight.isEmpty())
            Q_EMIT idle();
        return;
    }
    const qint64 wait = qMax<qint64>(0, q.value(0).toLongLong() - m_clock.nowMs());
    m_timer.start(int(qMin<qint64>(wait, 60000)));
}

void WebhookQueue::pump()
{
    if (!m_running)
        return;
    const qint64 now = m_clock.nowMs();
    const int room = kMaxInFlight - int(m_inFlight.size());
    if (room <= 0)
        return; // a finishing attempt pumps again
    QList<Pending> due;
    m_store.transaction([&] {
        Sql q(m_store,
              QStringLiteral(
                  "SELECT id, url, event, payload, config, attempts FROM webhook_deliveries"
                  " WHERE status = 'pending' AND next_attempt_at <= :now ORDER BY"
                  " next_attempt_at LIMIT :room"));
        q.bind(QStringLiteral(":now"), now)
            .bind(QStringLiteral(":room"), room + int(m_inFlight.size()))
            .exec();
        while (q.next() && due.size() < room) {
            Pending p;
            p.id = q.value(0).toString();
            if (m_inFlight.contains(p.id))
                continue;
            p.url = q.value(1).toString();
            p.event = q.value(2).toString();
            p.payload = q.value(3).toByteArray();
            p.config = QJsonDocument::fromJson(q.value(4).toByteArray()).object();
            p.attempt = q.value(5).toInt() + 1;
            p.manual = m_manual.contains(p.id);
            due.append(p);
        }
        // Marked before sending: should the process end mid-attempt, the delivery is due
        // again at the next step of the schedule (or at once for the last one).
        for (const Pending &p : std::as_const(due)) {
            const QList<qint64> &delays = schedule();
            const qint64 next = p.attempt < delays.size() ? now + delays.at(p.attempt) : now;
            Sql(m_store,
                QStringLiteral("UPDATE webhook_deliveries SET attempts = :a, next_attempt_at = :n"
                               " WHERE id = :id"))
                .bind(QStringLiteral(":a"), p.attempt)
                .bind(QStringLiteral(":n"), next)
                .bind(QStringLiteral(":id"), p.id)
                .exec();
        }
    });
    for (const Pending &p : std::as_const(due))
        send(p);
    scheduleTimer();
}

void WebhookQueue::send(const Pending &p)
{
    m_inFlight.insert(p.id);
    const qint64 startedAt = m_clock.nowMs();
    const QUrl url(p.url);
    // The same private-address policy as /scrape, checked at every attempt.
    const QString refusal = m_policy.refusal(url);
    if (!refusal.isEmpty()) {
        QMetaObject::invokeMethod(
            this,
            [this, p, startedAt, refusal] {
                finish(p, startedAt, 0, {}, QStringLiteral("the target %1").arg(refusal));
            },
            Qt::QueuedConnection);
        return;
    }
    const WebhookSubscription sub =
        WebhookSubscription::fromSealedJson(p.url, {}, p.config, m_store.secrets());
    QNetworkRequest request(url);
    request.setTransferTimeout(kTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Pilothouse-Webhooks/") +
                                                            QByteArrayLiteral(PILOTHOUSE_VERSION));
    for (auto it = sub.headers.begin(); it != sub.headers.end(); ++it)
        request.setRawHeader(it.key().toUtf8(), it.value().toString().toUtf8());
    const QString authType = sub.auth.value(QStringLiteral("type")).toString();
    if (authType == QLatin1String("bearer")) {
        request.setRawHeader("Authorization",
                             "Bearer " +
                                 sub.auth.value(QStringLiteral("token")).toString().toUtf8());
    } else if (authType == QLatin1String("basic")) {
        const QByteArray user = sub.auth.value(QStringLiteral("username")).toString().toUtf8();
        const QByteArray pass = sub.auth.value(QStringLiteral("password")).toString().toUtf8();
        request.setRawHeader("Authorization", "Basic " + (user + ':' + pass).toBase64());
    }
    request.setRawHeader("X-Svc-Event", p.event.toUtf8());
    request.setRawHeader("X-Svc-Delivery-Id", p.id.toUtf8());
    request.setRawHeader("X-Svc-Delivery-Attempt", QByteArray::number(p.attempt));
    const qint64 timestamp = QDateTime::currentMSecsSinceEpoch();
    request.setRawHeader("X-Svc-Timestamp", QByteArray::number(timestamp));
    if (!sub.secret.isEmpty())
        request.setRawHeader("X-Svc-Signature", sign(sub.secret.toUtf8(), timestamp, p.payload));
    QNetworkReply *reply = m_network.post(request, p.payload);
    QPointer<WebhookQueue> self(this);
    connect(reply, &QNetworkReply::finished, this, [self, reply, p, startedAt] {
        reply->deleteLater();
        if (!self)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->read(kResponseSnippet);
        QString error;
        if (status == 0)
            error = reply->error() == QNetworkReply::OperationCanceledError ||
                            reply->error() == QNetworkReply::TimeoutError
                        ? QStringLiteral("no answer within %1 ms").arg(kTimeoutMs)
                        : reply->errorString();
        self->finish(p, startedAt, status, body, error);
    });
}

void WebhookQueue::finish(const Pending &p, qint64 startedAt, int status, const QByteArray &reply,
                          const QString &error)
{
    m_inFlight.remove(p.id);
    m_manual.remove(p.id);
    const qint64 now = m_clock.nowMs();
    const bool ok = status >= 200 && status < 300;
    const bool exhausted = p.attempt >= schedule().size();
    // A refused target (policy) is not retried: it would be refused again.
    const bool permanent = status == 0 && error.startsWith(QLatin1String("the target"));
    QString next;
    if (ok)
        next = QStringLiteral("delivered");
    else if (exhausted || p.manual || permanent)
        next = QStringLiteral("failed");
    else
        next = QStringLiteral("pending");
    const QString lastError =
        ok ? QString() : (error.isEmpty() ? QStringLiteral("HTTP %1").arg(status) : error);
    m_store.transaction([&] {
        Sql(m_store,
            QStringLiteral("INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code,"
                           " latency_ms, response, error) VALUES (:d, :a, :at, :s, :l, :r, :e)"))
            .bind(QStringLiteral(":d"), p.id)
            .bind(QStringLiteral(":a"), p.attempt)
            .bind(QStringLiteral(":at"), startedAt)
            .bind(QStringLiteral(":s"),
                  status > 0 ? QVariant(status) : QVariant(QMetaType::fromType<int>()))
            .bind(QStringLiteral(":l"), now - startedAt)
            .bind(QStringLiteral(":r"), QString::fromUtf8(reply))
            .bind(QStringLiteral(":e"), lastError.isEmpty()
                                            ? QVariant(QMetaType::fromType<QString>())
                                            : QVariant(lastError))
            .exec();
        Sql q(m_store,
              QStringLiteral(
                  "UPDATE webhook_deliveries SET status = :st, last_status = :s, last_error ="
                  " :e, delivered_at = :da, next_attempt_at = CASE WHEN :st = 'pending' THEN"
                  " next_attempt_at ELSE NULL END WHERE id = :id"));
        q.bind(QStringLiteral(":st"), next)
            .bind(QStringLiteral(":s"),
                  status > 0 ? QVariant(status) : QVariant(QMetaType::fromType<int>()))
            .bind(QStringLiteral(":e"), lastError.isEmpty()
                                            ? QVariant(QMetaType::fromType<QString>())
                                            : QVariant(lastError))
            .bind(QStringLiteral(":da"), ok ? QVariant(now) : nullInt())
            .bind(QStringLiteral(":id"), p.id)
            .exec();
    });
    qCDebug(lcHooks) << p.id << "attempt" << p.attempt << status << next << lastError;
    Q_EMIT deliveryChanged(p.id);
    pump();
}

bool WebhookQueue::redeliver(const QString &id)
{
    Sql q(m_store,
          QStringLiteral("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = :n"
                         " WHERE id = :id"));
    q.bind(QStringLiteral(":n"), m_clock.nowMs()).bind(QStringLiteral(":id"), id).exec();
    if (q.rowsAffected() == 0)
        return false;
    m_manual.insert(id);
    Q_EMIT deliveryChanged(id);
    pump();
    return true;
}

int WebhookQueue::redeliverFailed(const QString &keyId)
{
    QStringList ids;
    {
        Sql q(
            m_store,
            keyId.isEmpty()
                ? QStringLiteral("SELECT id FROM webhook_deliveries WHERE status = 'failed'")
                : QStringLiteral(
                      "SELECT id FROM webhook_deliveries WHERE status = 'failed' AND key_id = :k"));
        if (!keyId.isEmpty())
            q.bind(QStringLiteral(":k"), keyId);
        q.exec();
        while (q.next())
            ids << q.value(0).toString();
    }
    for (const QString &id : std::as_const(ids))
        redeliver(id);
    return int(ids.size());
}

std::optional<DeliveryRecord> WebhookQueue::find(const QString &id, bool withAttempts) const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM webhook_deliveries WHERE id = :id").arg(kColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    if (!q.next())
        return std::nullopt;
    DeliveryRecord d = fromRow(q);
    if (withAttempts) {
        Sql a(m_store,
              QStringLiteral("SELECT attempt, at, status_code, latency_ms, response, error FROM"
                             " webhook_attempts WHERE delivery_id = :id ORDER BY id"));
        a.bind(QStringLiteral(":id"), id).exec();
        while (a.next()) {
            AttemptRecord r;
            r.attempt = a.value(0).toInt();
            r.at = a.value(1).toLongLong();
            r.statusCode = a.value(2).toInt();
            r.latencyMs = a.value(3).toLongLong();
            r.response = a.value(4).toString();
            r.error = a.value(5).toString();
            d.attemptLog.append(r);
        }
    }
    return d;
}

QList<DeliveryRecord> WebhookQueue::list(const QString &keyId, const QString &status, int limit,
                                         const QString &before) const
{
    QString sql = QStringLiteral("SELECT %1 FROM webhook_deliveries WHERE 1 = 1").arg(kColumns);
    if (!keyId.isEmpty())
        sql += QStringLiteral(" AND key_id = :k");
    if (!status.isEmpty())
        sql += QStringLiteral(" AND status = :s");
    if (!before.isEmpty())
        sql += QStringLiteral(" AND (created_at, id) < (SELECT created_at, id FROM "
                              "webhook_deliveries WHERE id = :b)");
    sql += QStringLiteral(" ORDER BY created_at DESC, id DESC LIMIT :l");
    Sql q(m_store, sql);
    if (!keyId.isEmpty())
        q.bind(QStringLiteral(":k"), keyId);
    if (!status.isEmpty())
        q.bind(QStringLiteral(":s"), status);
    if (!before.isEmpty())
        q.bind(QStringLiteral(":b"), before);
    q.bind(QStringLiteral(":l"), limit).exec();
    QList<DeliveryRecord> out;
    while (q.next())
        out.append(fromRow(q));
    return out;
}

} // namespace ph::webhooks
