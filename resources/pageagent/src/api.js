// The page agent's functions: installed as `window.__pilothouse` in the pool's pages
// (index.js) and bundled into the embed SDK, which calls them on a visitor's page.
import { accessibilityTree, ariaSnapshot, elementById, idFor, links } from './snapshot.js';
import { markdown } from './markdown.js';
import { act, loginForm, resolve, searchBox, setAutoScroll, submitTarget } from './actions.js';
import { extract, nextPage, structures } from './extract.js';
import { pageGate } from './gates.js';

const VERSION = 1;

// The elements a content scope (a CSS selector) names, else the body.
function contentRoots(scope) {
  if (!scope) {
    const root = document.body || document.documentElement;
    return root ? [root] : [];
  }
  return Array.from(document.querySelectorAll(scope));
}

function text(maxChars, scope) {
  const all = contentRoots(scope).map((root) => root.innerText || '').join('\n\n');
  if (maxChars > 0 && all.length > maxChars) {
    return { text: all.slice(0, maxChars), truncated: true, length: all.length };
  }
  return { text: all, truncated: false, length: all.length };
}

// The page's own summary: <meta name="description">, else its Open Graph description.
function metaDescription() {
  const meta = document.querySelector('meta[name="description" i]') ||
    document.querySelector('meta[property="og:description"]');
  return meta ? (meta.getAttribute('content') || '').trim() : '';
}

// options: { formats: [...], maxNodes, scope, maxTextChars, contentScope }
// scope narrows the accessibility tree; contentScope narrows text and markdown.
function snapshot(options = {}) {
  const formats = new Set(options.formats || ['text', 'accessibilityTree', 'elementLinkRecord', 'links']);
  const started = performance.now();
  const out = {
    url: location.href,
    title: document.title || '',
    contentType: document.contentType,
    charset: document.characterSet,
    lang: document.documentElement ? document.documentElement.lang || '' : '',
    description: metaDescription(),
    readyState: document.readyState,
  };
  const html = document.contentType === 'text/html' || document.contentType === 'application/xhtml+xml';
  if (!html) return JSON.stringify(out);
  if (options.contentScope) {
    out.contentScope = { selector: options.contentScope, matches: contentRoots(options.contentScope).length };
  }
  if (formats.has('text')) {
    const t = text(options.maxTextChars || 0, options.contentScope || '');
    out.text = t.text;
    if (t.truncated) {
      out.textTruncated = true;
      out.textLength = t.length;
    }
  }
  if (formats.has('markdown')) {
    const m = markdown(options.contentScope ? contentRoots(options.contentScope) : null);
    out.markdown = m.markdown;
    out.markdownSource = m.source;
  }
  if (formats.has('html')) out.html = document.documentElement.outerHTML;
  if (formats.has('accessibilityTree') || formats.has('elementLinkRecord') ||
      formats.has('ariaSnapshot')) {
    const a = accessibilityTree({ maxNodes: options.maxNodes || 2000, scope: options.scope || '' });
    out.accessibility = { nodeCount: a.nodeCount, truncated: a.truncated, maxNodes: options.maxNodes || 2000 };
    if (options.scope) {
      out.accessibility.scope = options.scope;
      out.accessibility.scopeMatches = a.scopeMatches;
    }
    if (formats.has('accessibilityTree')) out.accessibilityTree = a.tree;
    if (formats.has('ariaSnapshot')) out.ariaSnapshot = ariaSnapshot(a.tree);
    if (formats.has('elementLinkRecord')) out.elementLinkRecord = a.record;
  }
  if (formats.has('links')) out.links = links();
  out.extractMs = Math.round(performance.now() - started);
  return JSON.stringify(out);
}

// Firecrawl's includeTags / excludeTags, applied to the live document before it is read:
// the elements excludeTags match go; with includeTags the body keeps only the outermost
// elements they match, in document order. {ok} or {ok: false, error, selector}.
function filterTags(options = {}) {
  const body = document.body;
  if (!body) return JSON.stringify({ ok: true });
  const all = (selector) => {
    try {
      return Array.from(body.querySelectorAll(selector));
    } catch (e) {
      return null;
    }
  };
  for (const selector of options.exclude || []) {
    const found = all(selector);
    if (!found) return JSON.stringify({ ok: false, selector, error: `"${selector}" is not a valid CSS selector` });
    found.forEach((e) => e.remove());
  }
  const include = options.include || [];
  if (include.length) {
    const kept = new Set();
    for (const selector of include) {
      const found = all(selector);
      if (!found) return JSON.stringify({ ok: false, selector, error: `"${selector}" is not a valid CSS selector` });
      // A selector that matches the body itself (or the document element) keeps it all.
      if (body.matches(selector) || document.documentElement.matches(selector)) return JSON.stringify({ ok: true });
      found.forEach((e) => kept.add(e));
    }
    const outermost = Array.from(kept).filter((e) => {
      for (let p = e.parentElement; p; p = p.parentElement) if (kept.has(p)) return false;
      return true;
    });
    outermost.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    body.replaceChildren(...outermost);
  }
  return JSON.stringify({ ok: true });
}

// Selector check for wait conditions: {selector} or {text}.
function probe(condition) {
  if (condition.selector) {
    try {
      return !!document.querySelector(condition.selector);
    } catch (e) {
      return 'invalid-selector';
    }
  }
  if (condition.text) {
    const root = document.body || document.documentElement;
    return !!root && (root.innerText || '').includes(condition.text);
  }
  return document.readyState !== 'loading';
}

export const agentApi = Object.freeze({
      version: VERSION,
      setAutoScroll,
      snapshot,
      probe,
      filterTags,
      elementById,
      idFor,
      // Each returns a JSON string, so one IPC round trip carries the whole answer.
      act: (action) => JSON.stringify(act(action)),
      find: (target) => {
        const found = resolve(target);
        return JSON.stringify(found.error ? { error: found.error } : { id: idFor(found.element) });
      },
      extract: (schema) => JSON.stringify(extract(schema)),
      // A later page of a crawl: {schema, like} (like: the source the page before was read from).
      extractMore: (args) => JSON.stringify(extract(args.schema, { like: args.like })),
      nextPage: () => JSON.stringify(nextPage()),
      structures: () => JSON.stringify(structures()),
      loginForm: () => JSON.stringify(loginForm()),
      // What the page asks of a person (verification, payment, terms …), or null.
      gate: () => JSON.stringify(pageGate()),
      searchBox: () => JSON.stringify(searchBox()),
      submitTarget: (action) => JSON.stringify(submitTarget(action)),
      page: () => JSON.stringify({ url: location.href, title: document.title, readyState: document.readyState }),
    });
