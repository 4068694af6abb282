#include "ScrapeController.h"

#include "ScrapeService.h"
#include "WebhookOptions.h"

#include "core/JsonFields.h"
#include "http/Exchange.h"
#include "net/NetworkPolicy.h"

#include <QPointer>

namespace ph::cloud {

using http::Exchange;

ScrapeController::ScrapeController(ScrapeService &service, NetworkPolicy &policy, QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_policy(policy)
{}

QList<http::Route> ScrapeController::routes()
{
    return {http::Route::to("POST", QStringLiteral("/scrape"), http::AuthPolicy::ApiKey, this,
                            &ScrapeController::scrape)
                .requiring(QStringLiteral("cloudScrape"))};
}

void ScrapeController::scrape(Exchange &exchange)
{
    const QJsonObject params = exchange.request().jsonObject();
    ScrapeCall call;
    call.keyId = exchange.request().principal.keyId;
    call.requestId = exchange.request().id;
    call.endpoint = QStringLiteral("/scrape");
    call.subscriptions = readWebhooks(JsonFields(params), m_policy.grantFor(call.keyId));
    call.params = params;
    call.params.remove(QStringLiteral("webhookSecret"));
    call.params.remove(QStringLiteral("webhooks"));
    QPointer<Exchange> ex(&exchange);
    m_service.start(params, call, &exchange, [ex](const QJsonObject &body) {
        if (ex)
            ex->respondJson(200, body);
    });
}

} // namespace ph::cloud
