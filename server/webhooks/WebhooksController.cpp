#include "WebhooksController.h"

#include "WebhookEvents.h"
#include "WebhookQueue.h"

#include "core/CreditLedger.h"
#include "core/DomainError.h"
#include "core/HeaderText.h"
#include "core/JsonFields.h"
#include "core/Settings.h"
#include "core/Store.h"
#include "http/Exchange.h"
#include "net/NetworkPolicy.h"

#include <QJsonArray>
#include <QUrl>

namespace ph::webhooks {

using http::AuthPolicy;
using http::Exchange;
using http::Route;

namespace {
// A key over its pending-tests cap waits for deliveries to go out (thousands a second).
constexpr int kTestRetryAfterSeconds = 5;

QString visibleKey(const Exchange &ex)
{
    return ex.request().principal.owner ? QString() : ex.request().principal.keyId;
}
} // namespace

WebhooksController::WebhooksController(Store &store, Settings &settings, WebhookQueue &queue,
                                       const Clock &clock, NetworkPolicy &policy, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_settings(settings)
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
        throw DomainError::invalidField(QStringLiteral("status"),
                                        QStringLiteral("must be pending, delivered or failed"));
    bool ok = true;
    const QString limitText = ex.request().queryValue(QStringLiteral("limit"));
    const int limit = limitText.isEmpty() ? 50 : limitText.toInt(&ok);
    if (!ok || limit < 1 || limit > 500)
        throw DomainError::invalidField(QStringLiteral("limit"),
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
        throw DomainError::notFound(
            QStringLiteral("no delivery %1").arg(ex.request().param(QStringLiteral("id"))));
    ex.respondJson(200, d->toJson(true));
}

void WebhooksController::redeliver(Exchange &ex)
{
    const QString id = ex.request().param(QStringLiteral("id"));
    const auto d = m_queue.find(id, false);
    const QString key = visibleKey(ex);
    if (!d || (!key.isEmpty() && d->keyId != key))
        throw DomainError::notFound(QStringLiteral("no delivery %1").arg(id));
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
        throw DomainError::invalidField(QStringLiteral("url"),
                                        QStringLiteral("must be an absolute http(s) URL"));
    if (!NetworkPolicy::literalRefusal(url.scheme(), url.host(), url.port(),
                                       m_policy.grantFor(ex.request().principal.keyId))
             .isEmpty())
        throw DomainError(DomainError::Kind::Invalid, QStringLiteral("PRIVATE_TARGET"),
                          QStringLiteral("url points at a private address, which this key may "
                                         "not reach"),
                          QStringLiteral("url"));
    // The rule of real subscriptions (webhookUrl, webhooks[].url): a test of a target no
    // subscription could use would prove nothing.
    if (const QString problem = NetworkPolicy::callbackSchemeProblem(url); !problem.isEmpty())
        throw DomainError::invalidField(QStringLiteral("url"), problem);
    const int count = int(body.optionalInt(QStringLiteral("count"), 1,
                                           m_settings.intValue(SettingKeys::webhooksMaxTestCount))
                              .value_or(1));
    WebhookSubscription s;
    s.url = url.toString(QUrl::FullyEncoded);
    s.secret = body.optionalString(QStringLiteral("secret")).value_or(QString());
    s.events = {QStringLiteral("webhook.test")};
    // What goes into the deliveries' request headers must fit in one header line.
    if (const auto headers = body.optionalObject(QStringLiteral("headers"))) {
        const QJsonObject &o = headers->object();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString field = headers->path(it.key());
            if (!HeaderText::isToken(it.key()))
                throw DomainError::invalidField(field,
                                                QStringLiteral("is not a valid header name"));
            if (!it.value().isString())
                throw DomainError::invalidField(field, QStringLiteral("must be a string"));
            if (const QString problem = HeaderText::valueProblem(it.value().toString());
                !problem.isEmpty())
                throw DomainError::invalidField(field, problem);
        }
        s.headers = o;
    }
    if (const auto auth = body.optionalObject(QStringLiteral("auth"))) {
        const QJsonObject &o = auth->object();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (const QString problem = HeaderText::valueProblem(it.value().toString());
                it.value().isString() && !problem.isEmpty())
                throw DomainError::invalidField(auth->path(it.key()), problem);
        }
        s.auth = o;
    }

    // Counted against the key like other work: credits, and a cap on what it has pending.
    const QString keyId = ex.request().principal.keyId;
    if (!m_store.credits().canSpend(keyId))
        throw DomainError::creditsExhausted();
    const QString event = QStringLiteral("webhook.test");
    const int cap = m_settings.intValue(SettingKeys::webhooksMaxPendingTestsPerKey);
    const int pending = m_queue.pendingCount(keyId, event);
    if (pending + count > cap)
        throw DomainError::keyBusy(
            QStringLiteral("test deliveries pending (asking for %1 more)").arg(count), pending, cap,
            SettingKeys::webhooksMaxPendingTestsPerKey, kTestRetryAfterSeconds);

    QList<Event> events;
    events.reserve(count);
    for (int i = 0; i < count; ++i)
        events.append(testEvent(m_clock, i));
    // Test deliveries announce no outcome: their commit is Normal (a power cut may lose
    // them; nothing a run owes), which keeps a burst of them off the disk's fsync.
    const QStringList ids =
        m_queue.enqueue(ex.request().id, keyId, {s}, events, Store::Sync::Normal);
    Usage usage;
    usage.testDeliveries = ids.size();
    const Charge charge =
        m_store.credits().charge(keyId, ex.request().id, QStringLiteral("/webhooks/test"), usage);
    ex.respondJson(202,
                   {{QStringLiteral("count"), int(ids.size())},
                    {QStringLiteral("deliveries"), QJsonArray::fromStringList(ids.mid(0, 100))},
                    {QStringLiteral("usage"), charge.toJson(usage)}});
}

} // namespace ph::webhooks
