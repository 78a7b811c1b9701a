import HTTPServer
import Testing

/// One hostile or malformed request and what the server must answer.
struct HostileCase: Sendable, CustomStringConvertible {
    var name: String
    var bytes: [UInt8]
    var status: Int
    /// The server must close the connection after answering.
    var closes: Bool
    var code: String?

    init(_ name: String, _ text: String, _ status: Int, closes: Bool = true, code: String? = nil) {
        self.name = name
        self.bytes = Array(text.utf8)
        self.status = status
        self.closes = closes
        self.code = code
    }

    init(_ name: String, bytes: [UInt8], _ status: Int, closes: Bool = true) {
        self.name = name
        self.bytes = bytes
        self.status = status
        self.closes = closes
    }

    var description: String { name }
}

let hostileCases: [HostileCase] = {
    let h = "Host: x\r\n"
    var cases: [HostileCase] = [
        // Framing / smuggling
        .init("CL and TE", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, code: "MALFORMED_REQUEST"),
        .init("TE and CL", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc", 400),
        .init("differing CL fields", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", 400),
        .init("differing CL list", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 5, 6\r\n\r\nabcdef", 400),
        .init("non-numeric CL", "POST /echo HTTP/1.1\r\n\(h)Content-Length: abc\r\n\r\n", 400),
        .init("negative CL", "POST /echo HTTP/1.1\r\n\(h)Content-Length: -1\r\n\r\n", 400),
        .init("plus-signed CL", "POST /echo HTTP/1.1\r\n\(h)Content-Length: +3\r\n\r\nabc", 400),
        .init("hex CL", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 0x10\r\n\r\n", 400),
        .init("CL with inner space", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 1 0\r\n\r\n", 400),
        .init("empty CL", "POST /echo HTTP/1.1\r\n\(h)Content-Length:\r\n\r\n", 400),
        .init("TE gzip", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: gzip\r\n\r\n", 400),
        .init("TE chunked twice", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400),
        .init("TE gzip, chunked", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 400),
        .init("TE xchunked", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", 400),
        .init("TE split over two fields", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n", 400),
        .init("TE in HTTP/1.0", "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        // Line structure
        .init("obs-fold", "GET /hello HTTP/1.1\r\n\(h)X-A: b\r\n c\r\n\r\n", 400),
        .init("obs-fold with tab", "GET /hello HTTP/1.1\r\n\(h)X-A: b\r\n\tc\r\n\r\n", 400),
        .init("bare LF everywhere", "GET /hello HTTP/1.1\n\(h.replacingOccurrences(of: "\r", with: ""))\n", 400),
        .init("bare LF request line", "GET /hello HTTP/1.1\n\(h)\r\n", 400),
        .init("bare LF in headers", "GET /hello HTTP/1.1\r\nHost: x\n\r\n", 400),
        .init("bare CR in header", "GET /hello HTTP/1.1\r\nHost: x\rX-B: y\r\n\r\n", 400),
        .init("leading whitespace", " GET /hello HTTP/1.1\r\n\(h)\r\n", 400),
        .init("bare LF before request line", "\nGET /hello HTTP/1.1\r\n\(h)\r\n", 400),
        // Header names and values
        .init("space before colon", "GET /hello HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        .init("invalid name char", "GET /hello HTTP/1.1\r\n\(h)X(A): b\r\n\r\n", 400),
        .init("line without colon", "GET /hello HTTP/1.1\r\n\(h)JustText\r\n\r\n", 400),
        .init("empty field name", "GET /hello HTTP/1.1\r\n\(h): v\r\n\r\n", 400),
        .init("NUL in value", "GET /hello HTTP/1.1\r\n\(h)X-A: a\u{0}b\r\n\r\n", 400),
        .init("control char in value", "GET /hello HTTP/1.1\r\n\(h)X-A: a\u{1}b\r\n\r\n", 400),
        .init("DEL in value", "GET /hello HTTP/1.1\r\n\(h)X-A: a\u{7F}b\r\n\r\n", 400),
        .init("missing Host", "GET /hello HTTP/1.1\r\n\r\n", 400),
        .init("two Host fields", "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        .init("invalid Host", "GET /hello HTTP/1.1\r\nHost: a/b@c\r\n\r\n", 400),
        // Request line
        .init("invalid method char", "G(T /hello HTTP/1.1\r\n\(h)\r\n", 400),
        .init("tab separator", "GET\t/hello HTTP/1.1\r\n\(h)\r\n", 400),
        .init("double space", "GET  /hello HTTP/1.1\r\n\(h)\r\n", 400),
        .init("space in target", "GET /he llo HTTP/1.1\r\n\(h)\r\n", 400),
        .init("DEL in target", "GET /he\u{7F}llo HTTP/1.1\r\n\(h)\r\n", 400),
        .init("fragment in target", "GET /hello#frag HTTP/1.1\r\n\(h)\r\n", 400),
        .init("relative target", "GET hello HTTP/1.1\r\n\(h)\r\n", 400),
        .init("asterisk with GET", "GET * HTTP/1.1\r\n\(h)\r\n", 400),
        .init("authority-form", "CONNECT example.com:443 HTTP/1.1\r\n\(h)\r\n", 400),
        .init("missing version", "GET /hello\r\n\(h)\r\n", 400),
        .init("garbage version", "GET /hello HTTP/1.x\r\n\(h)\r\n", 400),
        .init("lowercase version", "GET /hello http/1.1\r\n\(h)\r\n", 400),
        .init("trailing space after version", "GET /hello HTTP/1.1 \r\n\(h)\r\n", 400),
        .init("HTTP/2.0", "GET /hello HTTP/2.0\r\n\(h)\r\n", 505, code: "HTTP_VERSION_NOT_SUPPORTED"),
        .init("unsupported expectation", "POST /echo HTTP/1.1\r\n\(h)Expect: 200-ok\r\nContent-Length: 1\r\n\r\na", 417),
        // Chunked bodies
        .init("chunk size overflow", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n1ffffffffffffffff\r\n", 400),
        .init("chunk size not hex", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        .init("negative chunk size", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n-1\r\n", 400),
        .init("chunk data without CRLF", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3\r\nabcX0\r\n\r\n", 400),
        .init("chunk size bare LF", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", 400),
        .init("chunk size with space", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3 x\r\nabc\r\n0\r\n\r\n", 400),
        .init("chunk ext with control", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n3;a=\u{1}\r\nabc\r\n0\r\n\r\n", 400),
        .init("trailer obs-fold", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n0\r\nT: a\r\n b\r\n\r\n", 400),
        .init("chunk too large", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\nfffffff\r\n", 413, code: "PAYLOAD_TOO_LARGE"),
        // Limits
        .init("CL over limit", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 2000000\r\n\r\n", 413, code: "PAYLOAD_TOO_LARGE"),
        .init("CL 25 digits", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 1234567890123456789012345\r\n\r\n", 413),
        .init("request line too long", "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\n\(h)\r\n", 414, code: "URI_TOO_LONG"),
        .init("header block too large", "GET /hello HTTP/1.1\r\n\(h)X-Big: \(String(repeating: "b", count: 17 * 1024))\r\n\r\n", 431, code: "HEADERS_TOO_LARGE"),
        .init("too many header fields", "GET /hello HTTP/1.1\r\n\(h)" + (0..<101).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
        // Server-side answers that keep the connection
        .init("unknown path", "GET /nowhere HTTP/1.1\r\n\(h)\r\n", 404, closes: false, code: "NOT_FOUND"),
        .init("wrong method", "DELETE /hello HTTP/1.1\r\n\(h)\r\n", 405, closes: false, code: "METHOD_NOT_ALLOWED"),
        .init("bad percent-encoding in parameter", "GET /items/%zz HTTP/1.1\r\n\(h)\r\n", 400, closes: false),
        // Accepted edge cases
        .init("leading empty line", "\r\nGET /hello HTTP/1.1\r\n\(h)\r\n", 200, closes: false),
        .init("absolute-form target", "GET http://x/hello HTTP/1.1\r\n\(h)\r\n", 200, closes: false),
        .init("identical CL values", "POST /echo HTTP/1.1\r\n\(h)Content-Length: 3, 3\r\n\r\nabc", 200, closes: false),
        .init("TE Chunked case-insensitive", "POST /echo HTTP/1.1\r\n\(h)Transfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 200, closes: false),
    ]
    cases.append(.init("obs-text in value", bytes: Array("GET /hello HTTP/1.1\r\n\(h)X-A: caf".utf8) + [0xE9] + Array("\r\n\r\n".utf8), 200, closes: false))
    cases.append(.init("non-ASCII in target", bytes: Array("GET /caf".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\n\(h)\r\n".utf8), 400))
    cases.append(.init("NUL in target", bytes: Array("GET /a".utf8) + [0] + Array(" HTTP/1.1\r\n\(h)\r\n".utf8), 400))
    cases.append(.init("non-ASCII method", bytes: [0xC7] + Array("ET /hello HTTP/1.1\r\n\(h)\r\n".utf8), 400))
    return cases
}()

extension HTTPServerTests {
    @Suite struct HostileRequests {
        @Test func tableHasEnoughCases() {
            #expect(hostileCases.count >= 40)
            #expect(Set(hostileCases.map(\.name)).count == hostileCases.count)
        }

        @Test func eachHostileRequestGetsItsStatusAndTheServerKeepsServing() async throws {
            try await withServer { server in
                let port = server.port
                let failures = try await offload { () -> [String] in
                    var failures: [String] = []
                    for c in hostileCases {
                        do {
                            let client = try RawClient(port: port, timeout: 3)
                            try client.send(c.bytes)
                            let r = try client.readResponse()
                            if r.status != c.status { failures.append("\(c.name): status \(r.status), want \(c.status)") }
                            if r.status >= 400 {
                                if r.header("Content-Type") != "application/problem+json" { failures.append("\(c.name): not problem+json") }
                                if let code = c.code, !r.bodyText.contains("\"code\":\"\(code)\"") {
                                    failures.append("\(c.name): body \(r.bodyText) lacks code \(code)")
                                }
                            }
                            if c.closes {
                                if r.header("Connection") != "close" { failures.append("\(c.name): no Connection: close") }
                                if !client.isClosedByPeer() { failures.append("\(c.name): connection not closed") }
                            } else {
                                try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                                if try client.readResponse().bodyText != "hello" { failures.append("\(c.name): connection not reusable") }
                            }
                        } catch {
                            failures.append("\(c.name): \(error)")
                        }
                    }
                    // Still serving.
                    let client = try RawClient(port: port)
                    try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    if try client.readResponse().bodyText != "hello" { failures.append("server stopped serving") }
                    return failures
                }
                #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
            }
        }

        /// The parser reaches the same verdict whether bytes arrive at once or one at a time.
        @Test func verdictIndependentOfSegmentation() async throws {
            try await withServer { server in
                let port = server.port
                let picks = hostileCases.filter { $0.bytes.count < 400 }.prefix(12)
                let failures = try await offload { () -> [String] in
                    var failures: [String] = []
                    for c in picks {
                        let client = try RawClient(port: port, timeout: 3)
                        for b in c.bytes { try? client.send([b]) }
                        do {
                            let r = try client.readResponse()
                            if r.status != c.status { failures.append("\(c.name): \(r.status) != \(c.status)") }
                        } catch { failures.append("\(c.name): \(error)") }
                    }
                    return failures
                }
                #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
            }
        }
    }
}
