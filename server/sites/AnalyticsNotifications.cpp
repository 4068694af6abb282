#include "AnalyticsNotifications.h"

#include "AnalyticsRepository.h"
#include "SiteRepository.h"
#include "core/Clock.h"
#include "core/Ids.h"
#include "core/RequestLog.h"
#include "core/Store.h"
#include "webhooks/WebhookQueue.h"

#include <QDateTime>
#include <QJsonArray>

namespace ph::sites {

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

AnalyticsNotifications::AnalyticsNotifications(Store &store, sites::SiteRepository &sites,
                                               sites::AnalyticsRepository &analytics,
                                               webhooks::WebhookQueue &queue,
                                               std::function<QString()> ownerKeyId, QObject *parent)
    : QObject(parent)
    , m_sites(sites)
    , m_store(store)
    , m_analytics(analytics)
    , m_queue(queue)
    , m_ownerKeyId(std::move(ownerKeyId))
{
    m_analytics.setRecordedHook([this](const QString &siteId, Collection collection,
                                       const QString &id, const QJsonObject &doc) {
        const QStringList kinds = eventsOf(collection, doc);
        if (kinds.isEmpty())
            return;
        // The document as the owner may read it (join keys, never raw ids unless the
        // site opted in); an interaction's trajectory stays out.
        QJsonObject data = doc;
        data.remove(QStringLiteral("trajectory"));
        data.insert(QStringLiteral("id"), id);
        send(siteId, id, kinds, data);
    });
    // The digest of a day goes out once the UTC day has turned (checked hourly; a restart
    // starts counting from the day it starts on).
    m_today = QDateTime::fromMSecsSinceEpoch(m_store.clock().nowMs(), Qt::UTC)
                  .date()
                  .toString(Qt::ISODate);
    m_digestTimer.setInterval(3600 * 1000);
    connect(&m_digestTimer, &QTimer::timeout, this, [this] {
        const QString today = QDateTime::fromMSecsSinceEpoch(m_store.clock().nowMs(), Qt::UTC)
                                  .date()
                                  .toString(Qt::ISODate);
        if (today == m_today)
            return;
        sendDailyDigests(std::exchange(m_today, today));
    });
    m_digestTimer.start();
}

void AnalyticsNotifications::send(const QString &siteId, const QString &id,
                                  const QStringList &kinds, const QJsonObject &data)
{
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
    QList<webhooks::Event> events;
    for (const QString &kind : kinds)
        events.append({kind,
                       {{QStringLiteral("event"), kind},
                        {QStringLiteral("siteId"), siteId},
                        {QStringLiteral("occurredAt"), Clock::isoUtc(m_store.clock().nowMs())},
                        {QStringLiteral("data"), data}}});
    m_queue.enqueue(QStringLiteral("analytics_") + id, m_ownerKeyId(), subscriptions, events);
}

int AnalyticsNotifications::sendDailyDigests(const QString &day)
{
    int sent = 0;
    for (const sites::Site &site : m_sites.listSites(sites::kLocalOwner)) {
        const auto settings = m_analytics.notificationSettings(site.id);
        if (!settings.enabled)
            continue;
        bool wanted = false;
        for (const QJsonValue &w : settings.webhooks)
            wanted |= w.toObject()
                          .value(QStringLiteral("events"))
                          .toArray()
                          .contains(QStringLiteral("daily.digest"));
        if (!wanted)
            continue;
        // The day's counts (zeros when nothing happened).
        QJsonObject counts{{QStringLiteral("day"), day}};
        const QJsonObject summary = m_analytics.summary(site.id, 2);
        for (const QJsonValue &d : summary.value(QStringLiteral("daily")).toArray())
            if (d.toObject().value(QStringLiteral("day")).toString() == day)
                counts = d.toObject();
        for (const QString &k : summary.value(QStringLiteral("totals")).toObject().keys())
            if (!counts.contains(k))
                counts.insert(k, 0);
        send(site.id, QStringLiteral("digest_%1_%2").arg(site.id, day),
             {QStringLiteral("daily.digest")}, counts);
        ++sent;
    }
    return sent;
}

} // namespace ph::sites
