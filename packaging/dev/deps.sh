#!/usr/bin/env bash
# Installs what Pilothouse needs on Debian 12, and only what is missing:
# Qt 6.4 (Widgets, WebEngine, HttpServer, Charts, SQLite driver, tools), the build tools
# (CMake, Ninja, ccache), OpenSSL and libpsl headers, Node.js and npm for the page
# agent bundle, Xvfb for console screenshots; for server/data libxlsxwriter, minizip,
# poppler-qt6, snappy, zstd and zlib. `--bench` adds Debian's chromium and its headless
# shell (the chromium engine and the Playwright peer of the benchmarks) and xz (the
# extraction corpora), `--test`
# clang-format (the test command checks the formatting) and openssl (a test's HTTPS proxy
# makes its certificate).
set -euo pipefail

packages=(
    g++ cmake ninja-build ccache pkg-config file dpkg-dev
    qt6-base-dev qt6-webengine-dev qt6-httpserver-dev qt6-websockets-dev qt6-charts-dev
    libqt6sql6-sqlite libqt6svg6 qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    libgl-dev libssl-dev libpsl-dev publicsuffix
    libxlsxwriter-dev libminizip-dev libpoppler-qt6-dev libsnappy-dev libzstd-dev zlib1g-dev
    xvfb xauth python3
)
for arg in "$@"; do
    case "$arg" in
        --bench) packages+=(chromium chromium-headless-shell xz-utils) ;;
        --test) packages+=(clang-format openssl) ;;
    esac
done
# Node.js may come from Debian or from elsewhere; a working node and npm will do.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if ((${#missing[@]})); then
    echo "pilothouse: installing ${missing[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
