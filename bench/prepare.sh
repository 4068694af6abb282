# Sourced by the node benchmarks' run.sh (bench/<name>/run.sh): installs what they need,
# builds Pilothouse when no binary is there (PILOTHOUSE_BINARY names another), and
# installs bench/'s npm packages.
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$top/packaging/dev/deps.sh" --bench
if [ ! -x "${PILOTHOUSE_BINARY:-$top/build/bin/pilothouse}" ]; then
    "$top/packaging/dev/build.sh"
fi
(cd "$top/bench" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
