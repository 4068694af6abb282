#include "AnalyticsNotifications.h"

#include "core/Clock.h"
#include "core/Ids.h"
#include "core/RequestLog.h"
#include "core/Store.h"
#include "sites/AnalyticsRepository.h"
#include "webhooks/WebhookQueue.h"

#include <QJsonArray>

namespace ph {

namespace {

using Collection = sites::AnalyticsRepository::Collection;

// The notification events one recorded document is.
QStringList eventsOf(Collection collection, const QJsonObject &doc)
{
    switch (collection) {
    case Collection::Interaction: {
        QStringList out{QStringLiteral("interaction.completed")};
        if (!doc.value(QStringLiteral("goal")).toString().isEmpty())
            out << QStringLiteral("goal.reached");
        if (doc.value(QStringLiteral("converted")).toBool())
            out << QStringLiteral("conversion.recorded");
        return out;
    }
    case Collection::Review:
        return {QStringLiteral("review.created")};
    case Collection::Interview:
        return {QStringLiteral("interview.completed")};
    case Collection::Score:
        return {QStringLiteral("score.changed")};
    default:
        return {};
    }
}

} // namespace

AnalyticsNotifications::AnalyticsNotifications(Store &store, sites::AnalyticsRepository &analytics,
                                               webhooks::WebhookQueue &queue,
                                               std::function<QString()> ownerKeyId)
    : m_store(store)
    , m_analytics(analytics)
    , m_queue(queue)
    , m_ownerKeyId(std::move(ownerKeyId))
{
    m_analytics.setRecordedHook([this](const QString &siteId, Collection collection,
                                       const QString &id, const QJsonObject &doc) {
        const QStringList kinds = eventsOf(collection, doc);
        if (kinds.isEmpty())
            return;
        const auto settings = m_analytics.notificationSettings(siteId);
        if (!settings.enabled)
            return;
        QList<WebhookSubscription> subscriptions;
        for (const QJsonValue &v : settings.webhooks) {
            const QJsonObject w = v.toObject();
            if (!w.value(QStringLiteral("enabled")).toBool(true))
                continue;
            WebhookSubscription s;
            s.url = w.value(QStringLiteral("url")).toString();
            for (const QJsonValue &e : w.value(QStringLiteral("events")).toArray())
                s.events << e.toString();
            s.secret = m_analytics.webhookSecret(siteId, w.value(QStringLiteral("id")).toString());
            subscriptions.append(s);
        }
        if (subscriptions.isEmpty())
            return;
        // The document as the owner may read it (join keys, never raw ids unless the
        // site opted in); an interaction's trajectory stays out.
        QJsonObject data = doc;
        data.remove(QStringLiteral("trajectory"));
        data.insert(QStringLiteral("id"), id);
        QList<webhooks::Event> events;
        for (const QString &kind : kinds)
            events.append({kind,
                           {{QStringLiteral("event"), kind},
                            {QStringLiteral("siteId"), siteId},
                            {QStringLiteral("occurredAt"), Clock::isoUtc(m_store.clock().nowMs())},
                            {QStringLiteral("data"), data}}});
        m_queue.enqueue(QStringLiteral("analytics_") + id, m_ownerKeyId(), subscriptions, events);
    });
}

} // namespace ph
