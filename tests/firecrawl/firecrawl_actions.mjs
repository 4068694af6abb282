// Firecrawl's own JavaScript SDK (@mendable/firecrawl-js) driving pages through
// Pilothouse's Firecrawl-compatible scrape: actions, tag filters, and the script grant.
// node firecrawl_actions.mjs <apiUrl> <ownerKey> <plainKey> <scriptKey> <siteBase>
// Prints what each call gave as one JSON line; tst_firecrawl judges it.
import Firecrawl from '@mendable/firecrawl-js';

const [apiUrl, ownerKey, plainKey, scriptKey, site] = process.argv.slice(2);
const client = (apiKey) => new Firecrawl({ apiKey, apiUrl, maxRetries: 1 });
const owner = client(ownerKey);
const out = {};

async function attempt(name, call) {
  try {
    out[name] = await call();
  } catch (e) {
    out[name] = { thrown: true, status: e.status ?? e.statusCode ?? null, code: e.code ?? null,
                  message: String(e.message ?? e), details: e.details ?? null };
  }
}

const form = `${site}/form.html`;
const fill = [
  { type: 'click', selector: '#name' },
  { type: 'write', text: 'Ada' },
  { type: 'click', selector: '#go' },
  { type: 'click', selector: '#q' },
  { type: 'write', text: 'tug' },
  { type: 'press', key: 'Enter' },
  { type: 'wait', selector: '#pressed.done' },
  { type: 'scroll', direction: 'down' },
  { type: 'scrape' },
];

await attempt('actions', async () => {
  const doc = await owner.scrape(form, { formats: ['markdown', 'html'], actions: fill });
  return { markdown: doc.markdown, html: doc.html, actions: doc.actions ?? null };
});
await attempt('script', async () => {
  const doc = await owner.scrape(form, { formats: ['markdown'], actions: [
    { type: 'executeJavascript', script: "document.getElementById('out').textContent = 'set by script'; 6 * 7" },
    { type: 'executeJavascript', script: 'document.title' }] });
  return { markdown: doc.markdown, actions: doc.actions ?? null };
});
await attempt('scriptRefused', async () =>
  client(plainKey).scrape(form, { actions: [{ type: 'click', selector: '#go' },
    { type: 'executeJavascript', script: '1' }] }));
await attempt('scriptInSearch', async () =>
  client(plainKey).search('harbor', { limit: 1, scrapeOptions: { formats: ['markdown'],
    actions: [{ type: 'executeJavascript', script: '1' }] } }));
await attempt('scriptGranted', async () => {
  const doc = await client(scriptKey).scrape(form, { actions: [
    { type: 'executeJavascript', script: "document.querySelector('h1').textContent" }] });
  return { actions: doc.actions ?? null };
});
await attempt('missingSelector', async () =>
  owner.scrape(form, { actions: [{ type: 'click', selector: '#nope' }] }));
await attempt('writeWithoutFocus', async () =>
  owner.scrape(form, { actions: [{ type: 'write', text: 'lost' }] }));
await attempt('includeTags', async () => {
  const doc = await owner.scrape(form, { formats: ['markdown', 'html'], includeTags: ['#story'] });
  return { markdown: doc.markdown, html: doc.html };
});
await attempt('includeBody', async () => {
  const doc = await owner.scrape(form, { formats: ['html'], includeTags: ['body'] });
  return { html: doc.html };
});
await attempt('excludeTags', async () => {
  const doc = await owner.scrape(form, { formats: ['html'], excludeTags: ['.ads', 'nav'] });
  return { html: doc.html };
});
await attempt('headers', async () => {
  const doc = await owner.scrape(`${site}/headers.html`, { formats: ['markdown'],
    headers: { 'X-Pilot': 'Ada', Cookie: 'session=1' } });
  return { markdown: doc.markdown };
});
await attempt('mobile', async () => {
  const doc = await owner.scrape(`${site}/device.html`, { formats: ['markdown'], mobile: true });
  return { markdown: doc.markdown, metadata: doc.metadata };
});
await attempt('badSelector', async () =>
  owner.scrape(form, { formats: ['html'], excludeTags: ['[[nope'] }));
console.log(JSON.stringify(out));
