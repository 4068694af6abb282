#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and starts Pilothouse,
# the console when there is a display, else --headless. It prints the API address
# and an API key (the first start's owner key, or a freshly minted one).
set -euo pipefail
top="$(cd "$(dirname "$0")/../.." && pwd)"
"$top/packaging/dev/deps.sh"
"$top/packaging/dev/build.sh" --target pilothouse >/dev/null
args=(--print-api-key)
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    args+=(--headless)
fi
exec "$top/build/bin/pilothouse" "${args[@]}" "$@"
