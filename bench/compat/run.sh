#!/usr/bin/env bash
# Runs bench/compat: a probe page of web features current sites use, read through
# Pilothouse's /scrape (the QtWebEngine pool) and, for reference, by Debian's chromium
# through playwright-core. Prints a table of features per engine.
# Builds Pilothouse first when needed (same setup as the README's run command).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../prepare.sh
source "$here/../prepare.sh"
exec node "$here/compat.mjs" "$@"
