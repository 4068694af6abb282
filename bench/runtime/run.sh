#!/usr/bin/env bash
# Runs bench/runtime: 1,000 concurrent runtime streams (/v2/runtime/stream), the time from
# a command (RUN_INPUT) to the projection event that carries it on the session's stream
# (p50/p95/p99, target p99 < 50 ms), and command throughput under strict epoch/seq.
# BENCH_SESSIONS and BENCH_SECONDS change the counts. Builds Pilothouse first when needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec node "$here/bench.mjs" "$@"
