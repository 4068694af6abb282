#include "RequestLog.h"

#include "Clock.h"
#include "SecretBox.h"
#include "Store.h"

#include "core/JsonText.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ph {

namespace {
// Auth fields that are credentials: sealed at rest, never returned by reads.
const QStringList kAuthSecrets = {QStringLiteral("token"), QStringLiteral("password")};
} // namespace

// A fixed mask: it tells that a value was there, not how long it was.
const QString WebhookSubscription::kMask = QStringLiteral("\u2022\u2022\u2022\u2022\u2022\u2022");

QJsonObject WebhookSubscription::toSealedJson(const SecretBox &box) const
{
    QJsonObject sealedAuth = auth;
    for (const auto &field : kAuthSecrets) {
        if (sealedAuth.contains(field))
            sealedAuth.insert(field, box.seal(sealedAuth.value(field).toString()));
    }
    QJsonObject config{{QStringLiteral("auth"), sealedAuth},
                       {QStringLiteral("metadata"), metadata}};
    if (!headers.isEmpty())
        config.insert(QStringLiteral("sealedHeaders"), box.seal(JsonText::from(headers)));
    if (!secret.isEmpty())
        config.insert(QStringLiteral("secret"), box.seal(secret));
    if (signature == Signature::Firecrawl)
        config.insert(QStringLiteral("signature"), QStringLiteral("firecrawl"));
    return config;
}

QJsonObject WebhookSubscription::sealHeadersOf(const QJsonObject &config, const SecretBox &box)
{
    if (!config.contains(QStringLiteral("headers")))
        return config;
    QJsonObject out = config;
    const QJsonObject clear = out.take(QStringLiteral("headers")).toObject();
    if (!clear.isEmpty())
        out.insert(QStringLiteral("sealedHeaders"), box.seal(JsonText::from(clear)));
    return out;
}

QJsonObject WebhookSubscription::redactedRequest(const QJsonObject &request)
{
    QJsonObject out = request;
    out.remove(QStringLiteral("webhookSecret"));
    if (!out.value(QStringLiteral("webhooks")).isArray())
        return out;
    QJsonArray hooks;
    for (const auto &h : out.value(QStringLiteral("webhooks")).toArray()) {
        if (!h.isObject()) {
            hooks.append(h);
            continue;
        }
        QJsonObject o = h.toObject();
        o.remove(QStringLiteral("secret"));
        o.remove(QStringLiteral("auth"));
        if (o.value(QStringLiteral("headers")).isObject()) {
            QJsonObject masked = o.value(QStringLiteral("headers")).toObject();
            for (auto it = masked.begin(); it != masked.end(); ++it)
                it.value() = kMask;
            o.insert(QStringLiteral("headers"), masked);
        }
        hooks.append(o);
    }
    out.insert(QStringLiteral("webhooks"), hooks);
    return out;
}

WebhookSubscription WebhookSubscription::fromSealedJson(const QString &url,
                                                        const QStringList &events,
                                                        const QJsonObject &config,
                                                        const SecretBox &box)
{
    WebhookSubscription s;
    s.url = url;
    s.events = events;
    s.auth = config.value(QStringLiteral("auth")).toObject();
    for (const auto &field : kAuthSecrets) {
        if (s.auth.contains(field))
            s.auth.insert(field, box.unseal(s.auth.value(field).toString()));
    }
    if (config.contains(QStringLiteral("sealedHeaders")))
        s.headers =
            JsonText::object(box.unseal(config.value(QStringLiteral("sealedHeaders")).toString()));
    else // an older build's config, before migration 0022
        s.headers = config.value(QStringLiteral("headers")).toObject();
    s.metadata = config.value(QStringLiteral("metadata")).toObject();
    if (config.contains(QStringLiteral("secret")))
        s.secret = box.unseal(config.value(QStringLiteral("secret")).toString());
    if (config.value(QStringLiteral("signature")).toString() == QLatin1String("firecrawl"))
        s.signature = Signature::Firecrawl;
    return s;
}

RequestLog::RequestLog(Store &store)
    : m_store(store)
{}

void RequestLog::begin(const QString &requestId, const QString &keyId, const QString &endpoint)
{
    Sql(m_store,
        QStringLiteral("INSERT INTO api_requests (id, key_id, endpoint, started_at, status)"
                       " VALUES (:id, :k, :e, :t, 'executing')"))
        .bind(QStringLiteral(":id"), requestId)
        .bind(QStringLiteral(":k"),
              keyId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(keyId))
        .bind(QStringLiteral(":e"), endpoint)
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
    m_store.notifyChanged(QStringLiteral("api_requests"), requestId);
    Q_EMIT requestChanged(requestId);
}

void RequestLog::finish(const QString &requestId, const QString &status, const QJsonObject &summary)
{
    Sql(m_store, QStringLiteral("UPDATE api_requests SET finished_at = :t, status = :s,"
                                " summary = :sum WHERE id = :id"))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .bind(QStringLiteral(":s"), status)
        .bind(QStringLiteral(":sum"), JsonText::from(summary))
        .bind(QStringLiteral(":id"), requestId)
        .exec();
    m_store.notifyChanged(QStringLiteral("api_requests"), requestId);
    Q_EMIT requestChanged(requestId);
}

std::optional<RequestRecord> RequestLog::find(const QString &requestId) const
{
    Sql q(m_store, QStringLiteral("SELECT id, key_id, endpoint, started_at, finished_at, status,"
                                  " summary FROM api_requests WHERE id = :id"));
    q.bind(QStringLiteral(":id"), requestId).exec();
    if (!q.next())
        return std::nullopt;
    RequestRecord r;
    r.id = q.value(0).toString();
    r.keyId = q.value(1).toString();
    r.endpoint = q.value(2).toString();
    r.startedAt = q.value(3).toLongLong();
    if (!q.value(4).isNull())
        r.finishedAt = q.value(4).toLongLong();
    r.status = q.value(5).toString();
    r.summary = JsonText::object(q.value(6).toString());
    return r;
}

QList<RequestRecord> RequestLog::unfinished() const
{
    Sql q(m_store, QStringLiteral("SELECT id, key_id, endpoint, started_at FROM api_requests"
                                  " WHERE status = 'executing' ORDER BY started_at"));
    q.exec();
    QList<RequestRecord> out;
    while (q.next()) {
        RequestRecord r;
        r.id = q.value(0).toString();
        r.keyId = q.value(1).toString();
        r.endpoint = q.value(2).toString();
        r.startedAt = q.value(3).toLongLong();
        r.status = QStringLiteral("executing");
        out.append(r);
    }
    return out;
}

void RequestLog::addSubscriptions(const QString &requestId, const QList<WebhookSubscription> &subs)
{
    if (subs.isEmpty())
        return;
    const SecretBox &box = m_store.secrets();
    m_store.transaction([&] {
        for (const auto &s : subs) {
            const QJsonObject config = s.toSealedJson(box);
            Sql(m_store,
                QStringLiteral("INSERT INTO webhook_subscriptions (request_id, url, events,"
                               " config, created_at) VALUES (:r, :u, :e, :c, :t)"))
                .bind(QStringLiteral(":r"), requestId)
                .bind(QStringLiteral(":u"), s.url)
                .bind(QStringLiteral(":e"),
                      s.events.isEmpty() ? QStringLiteral("") : s.events.join(QLatin1Char(',')))
                .bind(QStringLiteral(":c"), JsonText::from(config))
                .bind(QStringLiteral(":t"), m_store.clock().nowMs())
                .exec();
        }
    });
}

QList<WebhookSubscription> RequestLog::subscriptions(const QString &requestId) const
{
    const SecretBox &box = m_store.secrets();
    Sql q(m_store, QStringLiteral("SELECT url, events, config FROM webhook_subscriptions"
                                  " WHERE request_id = :r ORDER BY id"));
    q.bind(QStringLiteral(":r"), requestId).exec();
    QList<WebhookSubscription> out;
    while (q.next()) {
        WebhookSubscription s;
        s.url = q.value(0).toString();
        const QString events = q.value(1).toString();
        if (!events.isEmpty())
            s.events = events.split(QLatin1Char(','));
        s = WebhookSubscription::fromSealedJson(s.url, s.events,
                                                JsonText::object(q.value(2).toString()), box);
        out.append(s);
    }
    return out;
}

} // namespace ph
