// Crawl and batch scrape through Firecrawl's own JavaScript SDK (@mendable/firecrawl-js)
// against Pilothouse's Firecrawl-compatible API:
// node firecrawl_crawl.mjs <apiUrl> <apiKey> <siteBase> <hookUrl>.
// Prints what each call gave as one JSON line; tst_firecrawlcrawl judges it.
import Firecrawl from '@mendable/firecrawl-js';

const [apiUrl, apiKey, site, hookUrl] = process.argv.slice(2);
const app = new Firecrawl({ apiKey, apiUrl, maxRetries: 1 });
const out = {};

async function attempt(name, call) {
  try {
    out[name] = await call();
  } catch (e) {
    out[name] = { thrown: true, status: e.status ?? e.statusCode ?? null, code: e.code ?? null,
                  message: String(e.message ?? e) };
  }
}

const urlsOf = (docs) => (docs ?? []).map((d) => d.metadata?.sourceURL ?? null);

// A whole crawl, waited for by the SDK, its pages gathered through every `next`.
await attempt('crawl', async () => {
  const job = await app.crawl(`${site}/docs/index.html`, {
    limit: 20, excludePaths: ['skip'], scrapeOptions: { formats: ['markdown'] },
    pollInterval: 1, timeout: 120 });
  return { status: job.status, completed: job.completed, total: job.total, next: job.next,
           creditsUsed: job.creditsUsed, expiresAt: job.expiresAt, urls: urlsOf(job.data),
           markdown: job.data?.map((d) => d.markdown ?? '') };
});
// The same crawl read one page at a time: an absolute `next` to follow by hand.
await attempt('paged', async () => {
  const started = await app.startCrawl(`${site}/docs/index.html`, { limit: 3, sitemap: 'skip' });
  let status;
  do {
    await new Promise((r) => setTimeout(r, 500));
    status = await app.getCrawlStatus(started.id, { autoPaginate: false });
  } while (status.status === 'scraping');
  const pages = [status.data.length];
  let next = status.next;
  const nexts = [next];
  while (next) {
    const res = await fetch(next, { headers: { Authorization: `Bearer ${apiKey}` } });
    const body = await res.json();
    pages.push(body.data.length);
    next = body.next ?? null;
    nexts.push(next);
  }
  return { id: started.id, url: started.url, status: status.status, pages, nexts };
});
await attempt('depth', async () => {
  const job = await app.crawl(`${site}/docs/index.html`, {
    maxDiscoveryDepth: 1, sitemap: 'skip', pollInterval: 1, timeout: 120 });
  return { status: job.status, urls: urlsOf(job.data) };
});
await attempt('include', async () => {
  const job = await app.crawl(`${site}/docs/index.html`, {
    includePaths: ['^/docs/b'], limit: 2, sitemap: 'skip', crawlEntireDomain: true,
    pollInterval: 1, timeout: 120 });
  return { status: job.status, urls: urlsOf(job.data) };
});
await attempt('errors', async () => {
  const job = await app.crawl(`${site}/docs/index.html`, {
    limit: 20, allowExternalLinks: true, pollInterval: 1, timeout: 120 });
  const errors = await app.getCrawlErrors(job.id);
  return { status: job.status, ...errors };
});
await attempt('cancel', async () => {
  const started = await app.startCrawl(`${site}/docs/index.html`, { delay: 30, limit: 5 });
  const active = await app.getActiveCrawls();
  const cancelled = await app.cancelCrawl(started.id);
  const status = await app.getCrawlStatus(started.id);
  return { cancelled, status: status.status,
           listed: active.crawls.some((c) => c.id === started.id && c.url) };
});
await attempt('batch', async () => {
  const job = await app.batchScrape(
    [`${site}/docs/a.html`, `${site}/docs/b.html`, 'mailto:nobody@example.invalid'],
    { options: { formats: ['markdown', 'links'] }, ignoreInvalidURLs: true, pollInterval: 1,
      timeout: 120 });
  return { status: job.status, completed: job.completed, total: job.total, urls: urlsOf(job.data),
           markdown: job.data?.map((d) => d.markdown ?? '') };
});
await attempt('hooked', async () => {
  const job = await app.crawl(`${site}/docs/a.html`, {
    limit: 1, sitemap: 'skip', pollInterval: 1, timeout: 120,
    webhook: { url: hookUrl, metadata: { run: 'pilothouse-test' },
               events: ['started', 'page', 'completed'] } });
  return { id: job.id ?? null, status: job.status, completed: job.completed };
});
await attempt('unknown', async () => app.getCrawlStatus('00000000-0000-0000-0000-000000000000'));
console.log(JSON.stringify(out));
