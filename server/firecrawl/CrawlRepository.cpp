#include "CrawlRepository.h"

#include "CrawlRequest.h"

#include "core/Clock.h"
#include "core/JsonText.h"
#include "core/SqlRow.h"
#include "core/Store.h"

namespace ph::firecrawl {

namespace {

const QString kCrawlColumns =
    QStringLiteral("id, key_id, kind, endpoint, url, options, webhook, status, seeded, error, "
                   "credits, created_at, finished_at, expires_at");
const QString kPageColumns =
    QStringLiteral("seq, url, depth, state, scrape_id, error, finished_at");

CrawlRecord crawlOf(const Sql &q)
{
    SqlRow row(q);
    CrawlRecord c;
    c.id = row.text();
    c.keyId = row.text();
    c.kind = row.text();
    c.endpoint = row.text();
    c.url = row.text();
    c.options = row.object();
    c.webhook = row.text();
    c.status = row.text();
    c.seeded = row.flag();
    c.error = row.text();
    c.credits = row.value().toDouble();
    c.createdAt = row.integer();
    c.finishedAt = row.optionalInt();
    c.expiresAt = row.integer();
    return c;
}

CrawlPage pageOf(const Sql &q)
{
    SqlRow row(q);
    CrawlPage p;
    p.seq = row.number();
    p.url = row.text();
    p.depth = row.number();
    p.state = row.text();
    p.scrapeId = row.text();
    p.error = row.text();
    p.finishedAt = row.optionalInt();
    return p;
}

} // namespace

CrawlRepository::CrawlRepository(Store &store)
    : m_store(store)
{}

void CrawlRepository::insert(const CrawlRecord &c)
{
    Sql(m_store, QStringLiteral("INSERT INTO firecrawl_crawls (%1) VALUES (:id, :key, :kind, "
                                ":endpoint, :url, :options, :webhook, :status, :seeded, :error, "
                                ":credits, :created, NULL, :expires)")
                     .arg(kCrawlColumns))
        .bind(QStringLiteral(":id"), c.id)
        .bind(QStringLiteral(":key"), c.keyId)
        .bind(QStringLiteral(":kind"), c.kind)
        .bind(QStringLiteral(":endpoint"), c.endpoint)
        .bind(QStringLiteral(":url"), c.url)
        .bind(QStringLiteral(":options"), JsonText::from(c.options))
        .bind(QStringLiteral(":webhook"), JsonText::text(c.webhook))
        .bind(QStringLiteral(":status"), c.status)
        .bind(QStringLiteral(":seeded"), c.seeded ? 1 : 0)
        .bind(QStringLiteral(":error"), JsonText::text(c.error))
        .bind(QStringLiteral(":credits"), c.credits)
        .bind(QStringLiteral(":created"), c.createdAt)
        .bind(QStringLiteral(":expires"), c.expiresAt)
        .exec();
    m_store.notifyChanged(QStringLiteral("firecrawl_crawls"), c.id);
}

std::optional<CrawlRecord> CrawlRepository::find(const QString &id) const
{
    Sql q(m_store,
          QStringLiteral("SELECT %1 FROM firecrawl_crawls WHERE id = :id").arg(kCrawlColumns));
    q.bind(QStringLiteral(":id"), id).exec();
    if (!q.next())
        return std::nullopt;
    return crawlOf(q);
}

QList<CrawlRecord> CrawlRepository::withStatus(const QString &status, const QString &keyId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM firecrawl_crawls WHERE status = :status AND "
                                  "(:any = 1 OR key_id = :key) ORDER BY created_at, id")
                       .arg(kCrawlColumns));
    q.bind(QStringLiteral(":status"), status)
        .bind(QStringLiteral(":any"), keyId.isEmpty() ? 1 : 0)
        .bind(QStringLiteral(":key"), JsonText::text(keyId))
        .exec();
    QList<CrawlRecord> out;
    while (q.next())
        out.append(crawlOf(q));
    return out;
}

void CrawlRepository::finish(const QString &id, const QString &status, const QString &error)
{
    Sql(m_store, QStringLiteral("UPDATE firecrawl_crawls SET status = :status, error = :error, "
                                "finished_at = :at WHERE id = :id"))
        .bind(QStringLiteral(":status"), status)
        .bind(QStringLiteral(":error"), JsonText::text(error))
        .bind(QStringLiteral(":at"), m_store.clock().nowMs())
        .bind(QStringLiteral(":id"), id)
        .exec();
    m_store.notifyChanged(QStringLiteral("firecrawl_crawls"), id);
}

void CrawlRepository::setSeeded(const QString &id)
{
    Sql(m_store, QStringLiteral("UPDATE firecrawl_crawls SET seeded = 1 WHERE id = :id"))
        .bind(QStringLiteral(":id"), id)
        .exec();
}

void CrawlRepository::addCredits(const QString &id, double credits)
{
    Sql(m_store,
        QStringLiteral("UPDATE firecrawl_crawls SET credits = credits + :c WHERE id = :id"))
        .bind(QStringLiteral(":c"), credits)
        .bind(QStringLiteral(":id"), id)
        .exec();
}

bool CrawlRepository::addPage(const QString &crawlId, const QString &url, int depth,
                              const QString &state)
{
    Sql q(m_store, QStringLiteral("INSERT OR IGNORE INTO firecrawl_crawl_pages (crawl_id, seq, "
                                  "url, depth, state) VALUES (:crawl, (SELECT COALESCE(MAX(seq), "
                                  "-1) + 1 FROM firecrawl_crawl_pages WHERE crawl_id = :same), "
                                  ":url, :depth, :state)"));
    q.bind(QStringLiteral(":crawl"), crawlId)
        .bind(QStringLiteral(":same"), crawlId)
        .bind(QStringLiteral(":url"), url)
        .bind(QStringLiteral(":depth"), depth)
        .bind(QStringLiteral(":state"), state)
        .exec();
    return q.rowsAffected() > 0;
}

int CrawlRepository::pageCount(const QString &crawlId) const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM firecrawl_crawl_pages WHERE crawl_id = "
                                  ":crawl AND state <> 'blocked'"));
    q.bind(QStringLiteral(":crawl"), crawlId).exec();
    return q.next() ? q.value(0).toInt() : 0;
}

int CrawlRepository::countInState(const QString &crawlId, const QString &state) const
{
    Sql q(m_store, QStringLiteral("SELECT COUNT(*) FROM firecrawl_crawl_pages WHERE crawl_id = "
                                  ":crawl AND state = :state"));
    q.bind(QStringLiteral(":crawl"), crawlId).bind(QStringLiteral(":state"), state).exec();
    return q.next() ? q.value(0).toInt() : 0;
}

std::optional<CrawlPage> CrawlRepository::nextQueued(const QString &crawlId) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM firecrawl_crawl_pages WHERE crawl_id = :crawl "
                                  "AND state = 'queued' ORDER BY seq LIMIT 1")
                       .arg(kPageColumns));
    q.bind(QStringLiteral(":crawl"), crawlId).exec();
    if (!q.next())
        return std::nullopt;
    return pageOf(q);
}

void CrawlRepository::markLoading(const QString &crawlId, int seq, const QString &scrapeId)
{
    Sql(m_store, QStringLiteral("UPDATE firecrawl_crawl_pages SET state = 'loading', scrape_id = "
                                ":scrape WHERE crawl_id = :crawl AND seq = :seq"))
        .bind(QStringLiteral(":scrape"), scrapeId)
        .bind(QStringLiteral(":crawl"), crawlId)
        .bind(QStringLiteral(":seq"), seq)
        .exec();
}

void CrawlRepository::markQueued(const QString &crawlId, int seq)
{
    Sql(m_store, QStringLiteral("UPDATE firecrawl_crawl_pages SET state = 'queued' WHERE "
                                "crawl_id = :crawl AND seq = :seq"))
        .bind(QStringLiteral(":crawl"), crawlId)
        .bind(QStringLiteral(":seq"), seq)
        .exec();
}

void CrawlRepository::markDone(const QString &crawlId, int seq, const QJsonObject &document)
{
    const QString text = JsonText::from(document);
    Sql(m_store,
        QStringLiteral("UPDATE firecrawl_crawl_pages SET state = 'done', document = :doc, bytes = "
                       ":bytes, finished_at = :at, done_order = (SELECT COALESCE(MAX(done_order), "
                       "0) + 1 FROM firecrawl_crawl_pages WHERE crawl_id = :same) WHERE crawl_id "
                       "= :crawl AND seq = :seq"))
        .bind(QStringLiteral(":doc"), text)
        .bind(QStringLiteral(":bytes"), qint64(text.toUtf8().size()))
        .bind(QStringLiteral(":at"), m_store.clock().nowMs())
        .bind(QStringLiteral(":same"), crawlId)
        .bind(QStringLiteral(":crawl"), crawlId)
        .bind(QStringLiteral(":seq"), seq)
        .exec();
    m_store.notifyChanged(QStringLiteral("firecrawl_crawls"), crawlId);
}

void CrawlRepository::markFailed(const QString &crawlId, int seq, const QString &error)
{
    Sql(m_store, QStringLiteral("UPDATE firecrawl_crawl_pages SET state = 'failed', error = "
                                ":error, finished_at = :at WHERE crawl_id = :crawl AND seq = :seq"))
        .bind(QStringLiteral(":error"), JsonText::text(error))
        .bind(QStringLiteral(":at"), m_store.clock().nowMs())
        .bind(QStringLiteral(":crawl"), crawlId)
        .bind(QStringLiteral(":seq"), seq)
        .exec();
    m_store.notifyChanged(QStringLiteral("firecrawl_crawls"), crawlId);
}

void CrawlRepository::requeueLoading(const QString &crawlId)
{
    Sql(m_store, QStringLiteral("UPDATE firecrawl_crawl_pages SET state = 'queued' WHERE "
                                "crawl_id = :crawl AND state = 'loading'"))
        .bind(QStringLiteral(":crawl"), crawlId)
        .exec();
}

DocumentPage CrawlRepository::documents(const QString &crawlId, int skip, int maxCount,
                                        qint64 maxBytes) const
{
    // One row more than a page can hold tells whether there is more.
    Sql q(m_store, QStringLiteral("SELECT bytes, document FROM firecrawl_crawl_pages WHERE "
                                  "crawl_id = :crawl AND state = 'done' ORDER BY done_order "
                                  "LIMIT :limit OFFSET :skip"));
    q.bind(QStringLiteral(":crawl"), crawlId)
        .bind(QStringLiteral(":limit"), maxCount + 1)
        .bind(QStringLiteral(":skip"), skip)
        .exec();
    QList<qint64> sizes;
    QList<QString> texts;
    while (q.next()) {
        sizes << q.value(0).toLongLong();
        texts << q.value(1).toString();
    }
    const int n = documentsInPage(sizes, maxBytes, maxCount);
    DocumentPage page;
    for (int i = 0; i < n; ++i)
        page.documents << JsonText::object(texts.at(i));
    page.more = sizes.size() > n;
    return page;
}

QList<CrawlPage> CrawlRepository::pagesInState(const QString &crawlId, const QString &state) const
{
    Sql q(m_store, QStringLiteral("SELECT %1 FROM firecrawl_crawl_pages WHERE crawl_id = :crawl "
                                  "AND state = :state ORDER BY seq")
                       .arg(kPageColumns));
    q.bind(QStringLiteral(":crawl"), crawlId).bind(QStringLiteral(":state"), state).exec();
    QList<CrawlPage> out;
    while (q.next())
        out.append(pageOf(q));
    return out;
}

int CrawlRepository::purgeExpired(qint64 nowMs)
{
    int n = 0;
    m_store.transaction([&] {
        Sql(m_store, QStringLiteral("DELETE FROM firecrawl_crawl_pages WHERE crawl_id IN (SELECT "
                                    "id FROM firecrawl_crawls WHERE expires_at < :now AND status "
                                    "<> 'scraping')"))
            .bind(QStringLiteral(":now"), nowMs)
            .exec();
        Sql q(m_store, QStringLiteral("DELETE FROM firecrawl_crawls WHERE expires_at < :now AND "
                                      "status <> 'scraping'"));
        q.bind(QStringLiteral(":now"), nowMs).exec();
        n = q.rowsAffected();
    });
    return n;
}

} // namespace ph::firecrawl
