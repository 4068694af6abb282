// The browser runtime under load (docs/api/runtime.md). N visitor sessions are opened
// with the site's public key, each with its SSE stream. Then every session sends a
// RUN_INPUT command (strict epoch/seq), BENCH_RATE commands a second in all (default
// 200), and the time from sending it to the projection event that carries the new run on
// that session's stream is recorded. Throughput: a
// few sessions send commands back to back (a run, then its cancel, then a run …), each
// with the epoch and seq the previous answer gave. The engine's execution is switched
// off (runtime.executeRuns=false) so the figures are the protocol's, not page work.
// No peer is named for these figures: the target is p99 < 50 ms.
import http from 'node:http';
import { percentile, rssKb, startPilothouse } from '../lib.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS || 1000);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
// Commands a second, all sessions together, while the latency is measured (open loop:
// visitors do not wait for each other).
const RATE = Number(process.env.BENCH_RATE || 200);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(base, method, path, body, headers = {}) {
  return new Promise((ok, fail) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(base + path, { method, agent,
      headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => ok({ status: res.statusCode, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', fail);
    req.end(data);
  });
}

async function pool(items, concurrency, task) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

// Opens a session's stream; resolves once `ready` arrived. `onProjection(p)` sees every
// projection.
function stream(base, session, onProjection) {
  return new Promise((ok, fail) => {
    const req = http.get(`${base}/v2/runtime/stream?streamTicket=${session.streamToken}&seqAfter=${session.seq}`,
      { agent: false, headers: { Accept: 'text/event-stream' } }, (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const type = (frame.split('\n').find((l) => l.startsWith('event: ')) || '').slice(7);
            const data = frame.split('\n').find((l) => l.startsWith('data: '));
            if (type === 'ready') ok(res);
            if (type === 'projection' && data) onProjection(JSON.parse(data.slice(6)));
          }
        });
      });
    req.on('error', fail);
  });
}

async function main() {
  // Every session of the bench comes from one loopback address: lift the per-client and
  // per-site limits that would otherwise count them all as one visitor.
  const ph = await startPilothouse(['--set', 'runtime.executeRuns=false',
    '--set', 'http.maxConnections=100000', '--set', 'http.maxConnectionsPerAddress=100000',
    '--set', 'http.maxStreamsPerClient=100000', '--set', 'http.maxStreamsPerSite=100000',
    '--set', 'runtime.sessionOpensPerMinutePerClient=100000',
    '--set', 'runtime.sessionOpensPerMinutePerSite=1000000']);
  const owner = { Authorization: `Bearer ${ph.key}` };
  const site = await request(ph.base, 'POST', '/generateSiteKey',
    { siteName: 'Runtime bench', label: 'bench', allowedDomains: ['bench.example'] }, owner);
  if (site.status !== 201) throw new Error(`site: ${site.status} ${JSON.stringify(site.body)}`);
  const siteId = site.body.siteId;
  const publicKey = site.body.key.publicKey;

  // Sessions and their streams.
  const rssBefore = rssKb(ph.child.pid);
  const sessions = [];
  await pool(Array.from({ length: SESSIONS }, (_, i) => i), 50, async (i) => {
    const r = await request(ph.base, 'POST', '/v2/runtime/session/open',
      { siteId, url: `https://bench.example/page/${i}`, publicKey });
    if (r.status !== 200) throw new Error(`open: ${r.status} ${JSON.stringify(r.body)}`);
    const d = r.body.data;
    sessions.push({ id: d.sessionId, token: d.sessionToken, streamToken: d.streamToken, epoch: d.epoch,
      seq: d.seq, waiting: null });
  });
  const opened = Date.now();
  await pool(sessions, 100, async (s) => {
    s.res = await stream(ph.base, s, (p) => {
      if (s.waiting && p.activeRunId && (p.events || []).some((e) => e.type === 'run.started')) {
        s.waiting(Date.now());
        s.waiting = null;
      }
    });
  });
  const rssStreams = rssKb(ph.child.pid);
  console.log(`${SESSIONS} sessions with open streams in ${Date.now() - opened} ms`);

  // Command -> projection latency: every session sends one command, RATE a second in
  // all, each on its own schedule (open loop).
  const latencies = [];
  let refused = 0;
  const start = Date.now();
  await Promise.all(sessions.map(async (s, i) => {
    await new Promise((ok) => setTimeout(ok, Math.max(0, start + (i * 1000) / RATE - Date.now())));
    const seen = new Promise((ok) => { s.waiting = ok; });
    const sent = Date.now();
    const r = await request(ph.base, 'POST', '/v2/runtime/command', {
      sessionId: s.id, type: 'RUN_INPUT', message: 'click Checkout', clientEventId: `c-${s.id}`,
      expectedEpoch: s.epoch, expectedSeq: s.seq }, { Authorization: `Bearer ${s.token}` });
    if (r.status !== 200) { ++refused; s.waiting = null; return; }
    s.seq = r.body.data.seq;
    latencies.push((await seen) - sent);
  }));
  latencies.sort((a, b) => a - b);

  // Throughput: 32 sessions send strict commands back to back for SECONDS.
  const workers = sessions.slice(0, 32);
  let commands = 0;
  let conflicts = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(workers.map(async (s) => {
    let n = 0;
    while (Date.now() < until) {
      const body = s.running
        ? { type: 'RUN_CONTROL', action: 'cancel' }
        : { type: 'RUN_INPUT', message: 'click Buy', forceNewRun: true };
      const r = await request(ph.base, 'POST', '/v2/runtime/command', {
        ...body, sessionId: s.id, clientEventId: `t-${s.id}-${n++}`, expectedEpoch: s.epoch,
        expectedSeq: s.seq }, { Authorization: `Bearer ${s.token}` });
      if (r.status !== 200) { ++conflicts; const st = await request(ph.base, 'POST', '/v2/runtime/state',
        { sessionId: s.id, seqAfter: s.seq }, { Authorization: `Bearer ${s.token}` }); s.seq = st.body.data.seq; continue; }
      s.seq = r.body.data.seq ?? r.body.data.currentSeq;
      s.running = !s.running;
      ++commands;
    }
  }));
  for (const s of sessions) s.res.destroy();
  const rssAfter = rssKb(ph.child.pid);
  await ph.stop();

  const p = (q) => `${percentile(latencies, q)} ms`;
  console.log('');
  console.log('| figure | value |');
  console.log('|---|---|');
  console.log(`| open streams | ${SESSIONS} |`);
  console.log(`| commands a second while measuring (open loop, all sessions) | ${RATE} |`);
  console.log(`| command -> projection p50 | ${p(0.5)} |`);
  console.log(`| command -> projection p95 | ${p(0.95)} |`);
  console.log(`| command -> projection p99 | ${p(0.99)} (target < 50 ms: ${percentile(latencies, 0.99) < 50 ? 'met' : 'NOT met'}) |`);
  console.log(`| commands refused | ${refused} |`);
  console.log(`| strict commands/s (32 sessions, back to back) | ${Math.round(commands / SECONDS)} |`);
  console.log(`| conflicts during the throughput run | ${conflicts} |`);
  console.log(`| memory per open stream | ${Math.round((rssStreams - rssBefore) / SESSIONS)} KB |`);
  console.log(`| service RSS after | ${Math.round(rssAfter / 1024)} MB |`);
}

main().catch((e) => { console.error(e); process.exit(1); });
