// Firecrawl's own JavaScript SDK (@mendable/firecrawl-js) against Pilothouse's
// Firecrawl-compatible API: node firecrawl_sdk.mjs <apiUrl> <apiKey> <siteBase>.
// Prints what each call gave as one JSON line; tst_firecrawl judges it.
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';

const [apiUrl, apiKey, site] = process.argv.slice(2);
const app = new Firecrawl({ apiKey, apiUrl, maxRetries: 1 });
const out = {};

async function attempt(name, call) {
  try {
    out[name] = await call();
  } catch (e) {
    out[name] = { thrown: true, status: e.status ?? e.statusCode ?? null, code: e.code ?? null,
                  message: String(e.message ?? e), details: e.details ?? null };
  }
}

await attempt('scrape', async () => {
  const doc = await app.scrape(`${site}/page.html`, {
    formats: ['markdown', 'html', 'rawHtml', 'links'], origin: 'pilothouse-test',
    integration: 'none', waitFor: 10 });
  return { markdown: doc.markdown, html: doc.html, rawHtml: doc.rawHtml, links: doc.links,
           metadata: doc.metadata };
});
await attempt('cached', async () => {
  const doc = await app.scrape(`${site}/page.html`, {
    formats: ['markdown', 'html', 'rawHtml', 'links'], waitFor: 10, maxAge: 600000 });
  return { markdown: doc.markdown, metadata: doc.metadata };
});
await attempt('json', async () => {
  const doc = await app.scrape(`${site}/shop.html`, { formats: [{ type: 'json',
    prompt: 'List the products with their prices',
    schema: { type: 'array', items: { type: 'object', properties: {
      name: { type: 'string' }, price: { type: 'number' } } } } }] });
  return { json: doc.json ?? null, warning: doc.warning ?? null, metadata: doc.metadata };
});
await attempt('map', async () => app.map(`${site}/page.html`, { limit: 50 }));
await attempt('mapSearch', async () => app.map(`${site}/page.html`, { search: 'sitemap' }));
await attempt('search', async () =>
  app.search('harbor', { limit: 2, scrapeOptions: { formats: ['markdown'] } }));
await attempt('badKey', async () =>
  new Firecrawl({ apiKey: 'fc-not-a-pilothouse-key', apiUrl, maxRetries: 1 })
    .scrape(`${site}/page.html`));
await attempt('badField', async () =>
  app.scrape(`${site}/page.html`, { waitFor: 40000, timeout: 50000 }));
await attempt('unserved', async () =>
  app.scrape(`${site}/page.html`, { formats: ['summary'] }));
await attempt('v1scrape', async () => {
  const v1 = new FirecrawlAppV1({ apiKey, apiUrl });
  const doc = await v1.scrapeUrl(`${site}/page.html`, { formats: ['markdown', 'links'] });
  return { success: doc.success, markdown: doc.markdown, links: doc.links, metadata: doc.metadata };
});
await attempt('v1map', async () => {
  const v1 = new FirecrawlAppV1({ apiKey, apiUrl });
  return v1.mapUrl(`${site}/page.html`, {});
});
console.log(JSON.stringify(out));
