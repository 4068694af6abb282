#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything (and the
# headless-only variant, -DPILOTHOUSE_UI=OFF), then runs every test with ctest.
set -euo pipefail
top="$(cd "$(dirname "$0")/../.." && pwd)"
export CCACHE_BASEDIR="$top"
# The same source compiled in build/ and build-headless/ (and a clean clone elsewhere) is one
# cache entry: the build directory is left out of the hash (it only names debug paths).
export CCACHE_NOHASHDIR=1
"$top/packaging/dev/deps.sh" --bench

# The headless-only binary: the same server libraries, no Widgets anywhere.
cmake -S "$top" -B "$top/build-headless" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPILOTHOUSE_UI=OFF -DPILOTHOUSE_TESTS=OFF >/dev/null
cmake --build "$top/build-headless" --target pilothouse

cmake -S "$top" -B "$top/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPILOTHOUSE_HEADLESS_BINARY="$top/build-headless/bin/pilothouse" >/dev/null
cmake --build "$top/build"
cd "$top/build"
exec ctest --output-on-failure --parallel 2 "$@"
