#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CEpoll
import Dispatch
import Synchronization

/// The readiness of a server's connection sockets: one epoll interest set, watched by one Dispatch read source.
///
/// Why not a Dispatch source per socket: on Linux, libdispatch's epoll backend unregisters a source whose socket hung
/// up (`EPOLLHUP`: a reset, or both directions closed) on the source's own target queue, in
/// `_dispatch_unote_unregister_muxed`, while its manager thread may still be in `_dispatch_event_merge_fd` for the
/// same bookkeeping, which it then frees under it (swift-corelibs-libdispatch issues 833 and 949 report the same
/// family). Under connections reset by the thousand that corrupted memory: crashes in libdispatch and in unrelated
/// Swift code (scripts/ci/reset-storm.py). The epoll descriptor watched here never hangs up and lives as long as the
/// server, so that path is never taken; Dispatch still does all the waiting and owns every thread.
///
/// Each socket is armed one-shot: once it reports, it stays quiet until its owner arms it again, so an owner sees
/// at most one report in flight and always on its own queue.
final class SocketReadiness: Sendable {
    /// What a socket is ready for (a hang-up or an error reports both: the next read or write tells which).
    struct Events: OptionSet, Sendable {
        let rawValue: Int32
        static let readable = Events(rawValue: Int32(VD_EPOLL_READABLE))
        static let writable = Events(rawValue: Int32(VD_EPOLL_WRITABLE))
    }

    /// One registered socket; its owner arms and removes it through ``SocketReadiness``.
    struct Registration: Sendable {
        let fd: Int32
        let token: UInt64
    }

    /// Where a socket's readiness goes: called on the readiness queue, it must only hand the report to its owner's
    /// queue.
    typealias Handler = @Sendable (Events) -> Void

    private struct Registry {
        var handlers: [UInt64: Handler] = [:]
        var nextToken: UInt64 = 1
        var closed = false
    }

    private let epollFD: Int32
    private let registry = Mutex(Registry())
    /// Dispatch sources are safe to use from any thread; this one is only cancelled after start.
    nonisolated(unsafe) private let source: any DispatchSourceRead
    /// Reports taken per `epoll_wait`; a full batch is followed by another, up to `batchesPerWakeup`.
    private static let batchCapacity = 128
    private static let batchesPerWakeup = 8

    /// A new, empty set; `targetQueue` runs the source that hands reports on.
    init(targetQueue: DispatchQueue) throws(Socket.SystemError) {
        let fd = vd_epoll_create()
        guard fd >= 0 else { throw Socket.SystemError(call: "epoll_create1", errno: errno) }
        epollFD = fd
        let queue = DispatchQueue(label: "http.readiness", target: targetQueue)
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.deliver() }
        source.setCancelHandler { Socket.closeDescriptor(fd) }
        source.resume()
    }

    /// Adds `fd`, armed for `interest`; `nil` when the kernel refuses it (out of memory or watches).
    func register(_ fd: Int32, interest: Events, handler: @escaping Handler) -> Registration? {
        let token: UInt64? = registry.withLock { r in
            guard !r.closed else { return nil }
            let token = r.nextToken
            r.nextToken += 1
            r.handlers[token] = handler
            return token
        }
        guard let token else { return nil }
        guard vd_epoll_arm(epollFD, fd, 1, interest.rawValue, token) == 0 else {
            _ = registry.withLock { $0.handlers.removeValue(forKey: token) }
            return nil
        }
        return Registration(fd: fd, token: token)
    }

    /// Arms the socket again, one-shot, for `interest` (empty: registered but quiet, a hang-up aside). False if the
    /// kernel refused, or the set is closed.
    func arm(_ registration: Registration, for interest: Events) -> Bool {
        guard !registry.withLock({ $0.closed }) else { return false }
        return vd_epoll_arm(epollFD, registration.fd, 0, interest.rawValue, registration.token) == 0
    }

    /// Takes the socket out of the set; call before closing its descriptor. A report already taken may still reach
    /// the handler: its owner ignores reports once closed.
    func remove(_ registration: Registration) {
        let handler = registry.withLock { r -> Handler? in
            guard !r.closed else { return nil }
            _ = vd_epoll_remove(epollFD, registration.fd)
            return r.handlers.removeValue(forKey: registration.token)
        }
        _ = handler  // released here, outside the lock (it may hold the last reference to its connection)
    }

    /// Stops watching and closes the epoll descriptor. Only once no socket is registered any more (the server closes
    /// it when its last connection has closed after a shutdown): the descriptor's number is reused at once.
    func close() {
        let handlers = registry.withLock { r -> [UInt64: Handler]? in
            guard !r.closed else { return nil }
            r.closed = true
            defer { r.handlers = [:] }
            return r.handlers
        }
        if handlers != nil { source.cancel() }
    }

    deinit {
        close()
    }

    /// Registered sockets (for tests).
    var registeredCount: Int { registry.withLock { $0.handlers.count } }

    /// The source's handler: takes what is ready, without waiting, and hands each report to its socket's handler.
    private func deliver() {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.batchCapacity) { tokens in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.batchCapacity) { readiness in
                guard let tokenBase = tokens.baseAddress, let readinessBase = readiness.baseAddress else { return }
                for _ in 0..<Self.batchesPerWakeup {
                    let count = Int(vd_epoll_take(epollFD, tokenBase, readinessBase, Int32(Self.batchCapacity)))
                    guard count > 0 else { return }
                    let handlers = registry.withLock { r in (0..<count).map { r.handlers[tokenBase[$0]] } }
                    for index in 0..<count {
                        handlers[index]?(Events(rawValue: readinessBase[index]))
                    }
                    if count < Self.batchCapacity { return }
                }
            }
        }
    }
}
