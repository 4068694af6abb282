// bench/scrape, sessions mode (BENCH_MODE=sessions, or run.sh --sessions): each of 4
// workers creates one browser session (POST /sessions) and runs /scrape with
// `browserSession` against the bench's fixture pages — concurrency 4, one session per
// worker, the session's warm tab doing the work — and, measured in the same run,
// playwright-core driving Debian's chromium with ONE reused page (chromium.launch with
// executablePath /usr/bin/chromium; page.goto + page.content() in a loop): the figure
// users compare against. The two take turns, BENCH_ROUNDS rounds of BENCH_PAGES pages
// each (who goes first alternates), so that other work on the machine weighs on both
// alike; both stay warm between turns. Prints pages/s, p50 and p95 of all rounds
// together, the browser side's CPU per page (Pilothouse's process tree; the peer's
// chromium tree), each round's ratio, the load average, and the ratio of all rounds
// together against issue 30's target (>= 3x).
import fs from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { chromiumArgs, percentile, startPilothouse, startSite } from '../lib.mjs';

const total = +(process.env.BENCH_PAGES || 200);
const rounds = +(process.env.BENCH_ROUNDS || 3);
const workers = +(process.env.BENCH_SESSIONS || 4);
const formats = (process.env.BENCH_FORMATS || 'text').split(',');
const exe = process.env.CHROMIUM || '/usr/bin/chromium';
const fmt = (n, d = 1) => n.toFixed(d).padStart(8);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

// CPU seconds (user + system) of the process `root` and all under it; with `skip`, of the
// processes under `root` only, `skip`'s subtree left out (the peer's chromium: this
// script's children but Pilothouse).
function treeCpu(root, skip = 0) {
  const children = new Map();
  const cpu = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!children.has(+f[1])) children.set(+f[1], []);
      children.get(+f[1]).push(+d);
      cpu.set(+d, (+f[11] + +f[12]) / 100); // utime + stime, in clock ticks (100 a second)
    } catch { /* gone */ }
  }
  let seconds = 0;
  const visit = (pid) => {
    if (pid === skip) return;
    seconds += cpu.get(pid) || 0;
    for (const c of children.get(pid) || []) visit(c);
  };
  if (skip) for (const c of children.get(root) || []) visit(c);
  else visit(root);
  return seconds;
}

// Runs `task(worker, i)` for i in [0, count) on `n` workers, each its own state; the
// latencies go to `latencies`, the CPU of `cpuOf()` over the run is measured.
async function loadPerWorker(n, count, task, latencies, cpuOf) {
  let next = 0;
  let errors = 0;
  const cpu0 = cpuOf();
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
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, errors, cpu: cpuOf() - cpu0 };
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

// The peer: one browser, one page, reused for every URL, one after the other.
const browser = await chromium.launch({ executablePath: exe, args: chromiumArgs });
const page = await browser.newPage();
async function playwrightOne(_, i) {
  await page.goto(`${site}/p${i % total}.html`);
  return (await page.content()).includes(`Product page ${i % total}`);
}

const loadAtStart = load();
const noLatencies = [];
await loadPerWorker(workers, 2 * workers, scrapeInSession, noLatencies, () => 0); // each session's first tab
await loadPerWorker(1, 8, playwrightOne, noLatencies, () => 0);
const sides = {
  ours: { run: () => loadPerWorker(workers, total, scrapeInSession, sides.ours.latencies,
    () => treeCpu(ph.child.pid)), latencies: [], turns: [] },
  theirs: { run: () => loadPerWorker(1, total, playwrightOne, sides.theirs.latencies,
    () => treeCpu(process.pid, ph.child.pid)), latencies: [], turns: [] },
};
for (let round = 0; round < rounds; round++) {
  for (const side of round % 2 ? ['theirs', 'ours'] : ['ours', 'theirs'])
    sides[side].turns.push(await sides[side].run());
}
const loadAtEnd = load();
for (const id of sessions) await api('DELETE', `/sessions/${id}`);
await ph.stop();
stopped = true;
await browser.close();
server.close();

function summary(side) {
  const { turns, latencies } = sides[side];
  const seconds = turns.reduce((a, t) => a + t.seconds, 0);
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (total * turns.length) / seconds,
    p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95),
    errors: turns.reduce((a, t) => a + t.errors, 0),
    cpuMs: (1000 * turns.reduce((a, t) => a + t.cpu, 0)) / (total * turns.length),
  };
}
const ours = summary('ours');
const theirs = summary('theirs');
const row = (r) => `${fmt(r.perSecond)}  ${fmt(r.p50, 0)}  ${fmt(r.p95, 0)} ${String(r.errors).padStart(6)} | ${fmt(r.cpuMs)}`;
console.log(`\nbench/scrape --sessions: ${total} pages per turn, ${rounds} rounds taking turns, formats ${formats.join(',')}`);
console.log(`load average (1, 5, 15 min) at the start ${loadAtStart}, at the end ${loadAtEnd}; ${os.cpus().length} cores\n`);
console.log('who'.padEnd(62) + ' |  pages/s    p50 ms    p95 ms errors | CPU ms/page');
console.log(`${`Pilothouse /scrape in a session, ${workers} sessions, concurrency ${workers}`.padEnd(62)} | ${row(ours)}`);
console.log(`${`playwright-core on ${exe}, one reused page`.padEnd(62)} | ${row(theirs)}`);
console.log('\nround | Pilothouse pages/s | playwright pages/s | ratio');
for (let r = 0; r < rounds; r++) {
  const a = total / sides.ours.turns[r].seconds;
  const b = total / sides.theirs.turns[r].seconds;
  console.log(`${String(r + 1).padStart(5)} | ${fmt(a).padStart(18)} | ${fmt(b).padStart(18)} | ${fmt(a / b, 2)}x`);
}
const ratio = ours.perSecond / theirs.perSecond;
console.log(`\ntarget: sessions at concurrency ${workers} >= 3x playwright-core with a reused page -> ${ratio.toFixed(2)}x ${ratio >= 3 ? 'MET' : 'NOT MET'}`);
