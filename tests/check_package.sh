#!/usr/bin/env bash
# Builds the .deb with cpack, checks its contents and metadata, unpacks it into a
# temporary root and runs the packaged binary from there (so the install layout and
# its runpaths are what is tested, not the build tree).
set -euo pipefail
build="$1"
extension_src="$(cd "$(dirname "$0")/../resources/extension" && pwd)"
work="$(mktemp -d)"
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$build"
cpack -G DEB -B "$work/cpack" >/dev/null
deb="$(ls "$work"/cpack/pilothouse_*_amd64.deb)"
contents="$(dpkg-deb -c "$deb")"
for f in ./usr/bin/pilothouse ./usr/share/applications/pilothouse.desktop \
         ./usr/share/icons/hicolor/scalable/apps/pilothouse.svg \
         ./usr/share/metainfo/io.github.pilothouse.Pilothouse.metainfo.xml \
         ./usr/lib/systemd/system/pilothouse.service ./usr/lib/pilothouse/libpilothouse_server.so; do
    grep -q " $f\$" <<<"$contents" || { echo "missing in the package: $f"; exit 1; }
done
# The device extension (resources/extension) for Chromium's "Load unpacked": every file of
# the source folder, where the console's Devices panel looks (ui/devices/ExtensionFolder).
for f in "$extension_src"/*; do
    f="./usr/share/pilothouse/extension/$(basename "$f")"
    grep -q " $f\$" <<<"$contents" || { echo "missing in the package: $f"; exit 1; }
done
control="$(dpkg-deb -f "$deb")"
grep -q '^Depends:.*libqt6webenginecore6' <<<"$control" || { echo "no QtWebEngine dependency"; exit 1; }
grep -q 'ExecStart=/usr/bin/pilothouse --headless' <(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/lib/systemd/system/pilothouse.service)
grep -q '^Exec=pilothouse' <(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/applications/pilothouse.desktop)
dpkg-deb -x "$deb" "$work/root"
"$work/root/usr/bin/pilothouse" --version | grep -q '^pilothouse '
python3 - "$work/root/usr/share/pilothouse/extension/manifest.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
assert manifest["manifest_version"] == 3, manifest
PY
"$work/root/usr/bin/pilothouse" --headless --port 0 --data-dir "$work/data" >"$work/out" 2>/dev/null &
pid=$!
for _ in $(seq 1 100); do grep -q 'Data directory' "$work/out" 2>/dev/null && break; sleep 0.1; done
base="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/out")"
python3 - "$base" <<'PY'
import json, sys, urllib.request
body = json.load(urllib.request.urlopen(sys.argv[1] + "/health"))
assert body["status"] == "ok", body
PY
kill -TERM "$pid"
wait "$pid"
echo "package ok: $(basename "$deb")"
