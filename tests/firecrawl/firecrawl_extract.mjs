// Firecrawl's own JavaScript SDK (@mendable/firecrawl-js) running extract and agent jobs
// on Pilothouse's Firecrawl-compatible API to their end.
// node firecrawl_extract.mjs <apiUrl> <apiKey> <siteBase> <mode: rule|model>
// Prints what each call gave as one JSON line; tst_firecrawl judges it.
import Firecrawl from '@mendable/firecrawl-js';

const [apiUrl, apiKey, site, mode] = process.argv.slice(2);
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

const products = { type: 'array', items: { type: 'object', properties: {
  name: { type: 'string' }, price: { type: 'number' } } } };

if (mode === 'model') {
  await attempt('agent', async () => app.agent({ prompt: 'Which pilot is on duty tonight?',
    urls: [`${site}/page.html`], pollInterval: 1, timeout: 120 }));
} else {
  await attempt('extract', async () => app.extract({
    urls: [`${site}/shop.html`, `${site}/shop2.html`], prompt: 'List the products with their prices',
    schema: products, pollInterval: 1, timeout: 120 }));
  await attempt('agent', async () => app.agent({ prompt: 'List the products with their prices',
    urls: [`${site}/shop.html`], schema: products, pollInterval: 1, timeout: 120 }));
  await attempt('wildcard', async () =>
    app.startExtract({ urls: [`${site}/*`], prompt: 'everything' }));
  await attempt('unknownJob', async () => app.getExtractStatus('fcx_not_a_job'));
  await attempt('model', async () =>
    app.startAgent({ prompt: 'p', urls: [`${site}/shop.html`], model: 'spark-1-pro' }));
}
console.log(JSON.stringify(out));
