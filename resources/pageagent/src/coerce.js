// Values read off a page, coerced to a JSON Schema type the way people write them
// (docs/api/agent.md, "Values"): numbers with any thousands separator, decimal commas,
// currencies, percentages, 1.2k / 3 million / 3 Mio., negative forms; dates to ISO 8601;
// yes/no in several languages. The page's language decides the ambiguous cases
// ("1.234" is 1234 on a German page, 1.234 on an English one). No DOM: unit-tested with
// node (tests/pageagent/coerce.test.mjs).

// Languages that write a decimal comma (and a dot, space or apostrophe for thousands).
const DECIMAL_COMMA = new Set(['de', 'fr', 'es', 'it', 'nl', 'pt', 'ru', 'pl', 'cs', 'sk', 'sv', 'da',
  'nb', 'no', 'nn', 'fi', 'tr', 'el', 'hu', 'ro', 'bg', 'uk', 'hr', 'sl', 'sr', 'lt', 'lv', 'et',
  'id', 'vi', 'ca', 'eu', 'gl']);

export function decimalComma(lang) {
  const l = String(lang || '').toLowerCase().split(/[-_]/)[0];
  if (String(lang || '').toLowerCase() === 'de-ch') return false; // 1'234.50
  return DECIMAL_COMMA.has(l);
}

const MULTIPLIERS = [
  [/^(k|tsd\.?|thousand|tausend|mil)$/i, 1e3],
  [/^(m|mn|mio\.?|mill?\.?|million|millions|millionen)$/i, 1e6],
  [/^(b|bn|mrd\.?|billion|billions|milliarden?)$/i, 1e9],
  [/^(t|tn|trillion|trillions|billionen)$/i, 1e12],
];
const CURRENCY = /[$€£¥₹₩₽₺₪฿₫₴₦]|\b(?:usd|eur|gbp|chf|jpy|cny|inr|aud|cad|sek|nok|dkk|pln|czk|huf|rub|brl|mxn|zar|nzd|sgd|hkd|krw|try)\b|\bfr\.|\bkr\b|\bzł\b/gi;

// The number in `input`, or null. `lang` is the page's language (html lang).
export function parseNumber(input, lang) {
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  if (typeof input !== 'string') return null;
  let s = input.replace(/[\u00a0\u2009\u202f\u2007]/g, ' ').replace(/[\u2212\u2012\u2013]/g, '-')
    .replace(/[’‘ʼ´`]/g, "'").replace(CURRENCY, ' ').trim();
  if (!s) return null;
  let negative = false;
  // (1,234) and 1,234- are negative, as accountants write them.
  const paren = s.match(/^\((.*)\)$/);
  if (paren) {
    negative = true;
    s = paren[1].trim();
  }
  const m = s.match(/(-\s?)?(\d[\d\s.,']*)\s*(-)?\s*([A-Za-zÀ-ÿ.]+)?/);
  if (!m) return null;
  // A leading minus, or a trailing one closing the value (not a range like 10-20).
  if (m[1] || (m[3] && /-\s*$/.test(s))) negative = true;
  let digits = m[2].trim().replace(/[\s']/g, (c) => (c === "'" ? "'" : ' '));
  // Spaces and apostrophes inside a number only ever group thousands.
  digits = digits.replace(/(\d)[ '](?=\d{3}(?:\D|$))/g, '$1').replace(/[ ']+$/, '');
  if (/[ ']/.test(digits)) digits = digits.split(/[ ']/)[0];
  digits = digits.replace(/[.,]+$/, '');
  const commas = (digits.match(/,/g) || []).length;
  const dots = (digits.match(/\./g) || []).length;
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  const comma = decimalComma(lang);
  let normal;
  if (commas && dots) {
    // Both: the later one is the decimal separator (1,234.50 / 1.234,50).
    normal = lastComma > lastDot ? digits.replace(/\./g, '').replace(',', '.') : digits.replace(/,/g, '');
  } else if (commas > 1) {
    normal = digits.replace(/,/g, ''); // 1,234,567
  } else if (dots > 1) {
    normal = digits.replace(/\./g, ''); // 1.234.567
  } else if (commas === 1) {
    const after = digits.length - lastComma - 1;
    normal = after === 3 && !comma ? digits.replace(',', '') : digits.replace(',', '.');
  } else if (dots === 1) {
    const after = digits.length - lastDot - 1;
    normal = after === 3 && comma ? digits.replace('.', '') : digits;
  } else {
    normal = digits;
  }
  if (!/^\d+(\.\d+)?$/.test(normal)) return null;
  let n = parseFloat(normal);
  const word = (m[4] || '').replace(/\.$/, '.').trim();
  if (word) {
    const mult = MULTIPLIERS.find(([re]) => re.test(word) || re.test(word.replace(/\.$/, '')));
    if (mult) n *= mult[1];
  }
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

const TRUE = /^(true|yes|y|1|on|ja|j|oui|sí|si|sim|da|tak|ano|igen|✓|✔|☑|✅|x|in stock|instock|available|verfügbar|auf lager|lieferbar|enabled|active)$/i;
const FALSE = /^(false|no|n|0|off|nein|non|não|nao|nie|ne|nem|✗|✘|☐|❌|-|–|out of stock|outofstock|sold out|soldout|unavailable|nicht verfügbar|ausverkauft|disabled|inactive)$/i;

export function parseBoolean(input) {
  if (typeof input === 'boolean') return input;
  if (typeof input === 'number') return input === 1 ? true : input === 0 ? false : null;
  const s = String(input ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  if (!s) return null;
  if (TRUE.test(s) || /instock$/.test(s.replace(/\s/g, ''))) return true;
  if (FALSE.test(s) || /outofstock$/.test(s.replace(/\s/g, ''))) return false;
  return null;
}

const MONTHS = {
  jan: 1, january: 1, januar: 1, janvier: 1, enero: 1, gennaio: 1, jänner: 1, jän: 1,
  feb: 2, february: 2, februar: 2, février: 2, fevrier: 2, febrero: 2, febbraio: 2,
  mar: 3, march: 3, märz: 3, maerz: 3, mär: 3, mars: 3, marzo: 3,
  apr: 4, april: 4, avril: 4, abril: 4, aprile: 4,
  may: 5, mai: 5, mayo: 5, maggio: 5,
  jun: 6, june: 6, juni: 6, juin: 6, junio: 6, giugno: 6,
  jul: 7, july: 7, juli: 7, juillet: 7, julio: 7, luglio: 7,
  aug: 8, august: 8, août: 8, aout: 8, agosto: 8,
  sep: 9, sept: 9, september: 9, septembre: 9, septiembre: 9, settembre: 9,
  oct: 10, october: 10, okt: 10, oktober: 10, octobre: 10, octubre: 10, ottobre: 10,
  nov: 11, november: 11, novembre: 11, noviembre: 11,
  dec: 12, december: 12, dez: 12, dezember: 12, décembre: 12, decembre: 12, diciembre: 12, dicembre: 12,
};

function iso(y, mo, d) {
  if (y < 100) y += y < 70 ? 2000 : 1900;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

// The date in `input` as YYYY-MM-DD (or YYYY-MM-DDTHH:MM[:SS][Z|±hh:mm] when it has a
// time and `withTime`), or null. Day/month order of 03/05/2024 follows the language:
// month first for English (US) pages, day first elsewhere.
export function parseDate(input, lang, withTime = false) {
  const s = String(input ?? '').replace(/\s+/g, ' ').trim();
  if (!s) return null;
  let m = s.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?/);
  if (m) {
    const day = iso(+m[1], +m[2], +m[3]);
    if (!day) return null;
    if (!withTime || m[4] === undefined) return day;
    return `${day}T${m[4]}:${m[5]}${m[6] ? `:${m[6]}` : ''}${m[7] ? m[7].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') : ''}`;
  }
  m = s.match(/^(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b/);
  if (m) return iso(+m[1], +m[2], +m[3]);
  m = s.match(/^(\d{1,2})([./-])(\d{1,2})\2(\d{2,4})\b/);
  if (m) {
    const l = String(lang || 'en').toLowerCase();
    const monthFirst = m[2] === '/' && (l === 'en' || l === 'en-us' || l.startsWith('en-us'));
    return monthFirst ? iso(+m[4], +m[1], +m[3]) : iso(+m[4], +m[3], +m[1]);
  }
  const words = s.toLowerCase().replace(/,/g, ' ').replace(/(\d)(st|nd|rd|th)\b/g, '$1').replace(/\s+/g, ' ');
  // 5 March 2024, 5. März 2024, March 5 2024, 5-Mar-2024
  m = words.match(/^(\d{1,2})\.?[ -]([\p{L}]+)\.?[ -](\d{2,4})\b/u);
  if (m && MONTHS[m[2]]) return iso(+m[3], MONTHS[m[2]], +m[1]);
  m = words.match(/^([\p{L}]+)\.? (\d{1,2}) (\d{4})\b/u);
  if (m && MONTHS[m[1]]) return iso(+m[3], MONTHS[m[1]], +m[2]);
  return null;
}

function typeOf(schema) {
  const t = schema && schema.type;
  return Array.isArray(t) ? t.find((x) => x !== 'null') : t;
}

// A scalar value coerced to `schema` (number, integer, boolean, string with a date
// format): {value} when it fits, else {value: null, problem} saying why.
export function coerceScalar(raw, schema, lang) {
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const n = parseNumber(typeof raw === 'number' ? raw : String(raw ?? ''), lang);
    if (n === null) return { value: null, problem: `not a number` };
    return { value: type === 'integer' ? Math.round(n) : n, problem: null };
  }
  if (type === 'boolean') {
    const b = parseBoolean(raw);
    return b === null ? { value: null, problem: 'not yes or no' } : { value: b, problem: null };
  }
  if (type === 'string' && schema && (schema.format === 'date' || schema.format === 'date-time')) {
    const d = parseDate(raw, lang, schema.format === 'date-time');
    return d === null ? { value: null, problem: `not a date` } : { value: d, problem: null };
  }
  return { value: raw, problem: null };
}
