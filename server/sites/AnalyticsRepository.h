#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace ph {
class Store;
}

namespace ph::sites {

class SiteRepository;

// Site analytics in the store: the ingestion path later surfaces call (runtime,
// embed SDK, agent runs), owner-scoped reads, the aggregate summary the owner's AI
// may see, and the owner's private settings (notification webhooks with sealed
// secrets, interview questions).
class AnalyticsRepository
{
public:
    // The collections that can be ingested into (documents with ids).
    enum class Collection { Visit, Interaction, Score, Review, Interview, Note, Post };

    // Every collection an owner may read with listDocuments().
    static const QStringList &readableCollections();
    static const QStringList &webhookEvents();

    AnalyticsRepository(Store &store, SiteRepository &sites);

    // Called inside the transaction that records a document (so what it queues commits
    // with it): the owner's notification webhooks are sent from here.
    using RecordedHook = std::function<void(const QString &siteId, Collection collection,
                                            const QString &id, const QJsonObject &document)>;
    void setRecordedHook(RecordedHook hook) { m_recorded = std::move(hook); }

    // Ingestion. `document` may carry `userId` and `accountId`: they are stored as
    // hashed join keys (`userKey`, `accountKey`: HMAC-SHA256 with the site's salt), and
    // the raw values are dropped unless the site's configuration opts in with
    // analytics.displayPersonalData. An interaction's `trajectory` is stored apart and
    // only returned by interactionDetail(). `occurredAt` (ms) defaults to now. Daily
    // aggregates and profile summaries are updated in the same transaction; the raw
    // event is kept backend-only. Returns the document id. Throws DomainError 404
    // for an unknown (or deleted) site.
    QString record(const QString &siteId, Collection collection, const QJsonObject &document);
    // Links an anonymous visitor id to a known user (backend-only).
    void linkIdentity(const QString &siteId, const QString &anonymousId, const QString &userId);
    // The join key a raw id gets on `siteId` (for tests and backend joins).
    QString joinKey(const QString &siteId, const QString &prefix, const QString &rawId) const;

    // Owner reads.
    struct Page
    {
        QJsonArray documents;
        QString nextCursor;
    };
    Page listDocuments(const QString &ownerUid, const QString &siteId, const QString &collection,
                       int limit, const QString &cursor) const;
    std::optional<QJsonObject> interactionDetail(const QString &ownerUid, const QString &siteId,
                                                 const QString &interactionId) const;
    // Aggregate counts of the last `days` days (UTC), no visitor-level data.
    QJsonObject summary(const QString &siteId, int days) const;

    // Owner settings.
    QStringList questions(const QString &siteId) const;
    void setQuestions(const QString &siteId, const QString &ownerUid, const QStringList &questions);
    struct NotificationSettings
    {
        bool enabled = false;
        QJsonArray webhooks; // stored form: secrets sealed under "sealedSecret"
    };
    NotificationSettings notificationSettings(const QString &siteId) const;
    void setNotificationSettings(const QString &siteId, const QString &ownerUid,
                                 const NotificationSettings &settings);
    // The unsealed secret of one webhook (for the delivery queue), or empty.
    QString webhookSecret(const QString &siteId, const QString &webhookId) const;

private:
    QString saltFor(const QString &siteId) const;
    void bumpDaily(const QString &siteId, const QString &ownerUid, qint64 at,
                   const QStringList &counters);
    void touchProfile(const QString &siteId, const QString &ownerUid, const QString &kind,
                      const QString &joinKey, const QString &displayId, qint64 at, bool visit);

    Store &m_store;
    SiteRepository &m_sites;
    RecordedHook m_recorded;
};

} // namespace ph::sites
