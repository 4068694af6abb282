#!/usr/bin/env bash
# Runs bench/sessions/startup: POST /sessions to the first CDP command answered, p50 and
# p95, beside hosted peers' published medians. Builds Pilothouse first when needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
exec node "$here/startup.mjs" "$@"
