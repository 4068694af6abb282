#!/usr/bin/env bash
# Runs bench/soak: kill -9 soak of the run + callback path. Starts the headless service on
# loopback with a temporary data directory, a fixture site and a webhook receiver (both
# python3 standard-library servers in soak.py), fires SOAK_RUNS (1,000) /agent runs with a
# webhookUrl, kills the service with SIGKILL at random moments at least SOAK_KILLS (20)
# times, restarting it on the same data directory each time, and then checks: every run
# is in a terminal state, every run's callback arrived at least once, each delivery id
# stable across redeliveries, PRAGMA integrity_check is ok. Prints the figures; exits
# non-zero when a check fails. Uses build/bin/pilothouse (or PILOTHOUSE_BINARY), building
# it first when it is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
top="$(cd "$here/../.." && pwd)"
binary="${PILOTHOUSE_BINARY:-$top/build/bin/pilothouse}"
if [ ! -x "$binary" ]; then
    build="${PILOTHOUSE_BUILD_DIR:-$top/build}"
    export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
    if [ ! -f "$build/build.ninja" ]; then
        cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    fi
    cmake --build "$build" --target pilothouse
fi
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
export QTWEBENGINE_DISABLE_SANDBOX="${QTWEBENGINE_DISABLE_SANDBOX:-1}"
exec python3 "$here/soak.py" --binary "$binary" "$@"
