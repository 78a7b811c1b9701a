import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import HTTPTypes
import Testing

extension HTTPServerTests {
    @Suite struct RoundTrips {
        func session() -> URLSession {
            let c = URLSessionConfiguration.ephemeral
            c.timeoutIntervalForRequest = 10
            return URLSession(configuration: c)
        }

        @Test func urlSessionGET() async throws {
            try await withServer { server in
                let url = URL(string: "http://127.0.0.1:\(server.port)/hello")!
                let (data, response) = try await session().data(from: url)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == 200)
                #expect(String(decoding: data, as: UTF8.self) == "hello")
                #expect(http.value(forHTTPHeaderField: "Content-Length") == "5")
                #expect(http.value(forHTTPHeaderField: "Date") != nil)
                #expect(http.value(forHTTPHeaderField: "X-Request-Id")?.count == 32)
            }
        }

        @Test func urlSessionPOSTWithContentLength() async throws {
            try await withServer { server in
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/echo")!)
                request.httpMethod = "POST"
                let payload = Data((0..<100_000).map { UInt8($0 % 251) })
                let (data, response) = try await session().upload(for: request, from: payload)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(data == payload)
            }
        }

        @Test func urlSessionKeepAliveAndErrors() async throws {
            try await withServer { server in
                let s = session()
                for i in 0..<20 {
                    let (data, response) = try await s.data(from: URL(string: "http://127.0.0.1:\(server.port)/items/\(i)")!)
                    #expect((response as? HTTPURLResponse)?.statusCode == 200)
                    #expect(String(decoding: data, as: UTF8.self) == "item \(i)")
                }
                let (data, response) = try await s.data(from: URL(string: "http://127.0.0.1:\(server.port)/missing")!)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == 404)
                #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
                let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect(json["code"] as? String == "NOT_FOUND")
                #expect(json["status"] as? Int == 404)
                #expect(json["title"] as? String == "Not Found")
                #expect(json["type"] as? String == "about:blank")
                #expect(json["detail"] is String)
                #expect(server.acceptedConnectionCount <= 2)
            }
        }

        @Test func curlChunkedPOSTAndKeepAlive() async throws {
            try await withServer { server in
                let base = "http://127.0.0.1:\(server.port)"
                let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chunk-\(UUID().uuidString)")
                let payload = String(repeating: "chunked-body-", count: 5000)
                try payload.write(to: tmp, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: tmp) }
                let (status, out) = try await offload {
                    try run("/usr/bin/curl", ["-sS", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(tmp.path)", "\(base)/echo"])
                }
                #expect(status == 0)
                #expect(out == payload)

                // One curl invocation, several URLs: curl reuses the connection.
                let before = server.acceptedConnectionCount
                let (status2, out2) = try await offload {
                    try run("/usr/bin/curl", ["-sS", "\(base)/hello", "\(base)/hello", "\(base)/items/7", "\(base)/hello"])
                }
                #expect(status2 == 0)
                #expect(out2 == "hellohelloitem 7hello")
                #expect(server.acceptedConnectionCount - before == 1)
            }
        }

        @Test func curlExpectContinueAndHead() async throws {
            try await withServer { server in
                let base = "http://127.0.0.1:\(server.port)"
                let (status, out) = try await offload {
                    try run("/usr/bin/curl", ["-sS", "-H", "Expect: 100-continue", "--data-binary", "expect me", "\(base)/echo"])
                }
                #expect(status == 0)
                #expect(out == "expect me")
                let (s2, head) = try await offload { try run("/usr/bin/curl", ["-sS", "-I", "\(base)/hello"]) }
                #expect(s2 == 0)
                #expect(head.hasPrefix("HTTP/1.1 200 OK"))
                #expect(head.lowercased().contains("content-length: 5"))
                let (s3, old) = try await offload { try run("/usr/bin/curl", ["-sS", "-0", "-i", "\(base)/hello"]) }
                #expect(s3 == 0)
                #expect(old.hasPrefix("HTTP/1.1 200 OK"))
                #expect(old.lowercased().contains("connection: close"))
                #expect(old.hasSuffix("\r\n\r\nhello"))
            }
        }

        @Test func rawPipelining() async throws {
            try await withServer { server in
                let port = server.port
                try await offload {
                    let c = try RawClient(port: port)
                    var batch = ""
                    for i in 0..<10 { batch += "GET /items/\(i) HTTP/1.1\r\nHost: x\r\n\r\n" }
                    batch += "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                    batch += "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nde\r\n1;ext=1\r\nf\r\n0\r\nTrailer: x\r\n\r\n"
                    batch += "GET /slow?ms=50 HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    try c.send(batch)
                    for i in 0..<10 {
                        let r = try c.readResponse()
                        #expect(r.status == 200)
                        #expect(r.bodyText == "item \(i)")
                    }
                    #expect(try c.readResponse().bodyText == "abc")
                    #expect(try c.readResponse().bodyText == "def")
                    #expect(try c.readResponse().bodyText == "slow")
                    let last = try c.readResponse()
                    #expect(last.bodyText == "hello")
                    #expect(last.header("Connection") == "close")
                    #expect(c.isClosedByPeer())
                }
            }
        }

        @Test func rawHeadExpectAndHTTP10() async throws {
            try await withServer { server in
                let port = server.port
                try await offload {
                    let c = try RawClient(port: port)
                    try c.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    let head = try c.readResponse(headRequest: true)
                    #expect(head.status == 200)
                    #expect(head.header("Content-Length") == "5")
                    // Next response on the same connection parses cleanly: HEAD sent no body.
                    try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
                    let interim = try c.readResponse()
                    #expect(interim.status == 100)
                    try c.send("12345")
                    let echoed = try c.readResponse()
                    #expect(echoed.status == 200)
                    #expect(echoed.bodyText == "12345")

                    let c10 = try RawClient(port: port)
                    try c10.send("GET /hello HTTP/1.0\r\n\r\n")
                    let r10 = try c10.readResponse()
                    #expect(r10.status == 200)
                    #expect(r10.header("Connection") == "close")
                    #expect(c10.isClosedByPeer())

                    let cc = try RawClient(port: port)
                    try cc.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    #expect(try cc.readResponse().header("Connection") == "close")
                    #expect(cc.isClosedByPeer())
                }
            }
        }

        @Test func routingRequestIDAndObserver() async throws {
            let records = LockedRecords()
            try await withServer({ _ in }, observer: { records.append($0) }) { server in
                let port = server.port
                try await offload {
                    let c = try RawClient(port: port)
                    try c.send("GET /items/special HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try c.readResponse().bodyText == "special")
                    try c.send("GET /items/a%20b HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try c.readResponse().bodyText == "item a b")
                    try c.send("DELETE /items/1 HTTP/1.1\r\nHost: x\r\n\r\n")
                    let r405 = try c.readResponse()
                    #expect(r405.status == 405)
                    #expect(r405.header("Allow") == "GET, HEAD, PUT")
                    try c.send("GET /request-id HTTP/1.1\r\nHost: x\r\nX-Request-Id: my-id-123\r\n\r\n")
                    let rid = try c.readResponse()
                    #expect(rid.bodyText == "my-id-123")
                    #expect(rid.header("X-Request-Id") == "my-id-123")
                    try c.send("GET /request-id HTTP/1.1\r\nHost: x\r\nX-Request-Id: \(String(repeating: "a", count: 200))\r\n\r\n")
                    let long = try c.readResponse()
                    #expect(long.bodyText.count == 32)
                    #expect(long.header("X-Request-Id") == long.bodyText)
                    try c.send("GET /fail HTTP/1.1\r\nHost: x\r\n\r\n")
                    let r500 = try c.readResponse()
                    #expect(r500.status == 500)
                    #expect(r500.bodyText.contains("INTERNAL_ERROR"))
                    #expect(!r500.bodyText.contains("boom"))
                    try c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try c.readResponse().status == 200)
                }
            }
            let all = records.all
            #expect(all.count == 7)
            #expect(all.first?.routePattern == "/items/special")
            #expect(all.contains { $0.routePattern == "/items/:id" && $0.status == 200 })
            #expect(all.contains { $0.status == 405 && $0.routePattern == nil && $0.errorCode == "METHOD_NOT_ALLOWED" })
            #expect(all.contains { $0.requestID == "my-id-123" })
        }

        @Test func ipv6Listener() async throws {
            try await withServer({ $0.host = "::1" }) { server in
                let port = server.port
                try await offload {
                    let c = try RawClient(port: port, host: "::1")
                    try c.send("GET /hello HTTP/1.1\r\nHost: [::1]\r\n\r\n")
                    #expect(try c.readResponse().bodyText == "hello")
                }
            }
        }

        @Test func largeResponseWithPartialWrites() async throws {
            try await withServer { server in
                let port = server.port
                try await offload {
                    let c = try RawClient(port: port)
                    try c.send("GET /big?n=8000000 HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    usleep(200_000)  // let the server fill the socket buffer and wait on its write source
                    let big = try c.readResponse()
                    #expect(big.body.count == 8_000_000)
                    #expect(try c.readResponse().bodyText == "hello")
                }
            }
        }
    }
}

/// Collects observer records across threads.
final class LockedRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [HTTPRequestLogRecord] = []
    func append(_ r: HTTPRequestLogRecord) { lock.lock(); records.append(r); lock.unlock() }
    var all: [HTTPRequestLogRecord] { lock.lock(); defer { lock.unlock() }; return records }
}
