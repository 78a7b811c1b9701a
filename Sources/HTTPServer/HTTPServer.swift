#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// An HTTP/1.1 server on POSIX sockets and Dispatch.
///
/// Accepting runs on one serial queue; each connection's I/O on its own serial queue targeting a shared
/// concurrent queue, told when its socket is ready by one ``SocketReadiness`` set; handlers run as Swift tasks. None
/// of them waits for another.
///
/// ```swift
/// var router = Router()
/// router.get("/hello") { _ in .text("hello") }
/// let server = HTTPServer(configuration: .init(port: 0), router: router)
/// try server.start()
/// print(server.port)
/// ```
public final class HTTPServer: Sendable {
    /// Lifecycle state.
    public enum State: Sendable, Hashable {
        case idle, running, stopping, stopped
    }

    private struct Shared {
        var state: State = .idle
        var listeners: [ListenerBox] = []
        /// The connections' readiness set, made at start and closed once the server has stopped.
        var readiness: SocketReadiness?
        var connections: [ObjectIdentifier: HTTPConnection] = [:]
        var serving = 0
        var rejecting = 0
        var accepted = 0
        var rejected = 0
        var port = 0
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A listening socket and its accept source; only touched on `acceptQueue`, or under the lock before start.
    private final class ListenerBox: @unchecked Sendable {
        let fd: Int32
        var source: (any DispatchSourceRead)?
        var suspended = false
        init(fd: Int32) { self.fd = fd }
    }

    /// The configuration the server was created with.
    public let configuration: HTTPServerConfiguration
    /// The routes, as given.
    public let router: Router
    private let observer: HTTPRequestObserver?
    private let shared = Mutex(Shared())
    private let acceptQueue = DispatchQueue(label: "http.accept")
    private let ioQueue = DispatchQueue(label: "http.io", attributes: .concurrent)
    /// Connections answered with 503 at once, beyond which excess connections are closed without an answer.
    private let maxRejecting = 256

    /// Creates a server; nothing happens until ``start()``.
    public init(configuration: HTTPServerConfiguration, router: Router, observer: HTTPRequestObserver? = nil) {
        self.configuration = configuration
        self.router = router
        self.observer = observer
    }

    /// The bound port (useful with port 0), valid after ``start()``.
    public var port: Int { shared.withLock { $0.port } }
    /// Current lifecycle state.
    public var state: State { shared.withLock { $0.state } }
    /// Connections currently open (served and being rejected).
    public var openConnectionCount: Int { shared.withLock { $0.connections.count } }
    /// Connections accepted and served since start.
    public var acceptedConnectionCount: Int { shared.withLock { $0.accepted } }
    /// Sockets in the readiness set (for tests: every closed connection has left it).
    var registeredSocketCount: Int { shared.withLock { $0.readiness?.registeredCount ?? 0 } }
    /// Connections turned away with 503 since start.
    public var rejectedConnectionCount: Int { shared.withLock { $0.rejected } }

    /// Binds the listeners and starts accepting. Ignores SIGPIPE for the process.
    public func start() throws {
        HTTPServerSignals.ignoreSIGPIPE()
        let readiness = try SocketReadiness(targetQueue: ioQueue)
        let fds: [Int32], port: Int
        do {
            (fds, port) = try Socket.listen(host: configuration.host, port: configuration.port,
                                            backlog: configuration.backlog)
        } catch {
            readiness.close()
            throw error
        }
        let boxes = fds.map { ListenerBox(fd: $0) }
        let ok = shared.withLock { s -> Bool in
            guard s.state == .idle else { return false }
            s.state = .running
            s.port = port
            s.listeners = boxes
            s.readiness = readiness
            return true
        }
        guard ok else {
            readiness.close()
            for fd in fds { Socket.closeDescriptor(fd) }
            throw Socket.SystemError(call: "HTTPServer.start: already started", errno: 0)
        }
        let context = makeContext(readiness: readiness)
        for box in boxes {
            let source = DispatchSource.makeReadSource(fileDescriptor: box.fd, queue: acceptQueue)
            source.setEventHandler { [self] in self.acceptAvailable(box, context: context) }
            source.setCancelHandler { Socket.closeDescriptor(box.fd) }
            acceptQueue.sync { box.source = source }
            source.resume()
        }
    }

    private func makeContext(readiness: SocketReadiness) -> ServerContext {
        ServerContext(configuration: configuration, router: router, observer: observer,
                      readiness: readiness) { [weak self] id in
            self?.connectionDidClose(id)
        }
    }

    private func acceptAvailable(_ box: ListenerBox, context: ServerContext) {
        for _ in 0..<256 {
            var storage = sockaddr_storage()
            let fd = Socket.acceptConnection(box.fd, &storage)
            if fd < 0 {
                let e = errno
                switch e {
                case EINTR, ECONNABORTED, EPROTO:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: back off instead of spinning on a readable listener.
                    if let source = box.source, !box.suspended {
                        source.suspend()
                        box.suspended = true
                        acceptQueue.asyncAfter(deadline: .now() + .milliseconds(100)) {
                            if box.suspended, let s = box.source { box.suspended = false; s.resume() }
                        }
                    }
                    return
                default:
                    return  // EAGAIN and anything else: wait for the next readiness event
                }
            }
            Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            let mode: HTTPConnection.Mode? = shared.withLock { s in
                guard s.state == .running else { return nil }
                if s.serving < configuration.maxConnections {
                    s.serving += 1
                    s.accepted += 1
                    return .serve
                }
                guard s.rejecting < maxRejecting else { return nil }
                s.rejecting += 1
                s.rejected += 1
                return .reject
            }
            guard let mode else {
                Socket.closeDescriptor(fd)
                continue
            }
            let connection = HTTPConnection(fd: fd, peer: PeerAddress(storage), context: context,
                                            mode: mode, targetQueue: ioQueue)
            shared.withLock { $0.connections[ObjectIdentifier(connection)] = connection; _ = $0 }
            connection.start()
        }
    }

    private func connectionDidClose(_ id: ObjectIdentifier) {
        let finished = shared.withLock { s -> SocketReadiness? in
            guard let c = s.connections.removeValue(forKey: id) else { return nil }
            switch c.modeForAccounting {
            case .serve: s.serving -= 1
            case .reject: s.rejecting -= 1
            }
            // Stopped with connections still closing: the last one closes the readiness set.
            guard s.state == .stopped, s.connections.isEmpty else { return nil }
            defer { s.readiness = nil }
            return s.readiness
        }
        finished?.close()
    }

    /// Stops gracefully: stops accepting, closes idle connections, lets requests in flight finish, and after
    /// `deadline` (default ``HTTPServerConfiguration/shutdownGracePeriod``) closes whatever is left.
    /// Returns once every connection is closed. Safe to call more than once.
    public func shutdown(deadline: Duration? = nil) async {
        let grace = deadline ?? configuration.shutdownGracePeriod
        let (first, listeners, connections) = shared.withLock { s -> (Bool, [ListenerBox], [HTTPConnection]) in
            guard s.state == .running || s.state == .idle else { return (false, [], []) }
            s.state = .stopping
            let l = s.listeners
            s.listeners = []
            return (true, l, Array(s.connections.values))
        }
        if first {
            acceptQueue.sync {
                for box in listeners {
                    if let source = box.source {
                        source.cancel()
                        if box.suspended { box.suspended = false; source.resume() }
                    }
                    box.source = nil
                }
            }
            for c in connections { c.beginDrain() }
            let clock = ContinuousClock()
            let end = clock.now + grace
            while clock.now < end && openConnectionCount > 0 {
                try? await Task.sleep(for: .milliseconds(10))
            }
            for c in shared.withLock({ Array($0.connections.values) }) { c.forceClose() }
            // Closing is asynchronous (each on its own queue) and quick; do not wait forever regardless.
            let hardEnd = clock.now + .seconds(2)
            while openConnectionCount > 0 && clock.now < hardEnd {
                try? await Task.sleep(for: .milliseconds(5))
            }
            let (waiters, readiness) = shared.withLock { s -> ([CheckedContinuation<Void, Never>], SocketReadiness?) in
                s.state = .stopped
                let w = s.stopWaiters
                s.stopWaiters = []
                // The readiness set outlives every connection: a connection still closing closes it last.
                guard s.connections.isEmpty else { return (w, nil) }
                defer { s.readiness = nil }
                return (w, s.readiness)
            }
            readiness?.close()
            for w in waiters { w.resume() }
        } else {
            await waitUntilStopped()
        }
    }

    /// Returns once the server has stopped (after ``shutdown(deadline:)`` completes).
    public func waitUntilStopped() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let resumeNow = shared.withLock { s -> Bool in
                if s.state == .stopped { return true }
                s.stopWaiters.append(c)
                return false
            }
            if resumeNow { c.resume() }
        }
    }
}
