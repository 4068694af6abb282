// Schema-guided extraction without a model. The page is read for every kind of
// structure it may carry (JSON-LD, microdata, OpenGraph and meta tags, tables,
// label/value pairs, repeated item lists), then the schema is filled from the
// candidate that covers it best, with values coerced to the schema's types.
import { coerceScalar } from './coerce.js';
import { aliases, findValue, isLabel, keyScore, norm, valueKind } from './fields.js';
import { idFor } from './snapshot.js';
import {
  FULL, HEAD, LEAVES, annotate, byline, decoy, headerColumnTables, labelPairs, leavesOf, linkFields, plainLists, termLists,
} from './structures.js';

const MAX_RECORDS = 2000;

function text(node) {
  return (node && (node.innerText || node.textContent) || '').replace(/\s+/g, ' ').trim();
}

function visible(element) {
  const style = window.getComputedStyle(element);
  return style.display !== 'none' && style.visibility !== 'hidden';
}

// ---------------------------------------------------------------- coercion

const CURRENCY = /(?:[$€£¥₹₩]|usd|eur|gbp|chf|jpy)/i;

// The page's language decides ambiguous numbers and dates (coerce.js); values that do
// not fit their field are reported, never guessed (`warnings` of extract()).
let pageLang = 'en';
let coercionWarnings = [];

function warn(path, raw, problem) {
  if (coercionWarnings.length >= 50) return;
  const shown = String(typeof raw === 'object' ? JSON.stringify(raw) : raw).slice(0, 80);
  const line = `${path}: "${shown}" is ${problem}`;
  if (!coercionWarnings.includes(line)) coercionWarnings.push(line);
}

function coerce(value, schema, path) {
  if (value === undefined || value === null) return null;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'number' || type === 'integer' || type === 'boolean' ||
      (type === 'string' && (schema.format === 'date' || schema.format === 'date-time'))) {
    let v = value;
    if ((type === 'number' || type === 'integer') && typeof v === 'object' && !Array.isArray(v))
      v = v.price ?? v.value ?? v.amount ?? v.lowPrice ?? v.ratingValue;
    if (Array.isArray(v)) v = v[0];
    if (v === undefined || v === null || String(v).trim() === '') return null;
    const r = coerceScalar(v, schema, pageLang);
    if (r.problem && path) warn(path, v, r.problem);
    return r.value;
  }
  if (type === 'array') {
    const items = schema.items || {};
    const list = Array.isArray(value) ? value : (typeof value === 'string' ? value.split(/\s*[,;|]\s*/) : [value]);
    return list.map((v) => coerce(v, items, path ? `${path}[]` : '')).filter((v) => v !== null);
  }
  if (type === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) return null;
    return fillObject(schema, flatten(value), path);
  }
  if (typeof value === 'object') {
    if (Array.isArray(value)) value = value[0];
    if (value && typeof value === 'object') value = value.name ?? value['@id'] ?? value.url ?? value.value ?? JSON.stringify(value);
  }
  const s = String(value).replace(/\s+/g, ' ').trim();
  return s === '' ? null : s;
}

// ---------------------------------------------------------------- field matching

// Field names across languages and values by their type: fields.js.

function typeFits(value, schema) {
  if (value === null || value === undefined || value === '') return false;
  return coerce(value, schema, '') !== null;
}

// The key a property was read from when no key of its name held a value of its type:
// that value is reported as a warning instead of being dropped silently.
function rejectedKey(record, property, schema) {
  let best = null;
  let bestScore = 0;
  for (const [key, value] of Object.entries(record)) {
    const s = keyScore(property, key);
    if (s > bestScore && value !== null && value !== undefined && String(value).trim() !== '') {
      bestScore = s;
      best = key;
    }
  }
  return bestScore >= 2 ? best : null;
}

// A record is a flat {key: value} map; nested objects are flattened with dotted keys
// ("offers.price") and their last segment still matches ("price").
function flatten(object, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(object || {})) {
    if (k.startsWith('@') && k !== '@type') continue;
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      flatten(v, key, out);
      if (!(key in out)) out[key] = v;
    } else if (Array.isArray(v) && v.length && typeof v[0] === 'object' && v[0] !== null) {
      out[key] = v;
      flatten(v[0], key, out);
    } else {
      out[key] = v;
    }
  }
  return out;
}

function bestKey(record, property, schema) {
  let best = null;
  let bestScore = 0;
  for (const [key, value] of Object.entries(record)) {
    let s = keyScore(property, key);
    if (!s) continue;
    if (!typeFits(value, schema)) continue;
    // An email or a year field takes only a value that is one.
    const kind = valueKind(property, schema);
    if ((kind === 'email' || kind === 'year') && typeof value !== 'number' && !findValue(kind, value)) continue;
    // Prefer shallow keys over deep ones at equal score.
    s -= key.split('.').length * 0.01;
    if (s > bestScore) {
      bestScore = s;
      best = key;
    }
  }
  return best;
}

function objectProps(schema) {
  return schema && schema.properties ? Object.entries(schema.properties) : [];
}

// A table row's cells, for fields found by the type of their values only.
const CELLS = Symbol('cells');

// Records read from repeated elements (cards, list items) also carry their text pieces
// in document order, what names them (a heading, a link, else the first text) and all
// their text: a field no key names is found there by the type of its values (a year, a
// price, an email …), and a plain string field by position.

// A piece of text that is a typed value and nothing else ("12,50 €", "(1969)", an email).
function typedPiece(piece) {
  const t = String(piece).replace(/^[(\[]|[)\]]$/g, '').trim();
  if (/^[-+\d\s.,%()'  ]+$/.test(t)) return true;
  return ['price', 'email', 'url', 'date'].some((k) => findValue(k, t) === t);
}

function byEvidence(record, prop, schema, used) {
  const kind = valueKind(prop, schema);
  const pieces = [...(record[LEAVES] || record[CELLS] || []), record[FULL]];
  if (kind) {
    for (const piece of pieces) {
      const v = findValue(kind, piece);
      if (v && !used.has(norm(v))) return v;
    }
    return null;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type && type !== 'string') return null;
  const names = aliases(prop);
  if ((names.includes('name') || names.includes('title')) && record[HEAD] && !used.has(norm(record[HEAD])))
    return record[HEAD];
  // By position: the next piece of text no other field took, neither a label nor a value
  // of a type of its own.
  for (const leaf of record[LEAVES] || []) {
    if (used.has(norm(leaf)) || isLabel(leaf) || typedPiece(leaf) || norm(leaf).length < 2) continue;
    return leaf;
  }
  return null;
}

// `how`, when given, learns which properties were read by a key ("key") and which by the
// type or position of their values ("evidence").
function fillObject(schema, record, path, how) {
  const out = {};
  const used = new Set();
  const later = [];
  for (const [prop, sub] of objectProps(schema)) {
    // No path: a probe (typeFits) that reports nothing.
    const at = path ? `${path}.${prop}` : '';
    const key = bestKey(record, prop, sub || {});
    const value = key ? coerce(record[key], sub || {}, at) : null;
    if (value !== null && value !== undefined) {
      out[prop] = value;
      used.add(norm(record[key]));
      if (how) how[prop] = 'key';
    } else if (!key) {
      later.push([prop, sub || {}, at]);
    }
  }
  for (const [prop, sub, at] of later) {
    const raw = record[FULL] !== undefined || record[LEAVES] ? byEvidence(record, prop, sub, used) : null;
    const value = raw !== null ? coerce(raw, sub, '') : null;
    if (value !== null && value !== undefined) {
      out[prop] = value;
      used.add(norm(raw));
      if (how) how[prop] = 'evidence';
    } else if (at) {
      const rejected = rejectedKey(record, prop, sub);
      if (rejected) coerce(record[rejected], sub, at);
    }
  }
  return out;
}

// How well a list of records fills an item schema: per property the share of (up to 25)
// records it was found in, read by key counting more than by evidence, required ones
// twice; a longer list wins a tie.
function scoreRecords(records, itemSchema) {
  const props = objectProps(itemSchema);
  if (!props.length || !records.length) return 0;
  const required = new Set(itemSchema.required || props.map(([p]) => p));
  const sample = records.slice(0, 25);
  const hits = {};
  for (const r of sample) {
    const how = {};
    fillObject(itemSchema, r, '', how);
    for (const [p, h] of Object.entries(how)) hits[p] = (hits[p] || 0) + (h === 'key' ? 1 : 0.75);
  }
  let score = 0;
  for (const [prop] of props) score += ((hits[prop] || 0) / sample.length) * (required.has(prop) ? 2 : 1);
  return score > 0 ? score + Math.min(records.length, 100) / 10000 : 0;
}

// ---------------------------------------------------------------- structure on the page

function jsonLd() {
  const out = [];
  const add = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) { node.forEach(add); return; }
    if (node['@graph']) add(node['@graph']);
    out.push(node);
  };
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      add(JSON.parse(script.textContent));
    } catch (e) {
      // Malformed JSON-LD is common in the wild; skip it.
    }
  }
  return out;
}

function typeOf(node) {
  const t = node && node['@type'];
  return Array.isArray(t) ? t.join(',') : String(t || '');
}

// Lists in JSON-LD: ItemList elements, and groups of same-typed entities.
function jsonLdLists(nodes) {
  const lists = [];
  for (const node of nodes) {
    if (/ItemList/i.test(typeOf(node)) && Array.isArray(node.itemListElement)) {
      lists.push({ source: 'json-ld ItemList', records: node.itemListElement.map((e) => flatten(e.item || e)) });
    }
    for (const [k, v] of Object.entries(node)) {
      if (Array.isArray(v) && v.length > 1 && v.every((x) => x && typeof x === 'object')) {
        lists.push({ source: `json-ld ${typeOf(node)}.${k}`, records: v.map((x) => flatten(x.item || x)) });
      }
    }
  }
  const byType = {};
  for (const node of nodes) {
    const t = typeOf(node);
    if (!t || /ItemList|BreadcrumbList|WebSite|WebPage|Organization|SearchAction/i.test(t)) continue;
    (byType[t] = byType[t] || []).push(flatten(node));
  }
  for (const [t, records] of Object.entries(byType)) lists.push({ source: `json-ld ${t}`, records });
  return lists;
}

function microdataValue(element) {
  if (element.hasAttribute('itemscope')) return microdataItem(element);
  if (element.hasAttribute('content')) return element.getAttribute('content');
  const tag = element.localName;
  if (tag === 'meta') return element.getAttribute('content');
  if (['a', 'link', 'area'].includes(tag)) return element.href;
  if (['img', 'audio', 'video', 'source', 'iframe', 'embed'].includes(tag)) return element.src;
  if (tag === 'time') return element.getAttribute('datetime') || text(element);
  if (tag === 'data' || tag === 'meter') return element.getAttribute('value');
  return text(element);
}

function microdataItem(scope) {
  const item = {};
  const type = scope.getAttribute('itemtype');
  if (type) item['@type'] = type.split('/').pop();
  const walk = (node) => {
    for (const child of node.children) {
      if (child.hasAttribute('itemprop')) {
        for (const prop of child.getAttribute('itemprop').split(/\s+/)) {
          const value = microdataValue(child);
          if (item[prop] === undefined) item[prop] = value;
          else item[prop] = [].concat(item[prop], value);
        }
      }
      if (!child.hasAttribute('itemscope')) walk(child);
    }
  };
  walk(scope);
  return item;
}

function microdataLists() {
  const tops = Array.from(document.querySelectorAll('[itemscope]')).filter((e) => !e.hasAttribute('itemprop'));
  const byType = {};
  const items = [];
  for (const scope of tops) {
    const item = microdataItem(scope);
    items.push(item);
    (byType[item['@type'] || 'Thing'] = byType[item['@type'] || 'Thing'] || []).push(flatten(item));
    // Lists nested as itemprops (an ItemList's itemListElement, offers …).
    for (const [k, v] of Object.entries(item)) {
      if (Array.isArray(v) && v.length > 1 && v.every((x) => x && typeof x === 'object')) {
        (byType[`${item['@type']}.${k}`] = []).push(...v.map((x) => flatten(x)));
      }
    }
  }
  return { items, lists: Object.entries(byType).map(([t, records]) => ({ source: `microdata ${t}`, records })) };
}

function metaTags() {
  const out = {};
  for (const m of document.querySelectorAll('meta[property], meta[name], meta[itemprop]')) {
    const key = m.getAttribute('property') || m.getAttribute('name') || m.getAttribute('itemprop');
    const value = m.getAttribute('content');
    if (!key || value === null) continue;
    const short = key.replace(/^(og|twitter|product|article|book|music|video|profile):/, '').replace(/:/g, '.');
    if (out[short] === undefined) out[short] = value;
    if (out[key] === undefined) out[key] = value;
  }
  if (out.title === undefined && document.title) out.title = document.title;
  const canonical = document.querySelector('link[rel=canonical]');
  out.url = out.url || (canonical && canonical.href) || location.href;
  return out;
}

function cellValue(cell) {
  const link = cell.querySelector('a[href]');
  const value = text(cell);
  return link && !value ? link.href : value;
}

function tables() {
  const out = [];
  for (const table of document.querySelectorAll('table')) {
    if (!visible(table)) continue;
    const rows = Array.from(table.rows);
    if (rows.length < 2) continue;
    let headerRow = table.tHead && table.tHead.rows[0];
    if (!headerRow && Array.from(rows[0].cells).every((c) => c.localName === 'th')) headerRow = rows[0];
    if (!headerRow) continue;
    const headers = Array.from(headerRow.cells).map((c) => text(c));
    if (headers.filter(Boolean).length < 2) continue;
    const records = [];
    for (const row of rows) {
      if (row === headerRow || row.parentElement.localName === 'thead' || row.parentElement.localName === 'tfoot') continue;
      const cells = Array.from(row.cells);
      if (cells.length < 2) continue;
      const record = {};
      cells.forEach((c, i) => {
        if (headers[i]) record[headers[i]] = cellValue(c);
      });
      const link = row.querySelector('a[href]');
      if (link && !('url' in record)) record.url = link.href;
      // The cells in order, for fields no header names (by their values' type).
      // Never by position: a column its header does not name is no field's.
      record[CELLS] = cells.map((c) => text(c)).filter(Boolean);
      record[HEAD] = record[CELLS].find((t) => !/^[-+\d\s.,%()']+$/.test(t)) || null;
      record[FULL] = record[CELLS].join(' ');
      records.push(record);
    }
    if (records.length) {
      const caption = table.caption ? text(table.caption) : '';
      out.push({ source: `table${caption ? ` "${caption}"` : ''}`, records });
    }
  }
  return out;
}

// Label/value pairs: <dl>, two-column header-less tables, and "Label: value" lines.
function pairs() {
  const out = {};
  const put = (label, value) => {
    const l = String(label).replace(/\s+/g, ' ').trim().replace(/:$/, '');
    if (l && l.length <= 60 && value !== '' && out[l] === undefined) out[l] = value;
  };
  for (const dl of document.querySelectorAll('dl')) {
    let label = null;
    for (const child of dl.children) {
      if (child.localName === 'dt') label = text(child);
      else if (child.localName === 'dd' && label !== null) put(label, text(child));
    }
  }
  for (const row of document.querySelectorAll('tr')) {
    if (row.cells.length === 2 && (row.cells[0].localName === 'th' || !row.closest('table').tHead)) {
      put(text(row.cells[0]), text(row.cells[1]));
    }
  }
  const body = document.body ? document.body.innerText : '';
  for (const line of body.split('\n')) {
    const m = line.match(/^\s*([^:\n]{1,40}):\s+(.{1,200})$/);
    if (m) put(m[1], m[2].trim());
  }
  return out;
}

// Repeated item lists ("cards"): siblings of the same shape, each with some text.
function signature(element) {
  return `${element.localName}.${Array.from(element.classList).filter((c) => !/^(active|selected|first|last|odd|even|\d)/.test(c)).sort().join('.')}`;
}

function cardRecord(card) {
  const record = {};
  const set = (k, v) => {
    if (v !== undefined && v !== null && v !== '' && record[k] === undefined) record[k] = v;
  };
  for (const el of card.querySelectorAll('[itemprop]')) set(el.getAttribute('itemprop'), microdataValue(el));
  for (const el of card.querySelectorAll('*')) {
    if (!visible(el)) continue;
    for (const attr of el.attributes) {
      if (attr.name.startsWith('data-') && attr.name !== 'data-reactid' && attr.value.length < 200) {
        set(attr.name.slice(5), attr.value);
      }
    }
    const own = Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.data).join(' ').trim();
    // "Email: <a>…</a>": the label is no value; the element's whole text less it is.
    const labelled = own && (/:$/.test(own) || isLabel(own));
    const value = labelled ? text(el).slice(own.length).trim() : own || (el.children.length === 0 ? text(el) : '');
    if (!value) continue;
    for (const cls of el.classList) set(cls.replace(/^(product|item|card|c|js)[-_]/, ''), value);
  }
  const heading = card.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]');
  if (heading) {
    set('name', text(heading));
    set('title', text(heading));
  }
  linkFields(card, set);
  const img = card.querySelector('img');
  if (img) set('image', img.currentSrc || img.src);
  const all = text(card);
  // The first price written in one piece of text (not one run across a name ending in a
  // number and the next line's currency).
  for (const piece of [...leavesOf(card), all]) {
    const price = findValue('price', piece);
    if (price) {
      set('price', price);
      break;
    }
  }
  // "Label: value" lines, <dt>/<dd> and label elements inside the card.
  labelPairs(card, set);
  // "Title by Author (1969)".
  const by = byline(all);
  if (by) {
    set('title', by.title);
    set('author', by.author);
    if (by.year) set('year', by.year);
  }
  annotate(record, card);
  if (record[HEAD]) set('name', record[HEAD]);
  set('text', all);
  return record;
}

function cardLists() {
  const out = [];
  const seen = new Set();
  for (const parent of document.querySelectorAll('body *')) {
    if (parent.children.length < (likeSource ? 1 : 2) || seen.has(parent) || decoy(parent)) continue;
    const groups = {};
    for (const child of parent.children) {
      if (!visible(child) || !text(child)) continue;
      const sig = signature(child);
      (groups[sig] = groups[sig] || []).push(child);
    }
    for (const [sig, members] of Object.entries(groups)) {
      // One element is a list only where the page before had a list of its kind (the
      // last page of a paginated list may hold a single record).
      if ((members.length < 2 && `list ${sig}` !== likeSource) || /^(script|style|br|option|tr|td|th|thead|tbody)\b/.test(sig)) continue;
      // A list of plain text items carries no fields; cards have structure inside.
      const structured = members.filter((m) => m.querySelectorAll('*').length >= 2 || m.localName === 'a').length;
      if (structured < members.length / 2) continue;
      seen.add(parent);
      out.push({ source: `list ${sig} (${members.length})`, records: members.slice(0, MAX_RECORDS).map(cardRecord), elements: members });
    }
  }
  return out;
}

// ---------------------------------------------------------------- filling the schema

// The kind of list the previous page of a crawl was read from ("list div.card"), if any.
let likeSource = '';
const kindOf = (source) => String(source || '').replace(/ \(\d+\)$/, '');

function collect() {
  const ld = jsonLd();
  const micro = microdataLists();
  return {
    ld,
    micro,
    meta: metaTags(),
    lists: [...jsonLdLists(ld), ...micro.lists, ...tables(), ...headerColumnTables(cellValue), ...cardLists(),
      ...termLists(), ...plainLists(likeSource)],
  };
}

function arrayOfScalars(schema) {
  const items = schema && schema.type === 'array' && schema.items;
  return !!items && !(items.type === 'object' || items.properties || items.type === 'array');
}

// A list of scalars (names, links, prices …) from the page's lists: the column whose key
// best matches `name` (the property, or the schema's title), else the first column that
// holds values of the item type.
function scalarList(name, schema, found, path) {
  const items = schema.items || {};
  const singular = String(name || '').replace(/(ies)$/i, 'y').replace(/(ses|xes)$/i, (m) => m.slice(0, -2))
    .replace(/s$/i, '');
  let best = null;
  for (const list of found.lists) {
    if (!list.records.length) continue;
    const keys = Object.keys(list.records[0]);
    for (const key of keys) {
      let score = name ? Math.max(keyScore(singular, key), keyScore(name, key)) : 0;
      // A plain list's keys (name, text) are no column header: a header that names the
      // values wins over them, and they over columns that name nothing.
      if (list.plain) score = key === 'name' ? 0.5 : 0;
      const fits = list.records.slice(0, 10).filter((r) => typeFits(r[key], items)).length;
      if (!fits) continue;
      const rank = score * 1000 + fits * 10 + list.records.length / 1000;
      if (!best || rank > best.rank) best = { list, key, rank };
    }
  }
  if (!best) return [];
  const values = best.list.records.map((r) => coerce(r[best.key], items, path)).filter((v) => v !== null && v !== undefined);
  values.source = best.list.source;
  return values;
}

function arrayOfObjects(schema) {
  return schema && schema.type === 'array' && schema.items && (schema.items.type === 'object' || schema.items.properties);
}

function records(itemSchema, found) {
  let best = null;
  for (const list of found.lists) {
    let score = scoreRecords(list.records, itemSchema);
    // Ties go to the earlier, more structured source (JSON-LD, microdata, tables).
    // The kind of list the previous page was read from goes on being read.
    if (score > 0 && likeSource && kindOf(list.source) === likeSource) score += 0.5;
    if (score > 0 && (!best || score > best.score + 1e-9)) best = { ...list, score };
  }
  if (!best) return { items: [], source: null };
  const items = best.records.map((r) => fillObject(itemSchema, r, '$[]')).filter((o) => Object.keys(o).length > 0);
  return { items, source: best.source };
}

function mainEntity(found) {
  const entities = found.ld.filter((n) => !/ItemList|BreadcrumbList|WebSite|SearchAction/i.test(typeOf(n)));
  const record = {};
  const merge = (r) => {
    for (const [k, v] of Object.entries(r)) if (record[k] === undefined) record[k] = v;
  };
  if (entities.length) merge(flatten(entities[0]));
  if (found.micro.items.length) merge(flatten(found.micro.items[0]));
  merge(found.meta);
  merge(pairs());
  const h1 = document.querySelector('h1');
  if (h1) merge({ name: text(h1), title: text(h1), heading: text(h1) });
  const priceText = (document.body ? document.body.innerText : '').match(
    new RegExp(`${CURRENCY.source}\\s?\\d[\\d.,]*|\\d[\\d.,]*\\s?${CURRENCY.source}`, 'i'));
  if (priceText) merge({ price: priceText[0] });
  merge({ url: location.href });
  return record;
}

function fill(schema, found, sources, path) {
  if (arrayOfObjects(schema)) {
    const r = records(schema.items, found);
    if (r.source) sources.push({ path: path || '$', source: r.source, count: r.items.length });
    return r.items;
  }
  if (schema && (schema.type === 'object' || schema.properties)) {
    const out = {};
    let entity = null;
    for (const [prop, sub] of objectProps(schema)) {
      if (arrayOfObjects(sub)) {
        out[prop] = fill(sub, found, sources, path ? `${path}.${prop}` : prop);
        continue;
      }
      if (arrayOfScalars(sub)) {
        const at = path ? `${path}.${prop}` : prop;
        const values = scalarList(prop, sub, found, `${at}[]`);
        if (values.length) {
          out[prop] = values;
          sources.push({ path: at, source: values.source || 'list' });
          continue;
        }
        // No list holds them: only a value of the page's main entity that is a list
        // itself (JSON-LD keywords, several images …) may stand in, never a heading.
        entity = entity || mainEntity(found);
        const key = bestKey(entity, prop, sub || {});
        const v = key ? entity[key] : null;
        if (!(Array.isArray(v) || (typeof v === 'string' && /[,;|]/.test(v)))) continue;
      }
      entity = entity || mainEntity(found);
      const at = path ? `${path}.${prop}` : prop;
      const key = bestKey(entity, prop, sub || {});
      const value = key ? coerce(entity[key], sub || {}, at) : null;
      if (value !== null) {
        out[prop] = value;
        sources.push({ path: at, source: key });
      } else if (!key) {
        const rejected = rejectedKey(entity, prop, sub || {});
        if (rejected) coerce(entity[rejected], sub || {}, at);
      }
    }
    return out;
  }
  if (schema && schema.type === 'array') {
    const values = scalarList(schema.title || '', schema, found, '$[]');
    if (values.source) sources.push({ path: '$', source: values.source, count: values.length });
    return values;
  }
  return null;
}

function missing(schema, value, path, out) {
  if (!schema) return out;
  if (arrayOfScalars(schema)) {
    if (!Array.isArray(value) || value.length === 0) out.push(`${path || '$'}: no items found`);
    return out;
  }
  if (arrayOfObjects(schema)) {
    if (!Array.isArray(value) || value.length === 0) {
      out.push(`${path || '$'}: no items found`);
      return out;
    }
    const required = schema.items.required || [];
    required.forEach((r) => {
      const lacking = value.filter((v) => v[r] === undefined || v[r] === null).length;
      if (lacking) out.push(`${path || '$'}[].${r}: missing in ${lacking} of ${value.length} items`);
    });
    return out;
  }
  if (schema.properties) {
    for (const r of schema.required || []) {
      const v = value ? value[r] : undefined;
      if (v === undefined || v === null || (Array.isArray(v) && !v.length)) out.push(`${path ? `${path}.` : ''}${r}: not found`);
    }
    for (const [prop, sub] of objectProps(schema)) {
      if (arrayOfObjects(sub) && value) missing(sub, value[prop], path ? `${path}.${prop}` : prop, out);
    }
  }
  return out;
}

// The "next" control of a paginated list, if the page has one, by what the page offers:
// rel=next; a "Next" / "›" / "»" / "Weiter" link or button; the page after the current
// one in a numbered pager; a "Load more" button; else, on a page taller than the window,
// scrolling down (infinite scroll). The crawl stops when a page brings nothing new.
export function nextPage() {
  const isDisabled = (e) => e.hasAttribute('disabled') || e.getAttribute('aria-disabled') === 'true' ||
    /\bdisabled\b/.test(e.className || '');
  const linkOf = (e) => (e.localName === 'a' && e.getAttribute('href') && !e.getAttribute('href').startsWith('#') &&
    !e.getAttribute('href').startsWith('javascript:') ? e.href : null);
  const rel = document.querySelector('a[rel~=next][href], link[rel~=next][href]');
  if (rel && !isDisabled(rel)) return { href: rel.href, id: rel.localName === 'a' ? idFor(rel) : null, kind: 'rel' };
  const candidates = Array.from(document.querySelectorAll('a, button, [role=button], [role=link]')).filter(visible);
  for (const e of candidates) {
    const raw = (e.getAttribute('aria-label') || e.getAttribute('title') || text(e)).trim();
    const label = norm(raw);
    const cls = norm(e.className && e.className.baseVal === undefined ? e.className : '');
    if (isDisabled(e)) continue;
    if (/^(next|next page|more|older|weiter|nächste|nächste seite|suivant|siguiente)$/.test(label) ||
        /^(›|»|→|>|>>|›|▶)$/.test(raw) || /^next\b/.test(label) || (/\bnext\b/.test(cls) && label.length < 20)) {
      return { href: linkOf(e), id: idFor(e), kind: 'next' };
    }
  }
  // A numbered pager: the number after the current page's.
  const current = document.querySelector(
    '[aria-current=page], .pagination .active, .pagination .current, .pager .active, .pager .current, ' +
    '.pages .active, .page-numbers.current');
  if (current) {
    const n = parseInt(text(current), 10);
    const pager = current.closest('nav, ul, ol, .pagination, .pager, .pages') || current.parentElement;
    if (Number.isFinite(n) && pager) {
      const after = Array.from(pager.querySelectorAll('a, button')).filter(visible)
        .find((e) => text(e) === String(n + 1) && !isDisabled(e));
      if (after) return { href: linkOf(after), id: idFor(after), kind: 'number' };
    }
  }
  for (const e of candidates) {
    const label = norm(e.getAttribute('aria-label') || text(e));
    if (isDisabled(e)) continue;
    if (/^(load more|show more|more results|see more|view more|load more results|show more results|mehr laden|mehr anzeigen|weitere laden|weitere anzeigen|plus de résultats|voir plus|cargar más|ver más)$/.test(label))
      return { href: null, id: idFor(e), kind: 'more' };
  }
  const scroller = document.scrollingElement || document.documentElement;
  if (scroller.scrollHeight > window.innerHeight + window.scrollY + 50) return { scroll: true, kind: 'scroll' };
  return null;
}

// schema: JSON Schema of the wanted result (object, array, or absent for a summary).
// The page's repeated structures, compactly, for a planner that reads the page itself
// (the LLM planner): one line each, largest first, "table (12): Name, Price — Compass |
// $12.00". Decoys (navigation, footers, ads) are left out as they are for extract().
export function structures(max = 8) {
  pageLang = (document.documentElement.getAttribute('lang') || navigator.language || 'en').trim();
  likeSource = '';
  const found = collect();
  const clipped = (v) => {
    const t = String(typeof v === 'object' ? JSON.stringify(v) : v).replace(/\s+/g, ' ').trim();
    return t.length > 40 ? `${t.slice(0, 39)}…` : t;
  };
  return found.lists
    .filter((l) => l.records.length >= 2)
    .sort((a, b) => b.records.length - a.records.length)
    .slice(0, max)
    .map((l) => {
      const first = l.records[0];
      const keys = Object.keys(first).filter((k) => k !== 'text' && first[k] !== '' && first[k] !== null).slice(0, 8);
      return `${kindOf(l.source)} (${l.records.length}): ${keys.join(', ')} — ${keys.map((k) => clipped(first[k])).join(' | ')}`;
    });
}

// options.like: the source the previous page of a crawl was read from (sources[].source).
export function extract(schema, options = {}) {
  likeSource = kindOf(options.like);
  pageLang = (document.documentElement.getAttribute('lang') || navigator.language || 'en').trim();
  coercionWarnings = [];
  const found = collect();
  const sources = [];
  let data;
  if (schema && Object.keys(schema).length) {
    data = fill(schema, found, sources, '');
  } else {
    const meta = found.meta;
    data = { title: document.title, url: location.href, description: meta.description || null };
  }
  return {
    data,
    missing: schema ? missing(schema, data, '', []) : [],
    warnings: coercionWarnings,
    lang: pageLang,
    sources,
    next: nextPage(),
    url: location.href,
    title: document.title,
    candidates: found.lists.map((l) => ({ source: l.source, count: l.records.length })),
  };
}
