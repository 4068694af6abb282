// bench/compat: which web features a page sees in each engine. A probe page (served on
// loopback) tests JS built-ins, syntax, CSS, DOM and Web APIs in the page itself and
// writes one line per feature ("feature <group> <name>: yes|no"); each engine reads it:
// Pilothouse's /scrape (QtWebEngine pool) with its polyfills off and on (the request's
// `browser.polyfills`), and with a user agent claiming a current Chrome, and Debian's
// chromium through playwright-core as the reference of a current browser. Prints the
// table, the counts per group, the user agent each engine sends, and whether every JS
// built-in passes with the polyfills (exit status 1 if not).
import http from 'node:http';
import { chromium } from 'playwright-core';
import { startPilothouse, chromiumArgs } from '../lib.mjs';

// [group, name, test source (an expression, evaluated in the page; true = supported)]
const probes = [
  ['js', 'Array.prototype.at', '[1,2].at(-1) === 2'],
  ['js', 'Array.prototype.findLast', '[1,2,3].findLast(x => x < 3) === 2'],
  ['js', 'Array.prototype.toSorted', 'String([3,1,2].toSorted()) === "1,2,3"'],
  ['js', 'Array.prototype.toReversed', 'String([1,2].toReversed()) === "2,1"'],
  ['js', 'Array.prototype.toSpliced', 'String([1,2,3].toSpliced(1,1)) === "1,3"'],
  ['js', 'Array.prototype.with', 'String([1,2].with(0,5)) === "5,2"'],
  ['js', 'Array.fromAsync', 'typeof Array.fromAsync === "function"'],
  ['js', 'Object.hasOwn', 'Object.hasOwn({a:1}, "a")'],
  ['js', 'Object.groupBy', 'Object.groupBy([1,2,3], x => x % 2 ? "odd" : "even").odd.length === 2'],
  ['js', 'Map.groupBy', 'Map.groupBy([1,2,3], x => x % 2).get(1).length === 2'],
  ['js', 'Promise.withResolvers', 'typeof Promise.withResolvers().resolve === "function"'],
  ['js', 'Promise.any', 'typeof Promise.any === "function"'],
  ['js', 'Set.prototype.union', 'new Set([1]).union(new Set([2])).size === 2'],
  ['js', 'Set.prototype.intersection', 'new Set([1,2]).intersection(new Set([2])).size === 1'],
  ['js', 'Set.prototype.isSubsetOf', 'new Set([1]).isSubsetOf(new Set([1,2]))'],
  ['js', 'Iterator helpers', '[1,2,3].values().map(x => x * 2).toArray().join() === "2,4,6"'],
  ['js', 'String.prototype.replaceAll', '"a-a".replaceAll("-", "+") === "a+a"'],
  ['js', 'String.prototype.isWellFormed', '"a".isWellFormed()'],
  ['js', 'structuredClone', 'structuredClone({a:[1]}).a[0] === 1'],
  ['js', 'Error cause', 'new Error("x", {cause: 1}).cause === 1'],
  ['js', 'ArrayBuffer.prototype.transfer', 'new ArrayBuffer(4).transfer(8).byteLength === 8'],
  ['js', 'Intl.Segmenter', 'typeof Intl.Segmenter === "function"'],
  ['syntax', 'RegExp v flag', 'new Function("return /[\\\\p{L}--[a-z]]/v.test(\'A\')")()'],
  ['syntax', 'RegExp d flag (indices)', 'new Function("return /b/d.exec(\'ab\').indices[0][0] === 1")()'],
  ['syntax', 'class static blocks', 'new Function("class A { static x; static { A.x = 1; } } return A.x === 1")()'],
  ['syntax', 'private field in', 'new Function("class A { #p = 1; static has(o) { return #p in o; } } return A.has(new A())")()'],
  ['syntax', 'logical assignment', 'new Function("let a = null; a ??= 2; return a === 2")()'],
  ['syntax', 'using declarations', 'new Function("{ using x = null; } return true")()'],
  ['syntax', 'RegExp modifiers', 'new Function("return /(?i:a)b/.test(\'Ab\')")()'],
  ['syntax', 'duplicate named groups', 'new Function("return /(?<y>a)|(?<y>b)/.exec(\'b\').groups.y === \'b\'")()'],
  ['css', ':has()', 'CSS.supports("selector(:has(a))")'],
  ['css', 'container queries', 'CSS.supports("container-type: inline-size")'],
  ['css', 'nesting', 'CSS.supports("selector(&)")'],
  ['css', '@layer', 'typeof CSSLayerBlockRule === "function"'],
  ['css', 'color-mix()', 'CSS.supports("color: color-mix(in srgb, red, blue)")'],
  ['css', 'oklch()', 'CSS.supports("color: oklch(50% 0.1 120)")'],
  ['css', 'subgrid', 'CSS.supports("grid-template-columns: subgrid")'],
  ['css', 'text-wrap: balance', 'CSS.supports("text-wrap: balance")'],
  ['css', '@property', 'typeof CSSPropertyRule === "function"'],
  ['dom', 'popover', 'typeof HTMLElement.prototype.togglePopover === "function"'],
  ['dom', 'view transitions', 'typeof document.startViewTransition === "function"'],
  ['dom', '<dialog>', 'typeof HTMLDialogElement === "function"'],
  ['dom', 'inert', '"inert" in HTMLElement.prototype'],
  ['dom', 'checkVisibility', 'typeof Element.prototype.checkVisibility === "function"'],
  ['dom', 'CloseWatcher', 'typeof CloseWatcher === "function"'],
  ['web', 'AbortSignal.timeout', 'typeof AbortSignal.timeout === "function"'],
  ['web', 'AbortSignal.any', 'typeof AbortSignal.any === "function"'],
  ['web', 'URL.canParse', 'typeof URL.canParse === "function"'],
  ['web', 'URLPattern', 'typeof URLPattern === "function"'],
  ['web', 'CompressionStream', 'typeof CompressionStream === "function"'],
  ['web', 'Navigation API', 'typeof navigation === "object" && typeof navigation.navigate === "function"'],
  ['web', 'scheduler.postTask', 'typeof scheduler === "object" && typeof scheduler.postTask === "function"'],
  ['web', 'Web Locks', 'typeof navigator.locks === "object"'],
  ['web', 'OffscreenCanvas', 'typeof OffscreenCanvas === "function"'],
];

const probePage = `<!doctype html><html><head><meta charset="utf-8"><title>Compat probe</title></head>
<body><pre id="out"></pre><script>
const probes = ${JSON.stringify(probes)};
const lines = [];
for (const [group, name, test] of probes) {
  let ok = false;
  try { ok = !!(0, eval)(test); } catch (e) { ok = false; }
  lines.push('feature ' + group + ' ' + name + ': ' + (ok ? 'yes' : 'no'));
}
lines.push('userAgent: ' + navigator.userAgent);
document.getElementById('out').textContent = lines.join('\\n');
document.body.setAttribute('data-done', '1');
</script></body></html>`;

const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(probePage);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/probe.html`;

function parse(text) {
  const out = { features: {}, userAgent: '' };
  for (const line of text.split('\n')) {
    const m = /^feature (\w+) (.+): (yes|no)$/.exec(line.trim());
    if (m) out.features[`${m[1]} ${m[2]}`] = m[3] === 'yes';
    const ua = /^userAgent: (.*)$/.exec(line.trim());
    if (ua) out.userAgent = ua[1];
  }
  return out;
}

const engines = {};
async function scrapeProbe(ph, browser) {
  const res = await fetch(`${ph.base}/scrape`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ urls: [url], formats: ['text'], waitForSelector: 'body[data-done]', browser }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`/scrape answered ${res.status}: ${JSON.stringify(body)}`);
  return parse(body.results?.[0]?.text || '');
}
// The pool with and without its polyfills (the request's `browser.polyfills`), with the
// default user agent (the engine's own: Chrome/102) ...
const ph = await startPilothouse();
try {
  engines['Pilothouse (QtWebEngine, polyfills off)'] = await scrapeProbe(ph, { polyfills: false });
  engines['Pilothouse (QtWebEngine, polyfills on: the default)'] = await scrapeProbe(ph, { polyfills: true });
  // The chromium engine (Debian's chromium over the DevTools protocol), asked per request.
  engines['Pilothouse (chromium engine: the headless shell)'] = await scrapeProbe(ph, { engine: 'chromium' });
} finally {
  await ph.stop();
}
// The same engine made to run the full chromium build instead of its default, the
// headless shell (browser.chromiumPath).
const phFull = await startPilothouse(['--set', `browser.chromiumPath=${process.env.CHROMIUM || '/usr/bin/chromium'}`]);
try {
  engines['Pilothouse (chromium engine: the full chromium)'] = await scrapeProbe(phFull, { engine: 'chromium' });
} finally {
  await phFull.stop();
}
// ... and claiming a current Chrome (browser.userAgent), which changes what a site's
// server may send, not what the page can do.
const claimed = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const phClaim = await startPilothouse(['--set', `browser.userAgent=${claimed}`]);
try {
  engines['Pilothouse (QtWebEngine, polyfills on, user agent claims Chrome 142)'] = await scrapeProbe(phClaim, {});
} finally {
  await phClaim.stop();
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-done]');
  engines[`chromium ${browser.version()} (playwright-core, reference)`] = parse(await page.innerText('body'));
} finally {
  await browser.close();
  server.close();
}

const names = Object.keys(engines);
const width = Math.max(...probes.map(([g, n]) => g.length + n.length + 1)) + 2;
console.log(`bench/compat: ${probes.length} features, read by each engine from a probe page on loopback\n`);
console.log('feature'.padEnd(width) + names.map((n, i) => `E${i + 1}`.padStart(5)).join(''));
for (const [group, name] of probes) {
  const key = `${group} ${name}`;
  console.log(key.padEnd(width) + names.map((n) => (engines[n].features[key] ? 'yes' : '-').padStart(5)).join(''));
}
console.log('');
for (const [i, n] of names.entries()) {
  const f = engines[n].features;
  const groups = {};
  for (const [group, name] of probes) {
    groups[group] = groups[group] || [0, 0];
    groups[group][1]++;
    if (f[`${group} ${name}`]) groups[group][0]++;
  }
  const total = Object.values(f).filter(Boolean).length;
  console.log(`E${i + 1} ${n}: ${total}/${probes.length} (` +
    Object.entries(groups).map(([g, [y, t]]) => `${g} ${y}/${t}`).join(', ') + ')');
  console.log(`   user agent: ${engines[n].userAgent}`);
}
const jsProbes = probes.filter(([g]) => g === 'js');
const withPolyfills = engines['Pilothouse (QtWebEngine, polyfills on: the default)'].features;
const missing = jsProbes.filter(([g, n]) => !withPolyfills[`${g} ${n}`]).map(([, n]) => n);
console.log(`\nJS built-ins with polyfills: ${jsProbes.length - missing.length}/${jsProbes.length}` +
  (missing.length ? ` -> NOT MET, missing: ${missing.join(', ')}` : ' -> every JS built-in passes'));
if (missing.length) process.exitCode = 1;
for (const build of ['the headless shell', 'the full chromium']) {
  const onChromium = engines[`Pilothouse (chromium engine: ${build})`].features;
  const chromiumMissing = probes.filter(([g, n]) => !onChromium[`${g} ${n}`]).map(([, n]) => n);
  console.log(`chromium engine on ${build}: ${probes.length - chromiumMissing.length}/${probes.length}` +
    (chromiumMissing.length ? ` -> NOT MET, missing: ${chromiumMissing.join(', ')}` : ' -> every probed feature passes'));
  if (chromiumMissing.length) process.exitCode = 1;
}
