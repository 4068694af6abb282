#!/usr/bin/env bash
# Runs bench/extraction: /scrape's main-content markdown on the public development corpora
# (tests/fixtures/extraction), scored beside Readability.js. Builds Pilothouse first when
# needed. BENCH_ENGINES picks the engines, BENCH_OUT=dir keeps every page's outputs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
for archive in "$top"/tests/fixtures/extraction/*.tar.xz; do
    tar -xJf "$archive" -C "$corpus"
done
node "$here/bench.mjs" "$corpus" "$@"
