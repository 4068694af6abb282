#!/usr/bin/env bash
# Runs bench/timing: the speeds the tests no longer assert (issue 29: speed is measured by
# bench/, never by timed tests). Starts a headless Pilothouse per engine on loopback and
# prints the figures beside the limits the tests used to hold them to:
#   /scrape of three 1.2 s pages in one request (tst_scrape::loadsUrlsInParallel, 3,300 ms;
#   one after the other would be 3,600 ms), the 413 for a declared 11 MiB body that never
#   comes (tst_httpserver, 4,000 ms), the 408 for a client that trickles its head a byte
#   every 150 ms with http.headerTimeoutMs=600 (tst_httpserver, 4,000 ms), and the worst
#   event-loop gap (answers to /health asked every 10 ms) while twelve slow pages load at
#   once (tst_browserpool, 1,000 ms).
# BENCH_ENGINES (qtwebengine,chromium) picks the engines, BENCH_ROUNDS (5) the rounds; the
# median and the worst are printed. Builds Pilothouse first when needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
exec node "$here/bench.mjs" "$@"
