// bench/agent: a three-step extraction task (open the page, click "Show prices",
// extract the product table shaped like a schema) run 50 times at concurrency 4 with
// the rule planner, beside a plain playwright-core script doing the same three steps
// (a new context per run) on Debian's chromium. Prints runs/minute, p50, p95 and the
// ratio: what the planner, the step records and the isolation cost over raw browser work.
import http from 'node:http';
import { chromium } from 'playwright-core';
import { chromiumArgs, load, startPilothouse } from '../lib.mjs';

const runs = +(process.env.BENCH_RUNS || 50);
const concurrency = +(process.env.BENCH_CONCURRENCY || 4);
const fmt = (n, d = 1) => n.toFixed(d).padStart(9);

function shop(i) {
  const rows = Array.from({ length: 20 }, (_, r) => `<tr><td>Boat ${i}-${r}</td><td>${(100 + r * 7.5).toFixed(2)}</td></tr>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop ${i}</title></head><body>
<h1>Boat shop ${i}</h1><button onclick="document.getElementById('p').hidden=false">Show prices</button>
<table id="p" hidden><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}
const server = http.createServer((req, res) => {
  const m = /^\/shop\/(\d+)$/.exec(req.url);
  if (!m) { res.writeHead(404); res.end(); return; }
  const body = Buffer.from(shop(+m[1]));
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const site = `http://127.0.0.1:${server.address().port}`;

const schema = { type: 'object', properties: { products: { type: 'array', items: { type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] } } } };

const ph = await startPilothouse();
async function agentRun(i) {
  const res = await fetch(`${ph.base}/agent`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ input: 'click "Show prices" then list every product with its name and price',
                           urls: [`${site}/shop/${i}`], schema }),
  });
  const body = await res.json();
  return body.status === 'success' && body.result?.json?.products?.length === 20;
}
await load(4, concurrency, agentRun);
const ours = await load(runs, concurrency, agentRun);
await ph.stop();

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
async function playwrightRun(i) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${site}/shop/${i}`);
    await page.getByRole('button', { name: 'Show prices' }).click();
    const products = await page.$$eval('#p tbody tr', (rows) => rows.map((r) => ({
      name: r.cells[0].innerText, price: parseFloat(r.cells[1].innerText) })));
    return products.length === 20;
  } finally {
    await context.close();
  }
}
await load(4, concurrency, playwrightRun);
const theirs = await load(runs, concurrency, playwrightRun);
await browser.close();
server.close();

const perMinute = (s) => s.perSecond * 60;
console.log(`\nbench/agent: ${runs} runs of a three-step extraction (open, click, extract) at concurrency ${concurrency}\n`);
console.log('                       runs/min    p50 ms    p95 ms  errors');
console.log(`Pilothouse /agent    ${fmt(perMinute(ours))} ${fmt(ours.p50, 0)} ${fmt(ours.p95, 0)} ${String(ours.errors).padStart(7)}`);
console.log(`playwright-core      ${fmt(perMinute(theirs))} ${fmt(theirs.p50, 0)} ${fmt(theirs.p95, 0)} ${String(theirs.errors).padStart(7)}`);
console.log(`\nratio (Pilothouse / Playwright runs per minute): ${(ours.perSecond / theirs.perSecond).toFixed(2)}x; ` +
            `p95 ${ours.p95.toFixed(0)} vs ${theirs.p95.toFixed(0)} ms`);
