#!/usr/bin/env bash
# Runs bench/a2w: 1,000 SSE subscribers and 1,000 long-pollers on live A2W runs, the time
# from a run's state change to each client's event (p50/p99), and the memory one open
# stream costs (BENCH_SUBSCRIBERS, BENCH_RUNS change the counts). Builds Pilothouse first
# when needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec node "$here/bench.mjs" "$@"
