#!/usr/bin/env bash
# Runs bench/webhooks: 10,000 signed callbacks to a loopback receiver that checks every
# signature (BENCH_DELIVERIES changes the count). Builds Pilothouse first when needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
exec node "$here/bench.mjs" "$@"
