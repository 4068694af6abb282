#!/usr/bin/env bash
# Flake check (issue 29): runs the suite `ctest -j2` FLAKE_RUNS (5) times in a build directory
# while a CPU-heavy process runs beside it (a python3 busy loop, one core), and prints each
# run's result, its failing tests and its time, then a summary. Exits non-zero when any run
# failed. Does not build: build the tests first (cmake --build BUILD_DIR -j2).
#
#   bench/flake.sh [BUILD_DIR] [ctest arguments...]
#   bench/flake.sh build                      # the whole suite, five times
#   FLAKE_RUNS=2 bench/flake.sh build -R '^tst_webhooks$'
#   FLAKE_LOAD=0 bench/flake.sh build         # without the busy process
#
# The ctest logs of each run stay in BUILD_DIR/flake/run-N.log.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/.." && pwd)"
build="${1:-$top/build}"
[ $# -gt 0 ] && shift
runs="${FLAKE_RUNS:-5}"
load="${FLAKE_LOAD:-1}"
if [ ! -f "$build/CTestTestfile.cmake" ]; then
    echo "flake.sh: $build is not a configured build directory (build the tests first)" >&2
    exit 2
fi
build="$(cd "$build" && pwd)"
logs="$build/flake"
mkdir -p "$logs"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"

busy=""
stop_busy() {
    if [ -n "$busy" ]; then
        kill "$busy" 2>/dev/null
        wait "$busy" 2>/dev/null
        busy=""
    fi
}
trap stop_busy EXIT
trap 'stop_busy; exit 130' INT TERM
if [ "$load" != "0" ]; then
    python3 -c 'while True: pass' &
    busy=$!
    echo "load: python3 busy loop, pid $busy"
else
    echo "load: none"
fi
echo "suite: ctest -j2 $* in $build, $runs runs"
echo

failed_runs=0
declare -A failures=()
printf '%-5s %-6s %9s  %s\n' run result seconds "failing tests"
for ((i = 1; i <= runs; i++)); do
    log="$logs/run-$i.log"
    start=$(date +%s.%N)
    (cd "$build" && ctest -j2 --output-on-failure "$@") >"$log" 2>&1
    rc=$?
    end=$(date +%s.%N)
    secs=$(python3 -c "print(f'{$end - $start:.1f}')")
    # ctest's list after "The following tests FAILED:" reads "  12 - tst_x (Failed)"
    failing=$(sed -n '/The following tests FAILED:/,$p' "$log" | awk '/^[[:space:]]+[0-9]+ - / {print $3}' | tr '\n' ' ')
    if [ $rc -eq 0 ]; then
        result=pass
    else
        result=FAIL
        failed_runs=$((failed_runs + 1))
        [ -z "$failing" ] && failing="(ctest exited $rc, see $log)"
        for t in $failing; do failures[$t]=$((${failures[$t]:-0} + 1)); done
    fi
    total=$(grep -Eo 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | grep -Eo '[0-9]+$')
    printf '%-5s %-6s %9s  %s\n' "$i" "$result" "$secs" "${failing:-${total:+all $total passed}}"
done
stop_busy

echo
echo "summary: $((runs - failed_runs)) of $runs runs passed"
for t in "${!failures[@]}"; do
    echo "  $t failed in ${failures[$t]} of $runs runs"
done
echo "logs: $logs/run-N.log"
[ $failed_runs -eq 0 ]
