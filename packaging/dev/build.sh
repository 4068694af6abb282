#!/usr/bin/env bash
# Configures (once) and builds Pilothouse in build/ with Ninja and ccache.
# Extra arguments go to `cmake --build`, e.g. `--target pilothouse`.
set -euo pipefail
top="$(cd "$(dirname "$0")/../.." && pwd)"
export CCACHE_BASEDIR="$top"
# The same source compiled in build/ and build-headless/ (and a clean clone elsewhere) is one
# cache entry: the build directory is left out of the hash (it only names debug paths).
export CCACHE_NOHASHDIR=1
if [ ! -f "$top/build/build.ninja" ]; then
    cmake -S "$top" -B "$top/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$top/build" "$@"
