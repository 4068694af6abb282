// A2W streaming under load (docs/api/a2w.md): N SSE subscribers and N long-pollers on R
// live runs (browser runs, waiting for a browser, so no page work skews the figures);
// each run is then cancelled and every client's latency from the state change (the
// event's server timestamp) to its arrival is recorded. Memory: the service's RSS before
// and after the streams open. No peer is named for this figure: the target is p99 < 50 ms.
import http from 'node:http';
import { percentile, rssKb, startPilothouse } from '../lib.mjs';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS || 1000);
const RUNS = Number(process.env.BENCH_RUNS || 100);
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

function request(base, method, path, body, headers = {}) {
  return new Promise((ok, fail) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(base + path, { method, agent: false,
      headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => ok({ status: res.statusCode, body: text ? JSON.parse(text) : {}, at: Date.now() }));
    });
    req.on('error', fail);
    req.end(data);
  });
}

async function createRuns(ph, count) {
  const runs = [];
  for (let i = 0; i < count; ++i) {
    const r = await request(ph.base, 'POST', '/v2/a2w/runs',
      { url: 'http://127.0.0.1:9/shop', prompt: `Bench run ${i}` }, { Prefer: 'execution=browser' });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
    runs.push({ id: r.body.id, token: r.body.run.split('access=')[1] });
  }
  return runs;
}

// Opens an SSE stream; resolves once the first event arrived. `onCancelled(ms)` gets the
// latency of the run's "cancelled" status event.
function subscribe(ph, run, onCancelled) {
  return new Promise((ok, fail) => {
    const req = http.get(`${ph.base}/v2/a2w/runs/${run.id}`, { agent: false,
      headers: { Accept: 'text/event-stream', Authorization: `Bearer ${run.token}` } }, (res) => {
      let buffer = '';
      let opened = false;
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6));
          if (!opened) { opened = true; ok(res); }
          if (event.type === 'status' && event.data.status === 'cancelled')
            onCancelled(Date.now() - Date.parse(event.ts));
        }
      });
    });
    req.on('error', fail);
  });
}

async function main() {
  const ph = await startPilothouse(['--set', 'a2w.runsPerMinutePerAddress=100000',
    '--set', 'http.maxConnections=100000', '--set', 'http.maxConnectionsPerAddress=100000',
    // Every subscriber comes from this one address, to one site.
    '--set', 'http.maxStreamsPerClient=100000', '--set', 'http.maxStreamsPerSite=100000']);
  const owner = { Authorization: `Bearer ${ph.key}` };
  const site = await request(ph.base, 'POST', '/generateSiteKey',
    { siteName: 'Bench', label: 'bench', allowedDomains: ['127.0.0.1'] }, owner);
  if (site.status !== 201) throw new Error(`site: ${site.status}`);
  // Browser runs (handed to a visitor) are opt-in for a site.
  const allowed = await request(ph.base, 'POST', '/upsertSiteConfig',
    { keyId: site.body.key.keyId, siteConfig: { aiAccess: { browserDeepLinks: true } } }, owner);
  if (allowed.status !== 200) throw new Error(`site config: ${allowed.status}`);
  // The runs start on 127.0.0.1:9, not http's standard port: visitors' work reaches a
  // site's own host on another port only when its owner lists that host:port.
  const listed = await request(ph.base, 'POST', '/updateSitePrivateHosts',
    { siteId: site.body.siteId, privateHosts: ['127.0.0.1:9'] }, owner);
  if (listed.status !== 200) throw new Error(`private hosts: ${listed.status}`);

  // SSE subscribers.
  const runs = await createRuns(ph, RUNS);
  await sleep(500);
  const before = rssKb(ph.child.pid);
  const sse = [];
  const streams = [];
  for (let i = 0; i < SUBSCRIBERS; i += 50)
    streams.push(...await Promise.all(Array.from({ length: Math.min(50, SUBSCRIBERS - i) },
      (_, j) => subscribe(ph, runs[(i + j) % RUNS], (ms) => sse.push(ms)))));
  await sleep(1000);
  const after = rssKb(ph.child.pid);
  for (const run of runs) {
    await request(ph.base, 'DELETE', `/v2/a2w/runs/${run.id}`, undefined,
      { Authorization: `Bearer ${run.token}` });
    await sleep(5);
  }
  for (let i = 0; i < 200 && sse.length < SUBSCRIBERS; ++i) await sleep(25);
  for (const s of streams) s.destroy();
  sse.sort((a, b) => a - b);

  // Long-pollers.
  const runs2 = await createRuns(ph, RUNS);
  const polls = [];
  const pending = Array.from({ length: SUBSCRIBERS }, (_, i) => {
    const run = runs2[i % RUNS];
    return request(ph.base, 'GET', `/v2/a2w/runs/${run.id}`, undefined,
      { Authorization: `Bearer ${run.token}`, Prefer: 'wait=30' })
      .then((r) => { if (r.body.status === 'cancelled') polls.push(r.at - Date.parse(r.body.updatedAt)); });
  });
  await sleep(2000);
  for (const run of runs2) {
    await request(ph.base, 'DELETE', `/v2/a2w/runs/${run.id}`, undefined,
      { Authorization: `Bearer ${run.token}` });
    await sleep(5);
  }
  await Promise.all(pending);
  polls.sort((a, b) => a - b);
  await ph.stop();

  const perStreamKb = (after - before) / SUBSCRIBERS;
  console.log(`A2W streams: ${SUBSCRIBERS} subscribers on ${RUNS} live runs`);
  console.log(`  SSE        state change → client event: p50 ${percentile(sse, 0.5)} ms, p99 ${percentile(sse, 0.99)} ms, max ${sse[sse.length - 1]} ms (${sse.length}/${SUBSCRIBERS} received; target p99 < 50 ms)`);
  console.log(`  long-poll  state change → answer:       p50 ${percentile(polls, 0.5)} ms, p99 ${percentile(polls, 0.99)} ms, max ${polls[polls.length - 1]} ms (${polls.length}/${SUBSCRIBERS} answered)`);
  console.log(`  memory     ${(perStreamKb).toFixed(1)} KiB per open SSE stream (RSS ${before} → ${after} KiB)`);
  if (sse.length < SUBSCRIBERS || polls.length < SUBSCRIBERS) process.exitCode = 1;
}

main().catch((e) => { console.error(e); process.exit(1); });
