// bench/scrape: 200 generated pages on a loopback server, /scrape at concurrency 1, 4
// and 8 (one URL per request, every request isolated) on each engine (QtWebEngine, and
// Debian's chromium over the DevTools protocol — its headless shell by default; one
// Pilothouse per engine, measured alone), beside playwright-core driving each of Debian's
// chromium builds (the full chromium, and the headless shell) through the same work (new
// context per page: goto, innerText, aria snapshot). Prints pages/s, p50, p95, the
// ratios, the memory of each (PSS of the whole process tree, peak at concurrency 4),
// headless start-to-ready time, and the cost per page of the polyfills (the same work
// with browser.polyfills off and on), and the same pages through the Firecrawl-compatible
// /firecrawl/v2/scrape beside /scrape asking the same formats (target: within 10%).
// BENCH_ENGINES picks the engines.
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { load, startPilothouse, startSite, chromiumArgs } from '../lib.mjs';

// Sessions mode (BENCH_MODE=sessions, run.sh --sessions): /scrape in one browser session
// per worker beside playwright-core with one reused page (sessions.mjs); nothing else.
if (process.env.BENCH_MODE === 'sessions' || process.argv.includes('--sessions')) {
  await import('./sessions.mjs');
  process.exit(0);
}
// Firecrawl mode (BENCH_MODE=firecrawl, run.sh --firecrawl): /firecrawl/v2/scrape beside
// /scrape on one engine, with and without page work (firecrawl.mjs); nothing else.
if (process.env.BENCH_MODE === 'firecrawl' || process.argv.includes('--firecrawl')) {
  await import('./firecrawl.mjs');
  process.exit(0);
}

// `chromium-full`: the chromium engine made to run the full chromium build instead of
// its default, the headless shell (browser.chromiumPath), to show what the build costs.
const engines = (process.env.BENCH_ENGINES || 'qtwebengine,chromium,chromium-full').split(',');
const engineArgs = (engine) => engine === 'chromium-full'
  ? ['--set', 'browser.engine=chromium', '--set', `browser.chromiumPath=${process.env.CHROMIUM || '/usr/bin/chromium'}`]
  : ['--set', `browser.engine=${engine}`];

// The proportional set size of a process and all its descendants, in MB.
function treePssMb(root) {
  const children = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = +stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(+d);
    } catch { /* gone */ }
  }
  let kb = 0;
  const visit = (pid) => {
    try {
      const m = /Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) kb += +m[1];
    } catch { /* gone */ }
    for (const c of children.get(pid) || []) visit(c);
  };
  visit(root);
  return kb / 1024;
}
// Runs `work` while sampling the tree's PSS every 200 ms; returns [result, peak MB].
async function withPeakPss(pid, work) {
  let peak = treePssMb(pid);
  const timer = setInterval(() => { peak = Math.max(peak, treePssMb(pid)); }, 200);
  try {
    const result = await work();
    return [result, Math.max(peak, treePssMb(pid))];
  } finally {
    clearInterval(timer);
  }
}

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

// `browser`: the request's browser object; absent, the pool's default (polyfills on).
async function scrapeOne(ph, i, browser) {
  const res = await fetch(`${ph.base}/scrape`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ urls: [`${site}/p${i % total}.html`], formats: ['text', 'ariaSnapshot', 'links'], browser }),
  });
  const body = await res.json();
  return res.ok && body.results?.[0]?.status === 'success' && body.results[0].text.includes(`Product page ${i % total}`);
}
// The same page and the same work (markdown and links) through /scrape and through the
// Firecrawl-compatible /firecrawl/v2/scrape: what the compatibility layer costs.
async function scrapeSame(ph, i) {
  const res = await fetch(`${ph.base}/scrape`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ urls: [`${site}/p${i % total}.html`], formats: ['markdown', 'links'] }),
  });
  const body = await res.json();
  return res.ok && body.results?.[0]?.status === 'success' && body.results[0].markdown.includes(`Item ${i % total}-0`);
}
async function firecrawlOne(ph, i) {
  const res = await fetch(`${ph.base}/firecrawl/v2/scrape`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: `${site}/p${i % total}.html`, formats: ['markdown', 'links'] }),
  });
  const body = await res.json();
  return res.ok && body.success === true && body.data.markdown.includes(`Item ${i % total}-0`);
}
// The chromium build a Pilothouse runs: the program of its chromium child.
function runningChromium(pid) {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (+stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] !== pid) continue;
      const exe = fs.readlinkSync(`/proc/${d}/exe`);
      if (/chrom/.test(exe)) return exe.split('/').pop();
    } catch { /* gone */ }
  }
  return 'unknown build';
}
const chromiumBuild = {};
const ours = {};
const memory = {};
let poly = {};
const firecrawl = {};
const polyLevels = levels.filter((c) => c === 1 || c === 4);
for (const engine of engines) {
  const ph = await startPilothouse(engineArgs(engine));
  await load(8, 4, (i) => scrapeOne(ph, i)); // warm-up: the engine, first renderer, first agent compile
  ours[engine] = {};
  for (const c of levels) {
    if (c === 4)
      [ours[engine][c], memory[engine]] = await withPeakPss(ph.child.pid, () => load(total, c, (i) => scrapeOne(ph, i)));
    else
      ours[engine][c] = await load(total, c, (i) => scrapeOne(ph, i));
  }
  if (engine.startsWith('chromium')) chromiumBuild[engine] = runningChromium(ph.child.pid);
  if (engine === 'qtwebengine') {
    // /firecrawl/v2/scrape beside /scrape, alternating, twice each, at concurrency 1 and 4.
    for (const c of polyLevels) {
      const runs = { scrape: [], firecrawl: [] };
      for (let round = 0; round < 2; round++) {
        runs.scrape.push(await load(total, c, (i) => scrapeSame(ph, i)));
        runs.firecrawl.push(await load(total, c, (i) => firecrawlOne(ph, i)));
      }
      const mean = (rs, k) => rs.reduce((a, r) => a + r[k], 0) / rs.length;
      firecrawl[c] = Object.fromEntries(Object.entries(runs).map(([k, rs]) => [k,
        { perSecond: mean(rs, 'perSecond'), p50: mean(rs, 'p50'), p95: mean(rs, 'p95'),
          errors: rs.reduce((a, r) => a + r.errors, 0) }]));
    }
    // The polyfills' cost per page: the same work with them off and on (the request's
    // browser.polyfills), alternating, twice each, at concurrency 1 and 4.
    for (const c of polyLevels) {
      const runs = { off: [], on: [] };
      for (let round = 0; round < 2; round++) {
        for (const mode of ['off', 'on'])
          runs[mode].push(await load(total, c, (i) => scrapeOne(ph, i, { polyfills: mode === 'on' })));
      }
      const merge = (rs) => ({ perSecond: rs.reduce((a, r) => a + r.perSecond, 0) / rs.length,
                               p50: rs.reduce((a, r) => a + r.p50, 0) / rs.length,
                               p95: rs.reduce((a, r) => a + r.p95, 0) / rs.length,
                               errors: rs.reduce((a, r) => a + r.errors, 0) });
      poly[c] = { off: merge(runs.off), on: merge(runs.on) };
    }
  }
  await ph.stop();
}

// The peer: playwright-core on each of Debian's chromium builds — the full `chromium` (the
// package the issue names; what `chromium.launch` gets with executablePath /usr/bin/chromium)
// and the headless shell the chromium engine runs by default (like for like).
const peers = [
  { name: 'chromium', exe: process.env.CHROMIUM || '/usr/bin/chromium' },
  { name: 'headless shell', exe: process.env.HEADLESS_SHELL || '/usr/lib/chromium/chromium-headless-shell' },
].filter((p) => fs.existsSync(p.exe));
const theirs = {};
const theirMemory = {};
for (const peer of peers) {
  const browser = await chromium.launch({ executablePath: peer.exe, args: chromiumArgs });
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
  theirs[peer.name] = {};
  for (const c of levels) {
    if (c === 4)
      [theirs[peer.name][c], theirMemory[peer.name]] = await withPeakPss(process.pid, () => load(total, c, playwrightOne));
    else
      theirs[peer.name][c] = await load(total, c, playwrightOne);
  }
  await browser.close();
}
server.close();

const row = (r) => `${fmt(r.perSecond)}  ${fmt(r.p50, 0)}  ${fmt(r.p95, 0)} ${String(r.errors).padStart(6)}`;
console.log(`\nbench/scrape: ${total} pages, one URL per request, every request isolated\n`);
console.log('who'.padEnd(50) + ' | concurrency |  pages/s    p50 ms    p95 ms errors');
for (const engine of engines)
  for (const c of levels)
    console.log(`${('Pilothouse on ' + engine + (chromiumBuild[engine] ? ` (${chromiumBuild[engine]})` : '')).padEnd(50)} | ${String(c).padStart(11)} | ${row(ours[engine][c])}`);
for (const peer of peers)
  for (const c of levels)
    console.log(`${('Playwright on ' + peer.name).padEnd(50)} | ${String(c).padStart(11)} | ${row(theirs[peer.name][c])}`);
console.log(`\nratio of pages/s, Pilothouse / Playwright:\n`);
console.log(`engine        | concurrency | ${peers.map((p) => ('vs Playwright on ' + p.name).padStart(32)).join(' | ')}`);
for (const engine of engines)
  for (const c of levels)
    console.log(`${engine.padEnd(13)} | ${String(c).padStart(11)} | ${peers.map((p) => `${fmt(ours[engine][c].perSecond / theirs[p.name][c].perSecond, 2)}x`.padStart(32)).join(' | ')}`);
console.log('\nmemory, peak PSS of the whole process tree at concurrency 4:');
for (const engine of engines) console.log(`  Pilothouse on ${engine.padEnd(26)} ${fmt(memory[engine], 0)} MB`);
for (const peer of peers) console.log(`  Playwright on ${peer.name.padEnd(26)} ${fmt(theirMemory[peer.name], 0)} MB`);
const best = readies.reduce((x, y) => (x.listening < y.listening ? x : y));
console.log(`\nheadless start to ready: ${best.listening.toFixed(0)} ms to the "listening" line, ${best.firstAnswer.toFixed(0)} ms to the first answer (best of ${readies.length}; target < 1000 ms)`);
const c4 = levels.includes(4) ? 4 : levels[0];
const reference = peers[0]; // the issue's figure: Playwright driving Debian's chromium
for (const engine of engines.filter((e) => e !== 'chromium-full')) { // the full build: for comparison
  const ratio = ours[engine][c4].perSecond / theirs[reference.name][c4].perSecond;
  console.log(`target at concurrency ${c4} on ${engine}: Pilothouse >= 3x Playwright on ${reference.name} pages/s -> ${ratio.toFixed(2)}x ${ratio >= 3 ? 'MET' : 'NOT MET'}; p95 below Playwright's -> ${ours[engine][c4].p95.toFixed(0)} vs ${theirs[reference.name][c4].p95.toFixed(0)} ms ${ours[engine][c4].p95 < theirs[reference.name][c4].p95 ? 'MET' : 'NOT MET'}`);
}

console.log(`\npolyfills' cost per page (${total} pages per run, off and on alternating, mean of 2 runs each)\n`);
console.log('concurrency | polyfills off pages/s    p50 ms    p95 ms | polyfills on pages/s    p50 ms    p95 ms | on/off pages/s  on-off p95 ms');
for (const c of polyLevels.filter((l) => poly[l])) {
  const { off, on } = poly[c];
  console.log(`${String(c).padStart(11)} | ${fmt(off.perSecond)}             ${fmt(off.p50, 0)}  ${fmt(off.p95, 0)} | ${fmt(on.perSecond)}            ${fmt(on.p50, 0)}  ${fmt(on.p95, 0)} | ${fmt(on.perSecond / off.perSecond, 3)}x      ${fmt(on.p95 - off.p95, 0)}` +
    (off.errors + on.errors ? `  (${off.errors + on.errors} errors)` : ''));
}

console.log(`\nthe Firecrawl-compatible API on qtwebengine: /firecrawl/v2/scrape beside /scrape, the same pages and formats (markdown, links), ${total} pages per run, mean of 2 runs each\n`);
console.log('concurrency |  /scrape pages/s    p95 ms | /firecrawl pages/s    p95 ms | ratio pages/s | target within 10%');
for (const c of polyLevels.filter((l) => firecrawl[l])) {
  const { scrape, firecrawl: fc } = firecrawl[c];
  const ratio = fc.perSecond / scrape.perSecond;
  console.log(`${String(c).padStart(11)} | ${fmt(scrape.perSecond)}        ${fmt(scrape.p95, 0)} | ${fmt(fc.perSecond)}           ${fmt(fc.p95, 0)} | ${fmt(ratio, 3)}x     | ${ratio >= 0.9 ? 'MET' : 'NOT MET'}` +
    (scrape.errors + fc.errors ? `  (${scrape.errors + fc.errors} errors)` : ''));
}
