// bench/scrape: 200 generated pages on a loopback server, /scrape at concurrency 1, 4
// and 8 (one URL per request, every request isolated), beside playwright-core driving
// Debian's chromium through the same work (new context per page: goto, innerText, aria
// snapshot). Prints pages/s, p50, p95, the ratios, headless start-to-ready time, and the
// cost per page of the polyfills (the same work with browser.polyfills off and on).
import { chromium } from 'playwright-core';
import { load, startPilothouse, startSite, chromiumArgs } from '../lib.mjs';

const total = +(process.env.BENCH_PAGES || 200);
const levels = (process.env.BENCH_CONCURRENCY || '1,4,8').split(',').map(Number);
const fmt = (n, d = 1) => n.toFixed(d).padStart(8);

const { server, base: site } = await startSite(total);

// Start-to-ready: spawn to "listening" line, best of three cold starts.
const readies = [];
for (let i = 0; i < 3; i++) {
  const ph = await startPilothouse();
  const t = process.hrtime.bigint();
  const res = await fetch(`${ph.base}/health`);
  readies.push({ listening: ph.readyMs, firstAnswer: ph.readyMs + Number(process.hrtime.bigint() - t) / 1e6, ok: res.ok });
  await ph.stop();
}

const ph = await startPilothouse();
// `browser`: the request's browser object; absent, the pool's default (polyfills on).
async function scrapeOne(i, browser) {
  const res = await fetch(`${ph.base}/scrape`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ urls: [`${site}/p${i % total}.html`], formats: ['text', 'ariaSnapshot', 'links'], browser }),
  });
  const body = await res.json();
  return res.ok && body.results?.[0]?.status === 'success' && body.results[0].text.includes(`Product page ${i % total}`);
}
await load(8, 4, scrapeOne); // warm-up: first renderer, first page agent compile
const ours = {};
for (const c of levels) ours[c] = await load(total, c, (i) => scrapeOne(i));
// The polyfills' cost per page: the same work with them off and on (the request's
// browser.polyfills), alternating, twice each, at concurrency 1 and 4.
const polyLevels = levels.filter((c) => c === 1 || c === 4);
const poly = {};
for (const c of polyLevels) {
  const runs = { off: [], on: [] };
  for (let round = 0; round < 2; round++) {
    for (const mode of ['off', 'on'])
      runs[mode].push(await load(total, c, (i) => scrapeOne(i, { polyfills: mode === 'on' })));
  }
  const merge = (rs) => ({ perSecond: rs.reduce((a, r) => a + r.perSecond, 0) / rs.length,
                           p50: rs.reduce((a, r) => a + r.p50, 0) / rs.length,
                           p95: rs.reduce((a, r) => a + r.p95, 0) / rs.length,
                           errors: rs.reduce((a, r) => a + r.errors, 0) });
  poly[c] = { off: merge(runs.off), on: merge(runs.on) };
}
await ph.stop();

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
async function playwrightOne(i) {
  const context = await browser.newContext(); // isolation, as Pilothouse gives every request
  try {
    const page = await context.newPage();
    await page.goto(`${site}/p${i % total}.html`);
    const text = await page.innerText('body');
    await page.locator('body').ariaSnapshot();
    await page.$$eval('a[href]', (as) => as.map((a) => a.href));
    return text.includes(`Product page ${i % total}`);
  } finally {
    await context.close();
  }
}
await load(8, 4, playwrightOne);
const theirs = {};
for (const c of levels) theirs[c] = await load(total, c, playwrightOne);
await browser.close();
server.close();

console.log(`\nbench/scrape: ${total} pages, one URL per request, every request isolated\n`);
console.log('concurrency | Pilothouse pages/s    p50 ms    p95 ms errors | Playwright pages/s    p50 ms    p95 ms errors | ratio');
for (const c of levels) {
  const a = ours[c], b = theirs[c];
  console.log(`${String(c).padStart(11)} | ${fmt(a.perSecond)}         ${fmt(a.p50, 0)}  ${fmt(a.p95, 0)} ${String(a.errors).padStart(6)} | ${fmt(b.perSecond)}         ${fmt(b.p50, 0)}  ${fmt(b.p95, 0)} ${String(b.errors).padStart(6)} | ${fmt(a.perSecond / b.perSecond, 2)}x`);
}
const best = readies.reduce((x, y) => (x.listening < y.listening ? x : y));
console.log(`\nheadless start to ready: ${best.listening.toFixed(0)} ms to the "listening" line, ${best.firstAnswer.toFixed(0)} ms to the first answer (best of ${readies.length}; target < 1000 ms)`);
const c4 = levels.includes(4) ? 4 : levels[0];
const ratio = ours[c4].perSecond / theirs[c4].perSecond;
console.log(`target at concurrency ${c4}: Pilothouse >= 3x Playwright pages/s -> ${ratio.toFixed(2)}x ${ratio >= 3 ? 'MET' : 'NOT MET'}; p95 below Playwright's -> ${ours[c4].p95.toFixed(0)} vs ${theirs[c4].p95.toFixed(0)} ms ${ours[c4].p95 < theirs[c4].p95 ? 'MET' : 'NOT MET'}`);

console.log(`\npolyfills' cost per page (${total} pages per run, off and on alternating, mean of 2 runs each)\n`);
console.log('concurrency | polyfills off pages/s    p50 ms    p95 ms | polyfills on pages/s    p50 ms    p95 ms | on/off pages/s  on-off p95 ms');
for (const c of polyLevels) {
  const { off, on } = poly[c];
  console.log(`${String(c).padStart(11)} | ${fmt(off.perSecond)}             ${fmt(off.p50, 0)}  ${fmt(off.p95, 0)} | ${fmt(on.perSecond)}            ${fmt(on.p50, 0)}  ${fmt(on.p95, 0)} | ${fmt(on.perSecond / off.perSecond, 3)}x      ${fmt(on.p95 - off.p95, 0)}` +
    (off.errors + on.errors ? `  (${off.errors + on.errors} errors)` : ''));
}
