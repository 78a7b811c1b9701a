#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import HTTPServer
import HTTPTypes
import Testing

/// Every test suite of this target nests in this one so that they run one at a time: the fd-count and timing
/// tests need a quiet process.
@Suite(.serialized) struct HTTPServerTests {}

enum TestError: Error, CustomStringConvertible {
    case failed(String)
    var description: String {
        switch self { case .failed(let s): return s }
    }
}

/// Runs blocking socket work on a Dispatch thread, away from the cooperative pool the handlers use.
func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}

/// The router every in-process test server uses.
func testRouter() -> Router {
    var router = Router()
    router.get("/hello") { _ in .text("hello") }
    router.post("/echo") { request in
        HTTPServerResponse(status: .ok, headerFields: [.contentType: "application/octet-stream"], body: request.body)
    }
    router.get("/slow") { request in
        let ms = Int(request.query("ms") ?? "0") ?? 0
        try await Task.sleep(for: .milliseconds(ms))
        return .text("slow")
    }
    router.get("/items/:id") { request in .text("item \(request.pathParameters["id"] ?? "?")") }
    router.put("/items/:id") { request in .text("put \(request.pathParameters["id"] ?? "?")") }
    router.get("/items/special") { _ in .text("special") }
    router.get("/fail") { _ in throw TestError.failed("boom") }
    router.get("/big") { request in
        let n = Int(request.query("n") ?? "0") ?? 0
        return HTTPServerResponse(status: .ok, body: [UInt8](repeating: UInt8(ascii: "x"), count: n))
    }
    router.get("/request-id") { request in .text(request.requestID) }
    return router
}

/// Starts an in-process server on a free port, runs `body`, then shuts the server down.
func withServer<T>(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    observer: HTTPRequestObserver? = nil,
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    configuration.headerReadTimeout = .seconds(5)
    configuration.bodyReadTimeout = .seconds(5)
    configuration.lingerTimeout = .milliseconds(500)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, router: testRouter(), observer: observer)
    try server.start()
    do {
        let result = try await body(server)
        await server.shutdown(deadline: .seconds(2))
        return result
    } catch {
        await server.shutdown(deadline: .seconds(2))
        throw error
    }
}

/// A response as read off a raw socket.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first(where: { $0.0.lowercased() == name.lowercased() })?.1
    }
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking TCP client for raw HTTP exchanges (use inside `offload`).
final class RawClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, host: String = "127.0.0.1", timeout: Double = 5) throws {
        let isV6 = host.contains(":")
        fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError.failed("socket: errno \(errno)") }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int32((timeout - Double(Int(timeout))) * 1_000_000).asSuseconds)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let rc: Int32
        if isV6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &addr.sin6_addr)
            rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &addr.sin_addr)
            rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard rc == 0 else {
            let e = errno
            Glibc.close(fd)
            throw TestError.failed("connect: errno \(e)")
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { p in
                Glibc.send(fd, p.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw TestError.failed("send: errno \(errno)")
            }
            off += n
        }
    }

    /// Reads more bytes; returns false on EOF or reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 65536, 0) }
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]); return true }
            if n == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw TestError.failed("read timed out") }
            throw TestError.failed("recv: errno \(errno)")
        }
    }

    /// Reads one response (a 1xx counts as one). `headRequest`: the response has no body.
    func readResponse(headRequest: Bool = false) throws -> RawResponse {
        var headEnd: Int? = nil
        while true {
            if let r = findHeadEnd() { headEnd = r; break }
            guard try fill() else { throw TestError.failed("connection closed before a response head (got \(buffer.count) bytes)") }
        }
        guard let end = headEnd else { throw TestError.failed("no head") }
        let headText = String(decoding: buffer[0..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
            throw TestError.failed("bad status line: \(statusLine)")
        }
        var headers: [(String, String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw TestError.failed("bad header line \(line)") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        buffer.removeFirst(end + 4)
        var response = RawResponse(status: status, headers: headers, body: [])
        if status >= 200 && status != 204 && status != 304 && !headRequest {
            let length = Int(response.header("Content-Length") ?? "") ?? 0
            while buffer.count < length {
                guard try fill() else { throw TestError.failed("connection closed in body") }
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        }
        return response
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A {
            return i
        }
        return nil
    }

    /// True when the server closes the connection (EOF or reset) with no further bytes, within the receive timeout.
    func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        do { return try !fill() } catch { return false }
    }

    /// Half-closes the sending side.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Makes closing this client reset the connection (SO_LINGER with a zero timeout) instead of ending it.
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }
}

extension Int32 {
    var asSuseconds: suseconds_t { suseconds_t(self) }
}

/// Raises the soft RLIMIT_NOFILE towards the hard limit.
func raiseFileLimit(to wanted: rlim_t) {
    var rl = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &rl)
    if rl.rlim_cur < wanted {
        rl.rlim_cur = min(wanted, rl.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &rl)
    }
}

/// Open descriptors of this process.
func openFDCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// Directory holding the build products (the test bundle and `http-echo`).
func productsDirectory() -> URL {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    // On some layouts the test binary sits inside a .xctest bundle directory.
    while dir.pathComponents.count > 1 && dir.lastPathComponent.hasSuffix(".xctest") {
        dir = dir.deletingLastPathComponent()
    }
    return dir
}

/// Runs a process to completion and returns (status, stdout).
func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}
