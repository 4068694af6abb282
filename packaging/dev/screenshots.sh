#!/usr/bin/env bash
# Saves a PNG of each console panel under docs/screenshots/ (the Sites panel twice: also
# siteConfig.png with the configuration editor open): Pilothouse starts under
# Xvfb with --demo on an empty temporary store (runs in every state, delivered and
# failed callbacks, a pending proposal, a live page), then raises each panel in turn.
set -euo pipefail
top="$(cd "$(dirname "$0")/../.." && pwd)"
"$top/packaging/dev/deps.sh"
"$top/packaging/dev/build.sh" --target pilothouse >/dev/null
out="${1:-$top/docs/screenshots}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
# The console's remembered layout (QSettings) lives in a throw-away home too, so every
# capture starts from the default layout.
export XDG_CONFIG_HOME="$data/config"
export LANG="${LANG:-C.UTF-8}" LANGUAGE=en
xvfb-run -a -s "-screen 0 1440x900x24" \
    "$top/build/bin/pilothouse" --demo --port 0 --data-dir "$data" --screenshots "$out" \
    | grep -E "^(Pilothouse|Demo)"
ls -1 "$out"/*.png
