#!/usr/bin/env bash
# Runs bench/console: the console's runs and deliveries panels over a store of 100,000
# trajectories and 100,000 webhook deliveries, beside a naive model that reloads every
# row on each change, and the Overview's refresh frame budget (16 ms) on that store with
# a busy last hour. BENCH_ROWS changes the count, BENCH_REPEAT the repetitions (10),
# BENCH_PANELS the panels (runs,deliveries,overview), BENCH_HOUR_ROWS the busy hour (6000);
# arguments go to the harness (--help). Builds bench_console first, in build/ or in
# PILOTHOUSE_BUILD_DIR.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/../.." && pwd)"
build="${PILOTHOUSE_BUILD_DIR:-$top/build}"
"$top/packaging/dev/deps.sh"
export CCACHE_BASEDIR="$top"
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target bench_console
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
exec "$build/bin/bench_console" "$@"
