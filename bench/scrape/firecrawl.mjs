// bench/scrape, Firecrawl mode (BENCH_MODE=firecrawl, or run.sh --firecrawl): only the
// Firecrawl-compatible API on one QtWebEngine Pilothouse: the same pages and formats
// (markdown, links) through /scrape and through /firecrawl/v2/scrape, alternating, twice
// each, at concurrency 1 and 4 (issue 31's target: within 10%), then the same scrape with
// page work (includeTags, and a scroll + scrape action) to show what that work costs.
// Prints pages/s, p50, p95, the ratios, and the machine's load average before and after.
import os from 'node:os';
import { load, startPilothouse, startSite } from '../lib.mjs';

const total = +(process.env.BENCH_PAGES || 200);
const levels = (process.env.BENCH_CONCURRENCY || '1,4').split(',').map(Number);
const fmt = (n, d = 1) => n.toFixed(d).padStart(8);

const { server, base: site } = await startSite(total);
const ph = await startPilothouse(['--set', 'browser.engine=qtwebengine']);
const post = (path, body) => fetch(`${ph.base}${path}`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const page = (i) => `${site}/p${i % total}.html`;
const expected = (i) => `Item ${i % total}-0`;

async function scrapeSame(i) {
  const res = await post('/scrape', { urls: [page(i)], formats: ['markdown', 'links'] });
  const body = await res.json();
  return res.ok && body.results?.[0]?.status === 'success' && body.results[0].markdown.includes(expected(i));
}
const firecrawl = (extra) => async (i) => {
  const res = await post('/firecrawl/v2/scrape', { url: page(i), formats: ['markdown', 'links'], ...extra });
  const body = await res.json();
  return res.ok && body.success === true && body.data.markdown.includes(expected(i));
};
const variants = {
  '/scrape': scrapeSame,
  '/firecrawl/v2/scrape': firecrawl({}),
  '  + includeTags': firecrawl({ includeTags: ['body'] }),
  '  + scroll, scrape actions': firecrawl({ actions: [{ type: 'scroll' }, { type: 'scrape' }] }),
};

const loadBefore = os.loadavg();
await load(8, 4, scrapeSame); // warm-up: the engine, first renderer, first agent compile
const results = {};
for (const c of levels) {
  const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let round = 0; round < 2; round++)
    for (const [name, task] of Object.entries(variants))
      runs[name].push(await load(total, c, task));
  const mean = (rs, k) => rs.reduce((a, r) => a + r[k], 0) / rs.length;
  results[c] = Object.fromEntries(Object.entries(runs).map(([k, rs]) => [k,
    { perSecond: mean(rs, 'perSecond'), p50: mean(rs, 'p50'), p95: mean(rs, 'p95'),
      errors: rs.reduce((a, r) => a + r.errors, 0) }]));
}
const loadAfter = os.loadavg();
await ph.stop();
server.close();

console.log(`\nthe Firecrawl-compatible API on qtwebengine: ${total} pages per run, mean of 2 runs each, formats markdown + links`);
console.log(`load average (1, 5, 15 min) before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} CPUs\n`);
console.log('concurrency | route                        |  pages/s   p50 ms   p95 ms | errors | vs /scrape');
for (const c of levels) {
  const base = results[c]['/scrape'].perSecond;
  for (const [name, r] of Object.entries(results[c])) {
    const ratio = r.perSecond / base;
    console.log(`${String(c).padStart(11)} | ${name.padEnd(28)} | ${fmt(r.perSecond)} ${fmt(r.p50, 0)} ${fmt(r.p95, 0)} | ${String(r.errors).padStart(6)} | ${ratio.toFixed(2)}x${name === '/firecrawl/v2/scrape' ? (ratio >= 0.9 ? '  (within 10%)' : '  (OVER 10% slower)') : ''}`);
  }
}
