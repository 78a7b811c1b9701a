#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import HTTPServer
import Testing

extension HTTPServerTests {
    @Suite struct Limits {
        /// `largeBodyPaths`: an exact path or a prefix (ending in `/`) takes its own, larger limit; every other path
        /// keeps `maxBodyBytes`, for declared and chunked bodies alike.
        @Test func someRoutesTakeLargerBodies() async throws {
            try await withServer({ $0.maxBodyBytes = 1000; $0.largeBodyPaths = ["/echo": 3000, "/echo/": 2000] }) { server in
                let port = server.port
                try await offload {
                    func status(_ path: String, _ size: Int, chunked: Bool = false) throws -> Int {
                        let c = try RawClient(port: port)
                        let body = String(repeating: "b", count: size)
                        if chunked {
                            try c.send("POST \(path) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                       + String(size, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n")
                        } else {
                            try c.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(size)\r\n\r\n" + body)
                        }
                        return try c.readResponse().status
                    }
                    let statuses = [try status("/echo", 3000), try status("/echo?x=1", 3000), try status("/echo", 3001),
                                    try status("/echo/anything", 2000), try status("/echo/anything", 2001, chunked: true),
                                    try status("/other", 1001), try status("/echoes", 1001, chunked: true)]
                    #expect(statuses.map { $0 == 413 } == [false, false, true, false, true, true, true], "\(statuses)")
                }
            }
        }

        @Test func oversizeBodyIsRefusedWithoutReadingIt() async throws {
            try await withServer({ $0.maxBodyBytes = 1000 }) { server in
                let port = server.port
                try await offload {
                    // Declared too large: 413 straight after the head, before any body byte is sent.
                    let c = try RawClient(port: port)
                    try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n")
                    let r = try c.readResponse()
                    #expect(r.status == 413)
                    #expect(r.bodyText.contains("PAYLOAD_TOO_LARGE"))
                    #expect(c.isClosedByPeer())
                    // The refusal comes after every field is read, so the caller's request ID is echoed (found by
                    // the soak: a fresh ID came back).
                    let echoed = try RawClient(port: port)
                    try echoed.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\nX-Request-ID: soak-huge-1\r\n\r\n")
                    let refused = try echoed.readResponse()
                    #expect(refused.status == 413)
                    #expect(refused.header("X-Request-Id") == "soak-huge-1")
                    // Chunked: refused once the chunks pass the limit.
                    let c2 = try RawClient(port: port)
                    try c2.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                    for _ in 0..<3 { try? c2.send("190\r\n" + String(repeating: "z", count: 400) + "\r\n") }
                    #expect(try c2.readResponse().status == 413)
                    // Exactly at the limit is fine.
                    let c3 = try RawClient(port: port)
                    try c3.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "y", count: 1000))
                    #expect(try c3.readResponse().body.count == 1000)
                }
            }
        }

        @Test func configurableLineAndHeaderLimits() async throws {
            try await withServer({ $0.maxRequestLineLength = 100; $0.maxHeaderBytes = 200; $0.maxHeaderCount = 3 }) { server in
                let port = server.port
                try await offload {
                    let ok = try RawClient(port: port)
                    try ok.send("GET /items/\(String(repeating: "a", count: 70)) HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\n\r\n")
                    #expect(try ok.readResponse().status == 200)
                    let line = try RawClient(port: port)
                    try line.send("GET /items/\(String(repeating: "a", count: 90)) HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try line.readResponse().status == 414)
                    let count = try RawClient(port: port)
                    try count.send("GET /hello HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n")
                    #expect(try count.readResponse().status == 431)
                    let bytes = try RawClient(port: port)
                    try bytes.send("GET /hello HTTP/1.1\r\nHost: x\r\nA: \(String(repeating: "v", count: 250))\r\n\r\n")
                    #expect(try bytes.readResponse().status == 431)
                }
            }
        }

        @Test func slowlorisIsCutAtTheHeaderTimeoutWhileOthersAreServed() async throws {
            try await withServer({ $0.headerReadTimeout = .seconds(1) }) { server in
                let port = server.port
                async let slow: (Int, Double, Bool) = offload {
                    let c = try RawClient(port: port, timeout: 10)
                    let start = DispatchTime.now()
                    let request = Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: dribble-dribble\r\n\r\n".utf8)
                    // One byte every 300 ms: far slower than the 1 s header budget allows for this request.
                    let writer = DispatchQueue(label: "dribble")
                    writer.async {
                        for b in request {
                            if (try? c.send([b])) == nil { return }
                            usleep(300_000)
                        }
                    }
                    let r = try c.readResponse()
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                    return (r.status, elapsed, r.header("Connection") == "close")
                }
                // Meanwhile other clients are served promptly.
                let others = try await offload { () -> Int in
                    var ok = 0
                    for _ in 0..<10 {
                        let c = try RawClient(port: port)
                        try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                        if try c.readResponse().status == 200 { ok += 1 }
                        usleep(50_000)
                    }
                    return ok
                }
                let (status, elapsed, closed) = try await slow
                #expect(others == 10)
                #expect(status == 408)
                #expect(closed)
                #expect(elapsed >= 0.9 && elapsed < 5, "cut after \(elapsed) s")
            }
        }

        @Test func bodyTimeoutAndIdleTimeout() async throws {
            try await withServer({ $0.bodyReadTimeout = .milliseconds(500); $0.idleTimeout = .milliseconds(500) }) { server in
                let port = server.port
                try await offload {
                    let c = try RawClient(port: port)
                    try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
                    let r = try c.readResponse()
                    #expect(r.status == 408)
                    #expect(r.bodyText.contains("REQUEST_TIMEOUT"))
                    #expect(c.isClosedByPeer())
                    let idle = try RawClient(port: port)
                    try idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try idle.readResponse().status == 200)
                    #expect(idle.isClosedByPeer())  // closed silently after 0.5 s idle
                }
            }
        }

        @Test func thousandConcurrentConnectionsAllAnswered() async throws {
            raiseFileLimit(to: 8192)
            try await withServer { server in
                let port = server.port
                let answered = try await offload { () -> Int in
                    var clients: [RawClient] = []
                    for _ in 0..<1000 { clients.append(try RawClient(port: port, timeout: 20)) }
                    for c in clients { try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n") }
                    var ok = 0
                    for c in clients where (try? c.readResponse().bodyText) == "hello" { ok += 1 }
                    return ok
                }
                #expect(answered == 1000)
            }
        }

        @Test func connectionLimitAnswers503AndExistingConnectionsKeepWorking() async throws {
            try await withServer({ $0.maxConnections = 2 }) { server in
                let port = server.port
                try await offload {
                    let a = try RawClient(port: port)
                    let b = try RawClient(port: port)
                    for c in [a, b] {
                        try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                        #expect(try c.readResponse().status == 200)
                    }
                    let extra = try RawClient(port: port)
                    try extra.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    let r = try extra.readResponse()
                    #expect(r.status == 503)
                    #expect(r.bodyText.contains("SERVICE_UNAVAILABLE"))
                    #expect(r.header("Connection") == "close")
                    #expect(extra.isClosedByPeer())
                    for c in [a, b] {
                        try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                        #expect(try c.readResponse().status == 200)
                    }
                }
                #expect(server.rejectedConnectionCount == 1)
            }
        }

        @Test func clientThatNeverReadsIsCutAtTheWriteTimeout() async throws {
            try await withServer({ $0.writeTimeout = .milliseconds(500) }) { server in
                let port = server.port
                let c = try await offload { () -> RawClient in
                    let c = try RawClient(port: port)
                    try c.send("GET /big?n=50000000 HTTP/1.1\r\nHost: x\r\n\r\n")
                    return c
                }
                // The socket buffers fill, the server waits on its write source, then gives up.
                var open = 1
                for _ in 0..<200 {
                    open = server.openConnectionCount
                    if open == 0 { break }
                    try await Task.sleep(for: .milliseconds(25))
                }
                #expect(open == 0)
                withExtendedLifetime(c) {}
            }
        }

        @Test func maxRequestsPerConnection() async throws {
            try await withServer({ $0.maxRequestsPerConnection = 3 }) { server in
                let port = server.port
                try await offload {
                    let c = try RawClient(port: port)
                    for i in 1...3 {
                        try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                        let r = try c.readResponse()
                        #expect(r.status == 200)
                        #expect((r.header("Connection") == "close") == (i == 3))
                    }
                    #expect(c.isClosedByPeer())
                }
            }
        }

        @Test func slowHandlerDoesNotStallOtherConnections() async throws {
            try await withServer { server in
                let port = server.port
                let slowDone = LockedFlag()
                async let slow: String = offload {
                    let c = try RawClient(port: port, timeout: 10)
                    try c.send("GET /slow?ms=3000 HTTP/1.1\r\nHost: x\r\n\r\n")
                    let text = try c.readResponse().bodyText
                    slowDone.set()
                    return text
                }
                try await Task.sleep(for: .milliseconds(100))
                try await offload {
                    for _ in 0..<20 {
                        let c = try RawClient(port: port)
                        try c.send("GET /big?n=200000 HTTP/1.1\r\nHost: x\r\n\r\n")
                        #expect(try c.readResponse().body.count == 200_000)
                    }
                }
                // All twenty were served while the slow handler was still sleeping.
                #expect(!slowDone.isSet)
                #expect(try await slow == "slow")
            }
        }
    }
}

/// A flag set from one thread and read from another.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
