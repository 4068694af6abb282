// What a schema field is called on pages written in other languages, and what its values
// look like. Structural extraction (extract.js) maps a schema's fields to a page's
// columns, classes, labels and itemprops by these names, and, where no name matches, by
// the type of the values (a year, a price, an email, a URL, a date, a phone number).
// No DOM: unit-tested with node (tests/pageagent/fields.test.mjs).

// A field's other names, English first, then German, French and Spanish (lower case,
// punctuation as spaces). A key matches a field when it is the field's name or one of
// these; the lists are symmetric through their key.
export const SYNONYMS = {
  name: ['title', 'product', 'product name', 'productname', 'item', 'item name', 'heading', 'label',
    'artikel', 'artikelname', 'produkt', 'produktname', 'bezeichnung', 'nom', 'produit', 'article',
    'désignation', 'designation', 'libellé', 'libelle', 'nombre', 'producto', 'artículo', 'articulo',
    'full name', 'fullname', 'person', 'contact', 'kontakt', 'vorname nachname', 'event', 'veranstaltung',
    'événement', 'evenement', 'evento', 'ereignis'],
  title: ['name', 'headline', 'heading', 'subject', 'titel', 'buchtitel', 'titre', 'título', 'titulo',
    'book', 'buch', 'livre', 'libro', 'work'],
  price: ['cost', 'amount', 'price amount', 'offers price', 'sale price', 'current price', 'lowprice',
    'unit price', 'preis', 'kosten', 'betrag', 'stückpreis', 'einzelpreis', 'prix', 'tarif', 'montant',
    'coût', 'precio', 'importe', 'coste', 'costo', 'valor'],
  url: ['link', 'href', 'permalink', 'page', 'address', 'website', 'lien', 'enlace', 'webseite', 'site'],
  image: ['img', 'picture', 'photo', 'thumbnail', 'image url', 'imageurl', 'src', 'bild', 'imagen'],
  description: ['summary', 'details', 'desc', 'text', 'body', 'about', 'beschreibung', 'descripción',
    'descripcion', 'definition', 'definición', 'définition', 'erklärung'],
  rating: ['stars', 'score', 'rating value', 'ratingvalue', 'aggregaterating ratingvalue', 'bewertung',
    'sterne', 'note', 'évaluation', 'valoración', 'puntuación'],
  currency: ['price currency', 'pricecurrency', 'currency code', 'währung', 'devise', 'moneda'],
  sku: ['id', 'product id', 'item number', 'article number', 'mpn', 'artikelnummer', 'art nr',
    'référence', 'referencia'],
  author: ['by', 'writer', 'creator', 'autor', 'autorin', 'verfasser', 'auteur', 'écrivain', 'escritor',
    'von', 'par', 'por'],
  year: ['jahr', 'erscheinungsjahr', 'année', 'annee', 'año', 'ano', 'published', 'release year',
    'publication year'],
  date: ['published', 'date published', 'datepublished', 'time', 'posted', 'datum', 'termin', 'fecha',
    'when', 'wann', 'quand', 'cuándo', 'startdate', 'start date'],
  availability: ['stock', 'in stock', 'status', 'verfügbarkeit', 'lager', 'disponibilité', 'disponibilidad'],
  email: ['e mail', 'mail', 'email address', 'e mail adresse', 'courriel', 'adresse e mail', 'correo',
    'correo electrónico'],
  phone: ['telephone', 'tel', 'phone number', 'telefon', 'telefonnummer', 'téléphone', 'teléfono', 'móvil'],
  brand: ['manufacturer', 'make', 'vendor', 'marke', 'hersteller', 'marque', 'fabricant', 'marca', 'fabricante'],
  category: ['type', 'section', 'department', 'kategorie', 'rubrik', 'catégorie', 'categorie', 'categoría',
    'categoria'],
  quantity: ['qty', 'count', 'number', 'menge', 'anzahl', 'stück', 'quantité', 'cantidad'],
  city: ['town', 'place', 'stadt', 'ort', 'ville', 'ciudad', 'localidad', 'location', 'standort'],
  country: ['nation', 'land', 'pays', 'país', 'pais'],
  population: ['inhabitants', 'residents', 'einwohner', 'bevölkerung', 'habitants', 'population',
    'población', 'habitantes'],
  company: ['employer', 'organisation', 'organization', 'firma', 'unternehmen', 'entreprise', 'société',
    'empresa', 'compañía'],
  role: ['position', 'job', 'job title', 'function', 'rolle', 'funktion', 'stelle', 'poste', 'fonction',
    'puesto', 'cargo'],
};

export function norm(s) {
  return String(s || '').toLowerCase().replace(/[_\-.:]+/g, ' ').replace(/[^\p{L}\p{N} ]+/gu, '')
    .replace(/\s+/g, ' ').trim();
}

// The names a property goes by: its own, its singular, and the synonyms of every list it
// is in (as the key or a member).
export function aliases(property) {
  const p = norm(property);
  const out = new Set([p, p.replace(/ /g, '')]);
  for (const [key, list] of Object.entries(SYNONYMS)) {
    if (key === p || key === p.replace(/ /g, '') || list.includes(p)) {
      out.add(key);
      list.forEach((l) => out.add(l));
    }
  }
  if (p.endsWith('s')) out.add(p.slice(0, -1));
  return [...out];
}

// How well a record key stands for a schema property: 3 exact, 2 alias, 1 contains.
export function keyScore(property, key) {
  const p = norm(property);
  const k = norm(key);
  if (!k) return 0;
  if (k === p || k.replace(/ /g, '') === p.replace(/ /g, '')) return 3;
  const last = k.split(' ').pop();
  const names = aliases(property);
  if (names.includes(k) || names.includes(last) || names.includes(k.replace(/ /g, ''))) return 2;
  if (p.length >= 3 && (k.includes(p) || names.some((a) => a.length >= 4 && k.includes(a)))) return 1;
  return 0;
}

// ---------------------------------------------------------------- values by their type

const CURRENCY = '(?:[$€£¥₹₩]|\\b(?:usd|eur|gbp|chf|jpy|sek|nok|dkk|pln)\\b|\\bfr\\.)';
const AMOUNT = '\\d{1,3}(?:[.,\\s\u00a0\u202f\']\\d{3})*(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?';
const PATTERNS = {
  // A currency written right before a number belongs to it, not to the number before.
  price: new RegExp(`${CURRENCY}\\s?-?(?:${AMOUNT})|-?(?:${AMOUNT})\\s?${CURRENCY}(?!\\s?\\d)`, 'i'),
  email: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/u,
  url: /\bhttps?:\/\/[^\s<>"')]+/i,
  year: /(?<![\d.,])(1[5-9]\d\d|20\d\d)(?![\d.,])/,
  date: new RegExp(['\\b\\d{4}-\\d{2}-\\d{2}\\b', '\\b\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}\\b',
    '\\b\\d{1,2}\\.?\\s+\\p{L}{3,10}\\.?\\s+\\d{4}\\b', '\\b\\p{L}{3,10}\\.?\\s+\\d{1,2},?\\s+\\d{4}\\b'].join('|'), 'iu'),
  phone: /(?:\+\d{1,3}[\s-]?)?(?:\(\d{1,5}\)[\s-]?)?\d{2,5}(?:[\s-]\d{2,8}){1,4}/,
  number: /-?\d[\d.,\s\u00a0\u202f']*(?:\s?(?:k|m|mio\.?|million|mrd\.?|bn))?/i,
};

// The kind of value a schema field holds, from its name and type: year, price, email, url,
// date, phone, number, or null (a plain string, matched by name and position only).
export function valueKind(property, schema = {}) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema.format === 'email') return 'email';
  if (schema.format === 'uri' || schema.format === 'url') return 'url';
  if (schema.format === 'date' || schema.format === 'date-time') return 'date';
  const names = aliases(property);
  const is = (k) => names.includes(k);
  if (is('email')) return 'email';
  if (is('url') || is('image')) return 'url';
  if (is('phone')) return 'phone';
  if (type === 'integer' && is('year')) return 'year';
  if ((type === 'number' || type === 'integer') && is('price')) return 'price';
  if (is('date') && type === 'string') return 'date';
  if (type === 'number' || type === 'integer') return 'number';
  if (is('year')) return 'year';
  return null;
}

// The first value of `kind` written in `text`, or null.
export function findValue(kind, text) {
  const re = PATTERNS[kind];
  if (!re || text === undefined || text === null) return null;
  const m = String(text).match(re);
  if (!m) return null;
  const v = (m[1] !== undefined && kind === 'year' ? m[1] : m[0]).trim();
  return v === '' ? null : v;
}

// Words that label a value rather than being one ("Price:", "by", "Preis").
export function isLabel(s) {
  const t = norm(s);
  if (!t || t.length > 30) return false;
  return Object.entries(SYNONYMS).some(([k, list]) => k === t || list.includes(t));
}
