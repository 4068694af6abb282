#!/usr/bin/env bash
# Runs bench/store: commits/s of the credit ledger, the webhook queue's enqueue and a
# run's end (state + charge + callbacks, one transaction) with synchronous=NORMAL and
# synchronous=FULL in WAL mode, on the disk of BENCH_DIR (default: build/bench-store, the
# disk a data directory would be on; not /tmp, which may be memory). BENCH_COMMITS (2000)
# commits per path and mode, BENCH_ROUNDS (3) rounds, the median printed. Builds
# bench_store first, in build/ or in PILOTHOUSE_BUILD_DIR.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/../.." && pwd)"
build="${PILOTHOUSE_BUILD_DIR:-$top/build}"
export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target bench_store >/dev/null
dir="${BENCH_DIR:-$build/bench-store}"
mkdir -p "$dir"
echo "disk: $(df -T "$dir" | awk 'NR==2 {print $1, $2}') ($dir)"
exec "$build/bin/bench_store" "$dir"
