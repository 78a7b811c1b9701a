#!/usr/bin/env python3
"""Results pushed, end to end, against real `verifierd serve` processes: long polls and Standard Webhooks deliveries,
received on a loopback server and verified with PyPI's `standardwebhooks` (an independent implementation).

  webhook-check.py --verifierd .build/release/verifierd --work DIR [--postgres-url URL --session-key FILE]

Each step prints one JSON line {"step", "ok", ...}; exit 0 only when every step passes.

Memory store (always):
  retried        the receiver answers 503 twice, then 200: three attempts with one webhook-id, each signature
                 verified by standardwebhooks; the body's data.report is byte for byte what the result route answers
                 (fetched once after the delivery, then 409); figures: answer-to-delivery latency, attempts
  signature      a delivery whose body is changed by one byte does not verify with standardwebhooks (the check is real)
  long-poll      GET .../result?wait=10 held open, answered within 100 ms of the wallet's answer; wait=1 with no answer
                 ends 202 after about a second; wait=31 is 400
  restart        the receiver is down (connection refused) when the wallet answers; verifierd is stopped (SIGTERM) and
                 started again on the same outbox directory; the receiver comes up; the same message (webhook-id) is
                 delivered by the new process. While it waits on disk its report is sealed (no claim in plain
                 text), in a directory the test made 0755 and the service set to 0700 (files 0600) at start
With --postgres-url (two replicas on one database):
  replica-death  the receiver fails; the wallet answers replica A; A is killed (SIGKILL) while the delivery is pending;
                 the receiver recovers; replica B delivers the message A enqueued (the same webhook-id)
  cross-replica  a long poll on replica B answered within 400 ms of the wallet's answer to replica A

Nothing leaves this machine: the services, the wallet and the receiver are all on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "TestVectors" / "generator"))
import oid4vp_wallet as ow  # noqa: E402
import web_wallet as ww  # noqa: E402

TOKEN = "demo-integrator-token-TEST-ONLY"
ADMIN = "webhook-check-admin-token-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def emit(results: list, step: str, ok: bool, **facts) -> None:
    results.append(ok)
    print(json.dumps({"step": step, "ok": bool(ok), **facts}), flush=True)


class Receiver:
    """A loopback webhook endpoint: answers each POST by its current mode and records what it received."""

    def __init__(self, secret: str, port: int | None = None) -> None:
        self.secret = secret
        self.mode = "accept"  # "accept", "fail" (503), or an int: fail that many more, then accept
        self.received: list[dict] = []
        self.lock = threading.Lock()
        self.port = port or free_port()
        self.server: ThreadingHTTPServer | None = None

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                try:
                    Webhook(receiver.secret).verify(body, headers)
                    verified = True
                except WebhookVerificationError:
                    verified = False
                with receiver.lock:
                    mode = receiver.mode
                    if isinstance(mode, int):
                        status = 503 if mode > 0 else 200
                        receiver.mode = mode - 1 if mode > 0 else "accept"
                    else:
                        status = 200 if mode == "accept" else 503
                    receiver.received.append({"at": time.monotonic(), "id": headers.get("webhook-id"),
                                              "timestamp": headers.get("webhook-timestamp"),
                                              "signature": headers.get("webhook-signature"), "verified": verified,
                                              "status": status, "body": body, "headers": headers})
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def wait_for(self, predicate, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if predicate(self.received):
                    return True
            time.sleep(0.01)
        return False


class Service:
    """One `verifierd serve` process on a configuration written for it; stdout goes to a file."""

    def __init__(self, binary: str, config: Path, port: int, log: Path) -> None:
        self.binary, self.config, self.port, self.log = binary, config, port, log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        out = open(self.log, "ab")
        self.process = subprocess.Popen([self.binary, "serve", "--config", str(self.config)], stdout=out,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"verifierd exited {self.process.returncode}: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError("verifierd did not answer /healthz within 20 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)

    def kill9(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=20)

    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def configuration(work: Path, name: str, port: int, receiver_port: int, secret_file: Path, outbox: Path | None,
                  store: dict | None) -> Path:
    """The demo configuration with absolute paths, this port, and a webhook endpoint for the demo integrator."""
    demo = ROOT / "config"
    root = json.loads((demo / "verifierd.json").read_text())

    def absolute(path: str) -> str:
        return str((demo / path).resolve())

    root["server"] = {"host": "127.0.0.1", "port": port}
    root["apple"]["encryptionKeys"] = [absolute(p) for p in root["apple"]["encryptionKeys"]]
    trust = root["trust"]
    trust["iacaDirectory"] = str(work / f"{name}-trust")
    trust["seedDirectory"] = absolute(trust["seedDirectory"])
    trust["vicalSigners"] = {k: absolute(v) for k, v in trust["vicalSigners"].items()}
    root["sdJwtVc"] = {"issuerDirectory": str(work / f"{name}-sd-jwt-vc"), "seedDirectory": absolute(root["sdJwtVc"]["seedDirectory"])}
    root["readerTokens"]["signingKey"] = absolute(root["readerTokens"]["signingKey"])
    root["readerAuth"]["signingKey"] = absolute(root["readerAuth"]["signingKey"])
    root["readerAuth"]["certificateChain"] = absolute(root["readerAuth"]["certificateChain"])
    root["admin"] = {"token": ADMIN}
    root["oid4vp"]["publicBaseUrl"] = f"http://127.0.0.1:{port}"
    root["demo"] = {"enabled": False, "integrator": "demo"}
    root["outbound"] = {"allowedDestinations": [f"127.0.0.1:{receiver_port}"]}
    webhooks = {"endpoints": [{"integrator": "demo", "url": f"http://127.0.0.1:{receiver_port}/hooks/verifierd",
                               "secretFile": str(secret_file)}],
                "retryBaseMilliseconds": 200, "retryMaxSeconds": 2, "pollMilliseconds": 100, "leaseSeconds": 3,
                "timeoutSeconds": 2}
    if outbox is not None:
        webhooks["outboxDirectory"] = str(outbox)
        # The memory store's outbox seals what waits on disk with a key of its own (32 random bytes).
        key = work / "webhook-outbox.key"
        if not key.exists():
            key.write_text(base64.b64encode(os.urandom(32)).decode() + "\n")
            key.chmod(0o600)
        webhooks["outboxKeyFile"] = str(key)
    root["webhooks"] = webhooks
    if store is not None:
        root["store"] = store
    path = work / f"{name}.json"
    path.write_text(json.dumps(root, indent=1))
    return path


def client(service: Service) -> ow.Client:
    root = ow.x509.load_pem_x509_certificate((ROOT / "TestVectors" / "demo" / "reader-root.pem").read_bytes())
    return ow.Client(service.base(), root, TOKEN, "A128GCM", None)


def answer(c: ow.Client, s) -> float:
    """The wallet posts its answer; returns the monotonic time its POST returned."""
    posted = c.post_response(s, ow.answer(s, enc="A128GCM")["response"])
    if posted.status != 200:
        raise posted.fail("the response_uri POST did not answer 200")
    return time.monotonic()


def payload_of(delivery: dict) -> dict:
    return json.loads(delivery["body"])


def step_retried(results: list, service: Service, receiver: Receiver) -> None:
    c = client(service)
    receiver.mode = 2
    start = len(receiver.received)
    s, _ = c.make_cross_device()
    answered = answer(c, s)
    ok = receiver.wait_for(lambda r: any(x["status"] == 200 for x in r[start:]), 15)
    got = receiver.received[start:]
    delivered = next((x for x in got if x["status"] == 200), None)
    ids = {x["id"] for x in got}
    facts = {"attempts": len(got), "statuses": [x["status"] for x in got], "ids": len(ids),
             "all_signatures_verified": all(x["verified"] for x in got)}
    if delivered:
        payload = payload_of(delivered)
        facts["latency_ms"] = round((delivered["at"] - answered) * 1000, 1)
        facts["first_attempt_ms"] = round((got[0]["at"] - answered) * 1000, 1)
        result = c.result(s.session_id)
        again = c.result(s.session_id)
        report_bytes = json.dumps(payload["data"]["report"], separators=(",", ":"))
        facts.update(type=payload.get("type"), session=payload["data"].get("sessionId") == s.session_id,
                     verified=payload["data"].get("verified"), poll_status=result.status, second_poll=again.status,
                     same_report=json.loads(result.text) == payload["data"]["report"],
                     report_bytes=len(report_bytes),
                     exact_bytes=result.text.encode() in delivered["body"])
        ok = (ok and len(got) == 3 and facts["statuses"] == [503, 503, 200] and len(ids) == 1
              and facts["all_signatures_verified"] and payload.get("type") == "presentation.completed"
              and facts["session"] and facts["verified"] is True and result.status == 200 and again.status == 409
              and facts["same_report"] and facts["exact_bytes"])
    emit(results, "retried", ok, **facts)
    if delivered:
        tampered = bytearray(delivered["body"])
        tampered[len(tampered) // 2] ^= 0x01
        try:
            Webhook(receiver.secret).verify(bytes(tampered), delivered["headers"])
            rejected = False
        except WebhookVerificationError:
            rejected = True
        try:
            Webhook("whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()).verify(delivered["body"], delivered["headers"])
            other_secret_rejected = False
        except WebhookVerificationError:
            other_secret_rejected = True
        emit(results, "signature", rejected and other_secret_rejected, tampered_rejected=rejected,
             other_secret_rejected=other_secret_rejected)


def timed_result(c: ow.Client, session_id: str, wait: int, out: dict) -> None:
    started = time.monotonic()
    reply = c.send("GET", f"/v1/oid4vp/sessions/{session_id}/result?wait={wait}")
    out.update(status=reply.status, started=started, returned=time.monotonic(), text=reply.text)


def step_long_poll(results: list, service: Service, answering: Service | None = None, step: str = "long-poll",
                   bound_ms: float = 100) -> None:
    c = client(service)
    a = client(answering or service)
    s, _ = a.make_cross_device() if answering else c.make_cross_device()
    out: dict = {}
    poll = threading.Thread(target=timed_result, args=(c, s.session_id, 10, out))
    poll.start()
    time.sleep(0.5)
    answered = answer(a, s)
    poll.join(15)
    lag = (out.get("returned", 0) - answered) * 1000
    facts = {"status": out.get("status"), "lag_ms": round(lag, 1), "bound_ms": bound_ms,
             "held_ms": round((out.get("returned", 0) - out.get("started", 0)) * 1000, 1)}
    ok = out.get("status") == 200 and lag < bound_ms and facts["held_ms"] >= 400
    if answering is None:
        s2, _ = c.make_cross_device()
        empty: dict = {}
        timed_result(c, s2.session_id, 1, empty)
        held = (empty["returned"] - empty["started"]) * 1000
        too_long = c.send("GET", f"/v1/oid4vp/sessions/{s2.session_id}/result?wait=31")
        facts.update(no_answer_status=empty["status"], no_answer_held_ms=round(held, 1), wait_31=too_long.status)
        ok = ok and empty["status"] == 202 and 900 <= held <= 2000 and too_long.status == 400
    emit(results, step, ok, **facts)


def step_restart(results: list, service: Service, receiver: Receiver) -> None:
    c = client(service)
    receiver.stop()  # connection refused from now on
    s, _ = c.make_cross_device()
    answer(c, s)
    time.sleep(1.0)  # a few refused attempts
    service.stop()
    before = len(receiver.received)
    waiting = sorted(p.name for p in Path(service.outbox).iterdir() if p.suffix == ".msg")
    # What waits on disk: the report sealed (no claim value in plain text), in a directory of the service's user only
    # (the test widened it to 0755 before the first start: set to 0700 at start, as promised).
    plain = [name for name in waiting if b"given_name" in (Path(service.outbox) / name).read_bytes()
             or b'"claims"' in (Path(service.outbox) / name).read_bytes()]
    directory_mode = Path(service.outbox).stat().st_mode & 0o777
    file_modes = sorted({(Path(service.outbox) / name).stat().st_mode & 0o777 for name in waiting})
    service.start()
    receiver.mode = "accept"
    receiver.start()
    ok = receiver.wait_for(lambda r: any(x["status"] == 200 for x in r[before:]), 15)
    delivered = next((x for x in receiver.received[before:] if x["status"] == 200), None)
    facts = {"waiting_at_stop": len(waiting), "delivered": delivered is not None, "plain_on_disk": len(plain),
             "directory_mode": oct(directory_mode), "file_modes": [oct(m) for m in file_modes]}
    ok = ok and not plain and directory_mode == 0o700 and file_modes == [0o600]
    if delivered:
        payload = payload_of(delivered)
        facts.update(same_id=f"{delivered['id']}.msg" in waiting, session=payload["data"]["sessionId"] == s.session_id,
                     verified=delivered["verified"])
        ok = ok and facts["same_id"] and facts["session"] and delivered["verified"]
    # The file goes once the delivery is recorded, just after the receiver's 200 reaches the service.
    deadline = time.monotonic() + 5
    while True:
        left = sorted(p.name for p in Path(service.outbox).iterdir() if p.suffix == ".msg")
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    facts["left_in_outbox"] = len(left)
    emit(results, "restart", ok and len(waiting) == 1 and not left, **facts)


def step_replica_death(results: list, a: Service, b: Service, receiver: Receiver) -> None:
    ca = client(a)
    receiver.mode = "fail"
    start = len(receiver.received)
    s, _ = ca.make_cross_device()
    answer(ca, s)
    failed_before = receiver.wait_for(lambda r: len(r[start:]) >= 1, 10)
    a.kill9()
    killed = time.monotonic()
    receiver.mode = "accept"
    ok = receiver.wait_for(lambda r: any(x["status"] == 200 for x in r[start:]), 20)
    got = receiver.received[start:]
    delivered = next((x for x in got if x["status"] == 200), None)
    facts = {"failed_attempts_before_kill": sum(1 for x in got if x["status"] == 503), "delivered": delivered is not None}
    if delivered:
        payload = payload_of(delivered)
        facts.update(after_kill_ms=round((delivered["at"] - killed) * 1000, 1), ids=len({x["id"] for x in got}),
                     session=payload["data"]["sessionId"] == s.session_id, verified=delivered["verified"])
        ok = ok and failed_before and delivered["at"] > killed and facts["ids"] == 1 and facts["session"] and delivered["verified"]
        result = client(b).result(s.session_id)
        facts["poll_on_b"] = result.status
        ok = ok and result.status == 200
    emit(results, "replica-death", ok, **facts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verifierd", required=True)
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--postgres-url")
    parser.add_argument("--session-key", type=Path)
    args = parser.parse_args()
    ww._issuer = ww.ISSUERS["demo"]()
    args.work.mkdir(parents=True, exist_ok=True)
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    secret_file = args.work / "webhook-secret"
    secret_file.write_text(secret + "\n")
    os.chmod(secret_file, 0o600)
    receiver = Receiver(secret)
    receiver.start()
    results: list[bool] = []
    services: list[Service] = []
    try:
        port = free_port()
        outbox = args.work / "outbox"
        outbox.mkdir(mode=0o755, exist_ok=True)
        outbox.chmod(0o755)  # wider than promised: the service must narrow it at start
        service = Service(args.verifierd, configuration(args.work, "memory", port, receiver.port, secret_file, outbox, None),
                          port, args.work / "memory.log")
        service.outbox = outbox
        services.append(service)
        service.start()
        step_retried(results, service, receiver)
        step_long_poll(results, service)
        step_restart(results, service, receiver)
        service.stop()
        if args.postgres_url:
            store = {"kind": "postgres", "url": args.postgres_url, "sessionKeyFile": str(args.session_key),
                     "operationTimeoutMs": 2000}
            replicas = []
            for name in ("replica-a", "replica-b"):
                p = free_port()
                replica = Service(args.verifierd, configuration(args.work, name, p, receiver.port, secret_file, None, store),
                                  p, args.work / f"{name}.log")
                services.append(replica)
                replica.start()
                replicas.append(replica)
            step_long_poll(results, replicas[1], answering=replicas[0], step="cross-replica", bound_ms=400)
            step_replica_death(results, replicas[0], replicas[1], receiver)
    except Exception as error:  # noqa: BLE001  (a wallet Failure, a process that did not start)
        emit(results, "error", False, error=f"{type(error).__name__}: {error}")
    finally:
        for service in services:
            service.stop()
        receiver.stop()
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
