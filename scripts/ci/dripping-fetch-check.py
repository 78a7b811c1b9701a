#!/usr/bin/env python3
"""Fetches that cannot stall the service: 16 status-list servers on loopback that drip one byte every 0.3 s or never
answer, named by the MSOs of 24 documents (8 of them on one server, beyond the per-host limit), verified at once
while /healthz is probed and documents without status are verified.

Passes when every verification whose list hangs ends by the fetch deadline + 0.5 s, the health probe's p99 stays
under 50 ms, and status-less verifications keep their usual latency (p99 within 2x the quiet p99 + 20 ms).

  dripping-fetch-check.py serve-config CONFIG DIR   writes the service configuration (the 16 ports it will use)
  dripping-fetch-check.py run URL DIR               runs the servers and the check against the service at URL
Every address is 127.0.0.1. TEST-ONLY keys (TestVectors/pki)."""
import argparse
import base64
import json
import socket
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "TestVectors" / "generator"))
import generate as g  # noqa: E402

FETCH_TIMEOUT = 4
SERVERS = 16
SAME_HOST_EXTRA = 8
TOKEN = "dripping-check-integrator-token"


def free_ports(count):
    sockets, ports = [], []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
        ports.append(s.getsockname()[1])
    for s in sockets:
        s.close()
    return ports


def serve_config(config_path, work):
    ports = free_ports(SERVERS)
    Path(work, "ports.json").write_text(json.dumps(ports))
    Path(config_path).write_text(json.dumps({
        "server": {"host": "127.0.0.1", "port": 0},
        "trust": {"iacaDirectory": str(Path(work, "trust")), "pollSeconds": 0},
        "integrators": {"tokens": {"dripping-check": TOKEN}},
        "status": {"allowedSchemes": ["http"], "fetchTimeoutSeconds": FETCH_TIMEOUT},
        "outbound": {"allowedDestinations": [f"127.0.0.1:{p}" for p in ports]},
    }))


class Hostile(threading.Thread):
    """Answers every connection by dripping a byte every 0.3 s, or by never answering."""

    def __init__(self, port, drip):
        super().__init__(daemon=True)
        self.drip = drip
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", port))
        self.listener.listen(64)
        self.stopping = threading.Event()

    def run(self):
        self.listener.settimeout(0.2)
        while not self.stopping.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn):
        try:
            conn.settimeout(0.3)
            try:
                conn.recv(65536)
            except OSError:
                pass
            if self.drip:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/statuslist+cwt\r\nContent-Length: 100000\r\n\r\n")
            while not self.stopping.is_set():
                if self.drip:
                    conn.sendall(b"\x00")
                time.sleep(0.3)
        except OSError:
            pass
        finally:
            conn.close()


def post(url, body, timeout=30):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            status, data = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, data = error.code, error.read()
    return status, json.loads(data or b"{}"), time.monotonic() - started


def body(document, transcript):
    return {"deviceResponse": base64.b64encode(g.device_response([document])).decode(),
            "sessionTranscript": base64.b64encode(transcript).decode()}


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def run(url, work):
    ports = json.loads(Path(work, "ports.json").read_text())
    servers = [Hostile(port, drip=index % 2 == 0) for index, port in enumerate(ports)]
    for server in servers:
        server.start()
    pki = g.build_pki()
    targets = [f"http://127.0.0.1:{port}/list" for port in ports]
    targets += [f"http://127.0.0.1:{ports[0]}/list-{n}" for n in range(SAME_HOST_EXTRA)]
    hanging = []
    for index, uri in enumerate(targets):
        doc, transcript = g.issue_document(g.DocSpec(f"drip/{index}", status={"status_list": {"idx": 0, "uri": uri}}), pki)
        hanging.append(body(doc, transcript))
    plain_doc, plain_transcript = g.issue_document(g.DocSpec("drip/plain"), pki)
    plain = body(plain_doc, plain_transcript)

    quiet = []
    for _ in range(40):
        status, answer, elapsed = post(url + "/v1/mdoc/verify", plain)
        assert status == 200, (status, answer)
        quiet.append(elapsed)

    results = [None] * len(hanging)

    def verify(index):
        results[index] = post(url + "/v1/mdoc/verify", hanging[index])

    threads = [threading.Thread(target=verify, args=(i,)) for i in range(len(hanging))]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    health, during = [], []
    while any(t.is_alive() for t in threads) or time.monotonic() - started < FETCH_TIMEOUT:
        t0 = time.monotonic()
        with urllib.request.urlopen(url + "/healthz", timeout=5) as answer:
            answer.read()
        health.append(time.monotonic() - t0)
        status, answer, elapsed = post(url + "/v1/mdoc/verify", plain)
        assert status == 200, (status, answer)
        during.append(elapsed)
        time.sleep(0.01)
    for thread in threads:
        thread.join()
    for server in servers:
        server.stopping.set()

    failures = []
    slowest = max(r[2] for r in results)
    for index, (status, answer, elapsed) in enumerate(results):
        codes = [c.get("code") for d in answer.get("documents", []) for c in d.get("checks", []) if c.get("id") == "mso.status"]
        if status != 422 or codes != ["STATUS_UNKNOWN"]:
            failures.append(f"document {index}: {status} {codes}")
        if elapsed > FETCH_TIMEOUT + 0.5:
            failures.append(f"document {index}: {elapsed:.2f} s, beyond the {FETCH_TIMEOUT} s deadline + 0.5 s")
    health_p99 = p99(health) * 1000
    if health_p99 >= 50:
        failures.append(f"/healthz p99 {health_p99:.1f} ms >= 50 ms")
    quiet_p99, during_p99 = p99(quiet) * 1000, p99(during) * 1000
    if during_p99 > 2 * quiet_p99 + 20:
        failures.append(f"status-less verification p99 {during_p99:.1f} ms during the storm, {quiet_p99:.1f} ms quiet")
    print(f"dripping fetches: {len(hanging)} verifications on {SERVERS} hostile servers ({SAME_HOST_EXTRA} more on one host), "
          f"slowest {slowest:.2f} s (deadline {FETCH_TIMEOUT} s); /healthz p99 {health_p99:.1f} ms over {len(health)} probes; "
          f"status-less verification p50/p99 {statistics.median(quiet) * 1000:.1f}/{quiet_p99:.1f} ms quiet, "
          f"{statistics.median(during) * 1000:.1f}/{during_p99:.1f} ms during")
    for failure in failures:
        print("FAIL:", failure)
    print("dripping-fetch check:", "FAIL" if failures else "OK")
    return 1 if failures else 0


if __name__ == "__main__":
    # -h/--help prints the usage; an unknown option or command is refused before anything is written or started.
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve-config", help="write the service configuration (the 16 ports it will use)")
    serve.add_argument("config", metavar="CONFIG")
    serve.add_argument("dir", metavar="DIR")
    check = commands.add_parser("run", help="run the servers and the check against the service at URL")
    check.add_argument("url", metavar="URL")
    check.add_argument("dir", metavar="DIR")
    # argparse reports missing arguments before unknown options: name an unknown option first, and never take a word
    # that looks like one as a value.
    for argument in sys.argv[1:]:
        if argument.startswith("-") and argument not in ("-h", "--help"):
            parser.error(f"unknown option {argument!r} (see --help)")
    arguments = parser.parse_args()
    if arguments.command == "serve-config":
        serve_config(arguments.config, arguments.dir)
        sys.exit(0)
    sys.exit(run(arguments.url, arguments.dir))
