#pragma once

#include <QList>

#include <memory>

class QNetworkAccessManager;

namespace ph {
class Clock;
class NetworkPolicy;
class Settings;
class Store;
namespace http {
class Controller;
}
} // namespace ph

namespace ph::webhooks {

class WebhookQueue;
class WebhooksController;

// The webhooks area as one piece for Service: the delivery queue every area sends its
// events through, and the deliveries API over it.
class WebhooksArea
{
public:
    WebhooksArea(Store &store, Settings &settings, const Clock &clock, NetworkPolicy &policy,
                 QNetworkAccessManager &network);
    ~WebhooksArea();

    WebhookQueue &queue() { return *m_queue; }
    QList<http::Controller *> controllers();

private:
    std::unique_ptr<WebhookQueue> m_queue;
    std::unique_ptr<WebhooksController> m_controller;
};

} // namespace ph::webhooks
