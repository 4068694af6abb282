#!/usr/bin/env bash
# Fuzzes every parser of tests/fuzz with libFuzzer (clang, ASan + UBSan) for a number of
# executions each, one target after the other, and prints a table: target, executions,
# executions per second, crashes, seconds.
#
#   bench/fuzz/run.sh [executions]        default 1000000 per target
#
# Environment:
#   FUZZ_TARGETS="xlsx zip"   only these targets
#   FUZZ_MAX_TIME=600         stop a target after this many seconds (0: no cap)
#   FUZZ_BUILD_DIR, FUZZ_OUT_DIR   default build-fuzz/ and bench/fuzz/out/
#
# Installs clang with apt when it is missing (sudo when not root). Builds in its own build
# directory (clang, -DPILOTHOUSE_FUZZ=ON, no operator console). New corpus entries go to
# $FUZZ_OUT_DIR/corpus/<target>, never into the repository; a crash, leak or timeout
# leaves its input in $FUZZ_OUT_DIR/crashes/<target>/: fix the parser, then keep the input
# in tests/fuzz/crashers/<target>/ so ctest replays it forever.
set -euo pipefail

EXECUTIONS=${1:-1000000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
OUT=${FUZZ_OUT_DIR:-$ROOT/bench/fuzz/out}
MAX_TIME=${FUZZ_MAX_TIME:-0}
TARGETS=${FUZZ_TARGETS:-"xlsx zip parquet thrift csv jsontable text pdf httpreply jwt alloweddomains siteconfig mcp pageagent webbotauth tasktext runtime runsettings trustedproxies"}

if ! command -v clang++ >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq clang
fi

echo "building the fuzzers in $BUILD" >&2
mkdir -p "$OUT"
export CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=1
CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPILOTHOUSE_FUZZ=ON -DPILOTHOUSE_UI=OFF >"$OUT/configure.log" 2>&1 ||
    { cat "$OUT/configure.log" >&2; exit 1; }
cmake --build "$BUILD" -j"$(nproc)" --target $(printf 'fuzz_%s ' $TARGETS) >&2

SANITIZE=$ROOT/tests/sanitize
options() { grep -v '^#' "$1" | grep -v '^$' | paste -sd: -; }
export ASAN_OPTIONS="$(options "$SANITIZE/asan.options")"
export UBSAN_OPTIONS="$(options "$SANITIZE/ubsan.options"):suppressions=$SANITIZE/ubsan.supp"
export LSAN_OPTIONS="suppressions=$SANITIZE/lsan.supp:print_suppressions=0"
export QT_QPA_PLATFORM=offscreen

rows=()
started=$(date +%s)
for t in $TARGETS; do
    corpus=$OUT/corpus/$t
    crashes=$OUT/crashes/$t
    mkdir -p "$corpus" "$crashes"
    log=$OUT/$t.log
    args=(-runs="$EXECUTIONS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$crashes/")
    [ "$MAX_TIME" -gt 0 ] && args+=(-max_total_time="$MAX_TIME")
    echo "fuzzing $t" >&2
    before=$(find "$crashes" -type f | wc -l)
    t0=$(date +%s.%N)
    "$BUILD/bin/fuzz_$t" "${args[@]}" "$corpus" "$ROOT/tests/fuzz/corpus/$t" \
        "$ROOT/tests/fuzz/crashers/$t" >"$log" 2>&1 || true
    t1=$(date +%s.%N)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    found=$(($(find "$crashes" -type f | wc -l) - before))
    seconds=$(echo "$t1 - $t0" | bc)
    if [ -z "$runs" ]; then # stopped by a crash: the last status line has the count
        runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
        runs=${runs:-0}
    fi
    # Over the wall time of the run, start-up and corpus loading included.
    rate=$(echo "scale=0; $runs / $seconds" | bc)
    rows+=("$(printf '%-15s %12s %10s %8s %9.0f' "$t" "$runs" "$rate" "$found" "$seconds")")
done
finished=$(date +%s)

printf '%-15s %12s %10s %8s %9s\n' target executions "exec/s" crashes seconds
printf '%s\n' "${rows[@]}"
echo "wall time $((finished - started)) s, $(nproc) cores; logs and inputs in $OUT"
