#pragma once

#include "http/Route.h"

#include <QObject>

namespace ph {
class Clock;
class NetworkPolicy;
class Settings;
class Store;
} // namespace ph

namespace ph::webhooks {

class WebhookQueue;

// The delivery log and its controls (docs/api/webhooks.md):
//   GET  /webhooks/deliveries                    ?status=&limit=&before=
//   GET  /webhooks/deliveries/{id}               with every attempt
//   POST /webhooks/deliveries/{id}/redeliver     one more attempt, now
//   POST /webhooks/deliveries/redeliver-failed   every failed one
//   POST /webhooks/test                          send test deliveries to a URL
// The owner's key sees every delivery; other keys see their own.
// A test is counted against the key like other work: it needs credits (402 without),
// each delivery is billed (Prices::kMilliPerTestDelivery), and a key may have at most
// webhooks.maxPendingTestsPerKey test deliveries pending (429 BUSY beyond).
class WebhooksController : public QObject, public http::Controller
{
    Q_OBJECT
public:
    WebhooksController(Store &store, Settings &settings, WebhookQueue &queue, const Clock &clock,
                       NetworkPolicy &policy, QObject *parent = nullptr);
    QList<http::Route> routes() override;

private:
    void list(http::Exchange &ex);
    void get(http::Exchange &ex);
    void redeliver(http::Exchange &ex);
    void redeliverFailed(http::Exchange &ex);
    void test(http::Exchange &ex);

    Store &m_store;
    Settings &m_settings;
    WebhookQueue &m_queue;
    const Clock &m_clock;
    NetworkPolicy &m_policy;
};

} // namespace ph::webhooks
