#!/usr/bin/env bash
# The README's test command: installs what is missing, checks the formatting, builds
# everything with warnings as errors (and the headless-only variant, -DPILOTHOUSE_UI=OFF),
# then runs every test with ctest.
set -euo pipefail
top="$(cd "$(dirname "$0")/../.." && pwd)"
export CCACHE_BASEDIR="$top"
# The same source compiled in build/ and build-headless/ (and a clean clone elsewhere) is one
# cache entry: the build directory is left out of the hash (it only names debug paths).
export CCACHE_NOHASHDIR=1
"$top/packaging/dev/deps.sh" --bench --test

# The headless-only binary: the same server libraries, no Widgets anywhere.
cmake -S "$top" -B "$top/build-headless" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPILOTHOUSE_UI=OFF -DPILOTHOUSE_TESTS=OFF -DPILOTHOUSE_WERROR=ON >/dev/null
cmake --build "$top/build-headless" --target pilothouse

cmake -S "$top" -B "$top/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPILOTHOUSE_HEADLESS_BINARY="$top/build-headless/bin/pilothouse" -DPILOTHOUSE_WERROR=ON \
    >/dev/null
# Formatting first: a misformatted file fails in a second, before the long build.
cmake --build "$top/build" --target format-check
cmake --build "$top/build"
# The benchmarks built on demand are compiled too, so a change cannot break them unseen.
cmake --build "$top/build" --target bench_store bench_console
cd "$top/build"
set +e
ctest --output-on-failure --parallel 2 "$@" 2>&1 | tee ctest-output.log
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
    # A long log shows only its start and end: repeat each failure's checks where they are
    # read, then ctest's closing lines once more so they stay the last ones printed.
    echo
    echo "=== Failures (from Testing/Temporary/LastTest.log) ==="
    grep -E -A3 '^(FAIL!|XPASS|QFATAL)|Received a fatal error|Segmentation|Subprocess aborted' \
        Testing/Temporary/LastTest.log | cut -c1-400 | head -n 150 || true
    echo
    sed -n '/tests passed, /,$p' ctest-output.log
fi
exit "$rc"
