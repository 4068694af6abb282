// Firecrawl's own JavaScript SDK (@mendable/firecrawl-js) asking Pilothouse's
// Firecrawl-compatible scrape for screenshots: the format (viewport and full page, v2's
// object form) and the screenshot action; the json format after actions, and in a crawl.
// node firecrawl_screenshots.mjs <apiUrl> <key> <siteBase>
// Prints what each call gave as one JSON line; tst_firecrawl fetches the links and judges
// the pictures.
import Firecrawl from '@mendable/firecrawl-js';

const [apiUrl, apiKey, site] = process.argv.slice(2);
const client = new Firecrawl({ apiKey, apiUrl, maxRetries: 1 });
const out = {};

async function attempt(name, call) {
  try {
    out[name] = await call();
  } catch (e) {
    out[name] = { thrown: true, status: e.status ?? e.statusCode ?? null, code: e.code ?? null,
                  message: String(e.message ?? e) };
  }
}

await attempt('viewport', async () => {
  const doc = await client.scrape(`${site}/long.html`, { formats: ['markdown', 'screenshot'] });
  return { screenshot: doc.screenshot ?? null, markdown: doc.markdown ?? null };
});
await attempt('fullPage', async () => {
  const doc = await client.scrape(`${site}/long.html`,
    { formats: [{ type: 'screenshot', fullPage: true, quality: 80 }] });
  return { screenshot: doc.screenshot ?? null };
});
await attempt('action', async () => {
  const doc = await client.scrape(`${site}/form.html`, { formats: ['markdown'], actions: [
    { type: 'screenshot' },
    { type: 'click', selector: '#name' },
    { type: 'write', text: 'Ada' },
    { type: 'click', selector: '#go' },
    { type: 'screenshot', fullPage: true }] });
  return { markdown: doc.markdown ?? null, actions: doc.actions ?? null };
});
const rows = { type: 'array', items: { type: 'object', properties: {
  name: { type: 'string' }, price: { type: 'number' } } } };
await attempt('jsonAfterActions', async () => {
  const doc = await client.scrape(`${site}/cart.html`, { formats: [{ type: 'json', schema: rows }],
    actions: [{ type: 'click', selector: '#add' }] });
  return { json: doc.json ?? null, warning: doc.warning ?? null };
});
await attempt('crawlJson', async () => {
  const job = await client.crawl(`${site}/shop.html`, { limit: 1, sitemap: 'skip',
    scrapeOptions: { formats: ['markdown', { type: 'json', schema: rows }] },
    pollInterval: 1, timeout: 120 });
  return { status: job.status, json: (job.data ?? []).map((d) => d.json ?? null) };
});
console.log(JSON.stringify(out));
