// The stored crawls of the Firecrawl-compatible API (firecrawl/CrawlRepository) on a real
// SQLite store with a manual clock: the frontier, the limit's count, the order and paging
// of the documents, what a restart puts back in the queue, and the expiry.
#include "firecrawl/CrawlRepository.h"

#include "core/Clock.h"
#include "core/Store.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ph;
using namespace ph::firecrawl;

class tst_CrawlRepository : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void keepsEachUrlOnceInAFrontier();
    void countsBlockedUrlsOutsideTheLimit();
    void pagesDocumentsInTheOrderTheyWereDone();
    void putsLoadingPagesBackInTheQueueAtARestart();
    void deletesExpiredCrawlsButNotRunningOnes();

private:
    CrawlRecord crawl(const QString &id, const QString &status, qint64 expiresAt);

    QTemporaryDir m_dir;
    ManualClock m_clock{1'000'000};
    std::unique_ptr<Store> m_store;
    std::unique_ptr<CrawlRepository> m_repo;
};

void tst_CrawlRepository::init()
{
    m_store = std::make_unique<Store>(m_dir.filePath(QStringLiteral("crawls.db")), m_clock);
    QString error;
    QVERIFY2(m_store->open(&error), qPrintable(error));
    m_repo = std::make_unique<CrawlRepository>(*m_store);
}

void tst_CrawlRepository::cleanup()
{
    m_repo.reset();
    m_store.reset();
    QFile::remove(m_dir.filePath(QStringLiteral("crawls.db")));
}

CrawlRecord tst_CrawlRepository::crawl(const QString &id, const QString &status, qint64 expiresAt)
{
    CrawlRecord r;
    r.id = id;
    r.keyId = QStringLiteral("key_a");
    r.kind = QStringLiteral("crawl");
    r.endpoint = QStringLiteral("/firecrawl/v2/crawl");
    r.url = QStringLiteral("http://site.example/");
    r.options = {{QStringLiteral("url"), r.url}};
    r.status = status;
    r.createdAt = m_clock.nowMs();
    r.expiresAt = expiresAt;
    m_repo->insert(r);
    return r;
}

void tst_CrawlRepository::keepsEachUrlOnceInAFrontier()
{
    crawl(QStringLiteral("c1"), QStringLiteral("scraping"), m_clock.nowMs() + 1000);
    QVERIFY(m_repo->addPage(QStringLiteral("c1"), QStringLiteral("http://site.example/a"), 1,
                            QStringLiteral("queued")));
    QVERIFY(!m_repo->addPage(QStringLiteral("c1"), QStringLiteral("http://site.example/a"), 2,
                             QStringLiteral("queued")));
    QVERIFY(m_repo->addPage(QStringLiteral("c1"), QStringLiteral("http://site.example/b"), 1,
                            QStringLiteral("queued")));
    const auto next = m_repo->nextQueued(QStringLiteral("c1"));
    QVERIFY(next);
    QCOMPARE(next->url, QStringLiteral("http://site.example/a"));
    QCOMPARE(next->seq, 0);
    QCOMPARE(m_repo->find(QStringLiteral("c1"))->options.value(QStringLiteral("url")).toString(),
             QStringLiteral("http://site.example/"));
}

void tst_CrawlRepository::countsBlockedUrlsOutsideTheLimit()
{
    crawl(QStringLiteral("c1"), QStringLiteral("scraping"), m_clock.nowMs() + 1000);
    m_repo->addPage(QStringLiteral("c1"), QStringLiteral("http://site.example/a"), 0,
                    QStringLiteral("queued"));
    m_repo->addPage(QStringLiteral("c1"), QStringLiteral("http://site.example/private"), 1,
                    QStringLiteral("blocked"));
    QCOMPARE(m_repo->pageCount(QStringLiteral("c1")), 1);
    QCOMPARE(m_repo->pagesInState(QStringLiteral("c1"), QStringLiteral("blocked")).size(), 1);
}

void tst_CrawlRepository::pagesDocumentsInTheOrderTheyWereDone()
{
    crawl(QStringLiteral("c1"), QStringLiteral("scraping"), m_clock.nowMs() + 1000);
    for (const char *p : {"/a", "/b", "/c"})
        m_repo->addPage(QStringLiteral("c1"), QStringLiteral("http://site.example") + p, 0,
                        QStringLiteral("queued"));
    // Done as c, a, b: the documents come in that order, whatever order they were found in.
    m_repo->markDone(QStringLiteral("c1"), 2, {{QStringLiteral("n"), QStringLiteral("c")}});
    m_repo->markDone(QStringLiteral("c1"), 0, {{QStringLiteral("n"), QStringLiteral("a")}});
    m_repo->markDone(QStringLiteral("c1"), 1, {{QStringLiteral("n"), QStringLiteral("b")}});
    const DocumentPage first = m_repo->documents(QStringLiteral("c1"), 0, 2, 1 << 20);
    QCOMPARE(first.documents.size(), 2);
    QCOMPARE(first.documents.at(0).value(QStringLiteral("n")).toString(), QStringLiteral("c"));
    QCOMPARE(first.documents.at(1).value(QStringLiteral("n")).toString(), QStringLiteral("a"));
    QVERIFY(first.more);
    const DocumentPage last = m_repo->documents(QStringLiteral("c1"), 2, 2, 1 << 20);
    QCOMPARE(last.documents.size(), 1);
    QCOMPARE(last.documents.at(0).value(QStringLiteral("n")).toString(), QStringLiteral("b"));
    QVERIFY(!last.more);
    // A byte limit below one document: one per page.
    const DocumentPage small = m_repo->documents(QStringLiteral("c1"), 0, 100, 1);
    QCOMPARE(small.documents.size(), 1);
    QVERIFY(small.more);
}

void tst_CrawlRepository::putsLoadingPagesBackInTheQueueAtARestart()
{
    crawl(QStringLiteral("c1"), QStringLiteral("scraping"), m_clock.nowMs() + 1000);
    m_repo->addPage(QStringLiteral("c1"), QStringLiteral("http://site.example/a"), 0,
                    QStringLiteral("queued"));
    m_repo->markLoading(QStringLiteral("c1"), 0, QStringLiteral("req_1"));
    QVERIFY(!m_repo->nextQueued(QStringLiteral("c1")));
    m_repo->requeueLoading(QStringLiteral("c1"));
    QCOMPARE(m_repo->nextQueued(QStringLiteral("c1"))->url,
             QStringLiteral("http://site.example/a"));
}

void tst_CrawlRepository::deletesExpiredCrawlsButNotRunningOnes()
{
    crawl(QStringLiteral("done"), QStringLiteral("completed"), m_clock.nowMs() + 1000);
    crawl(QStringLiteral("running"), QStringLiteral("scraping"), m_clock.nowMs() + 1000);
    crawl(QStringLiteral("fresh"), QStringLiteral("completed"), m_clock.nowMs() + 5000);
    m_repo->addPage(QStringLiteral("done"), QStringLiteral("http://site.example/a"), 0,
                    QStringLiteral("queued"));
    m_clock.advance(2000);
    QCOMPARE(m_repo->purgeExpired(m_clock.nowMs()), 1);
    QVERIFY(!m_repo->find(QStringLiteral("done")));
    QCOMPARE(m_repo->pageCount(QStringLiteral("done")), 0);
    QVERIFY(m_repo->find(QStringLiteral("running")));
    QVERIFY(m_repo->find(QStringLiteral("fresh")));
}

QTEST_GUILESS_MAIN(tst_CrawlRepository)
#include "tst_crawlrepository.moc"
