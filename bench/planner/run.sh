#!/usr/bin/env bash
# Runs bench/planner: 40+ end-to-end tasks of the classes people write, on fixture pages
# of its own, and prints the success rate per class for the rule planner; then the layout
# generator's pages (layouts.mjs: 11 families × 50 seeds; --seeds N, --families a,b,
# --layouts-only, --tasks-only) with field-level precision and recall per family; with
# PILOTHOUSE_LLM_URL (PILOTHOUSE_LLM_MODEL, PILOTHOUSE_LLM_KEY) both again for that model.
# Builds Pilothouse first when needed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
exec node "$here/bench.mjs" "$@"
