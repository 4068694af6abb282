#include "WebhookQueue.h"

#include "PostClient.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/JsonText.h"
#include "core/SecretBox.h"
#include "core/SqlRow.h"
#include "core/Store.h"
#include "net/HostResolver.h"
#include "net/NetworkPolicy.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMessageAuthenticationCode>
#include <QUrl>

#include <cctype>
#include <cstring>
#include <limits>

Q_LOGGING_CATEGORY(lcHooks, "pilothouse.webhooks")

namespace ph::webhooks {

namespace {

const QStringList kDefaultEvents = {
    QStringLiteral("workflow.completed"), QStringLiteral("workflow.failed"),
    QStringLiteral("workflow.input_required"), QStringLiteral("webhook.test")};

DeliveryRecord fromRow(const Sql &q)
{
    SqlRow row(q);
    DeliveryRecord d;
    d.id = row.text();
    d.requestId = row.text();
    d.keyId = row.text();
    d.url = row.text();
    d.event = row.text();
    d.status = row.text();
    d.attempts = row.number();
    d.nextAttemptAt = row.optionalInt();
    d.createdAt = row.integer();
    d.deliveredAt = row.optionalInt();
    d.lastStatus = row.number();
    d.lastError = row.text();
    return d;
}

const QString kColumns = QStringLiteral("id, request_id, key_id, url, event, status, attempts, "
                                        "next_attempt_at, created_at, delivered_at,"
                                        " last_status, last_error");

// Characters of an HTTP header name (RFC 9110 token).
bool isToken(const QByteArray &name)
{
    if (name.isEmpty())
        return false;
    for (const char c : name) {
        if (!(std::isalnum(uchar(c)) || std::strchr("!#$%&'*+-.^_`|~", c)))
            return false;
    }
    return true;
}

// Headers a subscription may not set: they frame the message (HTTP/1.1 hop by hop) or
// are the queue's own. (Authorization is replaced only when `auth` gives one.)
bool reservedHeader(const QByteArray &lowerName)
{
    static const QList<QByteArray> names = {"host",
                                            "content-length",
                                            "transfer-encoding",
                                            "connection",
                                            "keep-alive",
                                            "te",
                                            "trailer",
                                            "upgrade",
                                            "expect",
                                            "proxy-connection",
                                            "x-svc-event",
                                            "x-firecrawl-signature",
                                            "x-svc-delivery-id",
                                            "x-svc-delivery-attempt",
                                            "x-svc-timestamp",
                                            "x-svc-signature"};
    return names.contains(lowerName);
}

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

// A keep-alive connection to one origin, serving one attempt at a time.

namespace {
// Idle keep-alive connections are closed before common server keep-alive timeouts
// (5 s for Node.js and Apache), so that a request rarely meets a connection the server is
// just closing.
constexpr int kIdleConnectionMs = 4000;
} // namespace

WebhookQueue::WebhookQueue(Store &store, const Clock &clock, NetworkPolicy &policy,
                           QNetworkAccessManager &, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_clock(clock)
    , m_policy(policy)
    , m_client(kConnectionsPerOrigin, kTimeoutMs, kResponseSnippet, kIdleConnectionMs)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &WebhookQueue::pump);
    m_flush.setSingleShot(true);
    m_flush.setTimerType(Qt::PreciseTimer);
    connect(&m_flush, &QTimer::timeout, this, &WebhookQueue::flush);
    m_release.setSingleShot(true);
    m_release.setInterval(1000);
    connect(&m_release, &QTimer::timeout, this, [this] {
        if (m_inFlight.isEmpty() && m_outcomes.isEmpty())
            releaseStatements();
    });
}

WebhookQueue::~WebhookQueue()
{
    stop();
    releaseStatements();
}

void WebhookQueue::start()
{
    m_running = true;
    m_backlog = true; // whatever earlier processes left is due
    // Attempts cut off by an earlier process's end were never acknowledged: they are
    // due again now (their next_attempt_at was set before they went out).
    pump();
}

void WebhookQueue::stop()
{
    m_running = false;
    m_timer.stop();
    flush();
    releaseStatements();
}

Sql &WebhookQueue::statement(Statement which)
{
    static const std::array<QString, StatementCount> text = {
        QStringLiteral("INSERT INTO webhook_deliveries (id, request_id, key_id, url, event,"
                       " payload, config, status, attempts, next_attempt_at, created_at)"
                       " VALUES (:id, :r, :k, :u, :e, :p, :c, 'pending', :a, :next, :n)"),
        QStringLiteral(
            "SELECT id, url, event, payload, config, attempts, key_id FROM webhook_deliveries"
            " WHERE status = 'pending' AND next_attempt_at <= :now ORDER BY"
            " next_attempt_at LIMIT :limit"),
        QStringLiteral("UPDATE webhook_deliveries SET attempts = :a, next_attempt_at = :n"
                       " WHERE id = :id"),
        // Only later ones: what is due now is in flight or was just taken (pump asks
        // only when it had room to spare).
        QStringLiteral("SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE status ="
                       " 'pending' AND next_attempt_at > :now"),
        QStringLiteral("INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code,"
                       " latency_ms, response, error, request_headers, response_headers)"
                       " VALUES (:d, :a, :at, :s, :l, :r, :e, :qh, :rh)"),
        QStringLiteral("UPDATE webhook_deliveries SET status = :st, last_status = :s, last_error"
                       " = :e, delivered_at = :da, next_attempt_at = CASE WHEN :st = 'pending'"
                       " THEN next_attempt_at ELSE NULL END WHERE id = :id"),
    };
    std::unique_ptr<Sql> &slot = m_statements.at(which);
    if (!slot)
        slot = std::make_unique<Sql>(m_store, text.at(which));
    return *slot;
}

// Prepared statements are kept while the queue is busy and dropped a second after it
// went idle, when it stops and after a store error, so that none outlives the store's
// connection.
void WebhookQueue::releaseStatements()
{
    m_release.stop();
    for (std::unique_ptr<Sql> &slot : m_statements)
        slot.reset();
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
                                  const QList<Event> &events, Store::Sync sync)
{
    QStringList ids;
    const qint64 now = m_clock.nowMs();
    // First attempts start at once while there is room and nothing older is waiting: the
    // row is written already marked (attempt 1 taken, due again at the schedule's next
    // step), the same commit-before-send as pump() without its read and its update.
    // Room promised to deliveries whose transaction has not ended yet counts as taken.
    int direct = m_running && !m_backlog ? kMaxInFlight - int(m_inFlight.size()) - m_reserved : 0;
    try {
        m_store.transaction(
            [&] {
                QList<Pending> started;
                bool queued = false;
                for (const WebhookSubscription &s : subscriptions) {
                    QString config; // sealed once per subscription, at its first selected event
                    for (const Event &e : events) {
                        if (!selects(s, e.name))
                            continue;
                        if (config.isEmpty())
                            config = JsonText::from(s.toSealedJson(m_store.secrets()));
                        Pending p;
                        p.id = Ids::make(QStringLiteral("dlv"), 20);
                        p.url = s.url;
                        p.event = e.name;
                        p.config = config;
                        p.keyId = keyId;
                        QJsonObject payload = e.payload;
                        // webhookMetadata of a bridge request comes back in originalRequest.
                        if (!s.metadata.isEmpty() &&
                            payload.contains(QStringLiteral("originalRequest"))) {
                            QJsonObject original =
                                payload.value(QStringLiteral("originalRequest")).toObject();
                            original.insert(QStringLiteral("webhookMetadata"), s.metadata);
                            payload.insert(QStringLiteral("originalRequest"), original);
                        }
                        p.payload = QJsonDocument(payload).toJson(QJsonDocument::Compact);
                        const bool startNow = direct > 0;
                        statement(InsertDelivery)
                            .bind(QStringLiteral(":id"), p.id)
                            .bind(QStringLiteral(":r"), requestId)
                            .bind(QStringLiteral(":k"), keyId)
                            .bind(QStringLiteral(":u"), p.url)
                            .bind(QStringLiteral(":e"), p.event)
                            .bind(QStringLiteral(":p"), p.payload)
                            .bind(QStringLiteral(":c"), config)
                            .bind(QStringLiteral(":a"), startNow ? 1 : 0)
                            .bind(QStringLiteral(":next"), startNow ? now + schedule().at(1) : now)
                            .bind(QStringLiteral(":n"), now)
                            .exec();
                        ids << p.id;
                        if (startNow) {
                            --direct;
                            p.attempt = 1;
                            started.append(p);
                        } else {
                            queued = true;
                        }
                    }
                }
                // Nothing goes out before the transaction that holds the rows has committed:
                // it may be a caller's (a run's final state and its callbacks are one commit),
                // and a delivery sent for rows that were then rolled back would announce an
                // outcome the store does not have.
                m_reserved += int(started.size());
                m_store.onTransactionEnd([this, ids, started, queued, now](bool committed) {
                    m_reserved -= int(started.size());
                    if (committed)
                        release(ids, started, queued, now);
                });
            },
            sync);
    } catch (const StoreError &) {
        releaseStatements();
        throw;
    }
    return ids;
}

void WebhookQueue::release(const QStringList &ids, const QList<Pending> &started, bool queued,
                           qint64 now)
{
    for (const QString &id : ids)
        Q_EMIT deliveryChanged(id);
    for (const Pending &p : started)
        send(p, now);
    if (!started.isEmpty())
        wakeAt(now + schedule().at(1), now);
    if (queued && m_running) {
        m_backlog = true;
        pump();
    }
}

// Arms the timer for a delivery due at `when`, unless it already fires earlier. Due now
// or before: it is in flight, and the pump that follows its outcome looks again.
void WebhookQueue::wakeAt(qint64 when, qint64 now)
{
    if (!m_running || when <= now)
        return;
    const qint64 wait = qMin<qint64>(when - now, 60000);
    if (!m_timer.isActive() || m_timer.remainingTime() > wait)
        m_timer.start(int(wait));
}

void WebhookQueue::scheduleTimer(qint64 now)
{
    if (!m_running)
        return;
    Sql &q = statement(NextDue);
    q.bind(QStringLiteral(":now"), now).exec();
    const QVariant next = q.next() ? q.value(0) : QVariant();
    while (q.next()) { // to the end: the statement is reset and holds no read snapshot
    }
    if (next.isNull()) {
        m_timer.stop();
        if (m_inFlight.isEmpty()) {
            m_release.start(); // unless busy again within a second
            Q_EMIT idle();
        }
        return;
    }
    const qint64 wait = qMax<qint64>(0, next.toLongLong() - now);
    m_timer.start(int(qMin<qint64>(wait, 60000)));
}

void WebhookQueue::pump()
{
    if (!m_running)
        return;
    // Marked attempts go out right after their commit: inside a caller's transaction
    // that commit is not ours to make, so the pump waits for the transaction to end.
    if (m_store.inTransaction()) {
        if (!std::exchange(m_pumpAfterCommit, true)) {
            m_store.onTransactionEnd([this](bool) {
                m_pumpAfterCommit = false;
                pump();
            });
        }
        return;
    }
    const int room = kMaxInFlight - int(m_inFlight.size());
    if (room <= 0) {
        m_backlog = true; // the next flush of outcomes pumps again
        return;
    }
    const qint64 now = m_clock.nowMs();
    QList<Pending> due;
    try {
        Sql &q = statement(SelectDue);
        q.bind(QStringLiteral(":now"), now)
            .bind(QStringLiteral(":limit"), room + int(m_inFlight.size()))
            .exec();
        while (q.next()) { // every row: the statement is reset at the end
            if (due.size() >= room)
                continue;
            Pending p;
            p.id = q.value(0).toString();
            if (m_inFlight.contains(p.id))
                continue;
            p.url = q.value(1).toString();
            p.event = q.value(2).toString();
            p.payload = q.value(3).toByteArray();
            p.config = q.value(4).toString();
            p.attempt = q.value(5).toInt() + 1;
            p.keyId = q.value(6).toString();
            p.manual = m_manual.contains(p.id);
            due.append(p);
        }
        // Room left over: nothing else is due now, and later ones wait for the timer.
        m_backlog = due.size() >= room;
        if (due.isEmpty()) {
            scheduleTimer(now);
            return;
        }
        // Marked, all in one commit, before anything is sent: should the process end
        // mid-attempt, the delivery is due again at the next step of the schedule (or at
        // once for the last one).
        // Sync::Normal: a power cut that undoes a mark sends the attempt again (same
        // delivery id), it loses nothing (docs/security.md, Durability).
        m_store.transaction(
            [&] {
                const QList<qint64> &delays = schedule();
                for (const Pending &p : std::as_const(due)) {
                    const qint64 next =
                        p.attempt < delays.size() ? now + delays.at(p.attempt) : now;
                    statement(MarkAttempt)
                        .bind(QStringLiteral(":a"), p.attempt)
                        .bind(QStringLiteral(":n"), next)
                        .bind(QStringLiteral(":id"), p.id)
                        .exec();
                }
            },
            Store::Sync::Normal);
    } catch (const StoreError &e) {
        qCWarning(lcHooks) << "cannot take the due deliveries, trying again in 1 s:" << e.what();
        releaseStatements();
        m_timer.start(1000);
        return;
    }
    for (const Pending &p : std::as_const(due)) {
        send(p, now);
        if (p.attempt < schedule().size())
            wakeAt(now + schedule().at(p.attempt), now);
    }
    if (!m_backlog) {
        try {
            scheduleTimer(now);
        } catch (const StoreError &e) {
            qCWarning(lcHooks) << "cannot find the next due delivery:" << e.what();
            releaseStatements();
            m_timer.start(1000);
        }
    }
}

std::shared_ptr<const WebhookQueue::Target> WebhookQueue::target(const QString &config)
{
    if (const auto it = m_targets.constFind(config); it != m_targets.cend())
        return *it;
    const QJsonObject sealed = QJsonDocument::fromJson(config.toUtf8()).object();
    const SecretBox &box = m_store.secrets();
    auto t = std::make_shared<Target>();
    // Every sealed value an attempt needs must open. fromSealedJson turns one that does
    // not into an empty string, which would send the delivery unsigned (or without its
    // credentials): the attempt fails instead, with the reason in its log.
    QStringList unopened;
    const auto opens = [&box](const QJsonValue &value) {
        bool ok = false;
        box.unseal(value.toString(), &ok); // an empty basic-auth password is fine
        return ok;
    };
    if (sealed.contains(QStringLiteral("secret")) && !opens(sealed.value(QStringLiteral("secret"))))
        unopened << QStringLiteral("signing secret");
    const QJsonObject auth = sealed.value(QStringLiteral("auth")).toObject();
    for (const QString &field : {QStringLiteral("token"), QStringLiteral("password")}) {
        if (auth.contains(field) && !opens(auth.value(field)))
            unopened << QStringLiteral("auth %1").arg(field);
    }
    if (sealed.contains(QStringLiteral("sealedHeaders")) &&
        !opens(sealed.value(QStringLiteral("sealedHeaders"))))
        unopened << QStringLiteral("headers");
    if (!unopened.isEmpty()) {
        t->error = QStringLiteral("not sent: the subscription's %1 cannot be unsealed (the "
                                  "stored value is damaged or was sealed with another "
                                  "secrets.key)")
                       .arg(unopened.join(QStringLiteral(" and ")));
        return t; // not kept: the next attempt looks again
    }
    const WebhookSubscription sub =
        WebhookSubscription::fromSealedJson(QString(), {}, sealed, m_store.secrets());
    t->headers = {{"Content-Type", "application/json"},
                  {"User-Agent", QByteArrayLiteral("Pilothouse-Webhooks/") +
                                     QByteArrayLiteral(PILOTHOUSE_VERSION)}};
    for (auto it = sub.headers.begin(); it != sub.headers.end(); ++it) {
        const QByteArray name = it.key().toUtf8();
        const QByteArray value = it.value().toString().toUtf8();
        const QByteArray lower = name.toLower();
        if (!isToken(name) || value.contains('\r') || value.contains('\n') ||
            value.contains('\0') || reservedHeader(lower)) {
            qCWarning(lcHooks) << "a subscription's header" << it.key()
                               << "is not sent: not a valid or settable header";
            continue;
        }
        // A subscription's Content-Type or User-Agent replaces the default.
        t->headers.removeIf([&lower](const auto &h) { return h.first.toLower() == lower; });
        t->headers.append({name, value});
    }
    const QString authType = sub.auth.value(QStringLiteral("type")).toString();
    QByteArray authorization;
    if (authType == QLatin1String("bearer")) {
        authorization = "Bearer " + sub.auth.value(QStringLiteral("token")).toString().toUtf8();
    } else if (authType == QLatin1String("basic")) {
        const QByteArray user = sub.auth.value(QStringLiteral("username")).toString().toUtf8();
        const QByteArray pass = sub.auth.value(QStringLiteral("password")).toString().toUtf8();
        authorization = "Basic " + (user + ':' + pass).toBase64();
    }
    if (!authorization.isEmpty()) {
        if (authorization.contains('\r') || authorization.contains('\n')) {
            t->error = QStringLiteral("not sent: the subscription's auth token holds a line break");
            return t;
        }
        t->headers.removeIf([](const auto &h) {
            return h.first.compare("authorization", Qt::CaseInsensitive) == 0;
        });
        t->headers.append({"Authorization", authorization});
    }
    t->secret = sub.secret.toUtf8();
    t->firecrawl = sub.signature == WebhookSubscription::Signature::Firecrawl;
    // A delivery's config is sealed once per subscription, so a burst shares one entry;
    // the bound keeps clear secrets of long-gone subscriptions out of memory.
    if (m_targets.size() >= 256)
        m_targets.clear();
    m_targets.insert(config, t);
    return t;
}

void WebhookQueue::send(const Pending &p, qint64 startedAt)
{
    Attempt &a = m_inFlight[p.id];
    a = Attempt();
    a.p = p;
    a.startedAt = startedAt;
    const QUrl url(p.url);
    // The network policy of the delivery's key, checked at every attempt: the scheme and
    // literal hosts now, a name by every address it resolves to.
    const EgressGrant grant = m_policy.grantFor(p.keyId);
    const QString refusal = NetworkPolicy::refusal(url, grant);
    if (!refusal.isEmpty()) {
        finish(p, startedAt, 0, {}, QStringLiteral("the target %1").arg(refusal));
        return;
    }
    const QString id = p.id;
    m_policy.resolver()->lookup(
        url.host(), this, [this, id, url, grant, startedAt](const HostResolver::Answer &answer) {
            const auto it = m_inFlight.find(id);
            if (it == m_inFlight.end() || it->posted || it->answered)
                return;
            const QString problem =
                answer.error.isEmpty() ? NetworkPolicy::addressRefusal(url, answer.addresses, grant)
                                       : answer.error;
            if (!problem.isEmpty()) {
                finish(it->p, startedAt, 0, {}, QStringLiteral("the target %1").arg(problem));
                return;
            }
            sendTo(it->p, startedAt, answer.addresses.first());
        });
}

void WebhookQueue::sendTo(const Pending &p, qint64 startedAt, const QHostAddress &address)
{
    Attempt &a = m_inFlight[p.id];
    const QUrl url(p.url);
    a.how = target(p.config);
    if (!a.how->error.isEmpty()) {
        qCWarning(lcHooks).noquote() << p.id << "attempt" << p.attempt << a.how->error;
        finish(p, startedAt, 0, {}, a.how->error);
        return;
    }
    const bool tls = url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
#if !QT_CONFIG(ssl)
    if (tls) {
        finish(p, startedAt, 0, {}, QStringLiteral("this build has no TLS support"));
        return;
    }
#endif
    const quint16 port = quint16(url.port(tls ? 443 : 80));
    const QString host = url.host(QUrl::FullyEncoded);
    a.host = (host.contains(QLatin1Char(':')) ? '[' + host.toLatin1() + ']' : host.toLatin1());
    if (url.port() != -1)
        a.host += ':' + QByteArray::number(port);
    a.target = url.path(QUrl::FullyEncoded).toLatin1();
    if (a.target.isEmpty())
        a.target = "/";
    if (url.hasQuery())
        a.target += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    PostClient::Endpoint to;
    to.host = host;
    to.port = port;
    to.tls = tls;
    const HostResolver::Endpoint dial = m_policy.resolver()->dialTarget(address, port);
    to.address = dial.address;
    to.dialPort = dial.port;
    a.posted = true;
    const QString id = p.id;
    m_client.send(
        to,
        [this, id] {
            const auto it = m_inFlight.find(id);
            return it == m_inFlight.end() ? QByteArray() : request(*it);
        },
        [this, id](const PostClient::Reply &reply) {
            const auto it = m_inFlight.find(id);
            if (it == m_inFlight.end() || it->answered)
                return;
            finish(it->p, it->startedAt, reply.status, reply.snippet, reply.error, reply.headers);
        });
}

// The request an attempt sends, built when it leaves. Its header lines are kept for the
// attempt's log with the values of the subscription's own headers (credentials, sealed at
// rest) and Authorization redacted; the signature is a MAC of this body only and stays.
QByteArray WebhookQueue::request(Attempt &a)
{
    const Target &t = *a.how;
    const qint64 timestamp = QDateTime::currentMSecsSinceEpoch();
    QByteArray head = "Host: " + a.host + "\r\n";
    QByteArray logged = head;
    for (const auto &[name, value] : t.headers) {
        head += name + ": " + value + "\r\n";
        const bool plain = name == "Content-Type" || name == "User-Agent";
        logged +=
            name + ": " + (plain ? value : QByteArray(kRedacted.data(), kRedacted.size())) + "\r\n";
    }
    QByteArray own = "X-Svc-Event: " + a.p.event.toUtf8() +
                     "\r\nX-Svc-Delivery-Id: " + a.p.id.toUtf8() +
                     "\r\nX-Svc-Delivery-Attempt: " + QByteArray::number(a.p.attempt) +
                     "\r\nX-Svc-Timestamp: " + QByteArray::number(timestamp) + "\r\n";
    if (!t.secret.isEmpty() && t.firecrawl)
        own += "X-Firecrawl-Signature: sha256=" +
               QMessageAuthenticationCode::hash(a.p.payload, t.secret, QCryptographicHash::Sha256)
                   .toHex() +
               "\r\n";
    else if (!t.secret.isEmpty())
        own += "X-Svc-Signature: " + sign(t.secret, timestamp, a.p.payload) + "\r\n";
    own += "Content-Length: " + QByteArray::number(a.p.payload.size()) + "\r\n";
    head += own;
    logged += own;
    a.sentHead = logged.replace("\r\n", "\n");
    QByteArray request;
    request.reserve(32 + a.target.size() + head.size() + a.p.payload.size());
    request += "POST " + a.target + " HTTP/1.1\r\n" + head + "\r\n" + a.p.payload;
    return request;
}

void WebhookQueue::finish(const Pending &p, qint64 startedAt, int status, const QByteArray &reply,
                          const QString &error, const QByteArray &replyHead)
{
    // Still in flight until flush() has committed the outcome, so that no pump takes
    // the delivery again meanwhile.
    QByteArray requestHead;
    if (const auto it = m_inFlight.find(p.id); it != m_inFlight.end()) {
        it->answered = true;
        requestHead = it->sentHead;
    }
    m_outcomes.append(
        {p, startedAt, m_clock.nowMs(), status, reply, error, requestHead, replyHead});
    // One transaction for the outcomes of a few milliseconds: a commit costs as much as
    // a dozen rows, so writing each alone would halve the throughput.
    if (m_outcomes.size() >= kFlushBatch)
        m_flush.start(0);
    else if (!m_flush.isActive())
        m_flush.start(kFlushWindowMs);
}

void WebhookQueue::flush()
{
    m_flush.stop();
    if (m_outcomes.isEmpty())
        return;
    const QList<Outcome> batch = std::exchange(m_outcomes, {});
    struct Result
    {
        QString next;
        QString lastError;
        bool ok = false;
        bool again = false; // redelivery asked for while this attempt was out
    };
    QList<Result> results;
    results.reserve(batch.size());
    for (const Outcome &o : batch) {
        Result r;
        r.ok = o.status >= 200 && o.status < 300;
        r.again = m_again.remove(o.p.id);
        const bool exhausted = o.p.attempt >= schedule().size();
        // A refused target (policy) is not retried: it would be refused again.
        const bool permanent = o.status == 0 && o.error.startsWith(QLatin1String("the target"));
        if (r.again) // logged as it went; redeliver() made it due now for the manual attempt
            r.next = QStringLiteral("pending");
        else if (r.ok)
            r.next = QStringLiteral("delivered");
        else if (exhausted || o.p.manual || permanent)
            r.next = QStringLiteral("failed");
        else
            r.next = QStringLiteral("pending");
        r.lastError = r.ok
                          ? QString()
                          : (o.error.isEmpty() ? QStringLiteral("HTTP %1").arg(o.status) : o.error);
        results.append(r);
    }
    const QVariant nullText(QMetaType::fromType<QString>());
    const QVariant nullNumber(QMetaType::fromType<int>());
    try {
        // Sync::Normal: an outcome a power cut undoes is an attempt sent again.
        m_store.transaction(
            [&] {
                for (qsizetype i = 0; i < batch.size(); ++i) {
                    const Outcome &o = batch.at(i);
                    const Result &r = results.at(i);
                    const QVariant status = o.status > 0 ? QVariant(o.status) : nullNumber;
                    const QVariant error = r.lastError.isEmpty() ? nullText : QVariant(r.lastError);
                    statement(InsertAttempt)
                        .bind(QStringLiteral(":d"), o.p.id)
                        .bind(QStringLiteral(":a"), o.p.attempt)
                        .bind(QStringLiteral(":at"), o.startedAt)
                        .bind(QStringLiteral(":s"), status)
                        .bind(QStringLiteral(":l"), o.finishedAt - o.startedAt)
                        .bind(QStringLiteral(":r"), QString::fromUtf8(o.reply))
                        .bind(QStringLiteral(":e"), error)
                        .bind(QStringLiteral(":qh"),
                              o.requestHead.isEmpty() ? nullText
                                                      : QVariant(QString::fromUtf8(o.requestHead)))
                        .bind(QStringLiteral(":rh"), o.replyHead.isEmpty()
                                                         ? nullText
                                                         : QVariant(QString::fromUtf8(o.replyHead)))
                        .exec();
                    statement(RecordOutcome)
                        .bind(QStringLiteral(":st"), r.next)
                        .bind(QStringLiteral(":s"), status)
                        .bind(QStringLiteral(":e"), error)
                        .bind(QStringLiteral(":da"),
                              r.ok ? QVariant(o.finishedAt) : JsonText::nullableInt(std::nullopt))
                        .bind(QStringLiteral(":id"), o.p.id)
                        .exec();
                }
            },
            Store::Sync::Normal);
    } catch (const StoreError &e) {
        // The deliveries stay pending at the next step of their schedule: sent again.
        qCCritical(lcHooks) << "cannot record the outcome of" << batch.size()
                            << "attempts; they will be sent again:" << e.what();
        releaseStatements();
        m_backlog = true; // a last attempt is due again at once: the pump looks
    }
    for (qsizetype i = 0; i < batch.size(); ++i) {
        const Outcome &o = batch.at(i);
        m_inFlight.remove(o.p.id);
        if (results.at(i).again)
            m_backlog = true; // due now: the pump below starts the manual attempt
        else
            m_manual.remove(o.p.id);
        qCDebug(lcHooks) << o.p.id << "attempt" << o.p.attempt << o.status << results.at(i).next
                         << results.at(i).lastError;
        Q_EMIT deliveryChanged(o.p.id);
    }
    // Room was freed: it matters only if due deliveries are waiting for it. Retries are
    // on the timer (armed when their attempts were marked).
    if (m_backlog) {
        pump();
    } else if (m_inFlight.isEmpty() && m_running) {
        try {
            scheduleTimer(m_clock.nowMs()); // nothing out: idle() if nothing is pending
        } catch (const StoreError &e) {
            qCWarning(lcHooks) << "cannot find the next due delivery:" << e.what();
            releaseStatements();
        }
    }
}

bool WebhookQueue::redeliver(const QString &id)
{
    flush(); // an outcome already in must not overwrite this request
    Sql q(m_store,
          QStringLiteral("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = :n"
                         " WHERE id = :id"));
    q.bind(QStringLiteral(":n"), m_clock.nowMs()).bind(QStringLiteral(":id"), id).exec();
    if (q.rowsAffected() == 0)
        return false;
    m_manual.insert(id);
    // An attempt still out keeps it in flight: the manual one follows its outcome.
    if (m_inFlight.contains(id))
        m_again.insert(id);
    Q_EMIT deliveryChanged(id);
    m_backlog = true;
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
              QStringLiteral("SELECT attempt, at, status_code, latency_ms, response, error,"
                             " request_headers, response_headers FROM webhook_attempts"
                             " WHERE delivery_id = :id ORDER BY id"));
        a.bind(QStringLiteral(":id"), id).exec();
        while (a.next()) {
            AttemptRecord r;
            r.attempt = a.value(0).toInt();
            r.at = a.value(1).toLongLong();
            r.statusCode = a.value(2).toInt();
            r.latencyMs = a.value(3).toLongLong();
            r.response = a.value(4).toString();
            r.error = a.value(5).toString();
            r.requestHeaders = a.value(6).toString();
            r.responseHeaders = a.value(7).toString();
            d.attemptLog.append(r);
        }
        Sql p(m_store, QStringLiteral("SELECT payload FROM webhook_deliveries WHERE id = :id"));
        p.bind(QStringLiteral(":id"), id).exec();
        if (p.next())
            d.payload = p.value(0).toByteArray();
    }
    return d;
}

int WebhookQueue::pendingCount(const QString &keyId, const QString &event) const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending'"
                                  " AND key_id IS :k AND event = :e"));
    q.bind(QStringLiteral(":k"), keyId).bind(QStringLiteral(":e"), event).exec();
    return q.next() ? q.value(0).toInt() : 0;
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
    return SqlRows::all(q, fromRow);
}

} // namespace ph::webhooks
