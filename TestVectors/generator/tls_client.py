#!/usr/bin/env python3
"""Independent TLS client checks against a verifierd HTTPS listener (Python's ssl module and raw sockets).

Each subcommand prints one JSON object on stdout; the Swift tests start it and judge the result.

  keepalive  --port P --ca CA           several requests on one TLS connection, then three pipelined in one write
  tls12      --port P --ca CA           a TLS 1.2-only client: which suite was chosen
  refused    --port P                   raw ClientHellos the server must refuse: TLS 1.1 only, CBC suites only,
                                        RSA key exchange only; plus Python's own TLS 1.1 client
  plain      --port P                   plain HTTP sent to the TLS port: what came back and how fast it closed
  idle       --port P --ca CA --count N N idle TLS connections held open while other clients are timed
  slow       --port P --ca CA           half a ClientHello held open while other clients are timed; when the server cut it
  load       --port P --ca CA --seconds S --threads T
                                        new connections in a loop (two requests each); failures and certificate serials
"""
import argparse
import json
import os
import socket
import ssl
import struct
import sys
import threading
import time

from cryptography import x509


def context(ca, maximum=None):
    ctx = ssl.create_default_context(cafile=ca)
    ctx.set_alpn_protocols(["http/1.1"])
    if maximum is not None:
        ctx.maximum_version = maximum
    return ctx


def connect(port, ca, maximum=None, timeout=10):
    raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return context(ca, maximum).wrap_socket(raw, server_hostname="localhost")


def read_response(sock, buffer=b""):
    """Reads one HTTP/1.1 response with Content-Length; returns (status, body, rest)."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the header block ended")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the body ended")
        rest += chunk
    return status, rest[:length], rest[length:]


def get(path):
    return f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()


def serial_of(sock):
    der = sock.getpeercert(binary_form=True)
    return format(x509.load_der_x509_certificate(der).serial_number, "x")


def keepalive(args):
    sock = connect(args.port, args.ca)
    sequential = []
    for _ in range(5):
        sock.sendall(get("/healthz"))
        status, _, rest = read_response(sock)
        assert rest == b""
        sequential.append(status)
    sock.sendall(get("/healthz") + get("/metrics") + get("/openapi.json"))
    pipelined, rest = [], b""
    for _ in range(3):
        status, _, rest = read_response(sock, rest)
        pipelined.append(status)
    result = {"sequential": sequential, "pipelined": pipelined, "version": sock.version(),
              "alpn": sock.selected_alpn_protocol(), "serial": serial_of(sock)}
    sock.close()
    return result


def tls12(args):
    sock = connect(args.port, args.ca, maximum=ssl.TLSVersion.TLSv1_2)
    sock.sendall(get("/healthz"))
    status, _, _ = read_response(sock)
    result = {"version": sock.version(), "cipher": sock.cipher()[0], "status": status}
    sock.close()
    return result


def client_hello(version, suites, tls13=False):
    """A minimal ClientHello record. `version` is the legacy version (0x0302 = TLS 1.1, 0x0303 = TLS 1.2)."""
    def ext(kind, body):
        return struct.pack(">HH", kind, len(body)) + body
    groups = struct.pack(">HHH", 4, 0x001D, 0x0017)
    extensions = ext(0x000A, groups) + ext(0x000B, b"\x01\x00")
    extensions += ext(0x000D, struct.pack(">H", 6) + struct.pack(">HHH", 0x0403, 0x0804, 0x0401))
    if tls13:
        extensions += ext(0x002B, b"\x02\x03\x04")
    body = struct.pack(">H", version) + os.urandom(32) + b"\x00"
    body += struct.pack(">H", 2 * len(suites)) + b"".join(struct.pack(">H", s) for s in suites)
    body += b"\x01\x00" + struct.pack(">H", len(extensions)) + extensions
    handshake = b"\x01" + struct.pack(">I", len(body))[1:] + body
    return b"\x16\x03\x01" + struct.pack(">H", len(handshake)) + handshake


ALERTS = {40: "handshake_failure", 70: "protocol_version", 71: "insufficient_security", 47: "illegal_parameter",
          50: "decode_error", 80: "internal_error", 109: "missing_extension"}


def answer_to(port, record):
    """Sends one record; returns what the server did: the alert it sent, or a ServerHello, and whether it closed."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(record)
    data = b""
    closed = False
    try:
        while len(data) < 4096:
            chunk = sock.recv(4096)
            if not chunk:
                closed = True
                break
            data += chunk
            if len(data) >= 6 and data[0] == 0x16:
                break  # a ServerHello: the handshake was accepted, nothing more to learn
    except (ConnectionResetError, socket.timeout):
        closed = True
    sock.close()
    if len(data) >= 7 and data[0] == 0x15:
        return {"alert": ALERTS.get(data[6], str(data[6])), "level": data[5], "closed": closed}
    if len(data) >= 6 and data[0] == 0x16 and data[5] == 0x02:
        return {"serverHello": True, "closed": closed}
    return {"bytes": len(data), "closed": closed}


def refused(args):
    cbc = [0xC009, 0xC00A, 0xC013, 0xC014, 0xC023, 0xC027, 0x002F, 0x0035]
    rsa_kx = [0x009C, 0x009D, 0x003C, 0x003D]
    result = {
        "tls11Only": answer_to(args.port, client_hello(0x0302, [0xC009, 0xC013, 0x002F])),
        "cbcOnly": answer_to(args.port, client_hello(0x0303, cbc)),
        "rsaKeyExchangeOnly": answer_to(args.port, client_hello(0x0303, rsa_kx)),
        # The same shape with one good suite is accepted, so the refusals above are about the suites.
        "ecdheGcm": answer_to(args.port, client_hello(0x0303, [0xC02B, 0xC02F])),
    }
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    try:
        ctx.minimum_version = ssl.TLSVersion.TLSv1_1
        ctx.maximum_version = ssl.TLSVersion.TLSv1_1
        ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
        raw = socket.create_connection(("127.0.0.1", args.port), timeout=5)
        try:
            ctx.wrap_socket(raw).close()
            result["pythonTls11"] = "connected"
        except ssl.SSLError as error:
            result["pythonTls11"] = "refused: " + error.reason if error.reason else "refused"
        except OSError as error:
            result["pythonTls11"] = "refused: " + type(error).__name__
    except (ValueError, ssl.SSLError) as error:
        result["pythonTls11"] = "client cannot offer TLS 1.1: " + str(error)
    return result


def plain(args):
    sock = socket.create_connection(("127.0.0.1", args.port), timeout=5)
    started = time.monotonic()
    sock.sendall(get("/healthz"))
    data, closed = b"", False
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                closed = True
                break
            data += chunk
    except ConnectionResetError:
        closed = True
    except socket.timeout:
        pass
    sock.close()
    return {"closed": closed, "seconds": round(time.monotonic() - started, 3), "bytes": len(data),
            "httpAnswer": data.startswith(b"HTTP/"), "firstByte": data[0] if data else None}


def timed_requests(port, ca, count):
    worst, failures = 0.0, 0
    for _ in range(count):
        started = time.monotonic()
        try:
            sock = connect(port, ca, timeout=5)
            sock.sendall(get("/healthz"))
            status, _, _ = read_response(sock)
            sock.close()
            if status != 200:
                failures += 1
        except OSError:
            failures += 1
        worst = max(worst, time.monotonic() - started)
    return worst, failures


def idle(args):
    held = [connect(args.port, args.ca) for _ in range(args.count)]
    worst, failures = timed_requests(args.port, args.ca, 20)
    # The held connections still work afterwards.
    alive = 0
    for sock in held[:5]:
        sock.sendall(get("/healthz"))
        if read_response(sock)[0] == 200:
            alive += 1
    for sock in held:
        sock.close()
    return {"held": len(held), "worstSeconds": round(worst, 3), "failures": failures, "heldStillServed": alive}


def slow(args):
    hello = client_hello(0x0303, [0xC02B, 0xC02F])
    half = socket.create_connection(("127.0.0.1", args.port), timeout=30)
    half.sendall(hello[: len(hello) // 2])
    silent = socket.create_connection(("127.0.0.1", args.port), timeout=30)
    started = time.monotonic()
    worst, failures = timed_requests(args.port, args.ca, 10)
    cut = {}
    for label, sock in (("halfHelloClosedAfter", half), ("silentClosedAfter", silent)):
        try:
            chunk = sock.recv(4096)
            while chunk:
                chunk = sock.recv(4096)
        except OSError:
            pass
        cut[label] = round(time.monotonic() - started, 2)
        sock.close()
    return {"worstSeconds": round(worst, 3), "failures": failures, **cut}


def load(args):
    stop = time.monotonic() + args.seconds
    lock = threading.Lock()
    totals = {"requests": 0, "failures": 0, "serials": {}, "errors": []}

    def worker():
        while time.monotonic() < stop:
            try:
                sock = connect(args.port, args.ca, timeout=10)
                serial = serial_of(sock)
                for _ in range(2):
                    sock.sendall(get("/healthz"))
                    status, _, _ = read_response(sock)
                    with lock:
                        totals["requests"] += 1
                        if status != 200:
                            totals["failures"] += 1
                sock.close()
                with lock:
                    totals["serials"][serial] = totals["serials"].get(serial, 0) + 1
            except (OSError, ConnectionError) as error:
                with lock:
                    totals["failures"] += 1
                    if len(totals["errors"]) < 5:
                        totals["errors"].append(repr(error))

    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["keepalive", "tls12", "refused", "plain", "idle", "slow", "load"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    print(json.dumps(globals()[args.command](args)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
