#!/usr/bin/env bash
# Runs bench/scrape: Pilothouse /scrape beside playwright-core + Debian chromium
# (--sessions: /scrape in one browser session per worker beside one reused page;
# --firecrawl: only /firecrawl/v2/scrape beside /scrape, with and without page work).
# Builds Pilothouse first when needed (same setup as the README's run command).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
exec node "$here/bench.mjs" "$@"
