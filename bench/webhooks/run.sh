#!/usr/bin/env bash
# Runs bench/webhooks: 10,000 signed callbacks to a loopback receiver that checks every
# signature (BENCH_DELIVERIES changes the count). Builds Pilothouse first when needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/../.." && pwd)"
"$top/packaging/dev/deps.sh" --bench
if [ ! -x "${PILOTHOUSE_BINARY:-$top/build/bin/pilothouse}" ]; then
    "$top/packaging/dev/build.sh"
fi
(cd "$top/bench" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
exec node "$here/bench.mjs" "$@"
