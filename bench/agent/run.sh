#!/usr/bin/env bash
# Runs bench/agent: the rule planner's three-step task beside plain playwright-core.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
exec node "$here/bench.mjs" "$@"
