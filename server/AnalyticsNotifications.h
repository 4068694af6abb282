#pragma once

#include <functional>

#include <QString>

namespace ph {
class Store;
namespace sites {
class AnalyticsRepository;
}
namespace webhooks {
class WebhookQueue;
}

// Sends a site owner's analytics notification webhooks (upsertAnalyticsNotificationSettings)
// through the webhook queue: signed with the subscription's secret, retried on the
// published schedule, logged with the other deliveries. docs/api/sites.md lists the
// events: interaction.completed, review.created, interview.completed, score.changed,
// goal.reached, conversion.recorded.
class AnalyticsNotifications
{
public:
    // `ownerKeyId` names the key the deliveries are made for (the workspace owner's):
    // its network grant applies to the receivers.
    AnalyticsNotifications(Store &store, sites::AnalyticsRepository &analytics,
                           webhooks::WebhookQueue &queue, std::function<QString()> ownerKeyId);

private:
    Store &m_store;
    sites::AnalyticsRepository &m_analytics;
    webhooks::WebhookQueue &m_queue;
    std::function<QString()> m_ownerKeyId;
};

} // namespace ph
