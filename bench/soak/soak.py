#!/usr/bin/env python3
"""bench/soak: kill -9 soak of runs and their callbacks (run through run.sh).

Everything runs on loopback and stops by itself: a fixture site and a webhook receiver
(standard-library HTTP servers in this process), the headless service on a temporary data
directory, SOAK_WORKERS clients firing /agent runs with a webhookUrl until SOAK_RUNS runs
were accepted, and a killer that sends SIGKILL to the service at random moments at least
SOAK_KILLS times (spread over the runs) and restarts it on the same data directory.
Then it waits for the queue to drain, stops the service and checks the store and what the
receiver got. Prints the figures; exits 1 when a check fails.
"""
import argparse
import hashlib
import http.server
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

TERMINAL = {"success", "error", "cancelled"}
PAGE = (b"<!doctype html><title>Shop</title><h1>Shop</h1><table><thead><tr><th>Name</th>"
        b"<th>Price</th></tr></thead><tbody><tr><td>Rope, 10 m</td><td>12.50</td></tr>"
        b"<tr><td>Fender</td><td>24.00</td></tr><tr><td>Shackle</td><td>3.20</td></tr>"
        b"</tbody></table>")


def env_int(name, default):
    try:
        v = int(os.environ.get(name, ""))
        return v if v > 0 else default
    except ValueError:
        return default


class Quiet(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that went away (the service killed mid-request) is expected here.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve(handler):
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Site(Quiet):
    def do_GET(self):
        # Some pages answer slowly, so that kills find runs in the middle of their work.
        if self.path.startswith("/slow"):
            time.sleep(1.0)
        body = PAGE
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Receiver(Quiet):
    lock = threading.Lock()
    receipts = []  # (delivery id, event, attempt, requestId, sha256 of the body)
    fail_rate = 0.0
    refused = 0

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        did = self.headers.get("X-Svc-Delivery-Id", "")
        attempt = int(self.headers.get("X-Svc-Delivery-Attempt", "0") or 0)
        # A first attempt is sometimes refused: the retry must carry the same id and body.
        if attempt == 1 and random.random() < Receiver.fail_rate:
            with Receiver.lock:
                Receiver.refused += 1
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        try:
            payload = json.loads(body)
        except ValueError:
            payload = {}
        with Receiver.lock:
            Receiver.receipts.append((did, self.headers.get("X-Svc-Event", ""), attempt,
                                      payload.get("requestId", ""),
                                      hashlib.sha256(body).hexdigest()))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    def __init__(self, binary, data_dir, key, log):
        self.binary, self.data_dir, self.key, self.log = binary, data_dir, key, log
        self.proc = None
        self.base = None
        self.up = threading.Event()

    def start(self):
        port = free_port()
        env = dict(os.environ, PILOTHOUSE_API_KEY=self.key)
        self.proc = subprocess.Popen(
            [self.binary, "--headless", "--port", str(port), "--data-dir", self.data_dir,
             "--set", "agent.maxConcurrentRunsPerKey=8"],
            env=env, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the service exited with {self.proc.returncode} at start")
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=2) as r:
                    if r.status == 200:
                        self.up.set()
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise RuntimeError("the service did not answer /health within 90 s")

    def kill(self):
        self.up.clear()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        self.up.clear()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError("the service did not stop within 60 s of SIGTERM")


def post(base, key, path, body, headers=None, timeout=30):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    req.add_header("Authorization", "Bearer " + key)
    req.add_header("Content-Type", "application/json")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, {}


def query(db, sql):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    runs = env_int("SOAK_RUNS", 1000)
    kills = env_int("SOAK_KILLS", 20)
    workers = env_int("SOAK_WORKERS", 6)
    timeout = env_int("SOAK_TIMEOUT_S", 1800)
    Receiver.fail_rate = float(os.environ.get("SOAK_REFUSE_RATE", "0.02"))
    random.seed(int(os.environ.get("SOAK_SEED", str(int(time.time())))))
    started = time.time()

    site = serve(Site)
    receiver = serve(Receiver)
    site_base = f"http://127.0.0.1:{site.server_port}"
    hook = f"http://127.0.0.1:{receiver.server_port}/hook"
    tmp = tempfile.TemporaryDirectory(prefix="pilothouse-soak-")
    data_dir = os.path.join(tmp.name, "data")
    db = os.path.join(data_dir, "pilothouse.db")
    key = "soak-" + os.urandom(12).hex()
    log = open(os.path.join(tmp.name, "service.log"), "ab")
    service = Service(args.binary, data_dir, key, log)
    service.start()

    lock = threading.Lock()
    accepted = {}  # trajectoryId -> requestId, answered to the client
    state = {"posts": 0, "interrupted": 0, "busy": 0, "kills": 0}
    done = threading.Event()
    failure = []

    def worker():
        while not done.is_set() and time.time() - started < timeout:
            with lock:
                if len(accepted) >= runs:
                    return
                state["posts"] += 1
            if not service.up.wait(timeout=5):
                continue
            page = "/slow.html" if random.random() < 0.3 else "/shop.html"
            try:
                status, body = post(service.base, key, "/agent", {
                    "input": "List every product on this page with its name and price",
                    "urls": [site_base + page],
                    "webhookUrl": hook,
                }, headers={"Prefer": "wait=0"})
            except (urllib.error.URLError, OSError, ValueError):
                with lock:
                    state["interrupted"] += 1  # the service died under it
                time.sleep(0.05)
                continue
            if status in (200, 202) and body.get("trajectoryId"):
                with lock:
                    accepted[body["trajectoryId"]] = body.get("requestId", "")
            elif status in (429, 503):
                with lock:
                    state["busy"] += 1
                time.sleep(random.uniform(0.02, 0.15))
            else:
                failure.append(f"POST /agent answered {status}: {body}")
                done.set()

    def killer():
        try:
            for k in range(1, kills + 1):
                threshold = k * runs // (kills + 1)
                while not done.is_set():
                    with lock:
                        if len(accepted) >= threshold:
                            break
                    time.sleep(0.01)
                if done.is_set():
                    return
                time.sleep(random.uniform(0.0, 0.5))  # a random moment
                service.kill()
                state["kills"] += 1
                service.start()
        except Exception as e:  # noqa: BLE001 - reported as a failure
            failure.append(f"killer: {e}")
            done.set()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    kt = threading.Thread(target=killer)
    for t in threads + [kt]:
        t.start()
    for t in threads:
        t.join()
    kt.join()
    fired_at = time.time()

    # Drain: every run ends, every delivery is delivered (or given up on).
    drained = False
    while not failure and time.time() - started < timeout:
        try:
            executing = query(db, "SELECT COUNT(*) FROM phases WHERE status = 'executing'")[0][0]
            pending = query(db, "SELECT COUNT(*) FROM webhook_deliveries WHERE status ="
                                " 'pending'")[0][0]
        except sqlite3.OperationalError:
            time.sleep(0.5)
            continue
        if executing == 0 and pending == 0:
            drained = True
            break
        time.sleep(0.5)
    service.stop()
    elapsed = time.time() - started

    integrity = query(db, "PRAGMA integrity_check")[0][0]
    phases = query(db, "SELECT trajectory_id, request_id, status FROM phases")
    trajectories = dict(query(db, "SELECT id, status FROM trajectories"))
    deliveries = query(db, "SELECT id, request_id, event, status FROM webhook_deliveries")
    receipts = list(Receiver.receipts)

    not_terminal = [p for p in phases if p[2] not in TERMINAL]
    not_terminal += [(t, "", s) for t, s in trajectories.items() if s not in TERMINAL]
    missing_accepted = [t for t in accepted if t not in trajectories]
    by_id = {}
    for did, event, attempt, request_id, digest in receipts:
        by_id.setdefault(did, []).append((event, request_id, digest))
    unstable = [d for d, rs in by_id.items() if len(set(rs)) > 1]
    duplicates = len(receipts) - len(by_id)
    announced = {}
    for did, rs in by_id.items():
        event, request_id, _ = rs[0]
        announced.setdefault(request_id, {}).setdefault(event, set()).add(did)
    lost = [p for p in phases
            if not ({"workflow.completed", "workflow.failed"} & set(announced.get(p[1], {})))]
    contradictory = [r for r, ev in announced.items()
                     if "workflow.completed" in ev and "workflow.failed" in ev]
    twice = [r for r, ev in announced.items() if any(len(ids) > 1 for ids in ev.values())]
    undelivered = [d for d in deliveries if d[3] != "delivered"]
    unseen = [d for d in deliveries if d[3] == "delivered" and d[0] not in by_id]
    outcomes = {}
    for p in phases:
        outcomes[p[2]] = outcomes.get(p[2], 0) + 1

    print(f"runs            {len(phases)} in the store ({len(accepted)} answered with a"
          f" trajectoryId; {state['posts']} POSTs, {state['busy']} answered busy,"
          f" {state['interrupted']} cut off by a kill)")
    print(f"outcomes        " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print(f"kills           {state['kills']} (SIGKILL, restarted on the same data directory)")
    print(f"deliveries      {len(by_id)} delivered ids ({len(deliveries)} stored,"
          f" {len(receipts)} receipts, {Receiver.refused} first attempts refused on purpose)")
    print(f"duplicates      {duplicates} receipts of an id already received (same id, same body)")
    print(f"lost            {len(lost)} runs without a callback")
    print(f"time            {elapsed:.0f} s ({fired_at - started:.0f} s firing, then the drain)")
    print(f"integrity_check {integrity}")
    checks = {
        "every run is in a terminal state": not not_terminal,
        "every run answered to the client is in the store": not missing_accepted,
        "every run's callback arrived at least once": not lost,
        "a delivery id always carries the same event, request and body": not unstable,
        "no run was announced twice under different ids, or both ways": not twice and not contradictory,
        "every stored delivery was delivered and received": not undelivered and not unseen,
        "the queue drained": drained,
        "PRAGMA integrity_check is ok": integrity == "ok",
        f"at least {kills} kills": state["kills"] >= kills,
        f"at least {runs} runs": len(phases) >= runs,
    }
    for name, ok in checks.items():
        print(f"{'ok  ' if ok else 'FAIL'} {name}")
    for f in failure:
        print("FAIL", f)
    bad = not all(checks.values()) or failure
    if bad:
        print("examples:", not_terminal[:3], missing_accepted[:3], lost[:3], unstable[:3],
              twice[:3], contradictory[:3], undelivered[:3], unseen[:3])
        keep = tmp.name + "-kept"
        os.rename(tmp.name, keep)
        print(f"the data directory and service.log are kept in {keep}")
    site.shutdown()
    receiver.shutdown()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
