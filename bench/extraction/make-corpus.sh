#!/usr/bin/env bash
# Rebuilds the development corpora under tests/fixtures/extraction from snapshots of two
# public repositories (git directories, e.g. the ones `git clone --mirror` makes):
#   make-corpus.sh READABILITY_GIT TRAFILATURA_GIT
# - Mozilla Readability (Apache-2.0): test/test-pages/*/{source,expected}.html, only the
#   pages taken from real sites (source.html of 10 KB or more; the smaller ones are
#   hand-written unit cases).
# - trafilatura (Apache-2.0): tests/evaldata.json and, of its ~990 annotated pages, every
#   fifth in URL order (a fixed sample, to keep the repository small).
# The commits used are written to tests/fixtures/extraction/SOURCES.
set -euo pipefail
readability_git="$1"
trafilatura_git="$2"
top="$(cd "$(dirname "$0")/../.." && pwd)"
out="$top/tests/fixtures/extraction"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/r" "$work/t" "$out"
git --git-dir="$readability_git" archive HEAD test/test-pages | tar -x -C "$work/r"
mkdir -p "$work/readability"
for d in "$work/r/test/test-pages"/*/; do
    name="$(basename "$d")"
    [ "$(stat -c %s "$d/source.html")" -ge 10000 ] || continue
    mkdir -p "$work/readability/$name"
    cp "$d/source.html" "$d/expected.html" "$work/readability/$name/"
done
tar -C "$work" --sort=name --owner=0 --group=0 --mtime=@0 -cJf "$out/readability-pages.tar.xz" readability

git --git-dir="$trafilatura_git" archive HEAD tests/evaldata.json tests/cache tests/eval | tar -x -C "$work/t"
node - "$work/t/tests" "$work/trafilatura" <<'JS'
const fs = require('fs');
const path = require('path');
const [src, dst] = process.argv.slice(2);
const data = JSON.parse(fs.readFileSync(path.join(src, 'evaldata.json'), 'utf8'));
fs.mkdirSync(path.join(dst, 'pages'), { recursive: true });
const kept = {};
Object.keys(data).sort().forEach((url, i) => {
  if (i % 5 !== 0) return;
  const item = data[url];
  const file = ['cache', 'eval'].map((d) => path.join(src, d, item.file)).find((p) => fs.existsSync(p));
  if (!file) return;
  const id = String(Object.keys(kept).length).padStart(4, '0');
  fs.copyFileSync(file, path.join(dst, 'pages', `${id}.html`));
  kept[id] = { url, with: item.with, without: item.without };
});
fs.writeFileSync(path.join(dst, 'annotations.json'), JSON.stringify(kept, null, 1));
JS
tar -C "$work" --sort=name --owner=0 --group=0 --mtime=@0 -cJf "$out/trafilatura-pages.tar.xz" trafilatura
{
    echo "readability $(git --git-dir="$readability_git" rev-parse HEAD)"
    echo "trafilatura $(git --git-dir="$trafilatura_git" rev-parse HEAD)"
} > "$out/SOURCES"
ls -l "$out"
