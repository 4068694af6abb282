// bench/extraction: how well /scrape's main-content markdown reads real pages, beside
// Readability.js (npm, in node with jsdom) on the same pages. Two public corpora
// (tests/fixtures/extraction, README there), each split into a dev half and a check half
// (alternate pages in name order), so tuning to one half shows in the other:
// - readability: Mozilla Readability's test pages from real sites; truth is the text of
//   expected.html, scored with the token-shingle F1 of scrapinghub's benchmark. The
//   expected text is Readability's own output, so Readability.js is close to 1 here by
//   construction: the figure shows how near the reference we come, not who is better.
// - trafilatura: trafilatura's hand-annotated evaluation pages (a fifth of them), scored
//   with its snippet metric (text that must be there, boilerplate that must not).
// Pages are served from a loopback server; Pilothouse reads them through the real
// /scrape (formats: markdown) on each engine in BENCH_ENGINES (default qtwebengine,chromium).
// Usage: bench.mjs CORPUS_DIR   (run.sh unpacks the corpora and passes the folder)
// BENCH_OUT=dir writes every page's outputs and scores there; BENCH_NO_PEERS=1 skips
// Readability.js. BENCH_BUNDLE=pageagent.js
// (a development loop, no Pilothouse build): that page agent bundle injected by
// playwright-core into Debian's chromium instead of /scrape.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import { startPilothouse } from '../lib.mjs';
import { markdownText, shingleMatch, shingleMetrics, snippetCounts, snippetMetrics } from './score.mjs';

const corpusDir = process.argv[2];
if (!corpusDir) throw new Error('usage: bench.mjs CORPUS_DIR');
const engines = (process.env.BENCH_ENGINES || 'qtwebengine,chromium').split(',').filter(Boolean);
const outDir = process.env.BENCH_OUT || '';
const only = process.env.BENCH_ONLY || ''; // a substring of page ids, to look at a few

const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|BR|DD|DIV|DL|DT|FIGCAPTION|FIGURE|FOOTER|FORM|H[1-6]|HEADER|HR|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TD|TH|TR|UL)$/;

// The text of a DOM tree with a line break around block elements (textContent runs
// "end.</p><p>Next" together into one token).
function domText(node) {
  let out = '';
  const walk = (n) => {
    if (n.nodeType === 3) out += n.nodeValue;
    if (n.nodeType !== 1 && n.nodeType !== 9 && n.nodeType !== 11) return;
    if (n.nodeType === 1 && /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(n.nodeName)) return;
    const block = n.nodeType === 1 && BLOCK.test(n.nodeName);
    if (block) out += '\n';
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c);
    if (block) out += '\n';
  };
  walk(node);
  return out.replace(/[ \t\r\f\v]+/g, ' ').replace(/\n\s*\n+/g, '\n\n').trim();
}

const quiet = () => new VirtualConsole();

function isUtf8(bytes) {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function loadCorpora() {
  const pages = [];
  const rdir = path.join(corpusDir, 'readability');
  if (fs.existsSync(rdir)) {
    for (const name of fs.readdirSync(rdir).sort()) {
      const expected = fs.readFileSync(path.join(rdir, name, 'expected.html'), 'utf8');
      const dom = new JSDOM(expected, { virtualConsole: quiet() });
      pages.push({ corpus: 'readability', id: name, file: path.join(rdir, name, 'source.html'),
                   truth: domText(dom.window.document.body) });
    }
  }
  const tdir = path.join(corpusDir, 'trafilatura');
  if (fs.existsSync(tdir)) {
    const notes = JSON.parse(fs.readFileSync(path.join(tdir, 'annotations.json'), 'utf8'));
    for (const id of Object.keys(notes).sort()) {
      pages.push({ corpus: 'trafilatura', id, file: path.join(tdir, 'pages', `${id}.html`), note: notes[id] });
    }
  }
  const byCorpus = {};
  for (const p of pages) (byCorpus[p.corpus] ||= []).push(p);
  for (const list of Object.values(byCorpus)) list.forEach((p, i) => { p.half = i % 2 ? 'check' : 'dev'; });
  return pages.filter((p) => !only || p.id.includes(only));
}

function serve(pages) {
  const byPath = new Map();
  for (const p of pages) {
    p.bytes = fs.readFileSync(p.file);
    p.utf8 = isUtf8(p.bytes);
    p.path = `/${p.corpus}/${encodeURIComponent(p.id)}.html`;
    byPath.set(p.path, p);
  }
  const server = http.createServer((req, res) => {
    const p = byPath.get(req.url.split('?')[0]);
    if (!p) { res.writeHead(404); res.end(); return; }
    // Unlabelled bytes that are not UTF-8 are left to the browser's own detection.
    res.writeHead(200, { 'Content-Type': p.utf8 ? 'text/html; charset=utf-8' : 'text/html' });
    res.end(p.bytes);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () =>
    ok({ server, base: `http://127.0.0.1:${server.address().port}` })));
}

function readabilityJs(p, base) {
  try {
    const dom = new JSDOM(p.utf8 ? p.bytes.toString('utf8') : p.bytes,
                          { url: base + p.path, virtualConsole: quiet() });
    const article = new Readability(dom.window.document).parse();
    dom.window.close();
    return article ? article.textContent || '' : '';
  } catch {
    return '';
  }
}

async function scrapeAll(ph, pages, base) {
  const out = new Map();
  const batch = 6;
  for (let i = 0; i < pages.length; i += batch) {
    const chunk = pages.slice(i, i + batch);
    const res = await fetch(`${ph.base}/scrape`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
      // The pages' own scripts, styles and images point at hosts that do not answer here:
      // the document counts as loaded once parsed, so no page waits for them.
      body: JSON.stringify({ urls: chunk.map((p) => base + p.path), formats: ['markdown'],
                             waitUntil: 'domcontentloaded', timeoutMs: 20000 }),
    });
    const body = await res.json();
    (body.results || []).forEach((r, j) => {
      out.set(chunk[j], r.markdown || '');
      if (r.error) chunk[j].error = r.error.code || 'error';
    });
    process.stderr.write(`\r  ${Math.min(i + batch, pages.length)}/${pages.length}`);
  }
  process.stderr.write('\n');
  return out;
}

// The development loop: a page agent bundle in Debian's chromium, without Pilothouse.
async function bundleAll(file, pages, base) {
  const { chromium } = await import('playwright-core');
  const bundle = fs.readFileSync(file, 'utf8');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
                                          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const out = new Map();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < pages.length; i = next++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      // Only the loopback site answers (there is no network here anyway).
      await page.route((url) => !url.href.startsWith(base), (route) => route.abort());
      try {
        await page.goto(base + pages[i].path, { waitUntil: 'domcontentloaded', timeout: 20000 }).catch(() => {});
        await page.addScriptTag({ content: bundle });
        out.set(pages[i], await page.evaluate(() =>
          JSON.parse(window.__pilothouse.snapshot({ formats: ['markdown'] })).markdown || ''));
      } catch {
        out.set(pages[i], '');
      }
      await context.close();
      process.stderr.write(`\r  ${out.size}/${pages.length}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  await browser.close();
  process.stderr.write('\n');
  return out;
}

function score(p, text) {
  return p.corpus === 'readability' ? shingleMatch(p.truth, text) : snippetCounts(p.note, text);
}

function metrics(corpus, rows) {
  return corpus === 'readability' ? shingleMetrics(rows) : snippetMetrics(rows);
}

const f = (x) => x.toFixed(3);

function report(pages, results) {
  for (const corpus of ['readability', 'trafilatura']) {
    const cp = pages.filter((p) => p.corpus === corpus);
    if (!cp.length) continue;
    const metric = corpus === 'readability' ? 'token-shingle P/R/F1 (scrapinghub definition)'
      : 'snippet P/R/F1 (trafilatura tests/eval_common.py definition)';
    const dev = cp.filter((p) => p.half === 'dev').length;
    console.log(`\n${corpus} corpus: ${cp.length} pages (dev ${dev}, check ${cp.length - dev}), ${metric}`);
    console.log('extractor                  |  dev  P     R     F1   | check P     R     F1   |  all  P     R     F1');
    for (const [name, outputs] of results) {
      const cells = ['dev', 'check', 'all'].map((half) => {
        const rows = cp.filter((p) => half === 'all' || p.half === half).map((p) => score(p, outputs.get(p)));
        const m = metrics(corpus, rows);
        return `${f(m.precision)} ${f(m.recall)} ${f(m.f1)}`;
      });
      console.log(`${name.padEnd(26)} | ${cells.join(' | ')}`);
    }
  }
}

function dump(pages, results) {
  if (!outDir) return;
  fs.mkdirSync(outDir, { recursive: true });
  for (const p of pages) {
    const entry = { id: p.id, corpus: p.corpus, half: p.half };
    for (const [name, outputs] of results) entry[name] = { score: score(p, outputs.get(p)), text: outputs.get(p) };
    if (p.truth) entry.truth = p.truth;
    if (p.error) entry.error = p.error;
    if (p.note) entry.note = p.note;
    fs.writeFileSync(path.join(outDir, `${p.corpus}-${p.id}.json`), JSON.stringify(entry, null, 1));
  }
}

const pages = loadCorpora();
const site = await serve(pages);
const results = new Map();
if (process.env.BENCH_BUNDLE) {
  for (const file of process.env.BENCH_BUNDLE.split(',')) {
    const md = await bundleAll(file, pages, site.base);
    results.set(path.basename(file), new Map(pages.map((p) => [p, markdownText(md.get(p) || '')])));
  }
  engines.length = 0;
}
for (const engine of engines) {
  console.error(`pilothouse /scrape (${engine}) on ${pages.length} pages`);
  const ph = await startPilothouse(['--set', `browser.engine=${engine}`]);
  try {
    const md = await scrapeAll(ph, pages, site.base);
    results.set(`Pilothouse (${engine})`, new Map(pages.map((p) => [p, markdownText(md.get(p) || '')])));
    results.set(`  raw markdown (${engine})`, new Map(pages.map((p) => [p, md.get(p) || ''])));
  } finally {
    await ph.stop();
    fs.rmSync(ph.dataDir, { recursive: true, force: true });
  }
}
// BENCH_NO_PEERS=1 (another run of Pilothouse alone, e.g. a previous build's binary).
if (process.env.BENCH_NO_PEERS) {
  site.server.close();
  report(pages, results);
  dump(pages, results);
  process.exit(0);
}
console.error('Readability.js (jsdom) on the same pages');
// BENCH_READABILITY_CACHE=file keeps Readability.js's outputs between runs (it is slow).
const cacheFile = process.env.BENCH_READABILITY_CACHE || '';
const cache = cacheFile && fs.existsSync(cacheFile) ? JSON.parse(fs.readFileSync(cacheFile, 'utf8')) : {};
results.set('Readability.js 0.6 (jsdom)', new Map(pages.map((p, i) => {
  const key = `${p.corpus}/${p.id}`;
  if (!(key in cache)) cache[key] = readabilityJs(p, site.base);
  process.stderr.write(`\r  ${i + 1}/${pages.length}`);
  return [p, cache[key]];
})));
process.stderr.write('\n');
if (cacheFile) fs.writeFileSync(cacheFile, JSON.stringify(cache));
site.server.close();

report(pages, results);
const failed = pages.filter((p) => p.error);
if (failed.length) {
  // Pages whose own scripts block parsing until hosts that never answer here give up:
  // /scrape times out on them, jsdom (no scripts) does not. The same table without them.
  console.log(`\nthe same without the ${failed.length} pages /scrape could not load here (${failed.map((p) => p.id).join(' ')}):`);
  report(pages.filter((p) => !p.error), results);
}
dump(pages, results);
console.log(`
published figures (other page sets, for reference; trafilatura cannot run here):
  scrapinghub article-extraction-benchmark, 181 pages, token-shingle F1:
    trafilatura 0.958, Readability.js 0.947, go/rust ports of trafilatura 0.970
  trafilatura's own evaluation, all 990 pages, snippet F1 (tests/eval_baseline.json floors):
    trafilatura 0.925 (with fallback), 0.920 (fast)`);
