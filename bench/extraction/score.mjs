// Scoring for bench/extraction.
//
// 1. Token-shingle precision/recall/F1, as scrapinghub's article-extraction-benchmark
//    (evaluate.py: string_shingle_matching, metrics_from_tp_fp_fns) computes it: tokens
//    are the matches of Python's `\w+` (Unicode letters, digits and underscore), shingles
//    are 4 consecutive tokens (a text of fewer than 4 tokens is one shorter shingle),
//    counted as multisets; per page tp/fp/fn are normalised to sum to 1; precision is
//    the mean over pages with tp+fp > 0, recall the mean over pages with tp+fn > 0 (a page
//    with fp = fn = 0 scores 1), and F1 is the harmonic mean of those two means.
// 2. trafilatura's snippet metric (tests/eval_common.py: count_item, ConfusionMatrix):
//    per page, each "with" snippet found in the whitespace-normalised output is a true
//    positive (else a false negative) and each "without" snippet found is a false
//    positive; counts are summed over the corpus, F1 = 2tp / (2tp + fp + fn).

// Python's re `\w` (str.isalnum() or "_"): letters, numbers of every kind, underscore.
const TOKEN = /[\p{L}\p{N}_]+/gu;

export function tokens(text) {
  return (text || '').match(TOKEN) || [];
}

function shingles(text, n = 4) {
  const t = tokens(text);
  const counts = new Map();
  const last = Math.max(1, t.length - n + 1);
  for (let i = 0; i < last; i++) {
    const s = t.slice(i, i + n);
    if (!s.length) continue;
    const key = s.join('\u0001');
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts;
}

// One page: [tp, fp, fn], normalised to sum to 1 (as the benchmark does).
export function shingleMatch(truth, predicted) {
  const t = shingles(truth);
  const p = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...t.keys(), ...p.keys()])) {
    const tc = t.get(key) || 0;
    const pc = p.get(key) || 0;
    tp += Math.min(tc, pc);
    fp += Math.max(0, pc - tc);
    fn += Math.max(0, tc - pc);
  }
  const s = tp + fp + fn;
  return s > 0 ? [tp / s, fp / s, fn / s] : [0, 0, 0];
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function shingleMetrics(pages) {
  const precision = mean(pages.filter(([tp, fp]) => tp + fp > 0)
    .map(([tp, fp, fn]) => (fp === 0 && fn === 0 ? 1 : tp / (tp + fp))));
  const recall = mean(pages.filter(([tp, , fn]) => tp + fn > 0)
    .map(([tp, fp, fn]) => (fp === 0 && fn === 0 ? 1 : tp / (tp + fn))));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, pages: pages.length };
}

const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();

export function snippetCounts(item, output) {
  const text = norm(output);
  const tp = item.with.filter((w) => text.includes(norm(w))).length;
  const fp = item.without.filter((w) => text.includes(norm(w))).length;
  return [tp, fp, item.with.length - tp];
}

export function snippetMetrics(pages) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [a, b, c] of pages) {
    tp += a;
    fp += b;
    fn += c;
  }
  return {
    precision: tp + fp ? tp / (tp + fp) : 0,
    recall: tp + fn ? tp / (tp + fn) : 0,
    f1: 2 * tp + fp + fn ? (2 * tp) / (2 * tp + fp + fn) : 0,
    pages: pages.length,
  };
}

// The text of a markdown document, as a reader of the markdown would see it: no link
// targets or image addresses, no heading, list, quote, table, code-fence or emphasis
// marks, no backslash escapes. Images keep nothing (their alt text is not page text).
export function markdownText(md) {
  return (md || '')
    .replace(/^\s*(```|~~~).*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\((?:[^()\s]|\([^)]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?![\w*])/g, '$1$2')
    .replace(/`+/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}
