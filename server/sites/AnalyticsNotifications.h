#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

namespace ph {
class Store;
namespace webhooks {
class WebhookQueue;
}
} // namespace ph

namespace ph::sites {

class AnalyticsRepository;
class SiteRepository;

// Sends a site owner's analytics notification webhooks (upsertAnalyticsNotificationSettings)
// through the webhook queue: signed with the subscription's secret, retried on the
// published schedule, logged with the other deliveries. docs/api/sites.md lists the
// events: interaction.completed, review.created, interview.completed, score.changed,
// goal.reached, conversion.recorded, and daily.digest (yesterday's counts, sent once the
// UTC day has turned).
class AnalyticsNotifications : public QObject
{
    Q_OBJECT
public:
    // `ownerKeyId` names the key the deliveries are made for (the workspace owner's):
    // its network grant applies to the receivers.
    AnalyticsNotifications(Store &store, SiteRepository &sites, AnalyticsRepository &analytics,
                           webhooks::WebhookQueue &queue, std::function<QString()> ownerKeyId,
                           QObject *parent = nullptr);

    // The daily.digest of `day` (yyyy-MM-dd, UTC) to every site's subscriptions that
    // select it; returns how many sites had one. The hourly timer calls it for the day
    // that just ended.
    int sendDailyDigests(const QString &day);

private:
    void send(const QString &siteId, const QString &id, const QStringList &kinds,
              const QJsonObject &data);

    SiteRepository &m_sites;
    QTimer m_digestTimer;
    QString m_today;
    Store &m_store;
    AnalyticsRepository &m_analytics;
    webhooks::WebhookQueue &m_queue;
    std::function<QString()> m_ownerKeyId;
};

} // namespace ph::sites
