#!/usr/bin/env python3
"""Rotation under load: verifications racing trust-set changes made through the admin API.

Driven by scripts/ci/rotation-under-load.sh, which starts verifierd, runs `load`, stops the service, then runs `check`.

  load --url URL --records FILE [--seconds 60] [--clients 16] [--writers 2] [--interval 0.05] [--extras 20]
       [--anchor TestVectors/pki/iaca-p256.pem] [--case TestVectors/mdoc/cases/valid-p256-sha256-signature]
      The admin token comes from the environment (ROTATION_ADMIN_TOKEN). Reads the trust set in force
      (GET /v1/admin/iaca), then for --seconds: --clients threads, each on its own persistent HTTP/1.1 connection,
      POST the same valid document to /v1/mdoc/verify back to back, and --writers threads each make one admin change
      every --interval seconds (POST/DELETE the document's anchor X, POST/DELETE throwaway IACAs, PUT a random
      subset of X and the throwaways), each with its own X-Request-ID. Every request is timed with
      time.monotonic() (one clock for all threads) and everything is written to FILE as JSON.
  check --records FILE --log LOG [--min-writes N] [--min-each-verdict N]
      Replays the service's "trust set changed" log lines in version order from the initial set, ties each version
      to the writer request that made it (by request ID), and checks every verdict against the versions that can
      have been in force during that verification. Prints a summary; exits 1 on any failure.
  --self-test
      Runs the replay and the checker on synthetic timelines (one consistent, several not) and exits 1 unless
      each is judged as expected. Needs no service.

How a verdict is judged. The switch to version v happens at an instant inside the admin request that made it, so
within [sent(v), received(v)]; switches happen in version order, so the bounds tighten to
L(v) = max(sent(u), u <= v) and U(v) = min(received(u), u >= v). A verification timed [s, e] reads one snapshot at an
instant inside [s, e], so it may have seen v iff L(v) <= e and U(v+1) >= s (the initial version has L = -inf, the
last has U(v+1) = +inf); those v form a contiguous range. A verdict is consistent iff some v in that range had the
document's anchor X in the set exactly when the service said verified (200 verified=true) rather than untrusted
(422 ISSUER_CERTIFICATE_UNTRUSTED). Client-side delays (scheduling, the GIL) only widen the windows, so a reported
inconsistency is never a timing artefact of the client.

Membership of X per version is replayed from the initial GET /v1/admin/iaca (anchors with their source) and each
change's action and fingerprints: add puts the named anchors in as manual ones, remove takes the named certificate
out of every source, replace sets the manual anchors to exactly those named (other sources stay). Each PUT's
response lists the whole set at its version, and the replay must agree with it.
"""

from __future__ import annotations

import argparse
import base64
import bisect
import datetime
import hashlib
import http.client
import json
import math
import os
import random
import re
import socket
import sys
import threading
import time
import urllib.parse
from pathlib import Path

UNTRUSTED = "ISSUER_CERTIFICATE_UNTRUSTED"
VERIFY_PATH = "/v1/mdoc/verify"
# The integrator token rotation-under-load.sh configures.
INTEGRATOR_TOKEN = "rotation-integrator-token-TEST"
ADMIN_PATH = "/v1/admin/iaca"
PEM_RE = re.compile(rb"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", re.S)


# ----------------------------------------------------------------------------------------------------------- helpers

def as_int(value) -> int:
    """A log or body value that may be a JSON number or a string holding one."""
    return int(str(value).strip())


def pem_der(pem: bytes) -> bytes:
    match = PEM_RE.search(pem)
    if not match:
        raise SystemExit("no PEM certificate found")
    return base64.b64decode(b"".join(match.group(1).split()))


def percentile(sorted_values, fraction):
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, math.ceil(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def fingerprints_of(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v).strip().lower() for v in value if str(v).strip()]
    return [part.strip().lower() for part in str(value).split(",") if part.strip()]


def throwaway_iacas(count: int) -> list[bytes]:
    """P-256 IACAs (PEM) from the test-vector generator's PKI, valid from yesterday for 20 years. TEST-ONLY."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "TestVectors" / "generator"))
    import generate as g  # the generator's PKI builder (keys derived from seed labels)

    now = datetime.datetime.now(datetime.timezone.utc)
    stamp = lambda when: when.strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    pki = g.PKI()
    return [g.cert_pem(pki.iaca(f"rotation-{index}", f"rotation-under-load throwaway IACA {index}", "P-256",
                                not_before=stamp(now - datetime.timedelta(days=1)),
                                not_after=stamp(now + datetime.timedelta(days=365 * 20)),
                                key_label=f"rotation/throwaway-{index}").cert).encode()
            for index in range(count)]


# -------------------------------------------------------------------------------------------------------------- load

class Client:
    """One persistent HTTP/1.1 connection, reopened after the server closes it or after an error."""

    def __init__(self, host: str, port: int, timeout: float):
        self.host, self.port, self.timeout = host, port, timeout
        self.connection: http.client.HTTPConnection | None = None
        self.reconnects = 0

    def request(self, method: str, path: str, body: bytes | None, headers: dict) -> tuple[int, dict, bytes]:
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.reconnects += 1
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except BaseException:
            self.close()
            raise
        if response.will_close:
            self.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def error_name(error: BaseException) -> str:
    if isinstance(error, (socket.timeout, TimeoutError)):
        return "timeout"
    return type(error).__name__ + (f": {error}" if str(error) else "")


def load(args) -> int:
    token = os.environ.get("ROTATION_ADMIN_TOKEN", "")
    if not token:
        raise SystemExit("set ROTATION_ADMIN_TOKEN to the service's admin token")
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname or "127.0.0.1", url.port or 80

    x_pem = open(args.anchor, "rb").read()
    x_sha = hashlib.sha256(pem_der(x_pem)).hexdigest()
    extra_pems = throwaway_iacas(args.extras)
    extra_shas = [hashlib.sha256(pem_der(p)).hexdigest() for p in extra_pems]

    device_response = bytes.fromhex(open(args.case + ".deviceresponse.hex").read().strip())
    transcript = bytes.fromhex(open(args.case + ".transcript.hex").read().strip())
    verify_body = json.dumps({"deviceResponse": base64.b64encode(device_response).decode(),
                              "sessionTranscript": base64.b64encode(transcript).decode(),
                              "verificationTime": args.verification_time}).encode()
    verify_headers = {"Content-Type": "application/json", "Authorization": "Bearer " + INTEGRATOR_TOKEN}
    auth = {"Authorization": f"Bearer {token}"}

    setup = Client(host, port, 10)
    status, _, data = setup.request("GET", ADMIN_PATH, None, auth)
    if status != 200:
        raise SystemExit(f"GET {ADMIN_PATH}: {status} {data[:300]!r}")
    listing = json.loads(data)
    initial = {"version": as_int(listing["version"]),
               "anchors": [{"sha256": a["sha256"].lower(), "source": a.get("source", "manual")}
                           for a in listing["anchors"]]}
    setup.close()
    if x_sha not in {a["sha256"] for a in initial["anchors"]}:
        print(f"note: the document's anchor {x_sha[:16]}... is not trusted at the start")

    t0 = time.monotonic()
    start_barrier = threading.Barrier(args.clients + args.writers + 1)
    deadline_box = [0.0]
    verifications: list[list] = []  # [start, end, status, verdict (1/0/None), code or error]
    writes: list[dict] = []
    connections = [0]  # verifier connections opened (16 when none was ever closed)
    lock = threading.Lock()

    def verifier(index: int):
        client = Client(host, port, args.timeout)
        mine = []
        start_barrier.wait()
        deadline = deadline_box[0]
        while True:
            start = time.monotonic()
            if start >= deadline:
                break
            try:
                status, _, data = client.request("POST", VERIFY_PATH, verify_body, verify_headers)
            except Exception as error:  # noqa: BLE001 (every transport failure counts)
                mine.append([start - t0, time.monotonic() - t0, None, None, error_name(error)])
                time.sleep(0.01)
                continue
            end = time.monotonic()
            verdict, code = None, None
            try:
                answer = json.loads(data)
                code = answer.get("code")
                if status == 200 and answer.get("verified") is True:
                    verdict = 1
                elif status == 422 and answer.get("verified") is False and code == UNTRUSTED:
                    verdict = 0
            except ValueError:
                code = "unparsable body: " + data[:120].decode("utf-8", "replace")
            mine.append([start - t0, end - t0, status, verdict, code])
        client.close()
        with lock:
            verifications.extend(mine)
            connections[0] += client.reconnects

    def writer(index: int):
        rng = random.Random(f"{args.seed}/{index}")
        client = Client(host, port, args.timeout)
        mine = []
        start_barrier.wait()
        deadline = deadline_box[0]
        n = 0
        while time.monotonic() < deadline:
            n += 1
            request_id = f"rotation-w{index}-{n:06d}"
            roll = rng.random()
            query = ""
            if roll < 0.18:
                kind, method, path, names, body = "add-X", "POST", ADMIN_PATH, [x_sha], x_pem
            elif roll < 0.36:
                kind, method, path, names, body = "remove-X", "DELETE", f"{ADMIN_PATH}/{x_sha}", [x_sha], None
                query = "?allowEmpty=true"
            elif roll < 0.52:
                i = rng.randrange(len(extra_pems))
                kind, method, path, names, body = "add-extra", "POST", ADMIN_PATH, [extra_shas[i]], extra_pems[i]
            elif roll < 0.68:
                i = rng.randrange(len(extra_pems))
                kind, method, path, names, body = "remove-extra", "DELETE", f"{ADMIN_PATH}/{extra_shas[i]}", \
                    [extra_shas[i]], None
                query = "?allowEmpty=true"
            elif roll < 0.76:
                i = rng.randrange(len(extra_pems))
                kind, method, path = "add-X+extra", "POST", ADMIN_PATH
                names, body = [x_sha, extra_shas[i]], x_pem + extra_pems[i]
            else:
                chosen = rng.sample(range(len(extra_pems)), rng.randint(0, 4))
                with_x = rng.random() < 0.5
                names = ([x_sha] if with_x else []) + [extra_shas[i] for i in chosen]
                body = (x_pem if with_x else b"") + b"".join(extra_pems[i] for i in chosen)
                kind = "replace-with-X" if with_x else "replace-without-X"
                method, path, query = "PUT", ADMIN_PATH, "?allowEmpty=true"
            headers = dict(auth)
            headers["X-Request-ID"] = request_id
            if body is not None:
                headers["Content-Type"] = "application/x-pem-file"
            record = {"requestId": request_id, "kind": kind, "names": names, "status": None, "code": None,
                      "version": None, "anchors": None, "echoed": None}
            sent = time.monotonic()
            try:
                status, response_headers, data = client.request(method, path + query,
                                                                (body or b"") if method != "DELETE" else None, headers)
                received = time.monotonic()
                record["status"] = status
                record["echoed"] = response_headers.get("x-request-id")
                if data:
                    try:
                        answer = json.loads(data)
                        record["code"] = answer.get("code")
                        if "version" in answer:
                            record["version"] = as_int(answer["version"])
                        if method == "PUT" and status == 200:
                            record["anchors"] = [a["sha256"].lower() for a in answer.get("anchors", [])]
                    except ValueError:
                        record["code"] = "unparsable body: " + data[:120].decode("utf-8", "replace")
            except Exception as error:  # noqa: BLE001
                received = time.monotonic()
                record["error"] = error_name(error)
            record["sent"], record["received"] = sent - t0, received - t0
            mine.append(record)
            time.sleep(args.interval)
        client.close()
        with lock:
            writes.extend(mine)

    threads = [threading.Thread(target=verifier, args=(i,), daemon=True) for i in range(args.clients)]
    threads += [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(args.writers)]
    for thread in threads:
        thread.start()
    deadline_box[0] = time.monotonic() + args.seconds
    begun = time.monotonic()
    start_barrier.wait()
    for thread in threads:
        thread.join(args.seconds + args.timeout + 30)
    elapsed = time.monotonic() - begun
    stuck = sum(thread.is_alive() for thread in threads)

    verifications.sort(key=lambda v: v[0])
    writes.sort(key=lambda w: w["sent"])
    with open(args.records, "w") as out:
        json.dump({"seconds": args.seconds, "elapsed": elapsed, "clients": args.clients, "writers": args.writers,
                   "interval": args.interval, "stuckThreads": stuck, "verifierConnections": connections[0],
                   "x": x_sha, "extras": extra_shas,
                   "initial": initial, "verifications": verifications, "writes": writes}, out)
    print(f"load: {len(verifications)} verifications and {len(writes)} admin writes in {elapsed:.1f} s"
          + (f"; {stuck} threads did not finish" if stuck else ""))
    return 0


# ------------------------------------------------------------------------------------------------------------- check

def parse_changes(lines) -> tuple[list[dict], list[str], list[str]]:
    """The "trust set changed" entries of a JSON-lines log, the error-level lines, and any 5xx request lines."""
    changes, errors, server_errors = [], [], []
    for line in lines:
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        metadata = entry.get("metadata") if isinstance(entry.get("metadata"), dict) else {}
        field = lambda name: entry.get(name, metadata.get(name))  # noqa: E731 (flat or nested metadata)
        if str(entry.get("level", "")).lower() in ("error", "critical", "fault"):
            errors.append(line)
        if entry.get("message") == "request" and field("status") is not None:
            try:
                if as_int(field("status")) >= 500:
                    server_errors.append(line)
            except ValueError:
                pass
        if entry.get("message") == "trust set changed":
            changes.append({"version": as_int(field("version")), "action": str(field("action")),
                            "fingerprints": fingerprints_of(field("fingerprints")),
                            "requestId": field("requestId"), "line": line})
    return changes, errors, server_errors


def replay(initial: dict, changes: list[dict]) -> tuple[dict, list[str]]:
    """Anchor set per version (sha256 -> set of sources, simplified to manual / other) from the initial listing
    and the changes in version order. Returns ({version: frozenset of sha256}, problems)."""
    problems = []
    manual = {a["sha256"] for a in initial["anchors"] if a.get("source", "manual") == "manual"}
    other = {a["sha256"] for a in initial["anchors"] if a.get("source", "manual") != "manual"}
    version = initial["version"]
    sets = {version: frozenset(manual | other)}
    for change in sorted(changes, key=lambda c: c["version"]):
        if change["version"] != version + 1:
            problems.append(f"version {change['version']} follows {version} (versions must be consecutive): "
                            f"{change['line']}")
        version = change["version"]
        names = set(change["fingerprints"])
        if change["action"] == "add":
            manual |= names
        elif change["action"] == "remove":
            manual -= names
            other -= names
        elif change["action"] == "replace":
            manual = set(names)
        else:
            problems.append(f"unexpected trust change action {change['action']!r}: {change['line']}")
        sets[version] = frozenset(manual | other)
    return sets, problems


class Timeline:
    """Versions in order with the window in which each came into force, and whether X was in each."""

    def __init__(self, versions: list[int], member: list[bool], sent: list[float], received: list[float]):
        # versions[0] is the initial version (sent/received ignored); the rest in increasing order.
        self.versions, self.member = versions, member
        lower = [-math.inf]
        for s in sent[1:]:
            lower.append(max(lower[-1], s))
        upper = [math.inf] * len(versions)
        running = math.inf
        for i in range(len(versions) - 1, 0, -1):
            running = min(running, received[i])
            upper[i] = running
        self.lower, self.upper = lower, upper
        self.next_upper = upper[1:] + [math.inf]  # U(v+1) for each index
        self.prefix = [0]
        for m in member:
            self.prefix.append(self.prefix[-1] + (1 if m else 0))

    def candidates(self, start: float, end: float) -> tuple[int, int]:
        """Index range [lo, hi] of the versions that may have been in force at some instant of [start, end]."""
        hi = bisect.bisect_right(self.lower, end) - 1
        lo = bisect.bisect_left(self.next_upper, start)
        return lo, hi

    def consistent(self, start: float, end: float, verified: bool) -> bool:
        lo, hi = self.candidates(start, end)
        if lo > hi:
            return False
        with_x = self.prefix[hi + 1] - self.prefix[lo]
        return with_x > 0 if verified else (hi - lo + 1 - with_x) > 0


def judge(timeline: Timeline, verifications) -> list[tuple]:
    """Verifications (start, end, verdict) whose verdict no candidate version explains."""
    return [v for v in verifications if v[3] is not None and not timeline.consistent(v[0], v[1], bool(v[3]))]


def check(args) -> int:
    with open(args.records) as source:
        records = json.load(source)
    with open(args.log, errors="replace") as source:
        changes, error_lines, server_error_lines = parse_changes(source)
    failures: list[str] = []
    x = records["x"]
    seconds = records["seconds"]
    verifications = records["verifications"]
    writes = records["writes"]

    # Verifications.
    total = len(verifications)
    verified = sum(1 for v in verifications if v[3] == 1)
    untrusted = sum(1 for v in verifications if v[3] == 0)
    transport = [v for v in verifications if v[2] is None]
    five_xx = [v for v in verifications if v[2] is not None and v[2] >= 500]
    unexpected = [v for v in verifications if v[2] is not None and v[2] < 500 and v[3] is None]
    latencies = sorted((v[1] - v[0]) * 1000 for v in verifications if v[2] is not None)
    if transport:
        kinds = {}
        for v in transport:
            kinds[v[4]] = kinds.get(v[4], 0) + 1
        failures.append(f"{len(transport)} verification connection errors/timeouts: {kinds}")
    if five_xx:
        failures.append(f"{len(five_xx)} verification 5xx answers, e.g. {five_xx[:3]}")
    if unexpected:
        kinds = {}
        for v in unexpected:
            kinds[(v[2], v[4])] = kinds.get((v[2], v[4]), 0) + 1
        failures.append(f"{len(unexpected)} verifications with an unexpected status or code: {kinds}")

    # Writes.
    by_kind: dict[str, dict] = {}
    legitimate_refusals = 0
    for w in writes:
        outcome = w.get("error") or f"{w['status']}" + (f" {w['code']}" if w.get("code") else "")
        by_kind.setdefault(w["kind"], {}).setdefault(outcome, 0)
        by_kind[w["kind"]][outcome] += 1
        if w.get("error"):
            failures.append(f"writer request {w['requestId']} ({w['kind']}) failed: {w['error']}")
        elif w["status"] >= 500:
            failures.append(f"writer request {w['requestId']} ({w['kind']}) got {w['status']} {w.get('code')}")
        elif w["status"] >= 400:
            if (w["status"], w.get("code")) in ((404, "IACA_NOT_FOUND"), (409, "IACA_ALREADY_TRUSTED")):
                legitimate_refusals += 1
            else:
                failures.append(f"writer request {w['requestId']} ({w['kind']}) refused: {w['status']} {w.get('code')}")
        if w.get("status") is not None and w.get("echoed") != w["requestId"]:
            failures.append(f"writer request {w['requestId']} came back with X-Request-ID {w.get('echoed')!r}")
    successful = [w for w in writes if w.get("status") is not None and 200 <= w["status"] < 300]
    write_latencies = sorted((w["received"] - w["sent"]) * 1000 for w in writes if w.get("status") is not None)

    # Changes from the log, tied to the writer requests.
    writes_by_id = {w["requestId"]: w for w in writes}
    initial = records["initial"]
    seen_ids = set()
    for change in changes:
        request_id = change["requestId"]
        write = writes_by_id.get(request_id) if request_id else None
        if write is None:
            failures.append(f"a trust change no writer of ours made (requestId {request_id!r}): {change['line']}")
            continue
        if request_id in seen_ids:
            failures.append(f"request {request_id} logged two trust changes: {change['line']}")
        seen_ids.add(request_id)
        if write.get("status") is None or not 200 <= write["status"] < 300:
            failures.append(f"request {request_id} logged a change but was answered {write.get('status')} "
                            f"{write.get('code') or write.get('error')}")
        if write.get("version") is not None and write["version"] != change["version"]:
            failures.append(f"request {request_id} answered version {write['version']}, logged {change['version']}")
        if set(change["fingerprints"]) != set(write["names"]):
            failures.append(f"request {request_id} named {sorted(write['names'])}, logged {change['fingerprints']}")
    for w in successful:
        if w["requestId"] not in seen_ids:
            failures.append(f"request {w['requestId']} ({w['kind']}) succeeded ({w['status']}) but no trust change "
                            f"was logged for it")
    changes.sort(key=lambda c: c["version"])
    if changes and changes[0]["version"] != initial["version"] + 1:
        failures.append(f"the first logged change is version {changes[0]['version']}, the initial set was "
                        f"version {initial['version']}")
    sets, problems = replay(initial, changes)
    failures += problems
    for w in successful:
        if w["anchors"] is not None and w["version"] in sets and set(w["anchors"]) != sets[w["version"]]:
            failures.append(f"replayed set at version {w['version']} differs from the PUT answer of {w['requestId']}: "
                            f"missing {sorted(set(w['anchors']) - sets[w['version']])}, "
                            f"extra {sorted(sets[w['version']] - set(w['anchors']))}")

    versions = [initial["version"]] + [c["version"] for c in changes]
    member = [x in sets.get(v, frozenset()) for v in versions]
    sent = [-math.inf] + [writes_by_id[c["requestId"]]["sent"] if c["requestId"] in writes_by_id else -math.inf
                          for c in changes]
    received = [math.inf] + [writes_by_id[c["requestId"]].get("received", math.inf)
                             if c["requestId"] in writes_by_id and writes_by_id[c["requestId"]].get("status")
                             else math.inf for c in changes]
    flips = sum(1 for a, b in zip(member, member[1:]) if a != b)
    timeline = Timeline(versions, member, sent, received)
    inconsistent = judge(timeline, verifications)
    if inconsistent:
        failures.append(f"{len(inconsistent)} verdicts inconsistent with every trust set in force during their request")
    ambiguous = 0
    for v in verifications:
        if v[3] is not None:
            lo, hi = timeline.candidates(v[0], v[1])
            if hi > lo and len(set(member[lo:hi + 1])) > 1:
                ambiguous += 1

    # A meaningful run.
    min_writes = args.min_writes if args.min_writes is not None else int(400 * seconds / 60)
    if len(writes) < min_writes:
        failures.append(f"only {len(writes)} admin writes (want at least {min_writes})")
    if verified < args.min_each_verdict or untrusted < args.min_each_verdict:
        failures.append(f"verdicts too one-sided: {verified} verified, {untrusted} untrusted "
                        f"(want at least {args.min_each_verdict} of each)")
    if flips < 10:
        failures.append(f"the document's anchor changed membership only {flips} times")
    if records.get("stuckThreads"):
        failures.append(f"{records['stuckThreads']} client threads did not finish")
    if error_lines:
        failures.append(f"{len(error_lines)} error-level log lines, e.g. " + "; ".join(error_lines[:3]))
    if server_error_lines:
        failures.append(f"{len(server_error_lines)} 5xx request log lines, e.g. " + "; ".join(server_error_lines[:3]))

    # Summary.
    elapsed = records.get("elapsed") or seconds
    print(f"rotation under load: {records['clients']} verifying clients, {records['writers']} writers every "
          f"{records['interval'] * 1000:.0f} ms, {elapsed:.1f} s")
    print(f"  verifications: {total} ({total / elapsed:.0f}/s): {verified} verified, {untrusted} untrusted, "
          f"{len(five_xx)} 5xx, {len(transport)} connection errors/timeouts, {len(unexpected)} unexpected; "
          f"{records.get('verifierConnections')} connections opened")
    print(f"  verification latency: p50 {percentile(latencies, 0.5):.2f} ms, p99 {percentile(latencies, 0.99):.2f} ms, "
          f"max {latencies[-1] if latencies else float('nan'):.2f} ms")
    print(f"  admin writes: {len(writes)} ({len(successful)} changed the set, {legitimate_refusals} refused for a "
          f"legitimate reason); latency p50 {percentile(write_latencies, 0.5):.1f} ms, "
          f"p99 {percentile(write_latencies, 0.99):.1f} ms, max {write_latencies[-1] if write_latencies else float('nan'):.1f} ms")
    for kind in sorted(by_kind):
        print(f"    {kind:18} " + ", ".join(f"{outcome}: {n}" for outcome, n in sorted(by_kind[kind].items())))
    print(f"  trust versions: {versions[0]} -> {versions[-1]} ({len(changes)} logged changes), the document's "
          f"anchor changed membership {flips} times, in the set in {sum(member)} of {len(member)} versions")
    print(f"  verdicts checked: {verified + untrusted}, of which {ambiguous} overlapped a membership change "
          f"(either verdict acceptable); inconsistent: {len(inconsistent)}")
    for v in inconsistent[:5]:
        lo, hi = timeline.candidates(v[0], v[1])
        could = ", ".join(f"v{versions[i]} ({'with' if member[i] else 'without'} X)" for i in range(lo, hi + 1)) or "none"
        around = "; ".join(f"v{versions[i]} {'with' if member[i] else 'without'} X, "
                           + (f"switched in [{timeline.lower[i]:.4f}, {timeline.upper[i]:.4f}] by {changes[i - 1]['action']} "
                              f"{changes[i - 1]['requestId']}" if i else "initial")
                           for i in range(max(0, lo - 1), min(len(versions), hi + 2)))
        print(f"    INCONSISTENT: request [{v[0]:.4f}, {v[1]:.4f}] said {'verified' if v[3] else 'untrusted'}, "
              f"but could only have seen {could}; around it: {around}")
    if failures:
        print("FAIL")
        for failure in failures[:40]:
            print("  - " + failure)
        if len(failures) > 40:
            print(f"  ... and {len(failures) - 40} more")
        return 1
    print("PASS")
    return 0


# --------------------------------------------------------------------------------------------------------- self-test

def self_test() -> int:
    ok = True

    def expect(label: str, actual, wanted):
        nonlocal ok
        status = "ok" if actual == wanted else "WRONG"
        ok &= actual == wanted
        print(f"  {status:5} {label}: {actual!r}" + ("" if actual == wanted else f" (want {wanted!r})"))

    x, a, b = "aa" * 32, "bb" * 32, "cc" * 32
    print("self-test: log parsing and replay")
    log = [
        '{"message":"listening","port":8080}',
        json.dumps({"message": "trust set changed", "action": "remove", "fingerprints": x, "version": "2",
                    "requestId": "r2"}),
        json.dumps({"message": "trust set changed", "action": "add", "fingerprints": f"{x},{a}", "version": 3,
                    "requestId": "r3"}),
        json.dumps({"message": "trust set changed", "action": "replace", "fingerprints": "", "version": 4,
                    "requestId": "r4"}),
        json.dumps({"message": "trust set changed", "action": "replace", "fingerprints": b, "version": 5,
                    "requestId": "r5"}),
        "not json",
    ]
    changes, errors, _ = parse_changes(log)
    expect("versions parsed from strings and numbers", [c["version"] for c in changes], [2, 3, 4, 5])
    initial = {"version": 1, "anchors": [{"sha256": x, "source": "manual"}, {"sha256": b, "source": "vical:t"}]}
    sets, problems = replay(initial, changes)
    expect("replay problems", problems, [])
    expect("X per version", [x in sets[v] for v in (1, 2, 3, 4, 5)], [True, False, True, False, False])
    expect("a VICAL anchor survives replace", b in sets[4], True)
    _, gap_problems = replay(initial, [changes[0], changes[2]])
    expect("a version gap is reported", len(gap_problems), 1)

    print("self-test: checker")
    # v1 (X in) initial; v2 (X out) switched in [10, 11]; v3 (X in) in [20, 21]; v4 (X out) in [30, 31.5].
    timeline = Timeline([1, 2, 3, 4], [True, False, True, False], [-math.inf, 10, 20, 30],
                        [math.inf, 11, 21, 31.5])
    consistent = [
        (1.0, 2.0, None, 1, None),    # before any change: verified
        (10.5, 10.6, None, 1, None),  # during the removal request: old set possible
        (10.5, 10.6, None, 0, None),  # ... or the new one
        (12.0, 13.0, None, 0, None),  # after the removal, before the add: untrusted
        (12.0, 20.5, None, 1, None),  # overlaps the add request
        (5.0, 40.0, None, 0, None),   # spans everything
        (31.0, 31.2, None, 1, None),  # removal of v4 may not have happened yet
        (40.0, 41.0, None, 0, None),  # after the last change
    ]
    expect("consistent timeline: inconsistent verdicts", judge(timeline, consistent), [])
    inconsistent = [
        (12.0, 13.0, None, 1, None),  # verified by X removed before the request began
        (21.5, 22.0, None, 0, None),  # untrusted although X was back before the request began
        (11.5, 19.9, None, 1, None),  # the add was sent only after the request ended
        (40.0, 41.0, None, 1, None),  # verified after the final removal
        (2.0, 3.0, None, 0, None),    # untrusted before any change
    ]
    expect("inconsistent timeline: all five caught", len(judge(timeline, inconsistent)), 5)
    # Tightening: v3's switch cannot precede v2's (sent 10); a v2 request sent late does not widen v3.
    late = Timeline([1, 2, 3], [True, False, True], [-math.inf, 10, 5], [math.inf, 11, 30])
    expect("switch order tightens the lower bound", late.lower, [-math.inf, 10, 10])
    expect("verified in [6, 8] (before either switch could start)", late.consistent(6, 8, True), True)
    expect("untrusted in [6, 8]", late.consistent(6, 8, False), False)
    print("self-test: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--self-test", action="store_true", help="check the replay and the checker on synthetic "
                        "timelines, then exit (no command; needs no service)")
    commands = parser.add_subparsers(dest="command")
    p = commands.add_parser("load")
    p.add_argument("--url", required=True)
    p.add_argument("--records", required=True)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--writers", type=int, default=2)
    p.add_argument("--interval", type=float, default=0.05)
    p.add_argument("--extras", type=int, default=20)
    p.add_argument("--timeout", type=float, default=30)
    p.add_argument("--seed", default=str(time.time_ns()))
    p.add_argument("--anchor", default="TestVectors/pki/iaca-p256.pem")
    p.add_argument("--case", default="TestVectors/mdoc/cases/valid-p256-sha256-signature")
    p.add_argument("--verification-time", default="2030-01-01T00:00:00Z")
    c = commands.add_parser("check")
    c.add_argument("--records", required=True)
    c.add_argument("--log", required=True)
    c.add_argument("--min-writes", type=int, default=None, help="default: 400 per 60 s of load")
    c.add_argument("--min-each-verdict", type=int, default=100)
    args = parser.parse_args()
    if args.self_test:
        if args.command is not None:
            parser.error("--self-test takes no command")
        return self_test()
    if args.command is None:
        parser.error("a command is required: load or check (or --self-test)")
    return load(args) if args.command == "load" else check(args)


if __name__ == "__main__":
    sys.exit(main())
