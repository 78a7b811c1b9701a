#!/usr/bin/env python3
"""Reproduces an intermittent crash of the HTTP server under connection resets (open finding, 2026-11-25).

usage: scripts/reset-storm.py PORT SECONDS [PATH]

24 threads open connections to 127.0.0.1:PORT as fast as they can; half send 1-4 pipelined requests and read the
answers, the rest send a request (or part of one) and reset the connection (SO_LINGER 0) within 3 ms. Against
`verifierd serve` on the demo configuration with `VERIFIERD_APPLE_REQUIRE_ISSUED_NONCE=true` and PATH
/v1/apple/nonces (the default), the service used to die within 150 s (SIGSEGV in libdispatch's
`_dispatch_unote_register_muxed`, once SIGILL): HTTPConnection.close() cancelled a suspended read source and resumed it
afterwards. It now resumes before cancelling; scripts/reset-storm-check.sh runs this in CI and requires the service
alive, answering, and back to its file descriptors afterwards. Loopback only.
"""
import random, socket, struct, sys, threading, time
port = int(sys.argv[1]); seconds = float(sys.argv[2])
path = sys.argv[3].encode() if len(sys.argv) > 3 else b"/v1/apple/nonces"
body = b"{}"
req = (b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-integrator-token-TEST-ONLY\r\n"
       b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
stop = time.time() + seconds
counts = {"ok": 0, "reset": 0, "err": 0}
lock = threading.Lock()
def worker():
    while time.time() < stop:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            mode = random.random()
            n = random.randint(1, 4)
            s.sendall(req * n if mode < 0.5 else req[: random.randint(1, len(req))] if mode < 0.6 else req * n)
            if mode < 0.5:
                data = b""
                while data.count(b"HTTP/1.1 ") < n:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
                s.close(); k = "ok"
            else:
                time.sleep(random.random() * 0.003)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                s.close(); k = "reset"
        except OSError:
            k = "err"
        with lock: counts[k] += 1
ts = [threading.Thread(target=worker) for _ in range(24)]
[t.start() for t in ts]; [t.join() for t in ts]
print(counts)
