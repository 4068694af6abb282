#!/usr/bin/env bash
# Configures (once) and builds Pilothouse in build/ with Ninja and ccache.
# Extra arguments go to `cmake --build`, e.g. `--target pilothouse`.
set -euo pipefail
top="$(cd "$(dirname "$0")/../.." && pwd)"
export CCACHE_BASEDIR="$top"
if [ ! -f "$top/build/build.ninja" ]; then
    cmake -S "$top" -B "$top/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$top/build" "$@"
