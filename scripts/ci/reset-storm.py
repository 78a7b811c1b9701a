#!/usr/bin/env python3
"""Connections reset by the thousand against the HTTP server (regression check for a crash found 2026-11-25).

usage: scripts/ci/reset-storm.py PORT SECONDS [PATH]

24 threads open connections to 127.0.0.1:PORT as fast as they can: 40 % send 1-4 pipelined requests, read the answers
and close; 20 % read one answer and then reset the idle connection (SO_LINGER 0); 30 % reset within 3 ms of sending,
while the request is read or handled; 10 % reset after part of a request. Against `verifierd serve` on the demo
configuration with `VERIFIERD_APPLE_REQUIRE_ISSUED_NONCE=true` and PATH /v1/apple/nonces (the default), the service
used to die within minutes (SIGSEGV in libdispatch's `_dispatch_unote_register_muxed`, or in unrelated Swift code
once memory was corrupted) and to keep reset connections open until their timeouts: libdispatch's epoll backend frees
a hung-up source's bookkeeping off its manager thread. The server now keeps its sockets in one epoll set
(HTTPServer/SocketReadiness.swift); scripts/ci/reset-storm-check.sh runs this in CI and requires the service alive,
answering, and back to its descriptors at once. Loopback only.
"""
import argparse, random, socket, struct, sys, threading, time
counts = {"ok": 0, "reset": 0, "err": 0}
lock = threading.Lock()
def reset(s):
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
def worker():
    while time.time() < stop:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            mode = random.random()
            if mode < 0.4:
                n = random.randint(1, 4)
                s.sendall(req * n)
                data = b""
                while data.count(b"HTTP/1.1 ") < n:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
                s.close(); k = "ok"
            elif mode < 0.6:
                s.sendall(req)
                s.recv(65536)
                reset(s); k = "reset"
            elif mode < 0.9:
                s.sendall(req * random.randint(1, 4))
                time.sleep(random.random() * 0.003)
                reset(s); k = "reset"
            else:
                s.sendall(req[: random.randint(1, len(req) - 1)])
                reset(s); k = "reset"
        except OSError:
            k = "err"
        with lock: counts[k] += 1
def main():
    global port, req, stop
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("port", metavar="PORT", type=int)
    parser.add_argument("seconds", metavar="SECONDS", type=float)
    parser.add_argument("path", metavar="PATH", nargs="?", default="/v1/apple/nonces")
    # argparse reports missing arguments before unknown options: name an unknown option first, and never take a word
    # that looks like one as a value.
    for argument in sys.argv[1:]:
        if argument.startswith("-") and argument not in ("-h", "--help"):
            parser.error(f"unknown option {argument!r} (see --help)")
    arguments = parser.parse_args()
    port, seconds, path = arguments.port, arguments.seconds, arguments.path.encode()
    req = (b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
           b"Authorization: Bearer demo-integrator-token-TEST-ONLY\r\n"
           b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    stop = time.time() + seconds
    ts = [threading.Thread(target=worker) for _ in range(24)]
    [t.start() for t in ts]; [t.join() for t in ts]
    print(counts)
if __name__ == "__main__":
    main()
