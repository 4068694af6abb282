// The repeated structures of a page that extract.js's cards and tables do not cover:
// plain lists of strings (<ul>/<ol> items), tables whose header is their first column,
// definition lists of terms, and the text pieces of a repeated element (what fills a
// field no class or label names, by type or position). Navigation, pagers, ads, cookie
// banners and footers are no records (decoy()).
import { findValue, isLabel, norm } from './fields.js';

export const LEAVES = Symbol('leaves');
export const HEAD = Symbol('head');
export const FULL = Symbol('full');

export function text(node) {
  return (node && (node.innerText || node.textContent) || '').replace(/\s+/g, ' ').trim();
}

function shown(element) {
  const style = window.getComputedStyle(element);
  return style.display !== 'none' && style.visibility !== 'hidden';
}

const DECOY_WORDS = /(?:^|[\s_-])(?:nav|navbar|navigation|menu|menus|footer|sidebar|breadcrumbs?|ads?|advert\w*|sponsor\w*|promo\w*|banner|cookies?|consent|social|share|related|pagination|pager|pages|paging|tags?|langs?|language)(?:$|[\s_-])/i;

// Whether `element` sits in navigation, a header or footer of the page, an aside, an ad,
// a pager: content that repeats on every page and is not what a task lists.
export function decoy(element) {
  for (let e = element; e && e !== document.body && e.nodeType === 1; e = e.parentElement) {
    const tag = e.localName;
    if (tag === 'nav' || tag === 'aside' || tag === 'menu') return true;
    if ((tag === 'header' || tag === 'footer') && !e.parentElement?.closest('article, main, section, li'))
      return true;
    const role = e.getAttribute('role') || '';
    if (/^(navigation|banner|contentinfo|complementary|menu|menubar|tablist)$/.test(role)) return true;
    const cls = typeof e.className === 'string' ? e.className : '';
    if (DECOY_WORDS.test(cls) || DECOY_WORDS.test(e.id || '')) return true;
  }
  return false;
}

const GENERIC_LINK = /^(view|details?|more|read more|see more|mehr|weiter|voir|voir plus|ver|ver más|open|öffnen|link|here|hier|ici|aquí|»|›|→)$/i;

// The text pieces of an element in document order (one per text node), without buttons,
// form controls, scripts and lone punctuation.
export function leavesOf(root) {
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest('script, style, button, select, option, textarea, [role=button], [hidden]')) continue;
    const t = n.data.replace(/\s+/g, ' ').trim();
    if (!t || /^[\s\p{P}\p{S}]+$/u.test(t)) continue;
    out.push(t);
    if (out.length >= 40) break;
  }
  return out;
}

// What names a repeated element: its heading, a link's own text, else the first text piece
// that is neither a label nor a value of a type of its own.
export function headOf(root, leaves) {
  const heading = root.querySelector('h1,h2,h3,h4,h5,h6,[role=heading],strong,b');
  if (heading && text(heading) && !isLabel(text(heading))) return text(heading);
  for (const a of root.localName === 'a' ? [root] : root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') || '';
    const t = text(a);
    if (/^(mailto|tel):/i.test(href) || !t || GENERIC_LINK.test(t) || findValue('email', t) === t) continue;
    return t;
  }
  const labels = new Set(Array.from(root.querySelectorAll('dt, th, label')).map((e) => text(e)));
  return leaves.find((l) => !isLabel(l.replace(/:$/, '')) && !labels.has(l) && !/:$/.test(l) && !/^[-+\d\s.,%()']+$/.test(l) && findValue('price', l) !== l &&
    findValue('email', l) !== l && findValue('url', l) !== l) || null;
}

// "Dune by Frank Herbert (1965)", "Faust von Goethe, 1808": a title, its author, a year.
const BY = /^(.{2,200}?)\s+(?:by|von|par|por|de|di|door|av)\s+(.{2,120}?)(?:\s*[,(]\s*(\d{4})\s*\)?)?\s*$/i;
export function byline(s) {
  const m = String(s).match(BY);
  return m ? { title: m[1].replace(/[“"„«»”]/g, '').trim(), author: m[2].trim(), year: m[3] } : null;
}

// Gives a record of `root` its text pieces, head and full text.
export function annotate(record, root) {
  const leaves = leavesOf(root);
  record[LEAVES] = leaves;
  record[HEAD] = headOf(root, leaves);
  record[FULL] = text(root);
  return record;
}

// Adds what an element's links say: a mailto link is an email, a tel link a phone
// number, another link the URL (its text the name when nothing else names it).
export function linkFields(root, set) {
  for (const a of root.localName === 'a' ? [root] : root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') || '';
    if (/^mailto:/i.test(href)) set('email', decodeURIComponent(href.slice(7).split('?')[0]));
    else if (/^tel:/i.test(href)) set('phone', text(a) || href.slice(4));
    else if (!href.startsWith('#') && !/^javascript:/i.test(href)) set('url', a.href);
  }
}

// Plain lists: <ul>/<ol> whose items are text (or one link each), outside decoys, at
// least two items with text; a pager or a list of single characters is none.
export function plainLists(like = '') {
  const out = [];
  for (const list of document.querySelectorAll('ul, ol')) {
    const items = Array.from(list.children).filter((li) => li.localName === 'li' && shown(li) && text(li));
    if ((items.length < 2 && like !== `list ${list.localName}`) || !items.length || decoy(list)) continue;
    // Cards (items with structure) are read by cardLists.
    if (items.filter((li) => li.querySelectorAll('*').length >= 2 && li.querySelectorAll('a').length !== 1).length >
        items.length / 2) continue;
    if (items.every((li) => text(li).length <= 3)) continue;
    const records = items.map((li) => {
      const record = {};
      const set = (k, v) => {
        if (v !== undefined && v !== null && v !== '' && record[k] === undefined) record[k] = v;
      };
      const t = text(li);
      const links = li.querySelectorAll('a[href]');
      linkFields(li, set);
      const by = byline(t);
      if (by) {
        set('title', by.title);
        set('author', by.author);
      }
      set('name', links.length === 1 && text(links[0]) && !findValue('email', text(links[0])) ? text(links[0]) : t);
      set('text', t);
      return annotate(record, li);
    });
    out.push({ source: `list ${list.localName} (${items.length})`, records, plain: true });
  }
  return out;
}

// Tables whose first column is the header (one record per further column).
export function headerColumnTables(cellValue) {
  const out = [];
  for (const table of document.querySelectorAll('table')) {
    const rows = Array.from(table.rows).filter((r) => r.cells.length >= 3);
    if (rows.length < 2 || rows.length !== table.rows.length || !shown(table)) continue;
    if (!rows.every((r) => r.cells[0].localName === 'th')) continue;
    if (rows.slice(1).some((r) => Array.from(r.cells).slice(1).some((c) => c.localName === 'th'))) continue;
    const width = Math.min(...rows.map((r) => r.cells.length));
    const records = [];
    for (let col = 1; col < width; ++col) {
      const record = {};
      for (const row of rows) {
        const label = text(row.cells[0]);
        if (label && record[label] === undefined) record[label] = cellValue(row.cells[col]);
      }
      records.push(record);
    }
    out.push({ source: 'table (header column)', records });
  }
  return out;
}

// Definition lists of terms: each <dt> (or a <div> holding one) with its <dd>s is a record
// {term, name, description}; a list whose terms are field labels ("Price", "Preis") is one
// record's label/value pairs instead (read by pairs() and cardRecord()).
export function termLists() {
  const out = [];
  for (const dl of document.querySelectorAll('dl')) {
    if (decoy(dl) || !shown(dl)) continue;
    const groups = [];
    const walk = (parent) => {
      for (const child of parent.children) {
        if (child.localName === 'div') walk(child);
        else if (child.localName === 'dt') groups.push({ term: child, defs: [] });
        else if (child.localName === 'dd' && groups.length) groups[groups.length - 1].defs.push(child);
      }
    };
    walk(dl);
    if (groups.length < 2) continue;
    if (groups.filter((g) => isLabel(text(g.term).replace(/:$/, ''))).length >= groups.length / 2) continue;
    const records = groups.map((g) => {
      const term = text(g.term);
      const description = g.defs.map(text).join(' ');
      const record = { term, name: term, description };
      const set = (k, v) => {
        if (v !== undefined && v !== null && v !== '' && record[k] === undefined) record[k] = v;
      };
      for (const d of g.defs) {
        linkFields(d, set);
        const m = text(d).match(/^\s*([^:]{1,30}):\s+(.{1,120})$/);
        if (m) set(m[1].trim(), m[2].trim());
      }
      const leaves = [term, ...g.defs.flatMap((d) => leavesOf(d))];
      record[LEAVES] = leaves;
      record[HEAD] = term;
      record[FULL] = `${term} ${description}`;
      return record;
    });
    out.push({ source: `definition list (${groups.length})`, records });
  }
  return out;
}

// Label/value pairs inside one element: <dt>/<dd> and "Label: value" lines.
export function labelPairs(root, set) {
  let label = null;
  for (const el of root.querySelectorAll('dt, dd')) {
    if (el.localName === 'dt') label = text(el).replace(/:$/, '');
    else if (label) set(label, text(el));
  }
  for (const line of (root.innerText || '').split('\n')) {
    const m = line.match(/^\s*([^:\n]{1,30}):\s+(.{1,120})$/);
    if (m) set(m[1].trim(), m[2].trim());
  }
  // Sibling label and value elements ("<span>Preis</span><span>12,50 €</span>").
  for (const el of root.querySelectorAll('*')) {
    if (el.children.length || !isLabel(text(el).replace(/:$/, ''))) continue;
    const next = el.nextElementSibling;
    if (next && text(next)) set(text(el).replace(/:$/, ''), text(next));
  }
}

export { norm };
