#!/usr/bin/env python3
"""Soak test driver for verifierd (Python 3 standard library only). Normally run by scripts/soak.sh.

  run --url URL --pid PID --admin-token T --hostile-dir D --state FILE [--seconds 600] [--rate 100] [--threads 8]
      [--interval 5] [--samples-csv FILE]
      Sends every distinct request once (pre-flight: each must answer as expected, hostile bodies record their
      code), then mixed traffic at a paced, steady total rate from THREADS threads on persistent connections, while
      sampling VmRSS, open file descriptors, threads and CPU of PID every INTERVAL seconds. Writes the samples to the
      CSV and everything the verdict needs to STATE. Exits 2 when it cannot run (pre-flight failed); every soak
      criterion is judged by `verdict`.
  verdict --state FILE --log LOG [--stderr FILE]
      Reads the server's JSON log (after it stopped) and prints the summary and every criterion; exits 1 when one
      failed.

The mix (shares of all scheduled requests, each a fixed share, rotated through its variants):
  valid   30%  POST /v1/mdoc/verify valid-p256-sha256-signature (22%), POST /v1/apple/verify demo request (8%): 200
  invalid 20%  POST /v1/mdoc/verify with the manifest's failing cases under iaca-p256: 422 and the case's code
  hostile 20%  scripts/ci/hostile-inputs.py bodies (4xx, code fixed at pre-flight) and garbage: not JSON, truncated
               JSON, bad base64, unknown field (400), unknown route (404), wrong method (405), and on fresh sockets:
               Content-Length 100 MiB with a short body (413), a malformed request line (400), a body cut short and
               half-closed (connection closed, no answer)
  admin   12%  GET /v1/admin/iaca and /v1/admin/trust/changes with the token (8%): 200; without or with a wrong
               token (4%): 401 UNAUTHORIZED
  probe   13%  GET /healthz, /readyz, /metrics: 200
  web      5%  POST /v1/web/requests (one-time sessions that are never used and expire): 201
"""

from __future__ import annotations

import argparse
import base64
import csv
import http.client
import itertools
import json
import math
import os
import random
import socket
import statistics
import sys
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MDOC = ROOT / "TestVectors" / "mdoc"
REQUEST_TIMEOUT = 10.0
RAW_TIMEOUT = 5.0
HOSTILE_STATUSES = {400, 404, 405, 413, 422}
KINDS = ["valid", "invalid", "hostile", "admin", "probe", "web"]
# Warnings the service is expected to log (at start-up): anything else is listed in the verdict.
EXPECTED_WARNINGS = ("allowVerificationTimeOverride",)


class Req:
    """One request variant and what must come back."""

    def __init__(self, kind: str, name: str, method: str = "GET", path: str = "/", body: bytes | None = None,
                 headers: dict | None = None, status: int | None = 200, code: str | None = None,
                 check=None, raw: bytes | None = None, half_close: bool = False, well_formed: bool = True):
        self.kind, self.name, self.method, self.path, self.body = kind, name, method, path, body
        self.headers = dict(headers or {})
        if body is not None:
            self.headers.setdefault("Content-Type", "application/json")
        self.status = status          # expected status; None: the connection closes without an answer
        self.code = code              # expected problem/report `code` (4xx), or None
        self.check = check            # extra check of a 2xx body: returns an error text or None
        self.raw = raw                # bytes sent on a fresh socket instead of an http.client request
        self.half_close = half_close
        self.well_formed = well_formed


def b64_hex_file(path: Path) -> str:
    return base64.b64encode(bytes.fromhex(path.read_text().strip())).decode()


def mdoc_body(case: dict) -> bytes:
    return json.dumps({"deviceResponse": b64_hex_file(MDOC / case["deviceResponse"]),
                       "sessionTranscript": b64_hex_file(MDOC / case["sessionTranscript"]),
                       "verificationTime": case["verificationTime"]}).encode()


def json_check(predicate, what: str):
    def check(data: bytes):
        try:
            value = json.loads(data)
        except ValueError:
            return f"body is not JSON: {data[:120]!r}"
        return None if predicate(value) else f"{what}: {data[:200]!r}"
    return check


def build_catalogue(token: str, hostile_dir: Path):
    """The request variants, grouped for the mix: [(kind, [Req...], weight)]."""
    manifest = json.loads((MDOC / "manifest.json").read_text())
    cases = {c["name"]: c for c in manifest["cases"]}
    verified = json_check(lambda v: v.get("verified") is True, "expected verified:true")
    valid_mdoc = Req("valid", "mdoc-valid", "POST", "/v1/mdoc/verify", mdoc_body(cases["valid-p256-sha256-signature"]),
                     check=verified)
    valid_apple = Req("valid", "apple-valid", "POST", "/v1/apple/verify",
                      (ROOT / "TestVectors" / "demo" / "verify-request.json").read_bytes(), check=verified)

    # Failing cases that hold under this service's configuration: trust = iaca-p256 only, profile checks `warn`,
    # no reader key, one failing code; status-list cases are left out (they would try to fetch).
    invalid = []
    for c in manifest["cases"]:
        e = c["expect"]
        if (e["verified"] is False and c["trustAnchors"] == ["../pki/iaca-p256.pem"] and c["profileChecks"] == "warn"
                and not c["readerPrivateKey"] and len(set(e["failedCodes"])) == 1 and "status" not in c["name"]):
            invalid.append(Req("invalid", c["name"], "POST", "/v1/mdoc/verify", mdoc_body(c), status=422,
                               code=e["failedCodes"][0]))

    hostile = []
    for path in sorted(hostile_dir.glob("*.json")):
        # status and code are fixed by the pre-flight (any of HOSTILE_STATUSES)
        hostile.append(Req("hostile", "body:" + path.stem, "POST", "/v1/mdoc/verify", path.read_bytes(), status=None))
    good = valid_mdoc.body
    hostile += [
        Req("hostile", "not-json", "POST", "/v1/mdoc/verify", b"this is not JSON at all {", status=400,
            code="INVALID_REQUEST"),
        Req("hostile", "truncated-json", "POST", "/v1/mdoc/verify", good[: len(good) // 2], status=400,
            code="INVALID_REQUEST"),
        Req("hostile", "bad-base64", "POST", "/v1/mdoc/verify",
            json.dumps({"deviceResponse": "***not base64***", "sessionTranscript": "gwD2"}).encode(), status=400,
            code="INVALID_BASE64"),
        Req("hostile", "unknown-field", "POST", "/v1/mdoc/verify",
            good[:-1] + b', "deviceResponsee": "AA=="}', status=400, code="INVALID_REQUEST"),
        Req("hostile", "unknown-route", "GET", "/v1/no/such/route", status=404, code="NOT_FOUND"),
        Req("hostile", "wrong-method", "GET", "/v1/mdoc/verify", status=405, code="METHOD_NOT_ALLOWED"),
        Req("hostile", "raw:huge-content-length", raw=(
            b"POST /v1/mdoc/verify HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
            b"Content-Length: 104857600\r\n\r\n{\"deviceResponse\": \"AAAA"), status=413, code="PAYLOAD_TOO_LARGE",
            well_formed=False),
        Req("hostile", "raw:malformed-request-line", raw=b"THIS IS NOT HTTP\r\n\r\n", status=400,
            code="MALFORMED_REQUEST", well_formed=False),
        Req("hostile", "raw:body-cut-short", raw=(
            b"POST /v1/mdoc/verify HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
            b"Content-Length: 4000\r\n\r\n" + good[:1000]), half_close=True, status=None, well_formed=False),
    ]

    auth = {"Authorization": f"Bearer {token}"}
    admin_ok = [
        Req("admin", "admin-iaca", "GET", "/v1/admin/iaca", headers=auth,
            check=json_check(lambda v: len(v.get("anchors", [])) == 2, "expected 2 anchors")),
        Req("admin", "admin-trust-changes", "GET", "/v1/admin/trust/changes", headers=auth,
            check=json_check(lambda v: isinstance(v.get("changes"), list), "expected a changes list")),
    ]
    admin_denied = [
        Req("admin", "admin-iaca-no-token", "GET", "/v1/admin/iaca", status=401, code="UNAUTHORIZED"),
        Req("admin", "admin-changes-wrong-token", "GET", "/v1/admin/trust/changes",
            headers={"Authorization": "Bearer " + "x" * len(token)}, status=401, code="UNAUTHORIZED"),
    ]
    probes = [
        Req("probe", "healthz", "GET", "/healthz"),
        Req("probe", "readyz", "GET", "/readyz",
            check=json_check(lambda v: v.get("status") == "ready", "expected status ready")),
        Req("probe", "metrics", "GET", "/metrics"),
    ]
    web = [Req("web", "web-request", "POST", "/v1/web/requests", json.dumps({"origin": "https://shop.example"}).encode(),
               status=201, check=json_check(lambda v: isinstance(v.get("sessionId"), str), "expected a sessionId"))]
    return [("valid", [valid_mdoc], 22), ("valid", [valid_apple], 8), ("invalid", invalid, 20),
            ("hostile", hostile, 20), ("admin", admin_ok, 8), ("admin", admin_denied, 4), ("probe", probes, 13),
            ("web", web, 5)]


def problem_code(data: bytes):
    try:
        value = json.loads(data)
    except ValueError:
        return None
    return value.get("code") if isinstance(value, dict) else None


class Client:
    """One persistent connection (http.client reopens it after a `Connection: close` answer)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=REQUEST_TIMEOUT)
        self.server_closes = 0

    def send(self, req: Req, rid: str):
        """-> (status or None, body, error text or None, echoed request ID or None)"""
        if req.raw is not None:
            return self.send_raw(req)
        try:
            self.conn.request(req.method, req.path, body=req.body, headers={**req.headers, "X-Request-Id": rid})
            response = self.conn.getresponse()
            data = response.read()
            if response.will_close:
                self.server_closes += 1
            return response.status, data, None, response.getheader("X-Request-Id")
        except (OSError, http.client.HTTPException) as error:
            self.conn.close()
            return None, b"", f"{type(error).__name__}: {error}", None

    def send_raw(self, req: Req):
        try:
            with socket.create_connection((self.host, self.port), timeout=RAW_TIMEOUT) as sock:
                sock.sendall(req.raw)
                if req.half_close:
                    sock.shutdown(socket.SHUT_WR)
                chunks = []
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
        except OSError as error:
            return None, b"", f"{type(error).__name__}: {error}", None
        data = b"".join(chunks)
        if not data:
            return None, b"", None, None  # closed without an answer
        head, _, body = data.partition(b"\r\n\r\n")
        try:
            status = int(head.split(b" ", 2)[1])
        except (IndexError, ValueError):
            return None, data, f"unparsable answer {data[:80]!r}", None
        return status, body, None, None


def judge(req: Req, status, data: bytes, error, echoed, rid: str, expected_status, expected_code):
    """-> failure text or None."""
    if error is not None:
        return f"connection error: {error}"
    if status != expected_status:
        return f"status {status}, expected {expected_status}: {data[:160]!r}"
    if status is None:
        return None
    if expected_code is not None and problem_code(data) != expected_code:
        return f"code {problem_code(data)}, expected {expected_code}"
    if req.raw is None and echoed != rid:
        return f"X-Request-Id {echoed!r} echoed for {rid!r}"
    if 200 <= status < 300 and req.check is not None:
        return req.check(data)
    return None


def read_sample(pid: int, t: float, completed: int):
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        fields = {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in status.splitlines() if ":" in line}
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None
    return {"t": round(t, 3), "rss_kib": int(fields["VmRSS"].split()[0]), "fds": fds,
            "threads": int(fields["Threads"]), "cpu_s": round(cpu, 2), "requests": completed,
            "state": fields.get("State", "?").split()[0]}


def run(args) -> int:
    target = urllib.parse.urlsplit(args.url)
    if target.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("refusing a target that is not loopback")
    host, port = target.hostname, target.port
    groups = build_catalogue(args.admin_token, args.hostile_dir)
    variants = [req for _, reqs, _ in groups for req in reqs]
    names = [req.name for req in variants]
    index_of = {id(req): i for i, req in enumerate(variants)}
    expectations: dict[int, tuple] = {}  # variant index -> (status, code)
    for i, req in enumerate(variants):
        expectations[i] = (req.status, req.code)

    requests = []  # (variant index, request id or "", status, latency ms, lag ms, failure or None)
    record_lock = threading.Lock()
    seq = itertools.count(1)

    # Pre-flight: each variant once, on one connection; hostile bodies fix their expected status and code.
    client = Client(host, port)
    preflight_failures = []
    for i, req in enumerate(variants):
        rid = f"soak-pre-{next(seq)}"
        started = time.monotonic()
        status, data, error, echoed = client.send(req, rid)
        latency = (time.monotonic() - started) * 1000
        if req.name.startswith("body:"):
            if error is None and status in HOSTILE_STATUSES:
                expectations[i] = (status, problem_code(data))
            else:
                preflight_failures.append(f"{req.name}: {error or status} {data[:160]!r}")
        status_expected, code_expected = expectations[i]
        failure = judge(req, status, data, error, echoed, rid, status_expected, code_expected)
        if failure:
            preflight_failures.append(f"{req.name}: {failure}")
        requests.append((i, rid if req.raw is None else "", status, latency, 0.0, failure))
    client.conn.close()
    print(f"pre-flight: {len(variants)} variants ({sum(1 for r in variants if r.kind == 'invalid')} invalid cases, "
          f"{sum(1 for r in variants if r.name.startswith('body:'))} hostile bodies), "
          f"{len(preflight_failures)} failed")
    for line in preflight_failures:
        print("  PRE-FLIGHT FAILED", line)
    hostile_codes = {names[i]: expectations[i] for i in expectations if names[i].startswith("body:")}
    for name, (status, code) in sorted(hostile_codes.items()):
        print(f"  {name}: {status} {code}")
    if preflight_failures:
        return 2

    # The schedule: slot s is due at t0 + s / rate; thread k sends slots k, k + threads, ...; slot s uses the group
    # pattern[s % 100] (a fixed shuffled list with each group `weight` times), rotating through the group's variants.
    pattern = [gi for gi, (_, _, weight) in enumerate(groups) for _ in range(weight)]
    random.Random(18013).shuffle(pattern)
    rotation = [itertools.count() for _ in groups]
    duration, rate, threads = args.seconds, args.rate, args.threads
    completed = [0]
    t0 = time.monotonic() + 0.5
    t_end = t0 + duration
    samples = []
    done = threading.Event()

    def sampler():
        n = 0
        while True:
            due = t0 + n * args.interval
            if due >= t_end - 1e-6:  # samples only while the traffic runs; the one after it is taken separately
                break
            delay = due - time.monotonic()
            if delay > 0 and done.wait(delay):
                pass
            sample = read_sample(args.pid, time.monotonic() - t0, completed[0])
            if sample is None:
                samples.append({"t": round(time.monotonic() - t0, 3), "gone": True})
                break
            samples.append(sample)
            n += 1

    def worker(k: int):
        client = Client(host, port)
        local = []
        s = k
        while True:
            due = t0 + s / rate
            if due >= t_end:
                break
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            gi = pattern[s % len(pattern)]
            reqs = groups[gi][1]
            req = reqs[next(rotation[gi]) % len(reqs)]
            vi = index_of[id(req)]
            rid = f"soak-{next(seq)}"
            started = time.monotonic()
            status, data, error, echoed = client.send(req, rid)
            latency = (time.monotonic() - started) * 1000
            status_expected, code_expected = expectations[vi]
            failure = judge(req, status, data, error, echoed, rid, status_expected, code_expected)
            local.append((vi, rid if req.raw is None else "", status, latency, (started - due) * 1000, failure))
            with record_lock:
                completed[0] += 1
            s += threads
        client.conn.close()
        with record_lock:
            requests.extend(local)
            closes[0] += client.server_closes

    closes = [0]
    sampling = threading.Thread(target=sampler, daemon=True)
    workers = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(threads)]
    sampling.start()
    for w in workers:
        w.start()
    last_progress = t0
    while any(w.is_alive() for w in workers):
        time.sleep(0.5)
        now = time.monotonic()
        if now - last_progress >= 60 and now < t_end:
            last_progress = now
            last = samples[-1] if samples else {}
            print(f"  t={now - t0:4.0f}s requests={completed[0]} rss={last.get('rss_kib', 0) / 1024:.1f}MiB "
                  f"fds={last.get('fds')}", flush=True)
    finished = time.monotonic()
    sampling.join(timeout=args.interval + 5)
    done.set()
    # After the traffic: the clients have closed their connections; give the server up to 5 s (its lingering close
    # takes up to 2 s) to release them, then take the last sample.
    start_fds = samples[0]["fds"] if samples and not samples[0].get("gone") else None
    final = read_sample(args.pid, time.monotonic() - t0, completed[0])
    settle = time.monotonic() + 5
    while final is not None and start_fds is not None and final["fds"] > start_fds and time.monotonic() < settle:
        time.sleep(0.25)
        final = read_sample(args.pid, time.monotonic() - t0, completed[0])
    alive = final is not None and final["state"] not in ("Z", "X")

    if args.samples_csv:
        with open(args.samples_csv, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["t_s", "rss_kib", "fds", "threads", "cpu_s", "requests"])
            for sample in samples:
                if not sample.get("gone"):
                    writer.writerow([sample["t"], sample["rss_kib"], sample["fds"], sample["threads"], sample["cpu_s"],
                                     sample["requests"]])
    state = {
        "params": {"seconds": duration, "rate": rate, "threads": threads, "interval": args.interval,
                   "mix": [[kind, weight, [r.name for r in reqs]] for kind, reqs, weight in groups]},
        "names": names, "kinds": [r.kind for r in variants], "well_formed": [r.well_formed for r in variants],
        "expectations": {str(i): list(v) for i, v in expectations.items()},
        "preflight_count": len(variants),
        "requests": requests, "elapsed": finished - t0, "samples": samples, "server_alive_at_end": alive,
        "final_sample": final, "server_closes": closes[0],
    }
    Path(args.state).write_text(json.dumps(state))
    print(f"traffic done: {len(requests) - len(variants)} requests in {finished - t0:.1f} s; "
          f"server {'alive' if alive else 'GONE'}")
    return 0


# ---------------------------------------------------------------------------------------------------- verdict

def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)  # nearest rank
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def as_int(value):
    """Log values may be typed (200) or text ("200")."""
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def warm_up_seconds(duration: float) -> float:
    # 20 % of the run; long runs (150 s and more) at least 30 s.
    return max(30.0, 0.2 * duration) if duration >= 150 else 0.2 * duration


def window_median(samples, key, lo, hi):
    values = [s[key] for s in samples if lo - 1e-6 <= s["t"] <= hi + 1e-6]
    if not values:  # no sample in the window: the nearest one
        middle = (lo + hi) / 2
        values = [min(samples, key=lambda s: abs(s["t"] - middle))[key]]
    return statistics.median(values), len(values)


def verdict(args) -> int:
    state = json.loads(Path(args.state).read_text())
    params = state["params"]
    names, kinds, well_formed = state["names"], state["kinds"], state["well_formed"]
    expectations = {int(k): tuple(v) for k, v in state["expectations"].items()}
    pre = state["preflight_count"]
    all_requests = state["requests"]
    soak_requests = all_requests[pre:]
    duration, rate = params["seconds"], params["rate"]
    criteria = []  # (ok, text)

    def criterion(ok: bool, text: str):
        criteria.append((ok, text))

    print(f"\n== soak: {duration:g} s, target {rate:g} req/s, {params['threads']} threads ==")
    print("mix: " + ", ".join(f"{kind} {weight}% ({len(variants)} variant{'s' if len(variants) > 1 else ''})"
                              for kind, weight, variants in params["mix"]))

    # --- client side
    per_kind = defaultdict(lambda: {"n": 0, "lat": [], "fail": 0, "conn": 0})
    per_name = Counter()
    failures = []
    lags = []
    for vi, rid, status, latency, lag, failure in soak_requests:
        k = per_kind[kinds[vi]]
        k["n"] += 1
        k["lat"].append(latency)
        per_name[names[vi]] += 1
        lags.append(lag)
        if failure:
            k["fail"] += 1
            if failure.startswith("connection error"):
                k["conn"] += 1
            failures.append((names[vi], rid, failure, well_formed[vi]))
    total = len(soak_requests)
    achieved = total / state["elapsed"] if state["elapsed"] else 0
    print(f"\nrequests: {total} in {state['elapsed']:.1f} s = {achieved:.1f} req/s (target {rate:g}); "
          f"send lag behind schedule p50 {percentile(lags, 50):.1f} ms, p99 {percentile(lags, 99):.1f} ms, "
          f"max {max(lags, default=0):.1f} ms; {state['server_closes']} answers closed their connection")
    print(f"{'kind':<8} {'requests':>8} {'share':>6} {'failed':>6} {'conn.err':>8} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7}")
    for kind in KINDS:
        k = per_kind[kind]
        if not k["n"]:
            continue
        print(f"{kind:<8} {k['n']:>8} {100 * k['n'] / max(total, 1):>5.1f}% {k['fail']:>6} {k['conn']:>8} "
              f"{percentile(k['lat'], 50):>7.2f} {percentile(k['lat'], 99):>7.2f} {max(k['lat']):>7.1f}")
    hostile_lat, hostile_expect = defaultdict(list), defaultdict(set)
    for vi, _, _, latency, _, _ in soak_requests:
        if kinds[vi] == "hostile":
            group = "body:unique-chain-*" if names[vi].startswith("body:unique-chain-") else names[vi]
            hostile_lat[group].append(latency)
            status, code = expectations[vi]
            hostile_expect[group].add(f"{status if status is not None else 'closed'} {code or '-'}")
    print("hostile variants: expected answer, requests, p50/p99 ms")
    for group in sorted(hostile_lat):
        print(f"  {group:<30} {' | '.join(sorted(hostile_expect[group])):<40} {len(hostile_lat[group]):>6}  "
              f"{percentile(hostile_lat[group], 50):.2f}/{percentile(hostile_lat[group], 99):.2f}")
    if failures:
        print(f"failed requests: {len(failures)}; first ones:")
        for name, rid, failure, _ in failures[:15]:
            print(f"  {name} {rid}: {failure}")
    conn_errors_wf = sum(1 for _, _, f, wf in failures if wf and f.startswith("connection error"))
    criterion(conn_errors_wf == 0, f"client: connection errors or timeouts on well-formed requests = {conn_errors_wf}"
                                   f" (must be 0)")
    criterion(not failures, f"client: every answer as expected for its kind (status, code, body), "
                            f"{len(failures)} not (must be 0; includes the raw malformed requests)")
    criterion(achieved >= 0.95 * rate, f"client: achieved rate {achieved:.1f} req/s >= 95% of {rate:g}")

    # --- server samples
    samples = [s for s in state["samples"] if not s.get("gone")]
    criterion(state["server_alive_at_end"] and len(samples) == len(state["samples"]),
              "server: still running at the end of the traffic")
    warm = warm_up_seconds(duration)
    win = max(0.1 * duration, 4 * params["interval"])
    if len(samples) >= 3:
        print(f"\nserver samples: {len(samples)}, every {params['interval']:g} s (warm-up {warm:.0f} s; baseline = "
              f"median of t in [{warm:.0f}, {warm + win:.0f}] s, end = median of t in [{duration - win:.0f}, "
              f"{duration:.0f}] s)")
        post = [s for s in samples if s["t"] >= warm - 1e-6] or samples
        results = {}
        for key, label, scale, unit in (("rss_kib", "RSS", 1 / 1024, "MiB"), ("fds", "open fds", 1, ""),
                                        ("threads", "threads", 1, "")):
            base, nb = window_median(samples, key, warm, warm + win)
            end, ne = window_median(samples, key, duration - win, duration)
            top = max(samples, key=lambda s: s[key])
            growth = 100 * (end - base) / base if base else float("inf")
            # least-squares slope over the post-warm-up samples, per minute (information only)
            ts = [s["t"] for s in post]
            vs = [s[key] for s in post]
            mt, mv = statistics.fmean(ts), statistics.fmean(vs)
            den = sum((t - mt) ** 2 for t in ts)
            slope = sum((t - mt) * (v - mv) for t, v in zip(ts, vs)) / den * 60 if den else 0.0
            results[key] = (base, end, growth)
            fmt = (lambda v: f"{v * scale:.1f}") if scale != 1 else (lambda v: f"{v:g}")
            print(f"  {label:<9} start {fmt(samples[0][key])}, after warm-up {fmt(base)} ({nb} samples), end "
                  f"{fmt(end)} ({ne} samples), max {fmt(top[key])} at t={top['t']:.0f} s, min after warm-up "
                  f"{fmt(min(vs))}; growth {growth:+.2f}%, trend after warm-up {slope * scale:+.3f} {unit}/min"
                  .replace(" /min", "/min"))
        base, end, growth = results["rss_kib"]
        criterion(growth < 5.0, f"RSS growth after warm-up {growth:+.2f}% ({base / 1024:.1f} -> {end / 1024:.1f} MiB) < 5%")
        base, end, growth = results["fds"]
        allowed = max(0.05 * base, 2)
        criterion(end - base <= allowed, f"open fds after warm-up {base:g} -> {end:g} ({growth:+.1f}%): growth <= "
                                         f"max(5%, +2) = +{allowed:g}")
        final = state["final_sample"]
        if final:
            print(f"  after the traffic (clients disconnected, t={final['t']:.1f} s): RSS {final['rss_kib'] / 1024:.1f} "
                  f"MiB, {final['fds']} fds (before the traffic: {samples[0]['fds']}), {final['threads']} threads")
            criterion(final["fds"] - samples[0]["fds"] <= 2,
                      f"open fds once the clients disconnected {final['fds']} <= before the traffic "
                      f"{samples[0]['fds']} + 2")
        cpu = samples[-1]["cpu_s"] - samples[0]["cpu_s"]
        print(f"  server CPU during the run: {cpu:.1f} s = {100 * cpu / max(state['elapsed'], 1e-9):.1f}% of one core, "
              f"{1e6 * cpu / max(total, 1):.0f} µs per request")
    else:
        criterion(False, f"server samples: only {len(samples)}, need 3")

    # --- the server's log
    expected_by_rid = {}
    raw_expected = Counter()
    for vi, rid, status, _, _, _ in all_requests:
        if rid:
            expected_by_rid[rid] = vi
        elif status is not None:  # a raw request that was answered: its line carries a server-made request ID
            raw_expected[(status, expectations[vi][1])] += 1
    allowed_codes = {code for _, code in expectations.values() if code}
    levels, statuses, codes = Counter(), Counter(), Counter()
    bad_lines, warnings, unmatched = [], Counter(), Counter()
    seen = set()
    nonjson = 0
    access = 0
    stopped = False
    with open(args.log, errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                nonjson += 1
                bad_lines.append(f"not JSON: {line[:200]}")
                continue
            level = str(entry.get("level", "")).lower()
            levels[level] += 1
            message = str(entry.get("message", ""))
            if message == "stopped":
                stopped = True
            if level in ("error", "critical"):
                bad_lines.append(f"level {level}: {line[:300]}")
            elif level == "warning" and not any(w in message for w in EXPECTED_WARNINGS):
                warnings[message] += 1
            if message != "request" or "status" not in entry:
                continue
            access += 1
            status = as_int(entry.get("status"))
            code = entry.get("code") or (entry.get("outcome") if status is not None and status >= 400 else None)
            statuses[status] += 1
            if code:
                codes[(status, code)] += 1
            if status is None or status >= 500:
                bad_lines.append(f"status {entry.get('status')!r}: {line[:300]}")
                continue
            rid = str(entry.get("requestId", ""))
            vi = expected_by_rid.get(rid)
            if vi is not None:
                if rid in seen:
                    bad_lines.append(f"request ID logged twice: {line[:300]}")
                seen.add(rid)
                want_status, want_code = expectations[vi]
                if status != want_status:
                    bad_lines.append(f"{names[vi]} logged status {status}, expected {want_status}: {line[:300]}")
                elif status >= 400 and code != want_code:
                    bad_lines.append(f"{names[vi]} logged code {code}, expected {want_code}: {line[:300]}")
                elif names[vi] in ("mdoc-valid", "apple-valid") and entry.get("outcome") != "verified":
                    bad_lines.append(f"{names[vi]} logged outcome {entry.get('outcome')!r}: {line[:300]}")
            else:
                unmatched[(status, code)] += 1
                if status >= 400 and code not in allowed_codes:
                    bad_lines.append(f"unexpected {status} code {code}: {line[:300]}")
                elif status < 400:
                    bad_lines.append(f"{status} for a request the client did not send: {line[:300]}")
    missing = len(expected_by_rid) - len(seen)
    print(f"\nlog: {access} access lines, levels {dict(levels)}, 'stopped' line logged: {'yes' if stopped else 'no'} (information only)")
    print("  status counts: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items(), key=lambda x: x[0] or 0)))
    print("  4xx codes: " + ", ".join(f"{s} {c}: {n}" for (s, c), n in sorted(codes.items()) if s and s >= 400))
    print(f"  lines without a client request ID (server-made answers to the raw requests): "
          f"{dict((f'{s} {c}', n) for (s, c), n in unmatched.items())}")
    for message, n in warnings.items():
        print(f"  WARNING line (not failing): {n} x {message}")
    for line in bad_lines[:20]:
        print("  BAD", line)
    stderr_text = Path(args.stderr).read_text(errors="replace") if args.stderr and Path(args.stderr).exists() else ""
    if stderr_text.strip():
        print("  server stderr:\n    " + "\n    ".join(stderr_text.strip().splitlines()[:20]))
    criterion(not [b for b in bad_lines if b.startswith(("level", "status"))],
              "log: no line at level error/critical and no status >= 500")
    criterion(not [b for b in bad_lines if not b.startswith(("level", "status"))],
              f"log: every access line matches its request's expected status and code (4xx codes only the "
              f"expected ones), no unparsable line ({len(bad_lines)} bad)")
    criterion(missing == 0 and unmatched == raw_expected,
              f"log: one access line per answered request ({missing} missing; server-made lines "
              f"{sum(unmatched.values())}, expected {sum(raw_expected.values())})")
    criterion(not stderr_text.strip(), "server: nothing on stderr")
    if args.exit_status is not None:
        criterion(args.exit_status == 0, f"server: exit status {args.exit_status} after SIGTERM (must be 0)")

    print("\ncriteria:")
    for ok, text in criteria:
        print(f"  {'PASS' if ok else 'FAIL'}  {text}")
    failed = sum(1 for ok, _ in criteria if not ok)
    print(f"\nsoak {'PASSED' if not failed else f'FAILED ({failed} criteria)'}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--url", required=True)
    r.add_argument("--pid", type=int, required=True)
    r.add_argument("--admin-token", required=True)
    r.add_argument("--hostile-dir", type=Path, required=True)
    r.add_argument("--state", required=True)
    r.add_argument("--seconds", type=float, default=600)
    r.add_argument("--rate", type=float, default=100)
    r.add_argument("--threads", type=int, default=8)
    r.add_argument("--interval", type=float, default=5)
    r.add_argument("--samples-csv")
    v = sub.add_parser("verdict")
    v.add_argument("--state", required=True)
    v.add_argument("--log", required=True)
    v.add_argument("--stderr")
    v.add_argument("--exit-status", type=int, help="the server's exit status after SIGTERM")
    args = parser.parse_args()
    return run(args) if args.command == "run" else verdict(args)


if __name__ == "__main__":
    sys.exit(main())
