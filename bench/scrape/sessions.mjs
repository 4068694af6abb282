// bench/scrape, sessions mode (BENCH_MODE=sessions, or run.sh --sessions): each of 4
// workers creates one browser session (POST /sessions) and runs /scrape with
// `browserSession` against the bench's fixture pages — concurrency 4, one session per
// worker, the session's warm tab doing the work — and, measured in the same run,
// playwright-core driving Debian's chromium with ONE reused page (chromium.launch with
// executablePath /usr/bin/chromium; page.goto + page.content() in a loop): the figure
// users compare against. Prints pages/s, p50 and p95 of both and the ratio (issue 30's
// target: >= 3x).
import { chromium } from 'playwright-core';
import { chromiumArgs, percentile, startPilothouse, startSite } from '../lib.mjs';

const total = +(process.env.BENCH_PAGES || 200);
const workers = +(process.env.BENCH_SESSIONS || 4);
const formats = (process.env.BENCH_FORMATS || 'text').split(',');
const exe = process.env.CHROMIUM || '/usr/bin/chromium';
const fmt = (n, d = 1) => n.toFixed(d).padStart(8);

// Runs `task(worker, i)` for i in [0, count) on `n` workers, each its own state.
async function loadPerWorker(n, count, task) {
  let next = 0;
  let errors = 0;
  const latencies = [];
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: n }, async (_, w) => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const s = process.hrtime.bigint();
      try { if (!(await task(w, i))) errors++; } catch { errors++; }
      latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  latencies.sort((a, b) => a - b);
  return { perSecond: count / seconds, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), errors };
}

const { server, base: site } = await startSite(total);
// One session per worker: the per-key and global session limits made room for them.
const ph = await startPilothouse(['--set', `sessions.perKey=${workers}`,
  '--set', `sessions.max=${Math.max(6, workers)}`]);
let stopped = false;
process.on('exit', () => { if (!stopped) ph.child.kill('SIGTERM'); });
const api = (method, path, body) => fetch(`${ph.base}${path}`, {
  method,
  headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});

const sessions = [];
for (let w = 0; w < workers; w++) {
  const res = await api('POST', '/sessions', {});
  const body = await res.json();
  if (!res.ok) throw new Error(`POST /sessions answered ${res.status}: ${JSON.stringify(body)}`);
  sessions.push(body.id);
}
async function scrapeInSession(w, i) {
  const res = await api('POST', '/scrape', {
    urls: [`${site}/p${i % total}.html`], formats, browserSession: { id: sessions[w] },
  });
  const body = await res.json();
  const r = body.results?.[0];
  return res.ok && r?.status === 'success' && (r.text ?? r.html ?? '').includes(`Product page ${i % total}`);
}
await loadPerWorker(workers, 2 * workers, scrapeInSession); // warm-up: each session's first tab
const ours = await loadPerWorker(workers, total, scrapeInSession);
for (const id of sessions) await api('DELETE', `/sessions/${id}`);
await ph.stop();
stopped = true;

// The peer: one browser, one page, reused for every URL, one after the other.
const browser = await chromium.launch({ executablePath: exe, args: chromiumArgs });
const page = await browser.newPage();
async function playwrightOne(_, i) {
  await page.goto(`${site}/p${i % total}.html`);
  return (await page.content()).includes(`Product page ${i % total}`);
}
for (let i = 0; i < 8; i++) await playwrightOne(0, i);
const theirs = await loadPerWorker(1, total, playwrightOne);
await browser.close();
server.close();

const row = (r) => `${fmt(r.perSecond)}  ${fmt(r.p50, 0)}  ${fmt(r.p95, 0)} ${String(r.errors).padStart(6)}`;
console.log(`\nbench/scrape --sessions: ${total} pages, formats ${formats.join(',')}\n`);
console.log('who'.padEnd(62) + ' |  pages/s    p50 ms    p95 ms errors');
console.log(`${`Pilothouse /scrape in a session, ${workers} sessions, concurrency ${workers}`.padEnd(62)} | ${row(ours)}`);
console.log(`${`playwright-core on ${exe}, one reused page`.padEnd(62)} | ${row(theirs)}`);
const ratio = ours.perSecond / theirs.perSecond;
console.log(`\ntarget: sessions at concurrency ${workers} >= 3x playwright-core with a reused page -> ${ratio.toFixed(2)}x ${ratio >= 3 ? 'MET' : 'NOT MET'}`);
