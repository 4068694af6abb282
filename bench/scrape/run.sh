#!/usr/bin/env bash
# Runs bench/scrape: Pilothouse /scrape beside playwright-core + Debian chromium.
# Builds Pilothouse first when needed (same setup as the README's run command).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/../.." && pwd)"
"$top/packaging/dev/deps.sh" --bench
if [ ! -x "${PILOTHOUSE_BINARY:-$top/build/bin/pilothouse}" ]; then
    "$top/packaging/dev/build.sh"
fi
(cd "$top/bench" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
exec node "$here/bench.mjs" "$@"
