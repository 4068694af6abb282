// bench/planner's layout generator: pages of records in structures the planner was not
// written against, each with its ground truth and its task phrased several ways. A
// family is a kind of page structure (a plain list, a table with a header row or column,
// cards, definition lists, microdata, JSON-LD, spans inside list items, nested divs with
// random classes, pagination, search then results); a seed picks class names, nesting,
// field order, the language, number and date formats, the pagination style and the
// decoys (navigation lists, ads, footers). Deterministic: the same seed, the same page.

export function rng(seed) {
  let a = (seed * 2654435761) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  const shuffle = (list) => {
    const out = [...list];
    for (let i = out.length - 1; i > 0; --i) {
      const j = int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const cls = () => `${pick('abcdefghjkmnpqrstuvwxyz')}${(next().toString(36).slice(2, 7))}`;
  return { next, int, pick, shuffle, cls };
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

// ---------------------------------------------------------------- the records

const LABELS = {
  en: { name: 'Name', product: 'Product', price: 'Price', title: 'Title', author: 'Author', year: 'Year',
    email: 'Email', date: 'Date', city: 'City', population: 'Population', event: 'Event', person: 'Name', by: 'by' },
  de: { name: 'Name', product: 'Artikel', price: 'Preis', title: 'Titel', author: 'Autor', year: 'Jahr',
    email: 'E-Mail', date: 'Datum', city: 'Stadt', population: 'Einwohner', event: 'Veranstaltung', person: 'Name', by: 'von' },
  fr: { name: 'Nom', product: 'Produit', price: 'Prix', title: 'Titre', author: 'Auteur', year: 'Année',
    email: 'Courriel', date: 'Date', city: 'Ville', population: 'Habitants', event: 'Événement', person: 'Nom', by: 'par' },
  es: { name: 'Nombre', product: 'Producto', price: 'Precio', title: 'Título', author: 'Autor', year: 'Año',
    email: 'Correo', date: 'Fecha', city: 'Ciudad', population: 'Población', event: 'Evento', person: 'Nombre', by: 'por' },
};
const MONTHS = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
};

const WORDS = ['Brass', 'Compass', 'Lantern', 'Rope', 'Anchor', 'Sextant', 'Chart', 'Fender', 'Whistle', 'Buoy',
  'Harbour', 'Keel', 'Mast', 'Sail', 'Rudder', 'Tiller', 'Cleat', 'Winch', 'Hull', 'Bow', 'Deck', 'Galley'];
const ADJ = ['Blue', 'Old', 'Silver', 'Quiet', 'Northern', 'Little', 'Golden', 'Deep', 'Swift', 'Hidden', 'Salt', 'Iron'];
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Tim', 'Radia', 'John'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Lee', 'Perlman', 'Backus'];
const CITIES = ['Lisbon', 'Porto', 'Braga', 'Faro', 'Coimbra', 'Évora', 'Aveiro', 'Viseu', 'Leiria', 'Setúbal', 'Funchal', 'Guarda'];

function formatNumber(n, lang, decimals) {
  const fixed = n.toFixed(decimals);
  const [whole, frac] = fixed.split('.');
  const sep = { en: ',', de: '.', fr: '\u202f', es: '.' }[lang];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return frac ? `${grouped}${lang === 'en' ? '.' : ','}${frac}` : grouped;
}
function formatPrice(n, lang, r) {
  const v = formatNumber(n, lang, 2);
  if (lang === 'en') return r.pick([`$${v}`, `USD ${v}`, `£${v}`]);
  return r.pick([`${v} €`, `${v}\u00a0€`, `EUR ${v}`]);
}
function formatDate(iso, lang, r) {
  const [y, m, d] = iso.split('-').map(Number);
  if (lang === 'en') return r.pick([iso, `${MONTHS.en[m - 1]} ${d}, ${y}`, `${d} ${MONTHS.en[m - 1]} ${y}`]);
  if (lang === 'de') return r.pick([`${d}. ${MONTHS.de[m - 1]} ${y}`, `${String(d).padStart(2, '0')}.${String(m).padStart(2, '0')}.${y}`]);
  if (lang === 'fr') return r.pick([`${d} ${MONTHS.fr[m - 1]} ${y}`, `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`]);
  return `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`;
}

// A kind of record: its fields (schema), how to make one, and how a page writes each field.
const KINDS = {
  product: {
    plural: 'products', fields: { name: { type: 'string' }, price: { type: 'number' } },
    make: (r, i) => ({ name: `${r.pick(ADJ)} ${WORDS[(i * 7 + r.int(3)) % WORDS.length]} ${i + 1}`, price: Math.round((5 + r.next() * 2400) * 100) / 100 }),
    write: { price: (v, lang, r) => formatPrice(v, lang, r) },
    label: { name: 'product', price: 'price' },
    tasks: ['List the products with their prices', 'Extract every product and its price', 'Collect all items and prices on this page',
      'Get the product names and prices', 'Scrape the products'],
  },
  book: {
    plural: 'books', fields: { title: { type: 'string' }, author: { type: 'string' }, year: { type: 'integer' } },
    make: (r, i) => ({ title: `The ${r.pick(ADJ)} ${WORDS[(i * 5 + r.int(4)) % WORDS.length]}`, author: `${r.pick(FIRST)} ${r.pick(LAST)}`, year: 1900 + r.int(124) }),
    write: { year: (v) => String(v) },
    label: { title: 'title', author: 'author', year: 'year' },
    tasks: ['List the books with title, author and year', 'Extract every book: title, author, year', 'Collect the titles, authors and years',
      'Get all books on this page'],
  },
  person: {
    plural: 'people', fields: { name: { type: 'string' }, email: { type: 'string' } },
    make: (r, i) => {
      const f = FIRST[(i + r.int(3)) % FIRST.length];
      const l = LAST[(i * 3 + r.int(5)) % LAST.length];
      return { name: `${f} ${l}`, email: `${f}.${l}${i}@example.org`.toLowerCase() };
    },
    write: {},
    label: { name: 'person', email: 'email' },
    tasks: ['List the people with their email addresses', 'Pair each name with its email', 'Extract names and emails of the team',
      'Collect every contact: name and email'],
  },
  event: {
    plural: 'events', fields: { name: { type: 'string' }, date: { type: 'string', format: 'date' } },
    make: (r, i) => ({ name: `${r.pick(ADJ)} ${r.pick(['Regatta', 'Fair', 'Race', 'Festival', 'Meeting'])} ${i + 1}`,
      date: `20${24 + r.int(3)}-${String(1 + r.int(12)).padStart(2, '0')}-${String(1 + r.int(28)).padStart(2, '0')}` }),
    write: { date: (v, lang, r) => formatDate(v, lang, r) },
    label: { name: 'event', date: 'date' },
    tasks: ['List the events with their dates', 'Extract every event and when it is', 'Collect all events and dates'],
  },
  city: {
    plural: 'cities', fields: { city: { type: 'string' }, population: { type: 'integer' } },
    make: (r, i) => ({ city: `${CITIES[i % CITIES.length]}${i >= CITIES.length ? ` ${i}` : ''}`, population: 10000 + r.int(3000000) }),
    write: { population: (v, lang) => formatNumber(v, lang, 0) },
    label: { city: 'city', population: 'population' },
    tasks: ['List the cities with their population', 'Extract each city and its population', 'Collect the cities and how many people live there'],
  },
};

function schemaFor(kind, r) {
  const k = KINDS[kind];
  const item = { type: 'object', properties: k.fields, required: Object.keys(k.fields) };
  return r.next() < 0.5 ? { type: 'array', items: item } : { type: 'object', properties: { [k.plural]: { type: 'array', items: item } } };
}
const shown = (kind, field, value, lang, r) => (KINDS[kind].write[field] ? KINDS[kind].write[field](value, lang, r) : String(value));
const label = (kind, field, lang) => LABELS[lang][KINDS[kind].label[field]];

// ---------------------------------------------------------------- decoys and the page

function decoys(r, lang) {
  const nav = `<header><nav class="${r.cls()}"><ul>${['Home', 'Shop', 'About', 'Contact', 'Blog'].map((w) => `<li><a href="/${w.toLowerCase()}">${w}</a></li>`).join('')}</ul></nav></header>`;
  const ad = r.pick([`<aside class="ad ${r.cls()}"><h3>Sponsored</h3><p>Deluxe ${r.pick(WORDS)} only ${formatPrice(9.99, lang, r)}</p></aside>`,
    `<div class="promo ${r.cls()}"><strong>Sale!</strong> <span>${r.pick(WORDS)} ${formatPrice(4.5, lang, r)}</span></div>`, '']);
  const footer = `<footer><ul><li><a href="/imprint">Imprint</a></li><li><a href="/privacy">Privacy</a></li><li>© 2026 Harbour Ltd</li></ul></footer>`;
  return { before: nav + (r.next() < 0.5 ? ad : ''), after: (r.next() < 0.5 ? ad : '') + footer };
}

export function pageHtml(title, body, lang, head = '') {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)}</title>${head}</head><body>${body}</body></html>`;
}

// Nesting: 0-2 wrapper divs with random classes, the same around every record of a page.
function wrapper(r) {
  const classes = Array.from({ length: r.int(3) }, () => r.cls());
  return (inner) => classes.reduce((out, c) => `<div class="${c}">${out}</div>`, inner);
}
const wrap = (r, inner) => wrapper(r)(inner);

// ---------------------------------------------------------------- structures

function tableRow(kind, recs, fields, lang, r) {
  return `<table class="${r.cls()}"><thead><tr>${fields.map((f) => `<th>${esc(label(kind, f, lang))}</th>`).join('')}</tr></thead><tbody>${recs
    .map((rec) => `<tr>${fields.map((f) => `<td>${esc(shown(kind, f, rec[f], lang, r))}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}
function tableColumn(kind, recs, fields, lang, r) {
  return `<table class="${r.cls()}"><tbody>${fields.map((f) => `<tr><th>${esc(label(kind, f, lang))}</th>${recs
    .map((rec) => `<td>${esc(shown(kind, f, rec[f], lang, r))}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}
function cards(kind, recs, fields, lang, r, { labelled = r.next() < 0.5, semantic = r.next() < 0.5 } = {}) {
  const cardCls = semantic ? 'card' : r.cls();
  const fieldCls = Object.fromEntries(fields.map((f) => [f, semantic ? f : r.cls()]));
  const heading = r.pick(['h2', 'h3', 'h4', 'strong']);
  const around = wrapper(r);
  const body = recs.map((rec) => {
    const parts = fields.map((f, i) => {
      const v = esc(shown(kind, f, rec[f], lang, r));
      if (i === 0) return `<${heading} class="${fieldCls[f]}">${v}</${heading}>`;
      if (f === 'email') return `<p class="${fieldCls[f]}">${labelled ? `${esc(label(kind, f, lang))}: ` : ''}<a href="mailto:${v}">${v}</a></p>`;
      return `<p class="${fieldCls[f]}">${labelled ? `<span>${esc(label(kind, f, lang))}:</span> ` : ''}<span>${v}</span></p>`;
    }).join('');
    return around(`<div class="${cardCls}">${parts}${r.next() < 0.5 ? '<button type="button">Add</button>' : ''}</div>`);
  }).join('');
  return `<div class="${r.cls()}">${body}</div>`;
}

const FAMILIES = {
  'ul list': (r, lang) => {
    const kind = r.pick(['product', 'city', 'person']);
    const field = Object.keys(KINDS[kind].fields)[0];
    const recs = Array.from({ length: 4 + r.int(8) }, (_, i) => KINDS[kind].make(r, i));
    const items = recs.map((rec) => rec[field]);
    const list = r.pick(['ul', 'ol']);
    const linked = r.next() < 0.5;
    const body = `<h1>${esc(KINDS[kind].plural)}</h1><${list} class="${r.cls()}">${items.map((v, i) => `<li>${linked ? `<a href="/item/${i}">${esc(v)}</a>` : esc(v)}</li>`).join('')}</${list}>`;
    const prop = r.pick([`${field === 'name' ? 'names' : `${field}s`}`, KINDS[kind].plural, 'items']);
    const schema = r.next() < 0.5 ? { type: 'array', items: { type: 'string' } } : { type: 'object', properties: { [prop]: { type: 'array', items: { type: 'string' } } } };
    return { body, schema, truth: items.map((v) => ({ item: v })), scalar: true,
      tasks: [`List the ${KINDS[kind].plural}`, `Collect every entry of the list`, `Extract all ${KINDS[kind].plural} on the page`] };
  },
  'table with header row': (r, lang) => records(r, lang, r.pick(['product', 'city', 'event', 'book']), tableRow),
  'table with header column': (r, lang) => records(r, lang, r.pick(['product', 'city', 'book']), tableColumn, 3),
  'cards grid': (r, lang) => records(r, lang, r.pick(['product', 'event', 'person']), (k, recs, f, l, rr) => cards(k, recs, f, l, rr, { semantic: true })),
  'definition list': (r, lang) => records(r, lang, r.pick(['product', 'city', 'event']), (kind, recs, fields, l, rr) =>
    `<div class="${rr.cls()}">${recs.map((rec) => `<div class="${rr.cls() && 'entry'}"><dl>${fields.map((f) => `<dt>${esc(label(kind, f, l))}</dt><dd>${esc(shown(kind, f, rec[f], l, rr))}</dd>`).join('')}</dl></div>`).join('')}</div>`),
  microdata: (r, lang) => records(r, lang, 'product', (kind, recs, fields, l, rr) =>
    `<div class="${rr.cls()}">${recs.map((rec) => `<div itemscope itemtype="https://schema.org/Product" class="${rr.cls()}"><span itemprop="name">${esc(rec.name)}</span>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="${rec.price.toFixed(2)}">${esc(shown(kind, 'price', rec.price, l, rr))}</span><meta itemprop="priceCurrency" content="EUR"></div></div>`).join('')}</div>`),
  'json-ld': (r, lang) => {
    const kind = r.pick(['product', 'book']);
    return records(r, lang, kind, (k, recs) => {
      const item = (rec) => (k === 'product' ? { '@type': 'Product', name: rec.name, offers: { '@type': 'Offer', price: rec.price.toFixed(2), priceCurrency: 'EUR' } }
        : { '@type': 'Book', name: rec.title, author: { '@type': 'Person', name: rec.author }, datePublished: String(rec.year) });
      const ld = { '@context': 'https://schema.org', '@type': 'ItemList', itemListElement: recs.map((rec, i) => ({ '@type': 'ListItem', position: i + 1, item: item(rec) })) };
      return `<script type="application/ld+json">${JSON.stringify(ld).replace(/</g, '\\u003c')}</script><p>${recs.length} entries.</p>`;
    });
  },
  'span records in li': (r, lang) => records(r, lang, 'book', (kind, recs, fields, l, rr) => {
    const semantic = rr.next() < 0.5;
    const [ct, ca] = semantic ? ['title', 'author'] : [rr.cls(), rr.cls()];
    return `<ul class="${rr.cls()}">${recs.map((rec) => `<li><span class="${ct}">${esc(rec.title)}</span> ${LABELS[l].by} <span class="${ca}">${esc(rec.author)}</span> (${rec.year})</li>`).join('')}</ul>`;
  }, 0, true),
  'nested divs with random classes': (r, lang) => records(r, lang, r.pick(['product', 'person', 'event']), (k, recs, f, l, rr) => cards(k, recs, f, l, rr, { semantic: false })),
  pagination: (r, lang) => {
    const out = records(r, lang, r.pick(['product', 'city', 'person']), r.pick([tableRow, (k, recs, f, l, rr) => cards(k, recs, f, l, rr)]), 0, true);
    // Two or three pages of at least two records each (the last may hold one).
    out.pages = Math.min(2 + r.int(2), Math.floor(out.recs.length / 2));
    out.style = r.pick(['rel', 'next', 'weiter', 'suivant', 'numbered', 'more']);
    out.tasks = out.tasks.map((t) => `${t} ${r.pick(['on every page', 'across all pages', 'until the last page'])}`);
    return out;
  },
  'search then results': (r, lang) => {
    const out = records(r, lang, r.pick(['product', 'book']), r.pick([(k, recs, f, l, rr) => cards(k, recs, f, l, rr),
      (kind, recs, fields, l, rr) => `<ul>${recs.map((rec) => `<li>${fields.map((f) => `<span>${esc(shown(kind, f, rec[f], l, rr))}</span>`).join(' — ')}</li>`).join('')}</ul>`]), 0, true);
    out.search = r.pick(['compass', 'rope', 'lantern', 'anchor']);
    out.tasks = [`Search for ${out.search} and list the results`, `Search the catalogue for "${out.search}", then extract the results`, `Look up ${out.search} and collect what comes up`];
    return out;
  },
};

// A family's page of `kind` records: `structure` writes them (with the fields in a random
// order unless keepOrder); `minRecords` at least.
function records(r, lang, kind, structure, minRecords = 0, keepOrder = false) {
  const k = KINDS[kind];
  const n = Math.max(minRecords, 3 + r.int(7));
  const recs = Array.from({ length: n }, (_, i) => k.make(r, i));
  const keys = Object.keys(k.fields);
  const fields = keepOrder || kind === 'book' ? keys : [keys[0], ...r.shuffle(keys.slice(1))];
  const renderSeed = r.int(1e9);
  return { kind, recs, schema: schemaFor(kind, r), truth: recs, structure, fields, tasks: k.tasks,
    // Every page of a case is written by the same hand: the same classes and nesting.
    body: null, render: (slice) => structure(kind, slice, fields, lang, rng(renderSeed)) };
}

export const familyNames = Object.keys(FAMILIES);

// The case of `family` and `seed`: { lang, pages: {path: html}, start, task, schema, truth }.
// Pages live under `/<id>/`; `routes` gets their handlers (a search echoes its query).
export function makeCase(family, seed) {
  const r = rng(seed * 7919 + familyNames.indexOf(family) * 104729 + 1);
  const lang = r.pick(['en', 'de', 'fr', 'es']);
  const c = FAMILIES[family](r, lang);
  const id = `${family.replace(/\W+/g, '-')}-${seed}`;
  const d = decoys(r, lang);
  const title = `${family} ${seed}`;
  const pages = {};
  const task = r.pick(c.tasks);
  if (c.scalar) {
    pages[`/${id}/`] = pageHtml(title, d.before + wrap(r, c.body) + d.after, lang);
    return { id, family, lang, pages, start: `/${id}/`, task, schema: c.schema, truth: c.truth, scalar: true };
  }
  if (c.search) {
    const form = `<form action="/${id}/results" role="search"><input type="search" name="q" aria-label="Search"><button>Search</button></form>`;
    pages[`/${id}/`] = pageHtml(title, d.before + form + '<p>Welcome to the catalogue.</p>' + d.after, lang);
    pages[`/${id}/results`] = pageHtml(`${title} results`, d.before + form + `<h1>Results</h1>` + wrap(r, c.render(c.recs)) + d.after, lang);
    return { id, family, lang, pages, start: `/${id}/`, task, schema: c.schema, truth: c.recs, search: c.search };
  }
  if (c.pages) {
    const per = Math.ceil(c.recs.length / c.pages);
    const slices = Array.from({ length: c.pages }, (_, p) => c.recs.slice(p * per, (p + 1) * per)).filter((s) => s.length);
    if (c.style === 'more') {
      const first = c.render(slices[0]);
      const rest = slices.slice(1).map((s) => c.render(s));
      const script = `<script>var rest=${JSON.stringify(rest).replace(/</g, '\\u003c')};document.getElementById('more').onclick=function(){var d=document.createElement('div');d.innerHTML=rest.shift();var src=d.firstElementChild,to=document.getElementById('list').firstElementChild;if(to.tagName==='TABLE'){to=to.tBodies[0];src=src.tBodies[0];}while(src.firstChild)to.appendChild(src.firstChild);if(!rest.length)this.remove();};</script>`;
      pages[`/${id}/`] = pageHtml(title, d.before + `<div id="list">${first}</div><button id="more" type="button">${{ en: 'Load more', de: 'Mehr laden', fr: 'Voir plus', es: 'Cargar más' }[lang]}</button>` + d.after + script, lang);
    } else {
      slices.forEach((s, p) => {
        const path = p === 0 ? `/${id}/` : `/${id}/page${p + 1}`;
        const href = (n) => (n === 0 ? `/${id}/` : `/${id}/page${n + 1}`);
        let nav = '';
        const last = p === slices.length - 1;
        if (c.style === 'rel' && !last) nav = `<a rel="next" href="${href(p + 1)}">Next</a>`;
        if (c.style === 'next' && !last) nav = `<a class="${r.cls()}" href="${href(p + 1)}">Next ›</a>`;
        if (c.style === 'weiter' && !last) nav = `<a href="${href(p + 1)}">Weiter</a>`;
        if (c.style === 'suivant' && !last) nav = `<a href="${href(p + 1)}">Suivant</a>`;
        if (c.style === 'numbered') nav = `<ul class="pagination">${slices.map((_, n) => (n === p ? `<li class="active"><span aria-current="page">${n + 1}</span></li>` : `<li><a href="${href(n)}">${n + 1}</a></li>`)).join('')}</ul>`;
        pages[path] = pageHtml(`${title} p${p + 1}`, d.before + wrap(r, c.render(s)) + `<div class="${r.cls()}">${nav}</div>` + d.after, lang);
      });
    }
    return { id, family, lang, pages, start: `/${id}/`, task, schema: c.schema, truth: c.recs };
  }
  pages[`/${id}/`] = pageHtml(title, d.before + `<h1>${esc(title)}</h1>` + wrap(r, c.render(c.recs)) + d.after, lang);
  return { id, family, lang, pages, start: `/${id}/`, task, schema: c.schema, truth: c.recs };
}

// ---------------------------------------------------------------- scoring

function normValue(v) {
  if (typeof v === 'number') return String(Math.round(v * 100) / 100);
  return String(v ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
}

// The answer's items: a top-level array, or the first array property of an object.
export function answerItems(json) {
  if (Array.isArray(json)) return json;
  if (json && typeof json === 'object') {
    const arr = Object.values(json).find((v) => Array.isArray(v));
    return arr || [];
  }
  return [];
}

// Field-level counts: how many (field, value) pairs the answer has, how many of them are
// in the truth (each truth pair counted once), and how many the truth has.
export function score(c, json) {
  const items = answerItems(json);
  const truth = new Map();
  let truthPairs = 0;
  for (const rec of c.truth) {
    for (const [f, v] of Object.entries(rec)) {
      const key = `${f}\u0000${normValue(v)}`;
      truth.set(key, (truth.get(key) || 0) + 1);
      truthPairs += 1;
    }
  }
  let got = 0;
  let right = 0;
  for (const item of items) {
    const pairs = c.scalar ? [['item', item]] : Object.entries(item || {}).filter(([f]) => f in c.truth[0]);
    for (const [f, v] of pairs) {
      got += 1;
      const key = `${f}\u0000${normValue(v)}`;
      if ((truth.get(key) || 0) > 0) {
        right += 1;
        truth.set(key, truth.get(key) - 1);
      }
    }
  }
  return { got, right, truthPairs };
}
