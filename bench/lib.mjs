// Shared bench helpers: fixture site, the Pilothouse process, load runners, stats.
import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// The resident memory of a process, in KB (Linux).
export function rssKb(pid) {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

export function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

// Generated pages: a nav of 20 links, a paragraph, a 20-row table and a small form.
export function page(i, total) {
  const links = Array.from({ length: 20 }, (_, j) => `<li><a href="/p${(i + j + 1) % total}.html">Page ${(i + j + 1) % total}</a></li>`).join('');
  const rows = Array.from({ length: 20 }, (_, r) => `<tr><td>Item ${i}-${r}</td><td>${(r * 3.5).toFixed(2)}</td></tr>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title></head><body>
<header><nav><ul>${links}</ul></nav></header><main><h1>Product page ${i}</h1><p>${'Lorem ipsum dolor sit amet. '.repeat(30)}</p>
<table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody>${rows}</tbody></table>
<form><label>Email <input name="email" type="email"></label><button>Go</button></form></main>
<script>document.cookie = "visit${i}=1"; localStorage.setItem("k${i}", "v");</script></body></html>`;
}

export function startSite(total) {
  const pages = Array.from({ length: total }, (_, i) => Buffer.from(page(i, total)));
  const server = http.createServer((req, res) => {
    const m = /^\/p(\d+)\.html$/.exec(req.url);
    if (!m || +m[1] >= total) { res.writeHead(404); res.end('not found'); return; }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': pages[+m[1]].length });
    res.end(pages[+m[1]]);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, base: `http://127.0.0.1:${server.address().port}` })));
}

export function binary() {
  const candidates = [process.env.PILOTHOUSE_BINARY, path.join(root, 'build/bin/pilothouse')].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error('pilothouse binary not found; build it first (packaging/dev/run.sh builds it)');
  return found;
}

// Starts pilothouse --headless on a free port; resolves once it prints its address.
export function startPilothouse(extraArgs = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pilothouse-bench-'));
  const started = process.hrtime.bigint();
  const child = spawn(binary(), ['--headless', '--port', '0', '--data-dir', dataDir, ...extraArgs], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((ok, fail) => {
    let out = '';
    child.on('exit', (code) => fail(new Error(`pilothouse exited with ${code}: ${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const listen = /listening on (http:\/\/\S+)/.exec(out);
      const key = /API key: (phk_\w+)/.exec(out);
      if (listen && key) {
        const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
        child.removeAllListeners('exit');
        ok({ child, base: listen[1], key: key[1], readyMs, dataDir,
             stop: () => new Promise((done) => { child.on('exit', done); child.kill('SIGTERM'); }) });
      }
    });
  });
}

// Runs `task(i)` for i in [0, total) with `concurrency` workers; returns stats.
export async function load(total, concurrency, task) {
  let next = 0;
  const latencies = [];
  let errors = 0;
  const t0 = process.hrtime.bigint();
  async function worker() {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const s = process.hrtime.bigint();
      try { if (!(await task(i))) errors++; } catch (e) { errors++; }
      latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  latencies.sort((a, b) => a - b);
  return { perSecond: total / seconds, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), errors };
}

export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
