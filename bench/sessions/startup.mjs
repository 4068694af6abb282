// bench/sessions/startup: from session creation (POST /sessions) to the first DevTools
// command answered through its cdpUrl (a WebSocket client sends Browser.getVersion), p50
// and p95 over BENCH_RUNS runs, each session released before the next, printed beside the
// published medians of hosted peers in a public comparison (Browserbase 578 ms, Steel
// 972 ms) with the ratio.
import WebSocket from 'ws';
import { percentile, startPilothouse } from '../lib.mjs';

const runs = +(process.env.BENCH_RUNS || 20);
const peers = [{ name: 'Browserbase', median: 578 }, { name: 'Steel', median: 972 }];

const ph = await startPilothouse();
const api = (method, path, body) => fetch(`${ph.base}${path}`, {
  method,
  headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});

// Connects to `url`, sends Browser.getVersion and resolves when its answer arrives.
function firstCommand(url) {
  return new Promise((ok, fail) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' })));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.id !== 1) return;
      ws.close();
      if (m.error) fail(new Error(JSON.stringify(m.error)));
      else ok(m.result);
    });
    ws.on('error', fail);
  });
}

const times = [];
let errors = 0;
for (let i = 0; i < runs + 1; i++) {
  const t0 = process.hrtime.bigint();
  let id;
  try {
    const res = await api('POST', '/sessions', {});
    const body = await res.json();
    if (!res.ok) throw new Error(`POST /sessions answered ${res.status}: ${JSON.stringify(body)}`);
    id = body.id;
    await firstCommand(body.cdpUrl);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (i > 0) times.push(ms); // the first is the warm-up (the binary's pages in the cache)
  } catch (e) {
    errors++;
    console.error(`run ${i}: ${e.message}`);
  } finally {
    if (id) await api('DELETE', `/sessions/${id}`);
  }
}
await ph.stop();

times.sort((a, b) => a - b);
const p50 = percentile(times, 0.5);
const p95 = percentile(times, 0.95);
console.log(`\nbench/sessions/startup: POST /sessions to the first CDP command answered, ${times.length} runs` +
  (errors ? ` (${errors} failed)` : '') + '\n');
console.log(`Pilothouse   p50 ${p50.toFixed(0).padStart(6)} ms   p95 ${p95.toFixed(0).padStart(6)} ms`);
for (const peer of peers)
  console.log(`${peer.name.padEnd(12)} median ${String(peer.median).padStart(6)} ms (published)   -> Pilothouse p50 is ${(peer.median / p50).toFixed(2)}x faster`);
