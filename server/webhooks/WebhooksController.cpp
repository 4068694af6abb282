#include "WebhooksController.h"

#include "WebhookEvents.h"
#include "WebhookQueue.h"

#include "browser/NetworkPolicy.h"
#include "http/ApiError.h"
#include "http/Exchange.h"
#include "http/JsonFields.h"

#include <QJsonArray>
#include <QUrl>

namespace ph::webhooks {

using http::ApiError;
using http::AuthPolicy;
using http::Exchange;
using http::JsonFields;
using http::Route;

namespace {
QString visibleKey(const Exchange &ex)
{
    return ex.request().principal.owner ? QString() : ex.request().principal.keyId;
}
} // namespace

WebhooksController::WebhooksController(WebhookQueue &queue, const Clock &clock,
                                       NetworkPolicy &policy, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
    , m_clock(clock)
    , m_policy(policy)
{}

QList<Route> WebhooksController::routes()
{
    using C = WebhooksController;
    return {
        Route::to("GET", QStringLiteral("/webhooks/deliveries"), AuthPolicy::ApiKey, this,
                  &C::list),
        Route::to("GET", QStringLiteral("/webhooks/deliveries/{id}"), AuthPolicy::ApiKey, this,
                  &C::get),
        Route::to("POST", QStringLiteral("/webhooks/deliveries/{id}/redeliver"), AuthPolicy::ApiKey,
                  this, &C::redeliver),
        Route::to("POST", QStringLiteral("/webhooks/deliveries/redeliver-failed"),
                  AuthPolicy::ApiKey, this, &C::redeliverFailed),
        Route::to("POST", QStringLiteral("/webhooks/test"), AuthPolicy::ApiKey, this, &C::test),
    };
}

void WebhooksController::list(Exchange &ex)
{
    const QString status = ex.request().queryValue(QStringLiteral("status"));
    if (!status.isEmpty() && !QStringList{QStringLiteral("pending"), QStringLiteral("delivered"),
                                          QStringLiteral("failed")}
                                  .contains(status))
        throw ApiError::invalidField(QStringLiteral("status"),
                                     QStringLiteral("must be pending, delivered or failed"));
    bool ok = true;
    const QString limitText = ex.request().queryValue(QStringLiteral("limit"));
    const int limit = limitText.isEmpty() ? 50 : limitText.toInt(&ok);
    if (!ok || limit < 1 || limit > 500)
        throw ApiError::invalidField(QStringLiteral("limit"),
                                     QStringLiteral("must be a number from 1 to 500"));
    const auto rows = m_queue.list(visibleKey(ex), status, limit,
                                   ex.request().queryValue(QStringLiteral("before")));
    QJsonArray list;
    for (const DeliveryRecord &d : rows)
        list.append(d.toJson(false));
    QJsonObject body{{QStringLiteral("deliveries"), list}};
    body.insert(QStringLiteral("next"),
                rows.size() == limit ? QJsonValue(rows.last().id) : QJsonValue());
    ex.respondJson(200, body);
}

void WebhooksController::get(Exchange &ex)
{
    const auto d = m_queue.find(ex.request().param(QStringLiteral("id")), true);
    const QString key = visibleKey(ex);
    if (!d || (!key.isEmpty() && d->keyId != key))
        throw ApiError::notFound(
            QStringLiteral("no delivery %1").arg(ex.request().param(QStringLiteral("id"))));
    ex.respondJson(200, d->toJson(true));
}

void WebhooksController::redeliver(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const auto d = m_queue.find(id, false);
    const QString key = visibleKey(ex);
    if (!d || (!key.isEmpty() && d->keyId != key))
        throw ApiError::notFound(QStringLiteral("no delivery %1").arg(id));
    m_queue.redeliver(id);
    ex.respondJson(202, m_queue.find(id, true)->toJson(true));
}

void WebhooksController::redeliverFailed(Exchange &ex)
{
    ex.respondJson(202,
                   {{QStringLiteral("redelivering"), m_queue.redeliverFailed(visibleKey(ex))}});
}

void WebhooksController::test(Exchange &ex)
{
    const JsonFields body(ex.request().jsonObject());
    const QString raw = body.requiredString(QStringLiteral("url"));
    const QUrl url(raw);
    if (!url.isValid() || !NetworkPolicy::isBrowsableScheme(url) || url.host().isEmpty())
        throw ApiError::invalidField(QStringLiteral("url"),
                                     QStringLiteral("must be an absolute http(s) URL"));
    if (!m_policy.allowPrivateTargets() && NetworkPolicy::isPrivateHostLiteral(url.host()))
        throw ApiError(
            400, QStringLiteral("PRIVATE_TARGET"),
            QStringLiteral(
                "url points at a private address and network.allowPrivateTargets is off"),
            QStringLiteral("url"));
    // The rule of real subscriptions (webhookUrl, webhooks[].url): a test of a target no
    // subscription could use would prove nothing.
    if (const QString problem = NetworkPolicy::callbackSchemeProblem(url); !problem.isEmpty())
        throw ApiError::invalidField(QStringLiteral("url"), problem);
    const int count = int(body.optionalInt(QStringLiteral("count"), 1, 10000).value_or(1));
    WebhookSubscription s;
    s.url = url.toString(QUrl::FullyEncoded);
    s.secret = body.optionalString(QStringLiteral("secret")).value_or(QString());
    s.events = {QStringLiteral("webhook.test")};
    if (const auto headers = body.optionalObject(QStringLiteral("headers")))
        s.headers = headers->object();
    if (const auto auth = body.optionalObject(QStringLiteral("auth")))
        s.auth = auth->object();
    QList<Event> events;
    events.reserve(count);
    for (int i = 0; i < count; ++i)
        events.append(testEvent(m_clock, i));
    // Test deliveries announce no outcome: their commit is Normal (a power cut may lose
    // them; nothing a run owes), which keeps a burst of them off the disk's fsync.
    const QStringList ids = m_queue.enqueue(ex.request().id, ex.request().principal.keyId, {s},
                                            events, Store::Sync::Normal);
    ex.respondJson(202,
                   {{QStringLiteral("count"), int(ids.size())},
                    {QStringLiteral("deliveries"), QJsonArray::fromStringList(ids.mid(0, 100))}});
}

} // namespace ph::webhooks
