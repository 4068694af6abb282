// Reads a page back: visible text, the accessibility tree with stable element ids,
// the element/link record and the links. Runs in an isolated world, so the page's own
// scripts can neither see nor tamper with it.
import { computeAccessibleName, getRole } from 'dom-accessibility-api';

// Stable ids: the same element keeps its id ("e12") for the life of the document, so
// an id from one snapshot can drive an action later.
const registry = { ids: new WeakMap(), elements: new Map(), next: 1 };

export function idFor(element) {
  let id = registry.ids.get(element);
  if (!id) {
    id = 'e' + registry.next++;
    registry.ids.set(element, id);
    registry.elements.set(id, new WeakRef(element));
  }
  return id;
}

export function elementById(id) {
  const ref = registry.elements.get(id);
  const element = ref && ref.deref();
  return element && element.isConnected ? element : null;
}

const INTERACTIVE = new Set([
  'link', 'button', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox',
  'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider',
  'spinbutton', 'treeitem', 'gridcell',
]);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const VALUED = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'listbox']);
const SKIPPED_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base',
]);
const GENERIC = new Set(['generic', 'presentation', 'none']);
const MAX_NAME = 300;

function collapse(text) {
  return (text || '').replace(/\s+/g, ' ').trim();
}

function clip(text, max) {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

// One computed-style cache for the whole snapshot; dom-accessibility-api asks for the
// same elements many times while computing names.
function styleCache() {
  const plain = new WeakMap();
  const pseudo = { '::before': new WeakMap(), '::after': new WeakMap() };
  return (element, pseudoElement) => {
    const map = pseudoElement ? pseudo[pseudoElement] : plain;
    if (!map) return window.getComputedStyle(element, pseudoElement);
    let style = map.get(element);
    if (!style) {
      style = window.getComputedStyle(element, pseudoElement);
      map.set(element, style);
    }
    return style;
  };
}

function roleOf(element, name) {
  const tag = element.localName;
  if (tag === 'input') {
    const type = (element.getAttribute('type') || 'text').toLowerCase();
    if (type === 'hidden') return null;
    if (type === 'password' || type === 'date' || type === 'time' || type === 'datetime-local' ||
        type === 'month' || type === 'week' || type === 'color') {
      return element.getAttribute('role') || 'textbox';
    }
    if (type === 'file') return 'button';
  }
  const role = getRole(element);
  // HTML-AAM: <section> and <form> are landmarks only when they have a name.
  if ((role === 'region' && tag === 'section') || (role === 'form' && tag === 'form')) {
    return name() ? role : null;
  }
  return role;
}

function isDisabled(element) {
  return (typeof element.matches === 'function' && element.matches(':disabled')) ||
    !!element.closest('[aria-disabled="true"]');
}

function triState(value) {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'mixed') return 'mixed';
  return undefined;
}

function states(element, role, node) {
  const aria = (name) => element.getAttribute(name);
  if (CHECKABLE.has(role)) {
    const explicit = triState(aria('aria-checked'));
    if (explicit !== undefined) node.checked = explicit;
    else if (element.indeterminate) node.checked = 'mixed';
    else if ('checked' in element) node.checked = !!element.checked;
  }
  const expanded = triState(aria('aria-expanded'));
  if (expanded !== undefined) node.expanded = expanded;
  else if (element.localName === 'details') node.expanded = element.open;
  else if (element.localName === 'summary' && element.parentElement &&
           element.parentElement.localName === 'details') {
    node.expanded = element.parentElement.open;
  }
  if (isDisabled(element)) node.disabled = true;
  const selected = triState(aria('aria-selected'));
  if (selected !== undefined) node.selected = selected;
  else if (element.localName === 'option') node.selected = element.selected;
  const pressed = triState(aria('aria-pressed'));
  if (pressed !== undefined) node.pressed = pressed;
  if (element.required || aria('aria-required') === 'true') node.required = true;
  if (element.readOnly || aria('aria-readonly') === 'true') node.readonly = true;
  if (aria('aria-invalid') && aria('aria-invalid') !== 'false') node.invalid = true;
  if (aria('aria-current') && aria('aria-current') !== 'false') node.current = aria('aria-current');
  if (role === 'heading') {
    const level = parseInt(aria('aria-level') || element.localName.slice(1), 10);
    if (level >= 1 && level <= 9) node.level = level;
  }
  if (document.activeElement === element && element !== document.body) node.focused = true;
  if (VALUED.has(role)) {
    if (element.localName === 'select') {
      const chosen = Array.from(element.selectedOptions || []).map((o) => collapse(o.text));
      node.value = element.multiple ? chosen : (chosen[0] || '');
    } else if (element.type === 'password') {
      // Never read a password back.
    } else if ('value' in element && typeof element.value === 'string') {
      node.value = clip(element.value, 1000);
    } else if (aria('aria-valuenow') !== null) {
      node.value = aria('aria-valuenow');
    }
  }
  if (role === 'link' && element.href) node.url = element.href;
  if (element.getAttribute('placeholder')) node.placeholder = element.getAttribute('placeholder');
}

class TreeBuilder {
  constructor(maxNodes) {
    this.maxNodes = maxNodes;
    this.count = 0;
    this.truncated = false;
    this.getStyle = styleCache();
    this.record = {};
  }

  full() {
    if (this.count >= this.maxNodes) {
      this.truncated = true;
      return true;
    }
    return false;
  }

  // Appends the accessible children of `parent` (a DOM node) to `out`.
  children(parent, out) {
    const kids = parent.localName === 'slot' && parent.assignedNodes
      ? parent.assignedNodes({ flatten: true })
      : parent.shadowRoot ? parent.shadowRoot.childNodes : parent.childNodes;
    for (const child of kids) {
      if (this.full()) return;
      if (child.nodeType === Node.TEXT_NODE) {
        const text = collapse(child.data);
        if (!text) continue;
        const last = out[out.length - 1];
        if (last && last.role === 'text') {
          last.name = clip(last.name + ' ' + text, MAX_NAME * 4);
        } else {
          this.count++;
          out.push({ role: 'text', name: clip(text, MAX_NAME * 4) });
        }
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        this.element(child, out);
      }
    }
  }

  element(element, out) {
    const tag = element.localName;
    if (SKIPPED_TAGS.has(tag)) return;
    if (element.hidden || element.getAttribute('aria-hidden') === 'true') return;
    const style = this.getStyle(element);
    if (style.display === 'none') return;
    const invisible = style.visibility === 'hidden' || style.visibility === 'collapse';
    let nameCache;
    const name = () => {
      if (nameCache === undefined) {
        nameCache = clip(collapse(computeAccessibleName(element, {
          getComputedStyle: this.getStyle,
        })), MAX_NAME);
      }
      return nameCache;
    };
    const role = invisible ? null : roleOf(element, name);
    if (!role || GENERIC.has(role)) {
      this.children(element, out);
      return;
    }
    this.count++;
    const id = idFor(element);
    const node = { id, role, name: name() };
    states(element, role, node);
    const kids = [];
    // Form controls carry their state in the node; their DOM children (options aside)
    // would only repeat it.
    if (!['textbox', 'searchbox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton',
          'img'].includes(role)) {
      this.children(element, kids);
    }
    // A node named from its content need not repeat that content as a text child.
    if (kids.length === 1 && kids[0].role === 'text' && kids[0].name === node.name) kids.pop();
    if (kids.length) node.children = kids;
    out.push(node);
    if (INTERACTIVE.has(role)) {
      const entry = { role, text: node.name, tag };
      if (node.url) entry.href = node.url;
      if (tag === 'input') entry.type = (element.getAttribute('type') || 'text').toLowerCase();
      this.record[id] = entry;
    }
  }
}

function ariaLines(nodes, depth, lines) {
  for (const node of nodes) {
    const indent = '  '.repeat(depth);
    if (node.role === 'text') {
      lines.push(`${indent}- text: ${JSON.stringify(node.name)}`);
      continue;
    }
    let line = `${indent}- ${node.role}`;
    if (node.name) line += ` ${JSON.stringify(node.name)}`;
    const flags = [];
    for (const key of ['checked', 'expanded', 'disabled', 'selected', 'pressed', 'required',
                       'readonly', 'invalid', 'focused']) {
      if (node[key] === true) flags.push(key);
      else if (node[key] === 'mixed') flags.push(`${key}=mixed`);
    }
    if (node.level) flags.push(`level=${node.level}`);
    flags.push(`ref=${node.id}`);
    line += ` [${flags.join('] [')}]`;
    if (node.value !== undefined && node.value !== '') line += `: ${JSON.stringify(node.value)}`;
    lines.push(line);
    if (node.children) ariaLines(node.children, depth + 1, lines);
  }
}

export function accessibilityTree({ maxNodes = 2000, scope = '' } = {}) {
  const builder = new TreeBuilder(maxNodes);
  let roots;
  if (scope) {
    roots = Array.from(document.querySelectorAll(scope));
  } else {
    roots = document.body ? [document.body] : [document.documentElement];
  }
  const children = [];
  for (const root of roots) {
    if (builder.full()) break;
    // The scope root itself is part of the tree when it has a role.
    if (scope) builder.element(root, children);
    else builder.children(root, children);
  }
  const tree = { role: 'document', name: document.title || '', children };
  return {
    tree,
    nodeCount: builder.count,
    truncated: builder.truncated,
    scopeMatches: scope ? roots.length : undefined,
    record: builder.record,
  };
}

export function ariaSnapshot(tree) {
  const lines = [];
  ariaLines(tree.children || [], 0, lines);
  return lines.join('\n');
}

export function links() {
  const out = [];
  const seen = new Set();
  for (const a of document.querySelectorAll('a[href], area[href]')) {
    const href = a.href;
    if (!href || href.startsWith('javascript:')) continue;
    const text = clip(collapse(a.innerText || a.textContent || a.getAttribute('aria-label') || ''), MAX_NAME);
    const key = href + '\u0000' + text;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id: idFor(a), href, text });
  }
  return out;
}
