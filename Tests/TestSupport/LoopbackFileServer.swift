import Foundation
import HTTPServer
import HTTPTypes
import Synchronization

/// A loopback HTTP server (our own server type) that serves fixed bodies by path on a fixed port, answers 404 for
/// any other path, counts requests per path, and can change what it serves while running (a list republished, a
/// CRL withdrawn).
public final class LoopbackFileServer: Sendable {
    /// A body and its content type.
    public struct File: Sendable {
        public let bytes: [UInt8]
        public let contentType: String

        public init(bytes: [UInt8], contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
        }
    }

    /// What is served and how often each path was asked for.
    private final class State: Sendable {
        let files: Mutex<[String: File]>
        let counts = Mutex<[String: Int]>([:])

        init(_ files: [String: File]) { self.files = Mutex(files) }
    }

    public let port: Int
    private let server: HTTPServer
    private let state: State

    public init(port: Int, files: [String: File] = [:]) throws {
        self.port = port
        let state = State(files)
        self.state = state
        var router = Router()
        router.get("/:first/:second") { request in
            let path = request.path
            state.counts.withLock { $0[path, default: 0] += 1 }
            guard let file = state.files.withLock({ $0[path] }) else { return .text("not found", status: .notFound) }
            var fields = HTTPFields()
            fields[.contentType] = file.contentType
            return HTTPServerResponse(status: .ok, headerFields: fields, body: file.bytes)
        }
        server = try LoopbackListener.start(router, port: port)
    }

    /// Serves `file` at `path` (`/a/b`) from now on; nil stops serving it.
    public func serve(_ path: String, _ file: File?) {
        state.files.withLock { $0[path] = file }
    }

    /// How often `path` was asked for.
    public func requests(_ path: String) -> Int { state.counts.withLock { $0[path] ?? 0 } }

    /// Every request so far.
    public var totalRequests: Int { state.counts.withLock { $0.values.reduce(0, +) } }

    public func stop() async {
        await server.shutdown(deadline: .seconds(1))
    }
}
