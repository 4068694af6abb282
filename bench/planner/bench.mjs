// bench/planner: end-to-end tasks of the classes people write (numbers as pages write
// them, search phrasings, pagination by what the page offers, answers in free text,
// sheets shaped into a schema, lists of strings, honest outcomes) on fixture pages of
// its own, through /agent, then the layout generator's cases (layouts.mjs: records in
// structures the rules were not written against, scored field by field per family).
// Prints the success rate per class for the rule planner and,
// when PILOTHOUSE_LLM_URL (and PILOTHOUSE_LLM_MODEL, PILOTHOUSE_LLM_KEY) is set, for that
// model through the LLM planner (settings.planner: "llm").
import http from 'node:http';
import { startPilothouse } from '../lib.mjs';
import { familyNames, makeCase, score } from './layouts.mjs';

// Options: --seeds N (layout cases per family, default 50), --families a,b (by name),
// --layouts-only (skip the 40 tasks), --tasks-only (skip the layouts).
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const seeds = Number(opt('seeds', 50));
const families = opt('families', '') ? opt('families', '').split(',') : familyNames;
const layoutsOnly = argv.includes('--layouts-only');
const tasksOnly = argv.includes('--tasks-only');

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const html = (title, body, lang = 'en', script = '') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>${body}${script}</body></html>`;
const table = (head, rows) =>
  `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

// ---------------------------------------------------------------- the site
const routes = new Map();
const page = (path, body) => routes.set(path, () => ({ body }));
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const route = routes.get(url.pathname);
  if (!route) { res.writeHead(404); res.end('not found'); return; }
  let bodyText = '';
  req.on('data', (d) => { bodyText += d; });
  req.on('end', () => {
    const out = route(url, req, bodyText);
    res.writeHead(out.status || 200, { 'Content-Type': 'text/html; charset=utf-8', ...(out.headers || {}) });
    res.end(out.body || '');
  });
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const site = `http://127.0.0.1:${server.address().port}`;

const tasks = [];
const task = (cls, name, body, check) => tasks.push({ cls, name, body, check });
const json = (r) => r?.result?.json;
const names = (list) => (list || []).map((x) => (typeof x === 'object' ? x.name ?? x.city : x));

// Numbers, per locale.
const cities = [['Lisbon', 545923], ['Porto', 231962], ['Braga', 193333]];
const fmt = {
  en: (n) => n.toLocaleString('en-US'), de: (n) => n.toLocaleString('de-DE'),
  fr: (n) => n.toLocaleString('fr-FR'), ch: (n) => n.toLocaleString('de-CH'),
  spaced: (n) => n.toLocaleString('en-US').replace(/,/g, ' '), k: (n) => `${(n / 1000).toFixed(1)}k`,
};
const popSchema = { type: 'object', properties: { cities: { type: 'array', items: { type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' } }, required: ['city', 'population'] } } } };
for (const [lang, f] of Object.entries({ en: fmt.en, de: fmt.de, fr: fmt.fr, 'de-CH': fmt.ch, spaced: fmt.spaced })) {
  const p = `/numbers/${lang}`;
  page(p, html('Cities', table(['City', 'Population'], cities.map(([c, n]) => [c, f(n)])), lang === 'spaced' ? 'en' : lang));
  task('numbers', `population written the ${lang} way`, { input: 'List the cities with their population', urls: [site + p], schema: popSchema },
    (r) => JSON.stringify((json(r)?.cities || []).map((c) => c.population)) === JSON.stringify(cities.map((c) => c[1])));
}
const priceSchema = { type: 'object', properties: { products: { type: 'array', items: { type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] } } } };
for (const [lang, price, want] of [['en', '$1,299.99', 1299.99], ['de', '1.299,99 €', 1299.99], ['fr', '1 299,99 €', 1299.99]]) {
  const p = `/prices/${lang}`;
  page(p, html('Shop', table(['Name', 'Price'], [['Sextant', price], ['Chart', lang === 'en' ? '$25.00' : '25,00 €']]), lang));
  task('numbers', `a ${lang} price`, { input: 'List the products with their prices', urls: [site + p], schema: priceSchema },
    (r) => json(r)?.products?.[0]?.price === want && json(r)?.products?.[1]?.price === 25);
}

page('/events/de', html('Termine', table(['Event', 'Date', 'Open'], [['Regatta', '5. März 2024', 'ja'], ['Hafenfest', '12.08.2024', 'nein']]), 'de'));
task('numbers', 'dates written the German way become ISO 8601', { input: 'List the events with their dates', urls: [`${site}/events/de`],
  schema: { type: 'array', items: { type: 'object', properties: { event: { type: 'string' }, date: { type: 'string', format: 'date' } } } } },
(r) => JSON.stringify((json(r) || []).map((e) => e.date)) === JSON.stringify(['2024-03-05', '2024-08-12']));
task('numbers', 'ja and nein become booleans', { input: 'List the events and whether they are open', urls: [`${site}/events/de`],
  schema: { type: 'array', items: { type: 'object', properties: { event: { type: 'string' }, open: { type: 'boolean' } } } } },
(r) => JSON.stringify((json(r) || []).map((e) => e.open)) === JSON.stringify([true, false]));

// Search phrasings: the page echoes the query it got.
routes.set('/search', (url) => {
  const q = url.searchParams.get('q');
  const results = q ? [[`${q} (standard)`, '10.00'], [`${q} (deluxe)`, '20.00']] : [];
  return { body: html('Search', `<form action="/search"><label for="q">Search</label><input id="q" name="q" type="search"><button>Search</button></form>${q ? `<p>Results for ${esc(q)}</p>` + table(['Name', 'Price'], results) : ''}`) };
});
for (const [phrase, term] of [
  ['Search the catalogue for brass sextants', 'brass sextants'],
  ['search in the shop for rope and list the results', 'rope'],
  ['Look up "nautical charts" in the catalogue', 'nautical charts'],
  ['Search for compasses on this site, then list the results', 'compasses'],
  ['Durchsuche den Katalog nach Laterne', 'Laterne'],
  ['Suche nach "Seil" und liste die Ergebnisse', 'Seil'],
  ['search shop for fenders', 'fenders'],
  ['Could you search the store for anchors and list what comes up', 'anchors'],
]) {
  task('search', phrase, { input: phrase, urls: [`${site}/search`], schema: priceSchema },
    (r) => names(json(r)?.products)[0] === `${term} (standard)`);
}

// Pagination by what the page offers.
const rowsOf = (p) => [1, 2, 3].map((i) => [`Item ${p}-${i}`, `${p * 10 + i}.00`]);
const all9 = [1, 2, 3].flatMap((p) => rowsOf(p).map((r) => r[0]));
const paged = (kind) => (url) => {
  const p = +(url.searchParams.get('page') || 1);
  let nav = '';
  if (kind === 'rel' && p < 3) nav = `<a rel="next" href="?page=${p + 1}">Next</a>`;
  if (kind === 'arrow' && p < 3) nav = `<a href="?page=${p + 1}">»</a>`;
  if (kind === 'weiter' && p < 3) nav = `<a href="?page=${p + 1}">Weiter</a>`;
  if (kind === 'numbered') nav = `<nav class="pagination">${[1, 2, 3].map((n) => (n === p ? `<span aria-current="page">${n}</span>` : `<a href="?page=${n}">${n}</a>`)).join(' ')}</nav>`;
  return { body: html(`Page ${p}`, table(['Name', 'Price'], rowsOf(p)) + nav) };
};
for (const kind of ['rel', 'arrow', 'weiter', 'numbered']) routes.set(`/paged/${kind}`, paged(kind));
const appended = (trigger) => html('Catalogue', table(['Name', 'Price'], rowsOf(1)).replace('<tbody>', '<tbody id="rows">') +
  (trigger === 'more' ? '<button id="more" type="button">Load more</button>' : '<div style="height:3000px"></div>'),
  'en', `<script>var next=2,rows=${JSON.stringify({ 2: rowsOf(2), 3: rowsOf(3) })};function add(){if(next>3)return;
document.getElementById('rows').insertAdjacentHTML('beforeend',rows[next].map(function(r){return '<tr><td>'+r[0]+'</td><td>'+r[1]+'</td></tr>'}).join(''));
next++;if(next>3&&document.getElementById('more'))document.getElementById('more').remove();}
${trigger === 'more' ? "document.getElementById('more').onclick=add;" : "window.addEventListener('scroll',function(){setTimeout(add,50)});"}</script>`);
page('/paged/more', appended('more'));
page('/paged/scroll', appended('scroll'));
for (const [kind, phrase] of [['rel', 'List all products on every page'], ['arrow', 'Go through every page and list the products'],
  ['weiter', 'Liste alle Produkte auf allen Seiten'], ['numbered', 'List the products until the last page'],
  ['more', 'Keep loading more and list all products'], ['scroll', 'List the whole catalogue'],
  ['rel', 'Page through the results and list every product'], ['numbered', 'Get the first 2 pages of products']]) {
  const want = phrase.includes('first 2') ? all9.slice(0, 6) : all9;
  task('pagination', `${kind}: ${phrase}`, { input: phrase, urls: [`${site}/paged/${kind}`], schema: priceSchema },
    (r) => JSON.stringify(names(json(r)?.products)) === JSON.stringify(want));
}

// Answers in free text after requires_input.
routes.set('/login', () => ({ body: html('Sign in', '<form method="post" action="/session"><label for="e">Email</label><input id="e" name="email"><label for="p">Password</label><input id="p" name="password" type="password"><button type="submit">Sign in</button></form>') }));
routes.set('/session', (url, req, body) => {
  const form = new URLSearchParams(body);
  if (form.get('email') === 'ada@example.org' && form.get('password') === 's3cret!')
    return { status: 303, headers: { Location: '/orders', 'Set-Cookie': 'ok=1; Path=/' } };
  return { status: 401, body: html('Sign in', '<p>Wrong</p>') };
});
routes.set('/orders', (url, req) => (req.headers.cookie?.includes('ok=1')
  ? { body: html('Orders', table(['Name', 'Price'], [['Sextant', '310.00'], ['Chart', '25.00']])) }
  : { status: 303, headers: { Location: '/login' } }));
for (const answer of ['email: ada@example.org\npassword: s3cret!', 'password: s3cret!, email: ada@example.org',
  'My email is ada@example.org and the password is "s3cret!"', 'E-Mail: ada@example.org, mein Passwort ist s3cret!',
  'email=ada@example.org; pwd=s3cret!', 'user: ada@example.org pass: s3cret!']) {
  task('answers', answer.replace(/\n/g, ' / '), { input: 'Sign in and list my orders', urls: [`${site}/login`], schema: priceSchema, continueWith: answer },
    (r) => JSON.stringify(names(json(r)?.products)) === JSON.stringify(['Sextant', 'Chart']));
}

// Sheets shaped into the schema.
const csv = 'Customer Name,City,Revenue\nAda,Lisbon,"1,200"\nGrace,Porto,800\n';
const sheetTask = (name, schema, want) => task('sheets', name, {
  input: 'Read the customers', dataInputs: [{ format: 'csv', inline: csv }], schema }, (r) => JSON.stringify(json(r)) === JSON.stringify(want));
sheetTask('one array of names', { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } }, required: ['names'] }, { names: ['Ada', 'Grace'] });
sheetTask('an array of cities by title', { type: 'array', title: 'city', items: { type: 'string' } }, ['Lisbon', 'Porto']);
sheetTask('rows with a number written as text', { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, revenue: { type: 'integer' } } } },
  [{ name: 'Ada', revenue: 1200 }, { name: 'Grace', revenue: 800 }]);
sheetTask('wrapped rows with a synonym', { type: 'object', properties: { customers: { type: 'array', items: { type: 'object', properties: { town: { type: 'string' } } } } } },
  { customers: [{ town: 'Lisbon' }, { town: 'Porto' }] });

// Lists of strings from a page, and honest outcomes.
page('/harbours', html('Harbours', table(['Rank', 'City', 'Name'], [['1', 'Lisbon', 'Alcântara'], ['2', 'Porto', 'Leixões']])));
task('lists', 'an array of names from the Name column', { input: 'List the harbours', urls: [`${site}/harbours`],
  schema: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } } } },
(r) => JSON.stringify(json(r)?.names) === JSON.stringify(['Alcântara', 'Leixões']));
task('lists', 'an array of cities from the City column', { input: 'List the harbour cities', urls: [`${site}/harbours`],
  schema: { type: 'object', properties: { cities: { type: 'array', items: { type: 'string' } } } } },
(r) => JSON.stringify(json(r)?.cities) === JSON.stringify(['Lisbon', 'Porto']));
page('/soon', html('Coming soon', '<h1>Coming soon</h1><p>No listings yet.</p>'));
task('honest', 'no data where data was asked: error, not success', { input: 'List the city names', urls: [`${site}/soon`],
  schema: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } }, required: ['names'] } },
(r) => r.status === 'error' && /names/.test(r.error || ''));
page('/partial', html('Products', table(['Name', 'Stock'], [['Sextant', 'in stock'], ['Chart', 'sold out']])));
task('honest', 'partial data: success with a warning naming the gap', { input: 'List products with prices', urls: [`${site}/partial`], schema: priceSchema },
  (r) => r.status === 'success' && (r.warnings || []).some((w) => /price/.test(w)));

// ---------------------------------------------------------------- layouts
// The layout generator's cases (layouts.mjs): pages served here, each run through /agent
// with its task, scored field by field against its ground truth.
const cases = [];
if (!tasksOnly) {
  for (const family of families) {
    for (let seed = 0; seed < seeds; ++seed) {
      const c = makeCase(family, seed);
      for (const [path, body] of Object.entries(c.pages)) page(path, body);
      cases.push(c);
    }
  }
}

async function runLayouts(post, extraSettings) {
  const perFamily = new Map();
  const misses = [];
  for (const c of cases) {
    const body = { input: c.task, urls: [site + c.start], schema: c.schema };
    if (extraSettings) body.settings = { ...extraSettings };
    let r;
    try {
      r = await post(body);
    } catch (e) {
      r = { status: 'error', error: e.message };
    }
    const s = score(c, r?.result?.json);
    const f = perFamily.get(c.family) || { got: 0, right: 0, truth: 0, cases: 0, exact: 0 };
    f.got += s.got;
    f.right += s.right;
    f.truth += s.truthPairs;
    f.cases += 1;
    f.exact += s.right === s.truthPairs && s.got === s.right ? 1 : 0;
    perFamily.set(c.family, f);
    if (s.right !== s.truthPairs || s.got !== s.right)
      misses.push(`${c.id} (${c.lang}) "${c.task}": ${s.right} right of ${s.got} read, ${s.truthPairs} wanted → ${r?.status} ${JSON.stringify(r?.result?.json ?? r?.error ?? '').slice(0, 140)}`);
  }
  const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '-').padStart(6);
  console.log('\nlayout family                     cases  exact  precision  recall');
  let all = { got: 0, right: 0, truth: 0, cases: 0, exact: 0 };
  for (const [family, f] of perFamily) {
    console.log(`${family.padEnd(32)} ${String(f.cases).padStart(6)} ${String(f.exact).padStart(6)}    ${pct(f.right, f.got)}%  ${pct(f.right, f.truth)}%`);
    all = { got: all.got + f.got, right: all.right + f.right, truth: all.truth + f.truth, cases: all.cases + f.cases, exact: all.exact + f.exact };
  }
  console.log(`${'all families'.padEnd(32)} ${String(all.cases).padStart(6)} ${String(all.exact).padStart(6)}    ${pct(all.right, all.got)}%  ${pct(all.right, all.truth)}%`);
  for (const m of misses.slice(0, 25)) console.log(`  missed: ${m}`);
  if (misses.length > 25) console.log(`  … and ${misses.length - 25} more`);
  return all.right / Math.max(all.got, 1) >= 0.98 && all.right / Math.max(all.truth, 1) >= 0.98;
}

// ---------------------------------------------------------------- run
async function runAll(label, extraSettings, phArgs) {
  const ph = await startPilothouse(phArgs);
  const post = (body) => fetch(`${ph.base}/agent`, { method: 'POST', headers: { Authorization: `Bearer ${ph.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body) }).then((r) => r.json());
  const perClass = new Map();
  const failures = [];
  for (const t of layoutsOnly ? [] : tasks) {
    const { continueWith, ...body } = t.body;
    if (extraSettings) body.settings = { ...(body.settings || {}), ...extraSettings };
    let ok = false;
    try {
      let r = await post(body);
      if (continueWith && r.status === 'requires_input')
        r = await post({ input: continueWith, trajectoryId: r.trajectoryId, history: { continue: true } });
      ok = !!t.check(r);
      if (!ok) failures.push(`${t.cls}: ${t.name} → ${r.status} ${JSON.stringify(r.result?.json ?? r.error ?? '').slice(0, 120)}`);
    } catch (e) {
      failures.push(`${t.cls}: ${t.name} → ${e.message}`);
    }
    const c = perClass.get(t.cls) || { ok: 0, total: 0 };
    c.total += 1;
    c.ok += ok ? 1 : 0;
    perClass.set(t.cls, c);
  }
  console.log(`\n${label}`);
  let ok = 0;
  if (!layoutsOnly) {
    console.log('class        tasks  passed  rate');
    for (const [cls, c] of perClass) {
      ok += c.ok;
      console.log(`${cls.padEnd(12)} ${String(c.total).padStart(5)} ${String(c.ok).padStart(7)}  ${((100 * c.ok) / c.total).toFixed(0).padStart(3)}%`);
    }
    console.log(`${'all'.padEnd(12)} ${String(tasks.length).padStart(5)} ${String(ok).padStart(7)}  ${((100 * ok) / tasks.length).toFixed(0).padStart(3)}%`);
    for (const f of failures) console.log(`  failed: ${f}`);
  }
  const layoutsOk = cases.length ? await runLayouts(post, extraSettings) : true;
  await ph.stop();
  return (layoutsOnly || ok === tasks.length) && layoutsOk;
}

console.log(`bench/planner: ${layoutsOnly ? 0 : tasks.length} end-to-end tasks on a fixture site of its own, ` +
  `${cases.length} generated layouts (${families.length} families × ${seeds} seeds)`);
let allPassed = await runAll('rule planner (no model)', null, []);
if (process.env.PILOTHOUSE_LLM_URL) {
  const args = ['--set', `llm.baseUrl=${process.env.PILOTHOUSE_LLM_URL}`];
  if (process.env.PILOTHOUSE_LLM_MODEL) args.push('--set', `llm.model=${process.env.PILOTHOUSE_LLM_MODEL}`);
  if (process.env.PILOTHOUSE_LLM_KEY) args.push('--set', `llm.apiKey=${process.env.PILOTHOUSE_LLM_KEY}`);
  await runAll(`LLM planner (${process.env.PILOTHOUSE_LLM_MODEL || 'the endpoint\'s default model'})`, { planner: 'llm' }, args);
}
server.close();
process.exit(allPassed ? 0 : 1);
