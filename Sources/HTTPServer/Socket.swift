#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the server uses.
enum Socket {
    /// An error from a system call, with `errno`.
    struct SystemError: Error, CustomStringConvertible, Sendable {
        var call: String
        var errno: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD, 0)
        _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var v = value
        _ = setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The port a bound socket listens on.
    static func localPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        guard rc == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { p in
                p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { p in
                p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return nil
        }
    }

    /// Creates, binds and listens on every address `host` resolves to (numeric or name), all on one port.
    /// Returns the listening descriptors (non-blocking, close-on-exec) and the port.
    static func listen(host: String, port: Int, backlog: Int32) throws -> (fds: [Int32], port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>? = nil
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let first = result else {
            throw SystemError(call: "getaddrinfo(\(host)): \(String(cString: gai_strerror(rc)))", errno: 0)
        }
        defer { freeaddrinfo(first) }
        var addresses: [(family: Int32, storage: sockaddr_storage, len: socklen_t)] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            if let addr = ai.pointee.ai_addr, ai.pointee.ai_family == AF_INET || ai.pointee.ai_family == AF_INET6 {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { dst in
                    dst.copyMemory(from: UnsafeRawBufferPointer(start: addr, count: Int(ai.pointee.ai_addrlen)))
                }
                addresses.append((ai.pointee.ai_family, storage, ai.pointee.ai_addrlen))
            }
            cursor = ai.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw SystemError(call: "getaddrinfo(\(host)): no address", errno: 0) }
        let hasV4 = addresses.contains { $0.family == AF_INET }
        var fds: [Int32] = []
        var boundPort = port
        do {
            for var a in addresses {
                if boundPort != port || port == 0, boundPort != 0 { setPort(&a.storage, boundPort) }
                let fd = socket(a.family, Int32(SOCK_STREAM.rawValue), 0)
                guard fd >= 0 else { throw SystemError(call: "socket", errno: errno) }
                fds.append(fd)
                setCloseOnExec(fd)
                setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
                if a.family == AF_INET6 { setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, hasV4 ? 1 : 0) }
                let bound = withUnsafePointer(to: &a.storage) { p in
                    p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, a.len) }
                }
                guard bound == 0 else { throw SystemError(call: "bind(\(host):\(boundPort))", errno: errno) }
                guard systemListen(fd, backlog) == 0 else { throw SystemError(call: "listen", errno: errno) }
                setNonBlocking(fd)
                if boundPort == 0, let p = localPort(fd) { boundPort = p }
            }
        } catch {
            for fd in fds { closeDescriptor(fd) }
            throw error
        }
        return (fds, boundPort)
    }

    static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    private static func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.listen(fd, backlog)
        #else
        return Darwin.listen(fd, backlog)
        #endif
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket; returns the fd (or -1 with errno set).
    static func acceptConnection(_ listenFD: Int32, _ storage: inout sockaddr_storage) -> Int32 {
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa -> Int32 in
                // accept4 is not exported by the Glibc module; two fcntl calls do the same.
                let fd = accept(listenFD, sa, &len)
                if fd >= 0 { setNonBlocking(fd); setCloseOnExec(fd) }
                return fd
            }
        }
    }

    /// `send` that never raises SIGPIPE.
    static func sendNoSignal(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
        #if canImport(Glibc)
        return send(fd, p, n, Int32(MSG_NOSIGNAL))
        #else
        return send(fd, p, n, 0)
        #endif
    }

    private static func setPort(_ storage: inout sockaddr_storage, _ port: Int) {
        let family = Int32(storage.ss_family)
        withUnsafeMutablePointer(to: &storage) { p in
            if family == AF_INET {
                p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = UInt16(port).bigEndian }
            } else if family == AF_INET6 {
                p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = UInt16(port).bigEndian }
            }
        }
    }
}
