// Acting on a page: find an element by its snapshot id or by its accessible name, then
// click, type, select, press, scroll, check. Actions are DOM-level (the events a user's
// input would fire), returned as plain objects the C++ side turns into tool results.
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import { elementById, idFor } from './snapshot.js';

const INTERACTIVE_SELECTOR = [
  'a[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary',
  '[role]', '[contenteditable=""]', '[contenteditable="true"]', '[tabindex]', 'label',
].join(',');

function norm(text) {
  return (text || '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function visible(element) {
  if (!element.isConnected) return false;
  const style = window.getComputedStyle(element);
  if (style.display === 'none' || style.visibility === 'hidden') return false;
  const rect = element.getBoundingClientRect();
  return rect.width > 0 || rect.height > 0 || element.getClientRects().length > 0;
}

function nameOf(element) {
  try {
    return computeAccessibleName(element);
  } catch (e) {
    return element.textContent || '';
  }
}

function roleOf(element) {
  if (element.localName === 'input') {
    const type = (element.getAttribute('type') || 'text').toLowerCase();
    if (['password', 'date', 'time', 'datetime-local', 'month', 'week', 'color'].includes(type)) return 'textbox';
  }
  return getRole(element) || '';
}

// Texts an element answers to: its accessible name, label, placeholder, value of a
// button, title, alt, and for labels the control they point at.
function namesOf(element) {
  const names = [nameOf(element)];
  for (const attr of ['placeholder', 'aria-label', 'title', 'alt', 'name', 'value', 'id']) {
    const v = element.getAttribute && element.getAttribute(attr);
    if (v && (attr !== 'value' || element.localName === 'input' && /button|submit|reset/.test(element.type))) {
      names.push(v);
    }
  }
  if (element.localName !== 'input' && element.localName !== 'select' && element.localName !== 'textarea') {
    names.push(element.innerText || element.textContent || '');
  }
  return names.map(norm).filter(Boolean);
}

// target: "e12" | {id} | {name, role?, exact?} | "Sign in"
export function resolve(target) {
  if (!target) return { error: 'no target given' };
  if (typeof target === 'string') {
    if (/^e\d+$/.test(target)) target = { id: target };
    else target = { name: target };
  }
  if (target.selector) {
    // A CSS selector (Firecrawl's actions): the first match, visible or not.
    let element = null;
    try {
      element = document.querySelector(target.selector);
    } catch (e) {
      return { error: `"${target.selector}" is not a valid CSS selector` };
    }
    return element ? { element } : { error: `no element matches the selector "${target.selector}"` };
  }
  if (target.id) {
    const element = elementById(target.id);
    return element ? { element } : { error: `no element ${target.id} on the current page (take a new snapshot)` };
  }
  const wanted = norm(target.name);
  if (!wanted) return { error: 'target needs an id or a name' };
  const roleWanted = target.role ? norm(target.role) : '';
  const scored = [];
  for (const element of document.querySelectorAll(INTERACTIVE_SELECTOR)) {
    if (!visible(element)) continue;
    let control = element;
    if (element.localName === 'label') {
      control = element.control || element.querySelector('input,select,textarea') || element;
    }
    const role = roleOf(control);
    if (roleWanted && role !== roleWanted && !(roleWanted === 'textbox' && role === 'searchbox')) continue;
    const names = namesOf(element);
    let score = 0;
    for (const n of names) {
      if (n === wanted) score = Math.max(score, 3);
      else if (n.startsWith(wanted) || n.endsWith(wanted)) score = Math.max(score, 2);
      else if (n.includes(wanted) && n.length <= wanted.length * 3 + 20) score = Math.max(score, 1);
    }
    if (!score) continue;
    // Controls beat labels and containers; smaller (more specific) elements beat larger ones.
    if (control !== element) score += 0.5;
    if (/^(button|link|textbox|searchbox|checkbox|radio|combobox|option|tab|menuitem|switch)$/.test(role)) score += 0.25;
    scored.push({ element: control, score, length: (element.innerText || '').length });
  }
  if (!scored.length) return { error: `nothing on the page is named "${target.name}"` };
  scored.sort((a, b) => b.score - a.score || a.length - b.length);
  return { element: scored[0].element };
}

function describe(element) {
  return { id: idFor(element), role: roleOf(element), name: norm(nameOf(element)).slice(0, 120) };
}

function fire(element, type, init = {}) {
  const Ctor = type.startsWith('key') ? KeyboardEvent : type.startsWith('pointer') ? PointerEvent
    : type.startsWith('mouse') || type === 'click' ? MouseEvent : Event;
  element.dispatchEvent(new Ctor(type, { bubbles: true, cancelable: true, composed: true, view: window, ...init }));
}

// Whether acting scrolls the element into view first. The embed SDK turns it off on a
// visitor's page when the site's pageConfig.disableAutoScroll says so.
let autoScroll = true;
export function setAutoScroll(on) {
  autoScroll = !!on;
}
function reveal(element, options) {
  if (autoScroll) element.scrollIntoView(options);
}

function click(element) {
  reveal(element, { block: 'center', inline: 'center' });
  const rect = element.getBoundingClientRect();
  const at = { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2, button: 0 };
  fire(element, 'pointerdown', at);
  fire(element, 'mousedown', at);
  if (typeof element.focus === 'function') element.focus({ preventScroll: true });
  fire(element, 'pointerup', at);
  fire(element, 'mouseup', at);
  element.click();
}

// Sets a value the way frameworks notice: the native setter, then input and change.
function setValue(element, value) {
  const proto = element.localName === 'textarea' ? HTMLTextAreaElement.prototype
    : element.localName === 'select' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
  setter.call(element, value);
  fire(element, 'input');
  fire(element, 'change');
}

function type(element, text, clear) {
  reveal(element, { block: 'center' });
  element.focus({ preventScroll: !autoScroll });
  if (element.isContentEditable) {
    if (clear) element.textContent = '';
    element.textContent += text;
    fire(element, 'input');
    return;
  }
  if (!('value' in element)) throw new Error('the element does not take text');
  if (element.disabled || element.readOnly) throw new Error('the field is disabled or read-only');
  const next = clear ? text : element.value + text;
  for (const ch of text) {
    fire(element, 'keydown', { key: ch });
    fire(element, 'keypress', { key: ch });
    fire(element, 'keyup', { key: ch });
  }
  setValue(element, next);
}

function select(element, option) {
  const wanted = norm(option);
  if (element.localName === 'select') {
    const match = Array.from(element.options).find((o) => norm(o.text) === wanted || norm(o.value) === wanted) ||
      Array.from(element.options).find((o) => norm(o.text).includes(wanted));
    if (!match) throw new Error(`"${option}" is not an option of this list`);
    setValue(element, match.value);
    return match.text;
  }
  // An ARIA combobox or listbox: open it, then click the option by name.
  click(element);
  const found = resolve({ name: option, role: 'option' });
  if (found.error) throw new Error(`"${option}" is not an option of this list`);
  click(found.element);
  return option;
}

const KEYS = {
  enter: 'Enter', tab: 'Tab', escape: 'Escape', esc: 'Escape', space: ' ', backspace: 'Backspace',
  arrowdown: 'ArrowDown', arrowup: 'ArrowUp', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
  pagedown: 'PageDown', pageup: 'PageUp', home: 'Home', end: 'End', delete: 'Delete',
};

function press(element, rawKey) {
  const key = KEYS[norm(rawKey).replace(/\s+/g, '')] || rawKey;
  const target = element || document.activeElement || document.body;
  fire(target, 'keydown', { key });
  fire(target, 'keypress', { key });
  fire(target, 'keyup', { key });
  // Synthetic key events do not trigger default actions; do the ones that matter.
  if (key === 'Enter') {
    const form = target.form || (target.closest && target.closest('form'));
    if (form && target.localName !== 'textarea') {
      if (typeof form.requestSubmit === 'function') form.requestSubmit();
      else form.submit();
      return 'submitted';
    }
    if (target.localName === 'a' || target.localName === 'button') {
      target.click();
      return 'activated';
    }
  }
  if (key === 'Tab') {
    const focusable = Array.from(document.querySelectorAll('a[href],button,input,select,textarea,[tabindex]'))
      .filter((e) => visible(e) && !e.disabled && e.tabIndex >= 0);
    const i = focusable.indexOf(target);
    const next = focusable[(i + 1) % focusable.length];
    if (next) next.focus();
  }
  if (key === ' ' && (target.localName === 'button' || target.type === 'checkbox')) target.click();
  return 'pressed';
}

function scroll(element, direction) {
  const dir = norm(direction || 'down');
  const box = element || document.scrollingElement || document.documentElement;
  const page = element ? element.clientHeight : window.innerHeight;
  if (dir.includes('bottom')) box.scrollTop = box.scrollHeight;
  else if (dir.includes('top')) box.scrollTop = 0;
  else if (dir.includes('up')) box.scrollTop -= page * 0.9;
  else box.scrollTop += page * 0.9;
  // The scroll event at once, as a person's scrolling gives it: a page that loads more
  // when scrolled (infinite scroll) hears it even where no frame is being drawn.
  (element || window).dispatchEvent(new Event('scroll'));
  if (!element) document.dispatchEvent(new Event('scroll'));
  return { scrollTop: box.scrollTop, scrollHeight: box.scrollHeight };
}

// action: {action, target?, text?, option?, key?, direction?, clear?}
export function act(action) {
  const kind = norm(action.action);
  const needsTarget = ['click', 'type', 'select', 'check', 'uncheck', 'focus', 'submit'].includes(kind);
  let element = null;
  if (action.target) {
    const found = resolve(action.target);
    if (found.error) {
      if (needsTarget || kind === 'press' || kind === 'scroll') return { ok: false, error: found.error };
    }
    element = found.element || null;
  } else if (needsTarget) {
    return { ok: false, error: `${kind} needs a target (an element id such as "e12" or a name)` };
  }
  try {
    switch (kind) {
      case 'click':
        if (action.all && action.target && action.target.selector) {
          // Every match, in document order (Firecrawl's click {all: true}).
          const all = Array.from(document.querySelectorAll(action.target.selector));
          all.forEach(click);
          return { ok: true, clicked: all.length };
        }
        click(element);
        return { ok: true, element: describe(element) };
      case 'write': {
        // Text into the focused element (Firecrawl's write: click the field first).
        const focused = element || document.activeElement;
        if (!focused || focused === document.body || focused === document.documentElement) {
          return { ok: false, error: 'no element has the focus to write into (click a field first)' };
        }
        type(focused, String(action.text ?? ''), false);
        return { ok: true, element: describe(focused) };
      }
      case 'type':
        type(element, String(action.text ?? ''), action.clear !== false);
        if (action.submit) press(element, 'Enter');
        return { ok: true, element: describe(element), value: element.type === 'password' ? undefined : element.value };
      case 'select': {
        const chosen = select(element, String(action.option ?? action.text ?? ''));
        return { ok: true, element: describe(element), selected: chosen };
      }
      case 'check':
      case 'uncheck': {
        const want = kind === 'check';
        const checked = element.getAttribute('aria-checked') ? element.getAttribute('aria-checked') === 'true' : !!element.checked;
        if (checked !== want) click(element);
        return { ok: true, element: describe(element) };
      }
      case 'press':
        return { ok: true, result: press(element, String(action.key ?? action.text ?? 'Enter')) };
      case 'scroll':
        return { ok: true, ...scroll(element, action.direction) };
      case 'focus':
        element.focus();
        return { ok: true, element: describe(element) };
      case 'submit': {
        const form = element.localName === 'form' ? element : element.form || element.closest('form');
        if (!form) return { ok: false, error: 'the element is not in a form' };
        form.requestSubmit();
        return { ok: true };
      }
      default:
        return { ok: false, error: `unknown action "${action.action}"` };
    }
  } catch (e) {
    return { ok: false, error: String(e && e.message || e) };
  }
}

// The page's login form, if it shows one: its fields (with a stable key each) and
// its submit button.
// A field that takes a one-time sign-in code (autocomplete one-time-code, or named so).
function isCodeField(input) {
  const t = (input.getAttribute('type') || 'text').toLowerCase();
  if (!['text', 'number', 'tel', 'password'].includes(t)) return false;
  const ac = norm(input.getAttribute('autocomplete'));
  const hint = `${norm(nameOf(input))} ${norm(input.name)} ${norm(input.id)} ${norm(input.getAttribute('placeholder'))}`;
  return ac === 'one-time-code' || /\b(otp|one-time|verification code|security code|sign-in code|login code|2fa)\b/.test(hint);
}

// The address a page shows (in full, or masked as a***@ / a•••@), masked: its first
// character, then •••@ and the domain; '' when it shows none.
function maskedEmail(text) {
  const email = /([\w.+-])[\w.+*•·-]*@([\w-]+(?:\.[\w-]+)+)/.exec(text);
  return email ? `${email[1]}•••@${email[2]}` : '';
}

function pageText() {
  return document.body ? document.body.innerText || '' : '';
}

// A page that says a sign-in link was emailed (a "magic link"), and the masked address.
function magicLinkNotice() {
  const text = pageText();
  if (!/(sign-?in|log-?in|magic|login) link|check your (e-?mail|inbox)/i.test(text)) return null;
  return { emailMasked: maskedEmail(text) };
}

// The page's sign-in step: a password form (kind "password"), a one-time code form
// ("otp"), or a notice that a sign-in link was emailed ("magic_link", no fields).
export function loginForm() {
  const password = Array.from(document.querySelectorAll('input[type=password]')).find(visible);
  const code = password ? null : Array.from(document.querySelectorAll('input')).filter(visible).find(isCodeField);
  const anchor = password || code;
  if (!anchor) {
    const notice = magicLinkNotice();
    return notice ? { kind: 'magic_link', fields: [], submit: null, host: location.host, emailMasked: notice.emailMasked } : null;
  }
  const form = anchor.form || anchor.closest('form') || document.body;
  const fields = [];
  for (const input of form.querySelectorAll('input, select, textarea')) {
    if (!visible(input) || input.disabled) continue;
    const t = (input.getAttribute('type') || 'text').toLowerCase();
    if (['hidden', 'submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file'].includes(t)) continue;
    const label = norm(nameOf(input)) || norm(input.getAttribute('placeholder')) || norm(input.name) || t;
    const hint = `${label} ${norm(input.name)} ${norm(input.id)} ${norm(input.getAttribute('autocomplete'))} ${t}`;
    let key = 'field';
    if (isCodeField(input)) key = 'code';
    else if (t === 'password' || /password|passwort|passcode/.test(hint)) key = 'password';
    else if (t === 'email' || /e-?mail/.test(hint)) key = 'email';
    else if (/user|login|account|name/.test(hint)) key = 'username';
    else if (/otp|code|token|2fa|one-time/.test(hint)) key = 'code';
    while (fields.some((f) => f.key === key)) key += '_';
    fields.push({ id: idFor(input), key, label: nameOf(input) || input.getAttribute('placeholder') || input.name || t,
      type: t, secret: t === 'password' || key === 'code', filled: !!input.value });
  }
  let submit = form.querySelector('button[type=submit], input[type=submit], button:not([type])');
  if (!submit) submit = Array.from(form.querySelectorAll('button, [role=button], input[type=button]')).find(visible) || null;
  const found = { kind: password ? 'password' : 'otp', fields, submit: submit ? idFor(submit) : null, host: location.host };
  // A code page names where it sent the code ("We sent a code to a•••@example.org").
  if (!password) found.emailMasked = maskedEmail(pageText());
  return found;
}

// Whether `action` ({action, target, key, submit}) would submit a form, and how: the gate
// that asks a person before a run sends a form that changes something (POST).
export function submitTarget(action) {
  const a = action || {};
  let element = document.activeElement;
  if (a.target) {
    const found = resolve(a.target);
    if (found.error) return { submits: false };
    element = found.element;
  }
  if (!element) return { submits: false };
  if (element.localName === 'label') element = element.control || element;
  const form = element.form || element.closest('form');
  if (!form) return { submits: false };
  const t = (element.getAttribute('type') || '').toLowerCase();
  let submits = false;
  if (a.action === 'click')
    submits = (element.localName === 'button' && (t === '' || t === 'submit')) ||
      (element.localName === 'input' && (t === 'submit' || t === 'image'));
  else if (a.action === 'press')
    submits = a.key === 'Enter' && element.localName === 'input';
  else if (a.action === 'type')
    submits = a.submit === true;
  else if (a.action === 'submit')
    submits = true;
  if (!submits) return { submits: false };
  const signIn = Array.from(form.querySelectorAll('input')).some((i) => visible(i) &&
    ((i.getAttribute('type') || '').toLowerCase() === 'password' || isCodeField(i)));
  return { submits: true, signIn, method: (form.getAttribute('method') || 'get').toLowerCase(), action: form.action,
    label: (nameOf(element) || element.value || 'submit').trim(), title: document.title };
}

// The page's search box, if any.
export function searchBox() {
  const candidates = Array.from(document.querySelectorAll('input, [role=searchbox], [role=combobox]')).filter(visible);
  const score = (e) => {
    const hint = `${norm(e.getAttribute('type'))} ${norm(e.getAttribute('role'))} ${norm(e.name)} ${norm(e.id)} ` +
      `${norm(e.getAttribute('placeholder'))} ${norm(e.getAttribute('aria-label'))} ${norm(nameOf(e))}`;
    let s = 0;
    if (e.getAttribute('type') === 'search' || e.getAttribute('role') === 'searchbox') s += 3;
    if (e.closest('[role=search], form[action*=search]')) s += 2;
    if (/search|suche|query|find/.test(hint)) s += 2;
    if (e.name === 'q' || e.name === 's') s += 2;
    if (['password', 'email', 'checkbox', 'radio', 'submit', 'hidden', 'number'].includes(norm(e.getAttribute('type')))) s -= 10;
    return s;
  };
  const best = candidates.map((e) => ({ e, s: score(e) })).filter((x) => x.s > 0).sort((a, b) => b.s - a.s)[0];
  return best ? { id: idFor(best.e), name: nameOf(best.e) } : null;
}
