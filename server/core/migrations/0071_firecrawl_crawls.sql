-- Crawls and batch scrapes of the Firecrawl-compatible API (docs/api/firecrawl.md#crawl):
-- one row per crawl of an API key, and one per URL it found (its frontier: queued, loading;
-- its results: done with the document, failed with the error, blocked by robots.txt).
-- A restart resumes every crawl still scraping from these rows (decisions.md).
CREATE TABLE firecrawl_crawls (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    url TEXT NOT NULL,
    options TEXT NOT NULL,
    webhook TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    seeded INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    credits REAL NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    expires_at INTEGER NOT NULL
);
CREATE INDEX firecrawl_crawls_by_key ON firecrawl_crawls(key_id, status);
CREATE INDEX firecrawl_crawls_by_status ON firecrawl_crawls(status);

CREATE TABLE firecrawl_crawl_pages (
    crawl_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    url TEXT NOT NULL,
    depth INTEGER NOT NULL,
    state TEXT NOT NULL,
    scrape_id TEXT NOT NULL DEFAULT '',
    document TEXT,
    bytes INTEGER NOT NULL DEFAULT 0,
    done_order INTEGER,
    error TEXT NOT NULL DEFAULT '',
    finished_at INTEGER,
    PRIMARY KEY (crawl_id, seq)
);
CREATE UNIQUE INDEX firecrawl_crawl_pages_by_url ON firecrawl_crawl_pages(crawl_id, url);
CREATE INDEX firecrawl_crawl_pages_by_state ON firecrawl_crawl_pages(crawl_id, state, seq);
CREATE INDEX firecrawl_crawl_pages_by_done ON firecrawl_crawl_pages(crawl_id, done_order);
