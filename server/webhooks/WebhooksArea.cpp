#include "WebhooksArea.h"

#include "WebhookQueue.h"
#include "WebhooksController.h"

namespace ph::webhooks {

WebhooksArea::WebhooksArea(Store &store, Settings &settings, const Clock &clock,
                           NetworkPolicy &policy, QNetworkAccessManager &network)
    : m_queue(std::make_unique<WebhookQueue>(store, clock, policy, network))
    , m_controller(std::make_unique<WebhooksController>(store, settings, *m_queue, clock, policy))
{}

WebhooksArea::~WebhooksArea() = default;

QList<http::Controller *> WebhooksArea::controllers()
{
    return {m_controller.get()};
}

} // namespace ph::webhooks
