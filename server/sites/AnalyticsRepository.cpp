#include "AnalyticsRepository.h"

#include "SiteConfig.h"
#include "SiteRepository.h"
#include "core/JsonText.h"

#include "core/Clock.h"
#include "core/DomainError.h"
#include "core/Ids.h"
#include "core/SecretBox.h"
#include "core/Store.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>

namespace ph::sites {

namespace {

struct CollectionInfo
{
    AnalyticsRepository::Collection collection;
    QString table;
    QString idPrefix;
};

const QList<CollectionInfo> &collections()
{
    using C = AnalyticsRepository::Collection;
    static const QList<CollectionInfo> list = {
        {C::Visit, QStringLiteral("analytics_visits"), QStringLiteral("vis")},
        {C::Interaction, QStringLiteral("analytics_interactions"), QStringLiteral("int")},
        {C::Score, QStringLiteral("analytics_scores"), QStringLiteral("scr")},
        {C::Review, QStringLiteral("analytics_reviews"), QStringLiteral("rev")},
        {C::Interview, QStringLiteral("analytics_interviews"), QStringLiteral("itv")},
        {C::Note, QStringLiteral("analytics_notes"), QStringLiteral("note")},
        {C::Post, QStringLiteral("analytics_posts"), QStringLiteral("post")},
    };
    return list;
}

const CollectionInfo &infoFor(AnalyticsRepository::Collection c)
{
    for (const auto &i : collections()) {
        if (i.collection == c)
            return i;
    }
    Q_UNREACHABLE();
}

bool isDocumentTable(const QString &table)
{
    for (const auto &i : collections()) {
        if (i.table == table)
            return true;
    }
    return false;
}

QString dayOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).date().toString(Qt::ISODate);
}

// The counters of analytics_daily, in column order.
const QStringList kDailyCounters = {QStringLiteral("visits"),      QStringLiteral("interactions"),
                                    QStringLiteral("conversions"), QStringLiteral("reviews"),
                                    QStringLiteral("interviews"),  QStringLiteral("goals")};

// Reads rows into `page` up to `limit`; a row beyond it means there is a next page,
// whose cursor is the `cursorField` of the last document kept.
template <class Row>
void fillPage(Sql &q, int limit, const QString &cursorField, AnalyticsRepository::Page &page,
              Row row)
{
    while (q.next()) {
        if (page.documents.size() == limit) {
            page.nextCursor = page.documents.last().toObject().value(cursorField).toString();
            return;
        }
        page.documents.append(row(q));
    }
}

QJsonValue nullableString(const QVariant &v)
{
    return v.isNull() ? QJsonValue() : QJsonValue(v.toString());
}

} // namespace

const QStringList &AnalyticsRepository::readableCollections()
{
    static const QStringList names = {
        QStringLiteral("analytics_sites"),     QStringLiteral("analytics_interactions"),
        QStringLiteral("analytics_daily"),     QStringLiteral("analytics_profiles"),
        QStringLiteral("analytics_visits"),    QStringLiteral("analytics_scores"),
        QStringLiteral("analytics_reviews"),   QStringLiteral("analytics_interviews"),
        QStringLiteral("analytics_questions"), QStringLiteral("analytics_notes"),
        QStringLiteral("analytics_posts")};
    return names;
}

const QStringList &AnalyticsRepository::webhookEvents()
{
    static const QStringList names = {
        QStringLiteral("interaction.completed"), QStringLiteral("review.created"),
        QStringLiteral("interview.completed"),   QStringLiteral("score.changed"),
        QStringLiteral("daily.digest"),          QStringLiteral("goal.reached"),
        QStringLiteral("conversion.recorded")};
    return names;
}

AnalyticsRepository::AnalyticsRepository(Store &store, SiteRepository &sites)
    : m_store(store)
    , m_sites(sites)
{}

QString AnalyticsRepository::saltFor(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT join_key_salt FROM analytics_sites WHERE site_id = :s"));
    q.bind(QStringLiteral(":s"), siteId).exec();
    return q.next() ? q.value(0).toString() : QString();
}

QString AnalyticsRepository::joinKey(const QString &siteId, const QString &prefix,
                                     const QString &rawId) const
{
    const QByteArray mac = QMessageAuthenticationCode::hash(
        rawId.toUtf8(), saltFor(siteId).toUtf8(), QCryptographicHash::Sha256);
    return prefix + QLatin1Char('_') + QString::fromLatin1(mac.toHex().left(32));
}

void AnalyticsRepository::bumpDaily(const QString &siteId, const QString &ownerUid, qint64 at,
                                    const QStringList &counters)
{
    if (counters.isEmpty())
        return;
    QStringList sets;
    for (const QString &c : counters)
        sets.append(QStringLiteral("%1 = %1 + 1").arg(c)); // names from record(), never input
    Sql(m_store, QStringLiteral("INSERT INTO analytics_daily (site_id, owner_uid, day) VALUES"
                                " (:s, :o, :d) ON CONFLICT(site_id, day) DO NOTHING"))
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":o"), ownerUid)
        .bind(QStringLiteral(":d"), dayOf(at))
        .exec();
    Sql(m_store, QStringLiteral("UPDATE analytics_daily SET %1 WHERE site_id = :s AND day = :d")
                     .arg(sets.join(QStringLiteral(", "))))
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":d"), dayOf(at))
        .exec();
}

void AnalyticsRepository::touchProfile(const QString &siteId, const QString &ownerUid,
                                       const QString &kind, const QString &joinKey,
                                       const QString &displayId, qint64 at, bool visit)
{
    Sql(m_store,
        QStringLiteral("INSERT INTO analytics_profiles (id, site_id, owner_uid, kind, join_key,"
                       " display_id, first_seen_at, last_seen_at, visits, interactions) VALUES"
                       " (:id, :s, :o, :kind, :key, :display, :t, :t, :v, :i) ON CONFLICT(site_id,"
                       " kind, join_key) DO UPDATE SET last_seen_at = MAX(last_seen_at, :t),"
                       " visits = visits + :v, interactions = interactions + :i,"
                       " display_id = COALESCE(:display, display_id)"))
        .bind(QStringLiteral(":id"), Ids::make(QStringLiteral("prof"), 16))
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":o"), ownerUid)
        .bind(QStringLiteral(":kind"), kind)
        .bind(QStringLiteral(":key"), joinKey)
        .bind(QStringLiteral(":display"), JsonText::nullableText(displayId))
        .bind(QStringLiteral(":t"), at)
        .bind(QStringLiteral(":v"), visit ? 1 : 0)
        .bind(QStringLiteral(":i"), visit ? 0 : 1)
        .exec();
}

QString AnalyticsRepository::record(const QString &siteId, Collection collection,
                                    const QJsonObject &input)
{
    const auto site = m_sites.findSite(siteId);
    if (!site)
        throwSiteNotFound(siteId);
    const CollectionInfo &info = infoFor(collection);
    const bool personal =
        SiteConfig(m_sites.config(siteId).config).analytics().displayPersonalData();
    QJsonObject doc = input;
    const qint64 at = doc.value(QStringLiteral("occurredAt")).isDouble()
                          ? qint64(doc.value(QStringLiteral("occurredAt")).toDouble())
                          : m_store.clock().nowMs();
    doc.remove(QStringLiteral("occurredAt"));
    const QString userId = doc.take(QStringLiteral("userId")).toString();
    const QString accountId = doc.take(QStringLiteral("accountId")).toString();
    const QJsonValue trajectory = doc.take(QStringLiteral("trajectory"));
    const QString userKey =
        userId.isEmpty() ? QString() : joinKey(siteId, QStringLiteral("uk"), userId);
    const QString accountKey =
        accountId.isEmpty() ? QString() : joinKey(siteId, QStringLiteral("ak"), accountId);
    if (personal) {
        if (!userId.isEmpty())
            doc.insert(QStringLiteral("userId"), userId);
        if (!accountId.isEmpty())
            doc.insert(QStringLiteral("accountId"), accountId);
    }
    QString id = doc.take(QStringLiteral("id")).toString();
    if (id.isEmpty())
        id = Ids::make(info.idPrefix, 16);

    QStringList counters;
    switch (collection) {
    case Collection::Visit:
        counters = {QStringLiteral("visits")};
        break;
    case Collection::Interaction:
        counters = {QStringLiteral("interactions")};
        if (doc.value(QStringLiteral("converted")).toBool())
            counters.append(QStringLiteral("conversions"));
        if (!doc.value(QStringLiteral("goal")).toString().isEmpty())
            counters.append(QStringLiteral("goals"));
        break;
    case Collection::Review:
        counters = {QStringLiteral("reviews")};
        break;
    case Collection::Interview:
        counters = {QStringLiteral("interviews")};
        break;
    default:
        break;
    }

    m_store.transaction([&] {
        Sql insert(m_store,
                   QStringLiteral("INSERT INTO %1 (id, site_id, owner_uid, occurred_at,"
                                  " user_key, account_key, data%2) VALUES (:id, :s, :o,"
                                  " :t, :uk, :ak, :data%3)")
                       .arg(info.table,
                            collection == Collection::Interaction ? QStringLiteral(", trajectory")
                                                                  : QString(),
                            collection == Collection::Interaction ? QStringLiteral(", :trajectory")
                                                                  : QString()));
        insert.bind(QStringLiteral(":id"), id)
            .bind(QStringLiteral(":s"), siteId)
            .bind(QStringLiteral(":o"), site->ownerUid)
            .bind(QStringLiteral(":t"), at)
            .bind(QStringLiteral(":uk"), JsonText::nullableText(userKey))
            .bind(QStringLiteral(":ak"), JsonText::nullableText(accountKey))
            .bind(QStringLiteral(":data"), JsonText::from(doc));
        if (collection == Collection::Interaction)
            insert.bind(QStringLiteral(":trajectory"),
                        trajectory.isUndefined() ? QVariant(QMetaType::fromType<QString>())
                                                 : QVariant(JsonText::from(trajectory)));
        insert.exec();
        bumpDaily(siteId, site->ownerUid, at, counters);
        const bool visit = collection == Collection::Visit;
        if ((visit || collection == Collection::Interaction)) {
            if (!userKey.isEmpty())
                touchProfile(siteId, site->ownerUid, QStringLiteral("identity"), userKey,
                             personal ? userId : QString(), at, visit);
            if (!accountKey.isEmpty())
                touchProfile(siteId, site->ownerUid, QStringLiteral("account"), accountKey,
                             personal ? accountId : QString(), at, visit);
        }
        // The raw event, backend-only, without the raw ids unless the site opted in.
        QJsonObject raw = doc;
        raw.insert(QStringLiteral("userKey"), userKey);
        raw.insert(QStringLiteral("accountKey"), accountKey);
        Sql(m_store, QStringLiteral("INSERT INTO analytics_events (site_id, owner_uid, collection,"
                                    " document_id, received_at, payload) VALUES (:s, :o, :c, :id,"
                                    " :t, :p)"))
            .bind(QStringLiteral(":s"), siteId)
            .bind(QStringLiteral(":o"), site->ownerUid)
            .bind(QStringLiteral(":c"), info.table)
            .bind(QStringLiteral(":id"), id)
            .bind(QStringLiteral(":t"), m_store.clock().nowMs())
            .bind(QStringLiteral(":p"), JsonText::from(raw))
            .exec();
        if (m_recorded)
            m_recorded(siteId, collection, id, doc);
    });
    m_store.notifyChanged(info.table, id);
    return id;
}

void AnalyticsRepository::linkIdentity(const QString &siteId, const QString &anonymousId,
                                       const QString &userId)
{
    Sql(m_store, QStringLiteral("INSERT INTO analytics_identity_links (site_id, anonymous_key,"
                                " user_key, linked_at) VALUES (:s, :a, :u, :t) ON CONFLICT(site_id,"
                                " anonymous_key) DO UPDATE SET user_key = excluded.user_key,"
                                " linked_at = excluded.linked_at"))
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":a"), joinKey(siteId, QStringLiteral("anon"), anonymousId))
        .bind(QStringLiteral(":u"), joinKey(siteId, QStringLiteral("uk"), userId))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
}

AnalyticsRepository::Page AnalyticsRepository::listDocuments(const QString &ownerUid,
                                                             const QString &siteId,
                                                             const QString &collection, int limit,
                                                             const QString &cursor) const
{
    Page page;
    auto query = [&](const QString &statement) {
        auto q = std::make_unique<Sql>(m_store, statement);
        q->bind(QStringLiteral(":o"), ownerUid).bind(QStringLiteral(":s"), siteId);
        if (statement.contains(QLatin1String(":c")))
            q->bind(QStringLiteral(":c"), JsonText::text(cursor));
        if (statement.contains(QLatin1String(":limit")))
            q->bind(QStringLiteral(":limit"), limit + 1);
        q->exec();
        return q;
    };
    auto iso = [](const QVariant &ms) {
        return ms.isNull() ? QJsonValue() : QJsonValue(Clock::isoUtc(ms.toLongLong()));
    };
    if (isDocumentTable(collection)) {
        // `collection` is one of our table names (isDocumentTable), never raw input.
        auto q = query(QStringLiteral("SELECT id, occurred_at, user_key, account_key, data FROM %1"
                                      " WHERE owner_uid = :o AND site_id = :s AND (:c = '' OR"
                                      " (occurred_at, id) < (SELECT occurred_at, id FROM %1 WHERE"
                                      " id = :c)) ORDER BY occurred_at DESC, id DESC LIMIT :limit")
                           .arg(collection));
        fillPage(*q, limit, QStringLiteral("id"), page, [&](const Sql &row) {
            QJsonObject d = JsonText::object(row.value(4));
            d.insert(QStringLiteral("id"), row.value(0).toString());
            d.insert(QStringLiteral("siteId"), siteId);
            d.insert(QStringLiteral("occurredAt"), iso(row.value(1)));
            d.insert(QStringLiteral("userKey"), nullableString(row.value(2)));
            d.insert(QStringLiteral("accountKey"), nullableString(row.value(3)));
            return d;
        });
    } else if (collection == QLatin1String("analytics_sites")) {
        auto q = query(QStringLiteral("SELECT site_id, name, created_at, site_deleted_at FROM"
                                      " analytics_sites WHERE owner_uid = :o AND site_id = :s"));
        fillPage(*q, limit, QStringLiteral("id"), page, [&](const Sql &row) {
            return QJsonObject{{QStringLiteral("id"), row.value(0).toString()},
                               {QStringLiteral("siteId"), row.value(0).toString()},
                               {QStringLiteral("name"), row.value(1).toString()},
                               {QStringLiteral("createdAt"), iso(row.value(2))},
                               {QStringLiteral("siteDeletedAt"), iso(row.value(3))}};
        });
    } else if (collection == QLatin1String("analytics_daily")) {
        auto q = query(QStringLiteral("SELECT day, visits, interactions, conversions, reviews,"
                                      " interviews, goals FROM analytics_daily WHERE owner_uid ="
                                      " :o AND site_id = :s AND (:c = '' OR day < :c) ORDER BY"
                                      " day DESC LIMIT :limit"));
        fillPage(*q, limit, QStringLiteral("day"), page, [&](const Sql &row) {
            QJsonObject d{
                {QStringLiteral("id"), siteId + QLatin1Char('_') + row.value(0).toString()},
                {QStringLiteral("siteId"), siteId},
                {QStringLiteral("day"), row.value(0).toString()}};
            for (int i = 0; i < kDailyCounters.size(); ++i)
                d.insert(kDailyCounters.at(i), row.value(i + 1).toInt());
            return d;
        });
    } else if (collection == QLatin1String("analytics_profiles")) {
        auto q = query(QStringLiteral("SELECT id, kind, join_key, display_id, first_seen_at,"
                                      " last_seen_at, visits, interactions FROM"
                                      " analytics_profiles WHERE owner_uid = :o AND site_id = :s"
                                      " AND (:c = '' OR id > :c) ORDER BY id LIMIT :limit"));
        fillPage(*q, limit, QStringLiteral("id"), page, [&](const Sql &row) {
            return QJsonObject{{QStringLiteral("id"), row.value(0).toString()},
                               {QStringLiteral("siteId"), siteId},
                               {QStringLiteral("kind"), row.value(1).toString()},
                               {QStringLiteral("joinKey"), row.value(2).toString()},
                               {QStringLiteral("displayId"), nullableString(row.value(3))},
                               {QStringLiteral("firstSeenAt"), iso(row.value(4))},
                               {QStringLiteral("lastSeenAt"), iso(row.value(5))},
                               {QStringLiteral("visits"), row.value(6).toInt()},
                               {QStringLiteral("interactions"), row.value(7).toInt()}};
        });
    } else if (collection == QLatin1String("analytics_questions")) {
        auto q = query(QStringLiteral("SELECT questions, updated_at FROM analytics_questions WHERE"
                                      " owner_uid = :o AND site_id = :s"));
        fillPage(*q, limit, QStringLiteral("id"), page, [&](const Sql &row) {
            return QJsonObject{
                {QStringLiteral("id"), siteId},
                {QStringLiteral("siteId"), siteId},
                {QStringLiteral("interviewQuestions"), JsonText::array(row.value(0))},
                {QStringLiteral("updatedAt"), iso(row.value(1))}};
        });
    }
    return page;
}

std::optional<QJsonObject>
AnalyticsRepository::interactionDetail(const QString &ownerUid, const QString &siteId,
                                       const QString &interactionId) const
{
    Sql q(m_store, QStringLiteral("SELECT occurred_at, user_key, account_key, data, trajectory"
                                  " FROM analytics_interactions WHERE owner_uid = :o AND site_id ="
                                  " :s AND id = :id"));
    q.bind(QStringLiteral(":o"), ownerUid)
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":id"), interactionId)
        .exec();
    if (!q.next())
        return std::nullopt;
    QJsonObject d = JsonText::object(q.value(3));
    d.insert(QStringLiteral("id"), interactionId);
    d.insert(QStringLiteral("siteId"), siteId);
    d.insert(QStringLiteral("occurredAt"), Clock::isoUtc(q.value(0).toLongLong()));
    d.insert(QStringLiteral("userKey"), nullableString(q.value(1)));
    d.insert(QStringLiteral("accountKey"), nullableString(q.value(2)));
    const QJsonDocument trajectory = QJsonDocument::fromJson(q.value(4).toString().toUtf8());
    d.insert(QStringLiteral("trajectory"), trajectory.isArray()    ? QJsonValue(trajectory.array())
                                           : trajectory.isObject() ? QJsonValue(trajectory.object())
                                                                   : QJsonValue());
    return d;
}

QJsonObject AnalyticsRepository::summary(const QString &siteId, int days) const
{
    const qint64 now = m_store.clock().nowMs();
    const QString to = dayOf(now);
    const QString from = dayOf(now - qint64(days - 1) * 86'400'000);
    Sql q(m_store, QStringLiteral("SELECT day, visits, interactions, conversions, reviews,"
                                  " interviews, goals FROM analytics_daily WHERE site_id = :s AND"
                                  " day >= :from AND day <= :to ORDER BY day"));
    q.bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":from"), from)
        .bind(QStringLiteral(":to"), to)
        .exec();
    const QStringList &names = kDailyCounters;
    QList<qint64> totals(names.size(), 0);
    QJsonArray daily;
    while (q.next()) {
        QJsonObject day{{QStringLiteral("day"), q.value(0).toString()}};
        for (qsizetype i = 0; i < names.size(); ++i) {
            totals[i] += q.value(int(i) + 1).toLongLong();
            day.insert(names.at(i), q.value(int(i) + 1).toLongLong());
        }
        daily.append(day);
    }
    QJsonObject totalsJson;
    for (qsizetype i = 0; i < names.size(); ++i)
        totalsJson.insert(names.at(i), totals.at(i));
    return {{QStringLiteral("siteId"), siteId},
            {QStringLiteral("range"), QStringLiteral("%1d").arg(days)},
            {QStringLiteral("from"), from},
            {QStringLiteral("to"), to},
            {QStringLiteral("totals"), totalsJson},
            {QStringLiteral("daily"), daily}};
}

QStringList AnalyticsRepository::questions(const QString &siteId) const
{
    Sql q(m_store, QStringLiteral("SELECT questions FROM analytics_questions WHERE site_id = :s"));
    q.bind(QStringLiteral(":s"), siteId).exec();
    QStringList out;
    if (q.next()) {
        for (const QJsonValue &v : JsonText::array(q.value(0)))
            out.append(v.toString());
    }
    return out;
}

void AnalyticsRepository::setQuestions(const QString &siteId, const QString &ownerUid,
                                       const QStringList &questions)
{
    Sql(m_store, QStringLiteral("INSERT INTO analytics_questions (site_id, owner_uid, questions,"
                                " updated_at) VALUES (:s, :o, :q, :t) ON CONFLICT(site_id) DO"
                                " UPDATE SET questions = excluded.questions,"
                                " updated_at = excluded.updated_at"))
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":o"), ownerUid)
        .bind(QStringLiteral(":q"), JsonText::from(QJsonArray::fromStringList(questions)))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
    m_store.notifyChanged(QStringLiteral("analytics_questions"), siteId);
}

AnalyticsRepository::NotificationSettings
AnalyticsRepository::notificationSettings(const QString &siteId) const
{
    NotificationSettings s;
    Sql q(m_store, QStringLiteral("SELECT enabled, webhooks FROM analytics_notification_settings"
                                  " WHERE site_id = :s"));
    q.bind(QStringLiteral(":s"), siteId).exec();
    if (q.next()) {
        s.enabled = q.value(0).toBool();
        s.webhooks = JsonText::array(q.value(1));
    }
    return s;
}

void AnalyticsRepository::setNotificationSettings(const QString &siteId, const QString &ownerUid,
                                                  const NotificationSettings &settings)
{
    Sql(m_store, QStringLiteral("INSERT INTO analytics_notification_settings (site_id, owner_uid,"
                                " enabled, webhooks, updated_at) VALUES (:s, :o, :e, :w, :t) ON"
                                " CONFLICT(site_id) DO UPDATE SET enabled = excluded.enabled,"
                                " webhooks = excluded.webhooks, updated_at = excluded.updated_at"))
        .bind(QStringLiteral(":s"), siteId)
        .bind(QStringLiteral(":o"), ownerUid)
        .bind(QStringLiteral(":e"), settings.enabled ? 1 : 0)
        .bind(QStringLiteral(":w"), JsonText::from(settings.webhooks))
        .bind(QStringLiteral(":t"), m_store.clock().nowMs())
        .exec();
    m_store.notifyChanged(QStringLiteral("analytics_notification_settings"), siteId);
}

QString AnalyticsRepository::webhookSecret(const QString &siteId, const QString &webhookId) const
{
    for (const QJsonValue &w : notificationSettings(siteId).webhooks) {
        const QJsonObject o = w.toObject();
        if (o.value(QStringLiteral("id")).toString() == webhookId) {
            const QString sealed = o.value(QStringLiteral("sealedSecret")).toString();
            return sealed.isEmpty() ? QString() : m_store.secrets().unseal(sealed);
        }
    }
    return {};
}

} // namespace ph::sites
