// The steps a page puts in front of a run that a person must take (A2W's input reasons,
// docs/api/a2w.md "Reasons"): a human-verification widget or challenge page, a payment
// step (a method to enter, or an amount to confirm), terms to accept, an account to link,
// an offer to claim. classifyGate is pure (it reads a plain description of the page, so
// node tests it row by row); pageGate builds that description from the live DOM. Nothing
// here solves or submits anything: it only says what the page asks of a person.

// Human-verification providers by the frames and widgets they put in a page.
const VERIFICATION_FRAMES = [
  ['recaptcha', /(^|\/\/)(www\.)?(google\.com|recaptcha\.net)\/recaptcha\//i],
  ['hcaptcha', /(^|\/\/)([\w-]+\.)*hcaptcha\.com\//i],
  ['turnstile', /(^|\/\/)challenges\.cloudflare\.com\//i],
];
const VERIFICATION_WIDGETS = [
  ['recaptcha', /(^|\s)g-recaptcha(\s|$)/],
  ['hcaptcha', /(^|\s)h-captcha(\s|$)/],
  ['turnstile', /(^|\s)cf-turnstile(\s|$)/],
];
// A whole page that stands between the run and the site until a person passes it.
const CHALLENGE_TITLE = /^(just a moment|attention required|are you a robot|security check|verify you are human|access denied)\b/i;
const CHALLENGE_TEXT = /\b(verify (that )?you are (a )?human|checking (if the site connection is secure|your browser)|prove you('| a)re not a robot|complete the (security check|captcha)|press (and|&) hold)\b/i;

const TERMS = /\b(terms( of (service|use|sale))?|conditions|agb|nutzungsbedingungen|privacy policy|datenschutz)\b/i;
const AGREE = /\b(i (agree|accept)|agree|accept|akzeptieren|zustimmen|einverstanden)\b/i;
const ACCOUNT_LINK = /\b(link|connect) (your|an?) (\w+ )?account\b|\bkonto verkn[üu]pfen\b/i;
const OFFER = /\b(claim|redeem|activate) (the |this |your )?(offer|deal|coupon|voucher|reward|discount|gift)\b|\bangebot einl[öo]sen\b/i;
const PAY_BUTTON = /\b(pay( now)?|place (your )?order|confirm (and pay|payment|purchase|order)|buy now|complete (purchase|order)|jetzt (kaufen|bezahlen)|zahlungspflichtig bestellen)\b/i;
const CARD_FIELD = /^(cc-number|cc-csc|cc-exp)$|card.?number|cardnumber|\bcvc\b|\bcvv\b|kartennummer/i;
// An amount with its currency, on either side: "$1,299.00", "12,50 €", "EUR 40".
const AMOUNT = /(?:([$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY)\b)\s?(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?))|(?:(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s?([$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY)\b))/;
const SYMBOLS = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };

// "1,299.00" / "1.299,00" / "12,50" as a number.
function amountValue(text) {
  const t = text.replace(/\s/g, '');
  const lastSep = Math.max(t.lastIndexOf('.'), t.lastIndexOf(','));
  if (lastSep >= 0 && t.length - lastSep - 1 <= 2) {
    return Number(t.slice(0, lastSep).replace(/[.,]/g, '') + '.' + t.slice(lastSep + 1));
  }
  return Number(t.replace(/[.,]/g, ''));
}

// The amount a payment step asks for: the one on a "total" line when there is one, else
// the last one in the text; null when the text names none.
export function readAmount(text) {
  const lines = String(text || '').split(/\n+/);
  const totals = lines.filter((l) => /\b(total|gesamt|amount due|to pay|summe)\b/i.test(l));
  for (const line of totals.length ? totals : lines.slice().reverse()) {
    const m = AMOUNT.exec(line);
    if (!m) continue;
    const symbol = m[1] || m[4];
    const digits = m[2] || m[3];
    const value = amountValue(digits);
    if (!Number.isFinite(value)) continue;
    return { value, currency: SYMBOLS[symbol] || symbol.toUpperCase(), text: m[0].trim() };
  }
  return null;
}

function verification(page) {
  for (const src of page.frames || []) {
    for (const [kind, re] of VERIFICATION_FRAMES) if (re.test(src)) return kind;
  }
  for (const w of page.widgets || []) {
    for (const [kind, re] of VERIFICATION_WIDGETS) if (re.test(w.className || '')) return kind;
    if (w.sitekey) return 'captcha';
  }
  if (CHALLENGE_TITLE.test((page.title || '').trim()) || CHALLENGE_TEXT.test(page.text || '')) return 'challenge';
  return '';
}

// page: {url, title, text, frames: [src], widgets: [{className}], buttons: [text],
//        fields: [{name, autocomplete, type}], checkboxes: [{label, checked, required}],
//        dialogs: [text], siteName}; widgets: {className, sitekey (has data-sitekey)}
// → {reason, kind?, message, payment?} or null.
export function classifyGate(page) {
  const p = page || {};
  const host = (() => {
    try {
      return new URL(p.url).host;
    } catch (e) {
      return '';
    }
  })();
  const kind = verification(p);
  if (kind) {
    return { reason: 'human_verification_required', kind,
      message: `${host || 'The site'} asks a person to prove they are human (${kind === 'challenge' ? 'a challenge page' : kind}).` };
  }
  const buttons = (p.buttons || []).map((b) => String(b || '').trim()).filter(Boolean);
  const dialogs = (p.dialogs || []).join('\n');
  const terms = (p.checkboxes || []).find((c) => !c.checked && TERMS.test(c.label || ''));
  if (terms || (TERMS.test(dialogs) && buttons.some((b) => AGREE.test(b)))) {
    return { reason: 'terms_acknowledgement_required',
      message: `${host || 'The site'} asks to accept its terms${terms ? `: "${String(terms.label).trim().slice(0, 160)}"` : ''}.` };
  }
  const cardField = (p.fields || []).some((f) => CARD_FIELD.test(f.autocomplete || '') || CARD_FIELD.test(f.name || ''));
  const merchant = (p.siteName || host || '').slice(0, 120);
  if (cardField) {
    return { reason: 'payment_method_required', merchant,
      message: `${merchant || 'The site'} asks for a payment method.` };
  }
  const pay = buttons.find((b) => PAY_BUTTON.test(b));
  const amount = pay ? readAmount(p.text) : null;
  if (pay && amount) {
    return { reason: 'payment_confirmation_required', merchant, amount, button: pay.slice(0, 80),
      message: `${merchant || 'The site'} asks to pay ${amount.text} ("${pay.slice(0, 80)}").` };
  }
  const link = buttons.find((b) => ACCOUNT_LINK.test(b)) || (ACCOUNT_LINK.test(p.text || '') ? buttons.find((b) => /\b(link|connect|verkn)/i.test(b)) : '');
  if (link) {
    return { reason: 'account_link_required', button: link.slice(0, 80),
      message: `${host || 'The site'} asks to link an account ("${link.slice(0, 80)}").` };
  }
  const offer = buttons.find((b) => OFFER.test(b));
  if (offer) {
    return { reason: 'offer_claim_required', button: offer.slice(0, 80),
      message: `${host || 'The site'} offers something to claim ("${offer.slice(0, 80)}").` };
  }
  return null;
}

function visibleIn(doc, el) {
  const view = doc.defaultView;
  if (!view || !el.getClientRects().length) return false;
  const style = view.getComputedStyle(el);
  return style.visibility !== 'hidden' && style.display !== 'none';
}

function labelOf(doc, input) {
  if (input.labels && input.labels.length) return input.labels[0].innerText || '';
  const wrap = input.closest('label');
  if (wrap) return wrap.innerText || '';
  const by = input.getAttribute('aria-labelledby');
  const el = by ? doc.getElementById(by) : null;
  return el ? el.innerText || '' : input.getAttribute('aria-label') || '';
}

// The live page described for classifyGate (visible elements only).
export function describePage(doc = document) {
  const all = (sel) => Array.from(doc.querySelectorAll(sel)).filter((el) => visibleIn(doc, el));
  const site = doc.querySelector('meta[property="og:site_name"]');
  return {
    url: doc.location ? doc.location.href : '',
    title: doc.title || '',
    text: doc.body ? (doc.body.innerText || '').slice(0, 20000) : '',
    frames: Array.from(doc.querySelectorAll('iframe[src]')).map((f) => f.getAttribute('src')),
    widgets: Array.from(doc.querySelectorAll('.g-recaptcha, .h-captcha, .cf-turnstile, [data-sitekey]'))
      .map((w) => ({ className: typeof w.className === 'string' ? w.className : '', sitekey: w.hasAttribute('data-sitekey') })),
    buttons: all('button, [role=button], input[type=submit], input[type=button], a')
      .map((b) => (b.innerText || b.value || b.getAttribute('aria-label') || '').trim().slice(0, 120))
      .filter(Boolean).slice(0, 200),
    fields: all('input, select').map((f) => ({ name: `${f.name || ''} ${f.id || ''}`.trim(),
      autocomplete: (f.getAttribute('autocomplete') || '').toLowerCase(), type: f.type || '' })).slice(0, 200),
    checkboxes: all('input[type=checkbox]').map((c) => ({ label: labelOf(doc, c).slice(0, 300), checked: c.checked,
      required: c.required })).slice(0, 100),
    dialogs: all('dialog[open], [role=dialog], [aria-modal=true]').map((d) => (d.innerText || '').slice(0, 2000)),
    siteName: site ? (site.getAttribute('content') || '').trim() : '',
  };
}

// What the live page asks of a person, or null.
export function pageGate(doc = document) {
  return classifyGate(describePage(doc));
}
