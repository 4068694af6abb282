// bench/timing: the figures behind the timing limits that were taken out of the tests
// (see run.sh). Each measured BENCH_ROUNDS times; prints the median and the worst beside
// the old limit. Exits non-zero only when a request fails, never for a speed.
import http from 'node:http';
import net from 'node:net';
import { startPilothouse } from '../lib.mjs';

const engines = (process.env.BENCH_ENGINES || 'qtwebengine,chromium').split(',');
const rounds = Math.max(1, Math.floor(+(process.env.BENCH_ROUNDS || 5)));
const slowMs = 1200;
const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let failed = false;

// A loopback site whose pages answer after slowMs.
const site = http.createServer((req, res) => {
  setTimeout(() => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>slow</title><p>slow page ${req.url}</p>`);
  }, slowMs);
});
await new Promise((ok) => site.listen(0, '127.0.0.1', ok));
const siteBase = `http://127.0.0.1:${site.address().port}`;

async function scrapeThree(ph, round) {
  const t = now();
  const res = await fetch(`${ph.base}/scrape`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ urls: ['a', 'b', 'c'].map((x) => `${siteBase}/slow?${x}${round}`) }),
  });
  const body = await res.json();
  if (!res.ok || body.status !== 'success') {
    failed = true;
    console.error(`scrape failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return now() - t;
}

// Sends `head`, then `trickle` a byte every `everyMs`; resolves with the time until the
// server closes the connection (or answers with `until` in its reply) and the reply.
function raw(port, head, { trickle = '', everyMs = 150, until = null, timeoutMs = 10000 } = {}) {
  return new Promise((ok) => {
    const t = now();
    let reply = '';
    let timer = null;
    const socket = net.connect(port, '127.0.0.1', () => {
      if (head) socket.write(head);
      let next = 0;
      timer = setInterval(() => { if (next < trickle.length) socket.write(trickle[next++]); }, everyMs);
    });
    const done = () => { clearInterval(timer); clearTimeout(limit); socket.destroy(); ok({ ms: now() - t, reply }); };
    const limit = setTimeout(done, timeoutMs);
    socket.on('data', (d) => { reply += d; if (until && reply.includes(until)) done(); });
    socket.on('close', done);
    socket.on('error', done);
  });
}

// Twelve /scrape requests of a slow page at once (more than the pool has pages: loads,
// page creations and teardowns overlap) while /health is asked every 10 ms, one at a time;
// resolves with the worst gap between two answers, less the 10 ms pause: how long the
// server's event loop stalled (tst_browserpool, 1,000 ms).
async function loopGap(ph, round) {
  let busy = true;
  const loads = Promise.all(Array.from({ length: 12 }, (_, i) =>
    fetch(`${ph.base}/scrape`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ urls: [`${siteBase}/slow?gap${round}-${i}`] }),
    }).then(async (res) => {
      if (!res.ok) { failed = true; console.error(`scrape failed: ${res.status} ${(await res.text()).slice(0, 300)}`); }
    }))).finally(() => { busy = false; });
  let worst = 0;
  let last = now();
  while (busy) {
    const res = await fetch(`${ph.base}/health`, { headers: { Authorization: `Bearer ${ph.key}` } });
    await res.arrayBuffer();
    const t = now();
    worst = Math.max(worst, t - last);
    await new Promise((ok) => setTimeout(ok, 10));
    last = now();
  }
  await loads;
  return worst;
}

const rows = [];
const row = (what, xs, limit) => rows.push({ what, median: median(xs), worst: Math.max(...xs), limit });

for (const engine of engines) {
  const ph = await startPilothouse(['--set', `browser.engine=${engine}`, '--set', 'http.headerTimeoutMs=600']);
  try {
    await scrapeThree(ph, 'warm'); // the pool's first pages
    const scrape = [];
    for (let i = 0; i < rounds; i++) scrape.push(await scrapeThree(ph, i));
    row(`/scrape of three ${slowMs} ms pages, ${engine}`, scrape, 3300);
    const gaps = [];
    for (let i = 0; i < rounds; i++) gaps.push(await loopGap(ph, i));
    row(`worst event-loop gap, twelve loads at once, ${engine}`, gaps, 1000);
    if (engine === engines[0]) {
      const port = +new URL(ph.base).port;
      const big = [];
      const slow = [];
      for (let i = 0; i < rounds; i++) {
        const r = await raw(port, `POST /scrape HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ph.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${11 * 1024 * 1024}\r\n\r\n`, { until: '}' });
        if (!r.reply.startsWith('HTTP/1.1 413')) { failed = true; console.error(`expected 413: ${r.reply.slice(0, 200)}`); }
        big.push(r.ms);
        const s = await raw(port, '', { trickle: `GET /health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ph.key}\r\n\r\n` });
        if (!s.reply.startsWith('HTTP/1.1 408')) { failed = true; console.error(`expected 408: ${s.reply.slice(0, 200)}`); }
        slow.push(s.ms);
      }
      row('413 for a declared 11 MiB body that never comes', big, 4000);
      row('408 for a head trickled a byte per 150 ms (600 ms limit)', slow, 4000);
    }
  } finally {
    await ph.stop();
  }
}
site.close();

console.log(`\nbench/timing: ${rounds} rounds each, milliseconds\n`);
console.log(`${'what'.padEnd(60)} ${'median'.padStart(8)} ${'worst'.padStart(8)} ${'old test limit'.padStart(15)}`);
for (const r of rows)
  console.log(`${r.what.padEnd(60)} ${r.median.toFixed(0).padStart(8)} ${r.worst.toFixed(0).padStart(8)} ${String(r.limit).padStart(15)}`);
process.exit(failed ? 1 : 0);
