#!/usr/bin/env python3
"""What one browser session's own Chromium process costs (docs/decisions.md, "Browser
sessions: one process each"): start time to the first DevTools answer, and the memory of
the idle process tree (RSS summed, and PSS, which counts shared pages once), for N
sessions started side by side, as ChromiumSession starts them (ChromiumEngine's flags,
--remote-debugging-pipe, a user-data directory of its own, one about:blank page).

    bench/sessions/process-cost.py [--sessions 4] [--chromium PATH]
"""
import argparse
import fcntl
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

FLAGS = [
    "--headless", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
    "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-extensions", "--disable-default-apps", "--disable-breakpad",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection",
    "--disable-features=Translate,MediaRouter,OptimizationHints,InterestFeedContentSuggestions,"
    "AutofillServerCommunication,BackForwardCache,SpareRendererForSitePerProcess,RenderDocument",
    "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain", "--mute-audio",
    "--hide-scrollbars", "--window-size=1280,800",
    # Nothing listens here: an idle session makes no connection.
    "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
]


def find_chromium(configured):
    for path in ([configured] if configured else
                 ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"]):
        if path and os.access(path, os.X_OK):
            return path
    raise SystemExit("no chromium installed")


def start(chromium, profile):
    """Starts one browser; returns (process, pipe to it, pipe from it, start time)."""
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()

    def fds():
        os.setpgid(0, 0)
        # Above 4 first (either may be 3 or 4 already), then on Chromium's fds 3 and 4.
        r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
        w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
        os.dup2(r, 3)
        os.dup2(w, 4)

    args = [chromium] + FLAGS + ["--user-data-dir=" + profile]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    args.append("about:blank")
    began = time.monotonic()
    # fds 3 and 4 are kept (subprocess closes the others after preexec_fn).
    proc = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_child_r)
    os.close(from_child_w)
    return proc, to_child_w, from_child_r, began


def first_answer(to_child, from_child):
    os.write(to_child, json.dumps({"id": 1, "method": "Browser.getVersion"}).encode() + b"\0")
    data = b""
    while b"\0" not in data:
        chunk = os.read(from_child, 65536)
        if not chunk:
            raise SystemExit("chromium closed its pipe")
        data += chunk
    return time.monotonic()


def group_memory(group):
    """RSS and PSS (KiB) of every process of the group."""
    rss = pss = count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            if int(stat[stat.rindex(")") + 2:].split()[2]) != group:
                continue
            with open(f"/proc/{entry}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
            count += 1
        except (OSError, ValueError, IndexError):
            continue
    return rss, pss, count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=4)
    parser.add_argument("--chromium", default="")
    parser.add_argument("--idle-seconds", type=float, default=3.0)
    options = parser.parse_args()
    chromium = find_chromium(options.chromium)
    root = tempfile.mkdtemp(prefix="ph-session-cost-")
    browsers, starts = [], []
    try:
        for i in range(options.sessions):
            proc, to_child, from_child, began = start(chromium, os.path.join(root, str(i)))
            starts.append((first_answer(to_child, from_child) - began) * 1000)
            browsers.append((proc, to_child, from_child))
        time.sleep(options.idle_seconds)  # idle: what a waiting session holds
        memory = [group_memory(proc.pid) for proc, _, _ in browsers]
    finally:
        for proc, to_child, from_child in browsers:
            os.close(to_child)  # end of its pipe: Chromium exits
            proc.wait(timeout=15)
            os.close(from_child)
        shutil.rmtree(root, ignore_errors=True)
    print(f"chromium: {chromium}")
    print(f"sessions started one after the other: {options.sessions}")
    print("start to first DevTools answer (ms): p50 %.0f, max %.0f"
          % (statistics.median(starts), max(starts)))
    for i, (rss, pss, count) in enumerate(memory):
        print(f"session {i}: {count} processes, RSS {rss / 1024:.0f} MiB, PSS {pss / 1024:.0f} MiB")
    print("per idle session: RSS %.0f MiB, PSS %.0f MiB (median)"
          % (statistics.median(m[0] for m in memory) / 1024,
             statistics.median(m[1] for m in memory) / 1024))


if __name__ == "__main__":
    main()
